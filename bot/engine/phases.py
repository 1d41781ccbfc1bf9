"""The turn: start, draw, charge, main and end phases, and what happens between player decisions.

Each function runs the automatic steps of a phase and stops where a player must decide, by giving
that player priority (`state.active`). House rules 3, 5, 17 and 19 fix the order of the automatic steps.
"""

from __future__ import annotations

from bot.catalog.cards import AuraCompolta, Follower, Spell
from bot.engine import events as ev
from bot.engine.context import Ctx, draw_cards, opponent
from bot.engine.effects import Source, fire_followers, fire_skills, resolve
from bot.engine.state import GameState

HAND_SIZE = 5


def begin_turn(ctx: Ctx, seat: int) -> None:
    ctx.emit(ev.TurnStarted(turn=ctx.state.turn + 1, seat=seat))
    start_phase(ctx)


def start_phase(ctx: Ctx) -> None:
    """Untap (the turn player's units, or everyone's by option), DEF changes count down, turn-start
    skills (leader first), followers, then 【継続】 oldest first."""
    state = ctx.state
    seat = state.turn_player
    seats = (seat,) if state.options.untap == "own_turn" else (seat, opponent(seat))  # house rule 3
    tapped = tuple(u.uid for s in seats for u in state.players[s].units if u.tapped and not u.knocked_out)
    if tapped:
        ctx.emit(ev.Untapped(units=tapped))
    if any(m.until == "starts" and m.controller == seat for m in state.def_mods):
        ctx.emit(ev.DefChangesExpired(until="starts", controller=seat))
    _fire_arcastella(ctx, seat, "turn_start")
    fire_followers(ctx, seat, "turn_start")
    for continuing in [c for c in state.continuing if c.controller == seat]:
        if state.over:
            return
        resolve(
            ctx,
            continuing.effects,
            Source(
                seat,
                "continuing",
                continuing.source,
                self_unit=continuing.self_unit,
                target=continuing.target,
                ally_target=continuing.ally_target,
                text=state.cards[continuing.source].text,
            ),
        )
        ctx.emit(ev.ContinuingTicked(id=continuing.id, remaining=continuing.remaining - 1))
    if state.over:
        return
    if window_open(state, seat, "turn_start"):
        ctx.emit(ev.PriorityGiven(seat=seat))
        return
    draw_phase(ctx)


def _fire_arcastella(ctx: Ctx, seat: int, timing: str) -> None:
    """Triggered skills of the player's standing Arcastella, the leader first, then in board order."""
    state = ctx.state
    player = state.players[seat]
    for uid in sorted((u.uid for u in player.units), key=lambda uid: uid != player.leader):
        unit = state.find_unit(uid)
        if state.over:
            return
        if unit is not None and unit.kind == "arcastella" and not unit.knocked_out:
            fire_skills(ctx, unit, timing)


def draw_phase(ctx: Ctx) -> None:
    state = ctx.state
    ctx.emit(ev.PhaseStarted(phase="draw"))
    seat = state.turn_player
    missing = HAND_SIZE - len(state.players[seat].hand)
    if missing > 0:  # house rule 4: a hand of five or more draws nothing and discards nothing
        draw_cards(ctx, seat, missing)
    if state.over:
        return
    ctx.emit(ev.PhaseStarted(phase="charge"))
    ctx.emit(ev.PriorityGiven(seat=seat))


def after_charge_step(ctx: Ctx) -> None:
    """After a conversion or a pass: the other player's turn to act, or the main phase."""
    state = ctx.state
    acted = state.active
    assert acted is not None
    other = opponent(acted)
    if state.options.charge_rejoin:
        if state.passes >= 2:
            main_phase(ctx)
        else:
            ctx.emit(ev.PriorityGiven(seat=other))
        return
    players = state.players
    if players[0].charge_done and players[1].charge_done:
        main_phase(ctx)
    elif not players[other].charge_done:
        ctx.emit(ev.PriorityGiven(seat=other))
    # else: the other player is done for this phase, so `acted` keeps acting until they pass.


def main_phase(ctx: Ctx) -> None:
    ctx.emit(ev.PhaseStarted(phase="main"))
    ctx.emit(ev.PriorityGiven(seat=ctx.state.turn_player))


def after_main_action(ctx: Ctx, actor: int) -> None:
    """House rule 8: after acting, the actor keeps priority (or hands it over, by option)."""
    state = ctx.state
    if state.over:
        return
    seat = opponent(actor) if state.options.priority_after_action == "pass" else actor
    if state.active != seat:
        ctx.emit(ev.PriorityGiven(seat=seat))


def after_main_pass(ctx: Ctx) -> None:
    state = ctx.state
    assert state.active is not None
    if state.passes >= 2:
        end_phase(ctx)
    else:
        ctx.emit(ev.PriorityGiven(seat=opponent(state.active)))


def end_phase(ctx: Ctx) -> None:
    """Resonance resets (house rule 17), turn-end skills (leader first) and followers, then the turn-end window."""
    state = ctx.state
    seat = state.turn_player
    ctx.emit(ev.PhaseStarted(phase="end"))
    seats = (0, 1) if state.options.resonance_reset == "all" else (seat,)
    auras = tuple((a.uid, 0) for s in seats for a in state.players[s].auras if a.resonance != 0)
    if auras:
        ctx.emit(ev.ResonanceReset(auras=auras))
    _fire_arcastella(ctx, seat, "turn_end")
    fire_followers(ctx, seat, "turn_end")
    if state.over:
        return
    if window_open(state, seat, "turn_end"):
        ctx.emit(ev.PriorityGiven(seat=seat))
        return
    finish_turn(ctx)


def finish_turn(ctx: Ctx) -> None:
    """DEF changes "until the end of the turn" end; ether empties only if the table chose so; next turn."""
    state = ctx.state
    if any(m.until == "turn" for m in state.def_mods):
        ctx.emit(ev.DefChangesExpired(until="turn"))
    if not state.options.ether_carry_over:
        for seat, player in enumerate(state.players):
            if player.ether > 0:
                ctx.emit(ev.EtherEmptied(seat=seat, amount=player.ether))
    begin_turn(ctx, opponent(state.turn_player))


def after_window_pass(ctx: Ctx) -> None:
    if ctx.state.phase == "start":
        draw_phase(ctx)
    else:
        finish_turn(ctx)


def window_open(state: GameState, seat: int, timing: str) -> bool:
    """Whether the player holds a card of this timing they could play now (start / end phase window)."""
    player = state.players[seat]
    casters = [u for u in player.units if u.kind == "arcastella" and not u.knocked_out]
    if not state.options.tapped_may_act:
        casters = [u for u in casters if not u.tapped]
    if not casters:
        return False
    for card_id in set(player.hand):
        card = state.cards[card_id]
        if isinstance(card, Spell | Follower | AuraCompolta) and card.timing == timing and card.cost <= player.ether:
            return True
    return False
