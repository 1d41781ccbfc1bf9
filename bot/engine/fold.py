"""The only place a state changes: fold one event into it, in place. `apply` and `replay` both use this.

Every function here trusts its event (the engine decided it); nothing is rolled or chosen here.
`apply` folds into its own clone of the state (bot/engine/context.py), so the state it was given is
never changed.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable
from typing import Any

from bot.catalog.cards import Arcastella, Follower
from bot.engine import events as ev
from bot.engine.state import (
    Aura,
    Continuing,
    DeckLook,
    DefModifier,
    GameState,
    PendingAdjust,
    PendingAttack,
    PlayerState,
    Unit,
)


def arcastella_uid(seat: int, card: str, taken: set[str]) -> str:
    """`p1.<card id>`; a second copy of the same Arcastella on one side gets `#2`."""
    base = f"p{seat + 1}.{card}"
    uid, n = base, 2
    while uid in taken:
        uid, n = f"{base}#{n}", n + 1
    taken.add(uid)
    return uid


def _unit(s: GameState, uid: str) -> Unit:
    unit = s.find_unit(uid)
    if unit is None:
        raise ValueError(f"event names unknown unit {uid}")  # a corrupt log, never the engine
    return unit


def _aura(s: GameState, uid: str) -> Aura:
    aura = s.find_aura(uid)
    if aura is None:
        raise ValueError(f"event names unknown aura {uid}")  # a corrupt log, never the engine
    return aura


def _remove_one(cards: list[str], card: str) -> None:
    cards.remove(card)


def _game_started(s: GameState, e: ev.GameStarted) -> None:
    s.started = True
    s.options = e.options
    s.cards = dict(e.cards)
    s.players = []
    taken: set[str] = set()
    for seat, spec in enumerate(e.players):
        units: list[Unit] = []
        leader = ""
        for card_id in spec.arcastella:
            card = e.cards[card_id]
            assert isinstance(card, Arcastella)
            uid = arcastella_uid(seat, card_id, taken)
            if card_id == spec.leader and not leader:
                leader = uid
            units.append(
                Unit(
                    uid=uid,
                    card=card_id,
                    owner=seat,
                    kind="arcastella",
                    hp=card.hp,
                    max_hp=card.hp,
                    defense=card.defense,
                    equipment=spec.equipment.get(card_id),
                )
            )
        s.players.append(PlayerState(id=spec.id, name=spec.name, leader=leader, deck=list(spec.deck), units=units))
    s.phase = "setup"


def _position_loaded(s: GameState, e: ev.PositionLoaded) -> None:
    # Copies: folding later events changes the state in place and must never change the event.
    s.players = [p.clone() for p in e.players]
    s.turn, s.turn_player, s.phase, s.active = e.turn, e.turn_player, e.phase, e.active
    s.def_mods = [m.model_copy() for m in e.def_mods]
    s.next_id = e.next_id
    s.passes = 0
    s.pending = None


def _first_player(s: GameState, e: ev.FirstPlayerChosen) -> None:
    s.turn_player = e.seat


def _shuffled(s: GameState, e: ev.DeckShuffled) -> None:
    s.players[e.seat].deck = list(e.order)


def _rebuilt(s: GameState, e: ev.DeckRebuilt) -> None:
    p = s.players[e.seat]
    p.cemetery = list(p.afterglow)
    p.ether_area = []
    p.deck = list(e.order)
    p.astral_rights += e.astral_rights


def _drawn(s: GameState, e: ev.CardsDrawn) -> None:
    n = len(e.cards)
    p = s.players[e.seat]
    del p.deck[:n]
    p.hand.extend(e.cards)


def _ether_gained(s: GameState, e: ev.EtherGained) -> None:
    s.players[e.seat].ether += e.amount


def _ether_emptied(s: GameState, e: ev.EtherEmptied) -> None:
    s.players[e.seat].ether -= e.amount


def _turn_started(s: GameState, e: ev.TurnStarted) -> None:
    s.turn = e.turn
    s.turn_player = e.seat
    s.phase = "start"
    s.active = None
    s.passes = 0
    s.deck_look = None
    s.knockouts_this_turn = 0
    for seat, p in enumerate(s.players):
        if p.ether_effects_used:
            s.players[seat].ether_effects_used = []
        for u in p.units:
            if u.support_used:
                u.support_used = []


def _phase_started(s: GameState, e: ev.PhaseStarted) -> None:
    s.phase = e.phase
    s.active = None
    s.passes = 0
    s.deck_look = None  # a look a manual effect allowed lasts until its phase ends
    for seat, p in enumerate(s.players):
        if p.charge_done:
            s.players[seat].charge_done = False


def _priority(s: GameState, e: ev.PriorityGiven) -> None:
    s.active = e.seat


def _passed(s: GameState, e: ev.Passed) -> None:
    s.passes += 1
    if e.phase == "charge":
        s.players[e.seat].charge_done = True


def _untapped(s: GameState, e: ev.Untapped) -> None:
    for uid in e.units:
        _unit(s, uid).tapped = False


def _tapped(s: GameState, e: ev.Tapped) -> None:
    for uid in e.units:
        _unit(s, uid).tapped = True


def _converted(s: GameState, e: ev.CardConverted) -> None:
    _remove_one(s.players[e.seat].hand, e.card)
    s.players[e.seat].ether_area.append(e.card)
    s.passes = 0


def _ether_effect(s: GameState, e: ev.EtherEffectFired) -> None:
    s.players[e.seat].ether_effects_used.append(e.card)


def _spell_cast(s: GameState, e: ev.SpellCast) -> None:
    _remove_one(s.players[e.seat].hand, e.card)
    s.players[e.seat].ether -= e.cost
    s.passes = 0


def _spell_resolved(s: GameState, e: ev.SpellResolved) -> None:
    s.players[e.seat].cemetery.append(e.card)


def _skill_used(s: GameState, e: ev.SkillUsed) -> None:
    p = s.players[e.seat]
    p.ether -= e.cost
    unit = _unit(s, e.unit)
    if e.taps:
        unit.tapped = True
    if e.kind in ("support", "leader") and not e.triggered:
        unit.support_used.append(e.skill)
    if e.uses_right:
        p.astral_rights -= 1
    if not e.triggered:
        s.passes = 0


def _attack_pending(s: GameState, e: ev.AttackPending) -> None:
    s.pending = PendingAttack(
        attacker=e.attacker,
        user=e.user,
        skill=e.skill,
        source=e.source,
        target=e.target,
        ally_target=e.ally_target,
        defender=e.defender,
        rolls=dict(e.rolls),
    )
    s.phase = "block"
    s.active = e.defender


def _block(s: GameState, e: ev.BlockDeclared) -> None:
    _unit(s, e.blocker).tapped = True


def _attack_resolved(s: GameState, e: ev.AttackResolved) -> None:
    s.pending = None
    s.phase = "main"


def _damage(s: GameState, e: ev.DamageDealt) -> None:
    _unit(s, e.target).hp = e.hp_after


def _sephirot(s: GameState, e: ev.SephirotChecked) -> None:
    if e.broken:
        unit = _unit(s, e.unit)
        unit.equipment = None
        s.players[unit.owner].cemetery.append(e.card)


def _healed(s: GameState, e: ev.Healed) -> None:
    _unit(s, e.target).hp = e.hp_after


def _knocked_out(s: GameState, e: ev.KnockedOut) -> None:
    s.knockouts_this_turn += 1
    unit = _unit(s, e.unit)
    if not e.afterglow:
        unit.knocked_out = True
        return
    owner = s.players[unit.owner]
    owner.units.remove(unit)
    owner.cemetery.append(unit.card)
    owner.afterglow.append(unit.card)
    s.def_mods = [m for m in s.def_mods if m.unit != unit.uid]


def _def_changed(s: GameState, e: ev.DefChanged) -> None:
    s.def_mods.append(
        DefModifier(
            unit=e.unit,
            amount=e.amount,
            controller=e.controller,
            until=e.until,
            remaining=e.remaining,
            card=e.card,
            skill=e.skill,
        )
    )


def _def_expired(s: GameState, e: ev.DefChangesExpired) -> None:
    if e.until == "turn":
        s.def_mods = [m for m in s.def_mods if m.until != "turn"]
        return
    kept: list[DefModifier] = []
    for m in s.def_mods:
        if m.until == "starts" and m.controller == e.controller:
            if m.remaining <= 1:
                continue
            m.remaining -= 1
        kept.append(m)
    s.def_mods = kept


def _continuing_started(s: GameState, e: ev.ContinuingStarted) -> None:
    s.continuing.append(
        Continuing(
            id=e.id,
            controller=e.controller,
            source=e.source,
            effects=e.effects,
            remaining=e.remaining,
            self_unit=e.self_unit,
            target=e.target,
            ally_target=e.ally_target,
        )
    )
    s.next_id = max(s.next_id, e.id + 1)


def _continuing_ticked(s: GameState, e: ev.ContinuingTicked) -> None:
    if e.remaining <= 0:
        s.continuing = [c for c in s.continuing if c.id != e.id]
        return
    for c in s.continuing:
        if c.id == e.id:
            c.remaining = e.remaining


def _manual(s: GameState, e: ev.ManualEffect) -> None:
    if e.look > 0:
        s.deck_look = DeckLook(seat=e.seat, card=e.card, count=e.look)


def _deck_looked(s: GameState, e: ev.DeckLooked) -> None:
    if s.deck_look is not None:
        s.deck_look.looked = True


def _adjust_requested(s: GameState, e: ev.AdjustRequested) -> None:
    s.pending_adjust = PendingAdjust(
        seat=e.seat, owner=e.owner, subject=e.subject, field=e.field, value=e.new, note=e.note
    )


def _adjust_rejected(s: GameState, e: ev.AdjustRejected) -> None:
    s.pending_adjust = None


def _adjusted(s: GameState, e: ev.Adjusted) -> None:
    if e.confirmed_by is not None:
        s.pending_adjust = None
    if e.field == "deck_top":
        s.deck_look = None  # the cards looked at are back on the deck: the look is over
    if e.field == "hp":
        _unit(s, e.subject).hp = e.new
    elif e.field == "tapped":
        _unit(s, e.subject).tapped = bool(e.new)
    elif e.field == "def_turn":
        unit = _unit(s, e.subject)
        controller = e.seat if e.moderator is None else unit.owner
        s.def_mods.append(DefModifier(unit=unit.uid, amount=e.new, controller=controller, until="turn"))
    elif e.field == "resonance":
        _aura(s, e.subject).resonance = e.new
    else:
        seat = s.seat_of(e.subject)
        if seat is None:
            raise ValueError(f"event names unknown player {e.subject}")
        if e.field == "ether":
            s.players[seat].ether = e.new
        elif e.field == "discard":
            hand, cemetery = s.players[seat].hand, s.players[seat].cemetery
            for card in e.cards:
                hand.remove(card)
                cemetery.append(card)
        elif e.field == "deck_top":
            s.players[seat].deck[: len(e.cards)] = e.cards
        else:
            s.players[seat].astral_rights = e.new


def _resonance(s: GameState, e: ev.ResonanceReset) -> None:
    for uid, value in e.auras:
        _aura(s, uid).resonance = value


def _resonance_raised(s: GameState, e: ev.ResonanceRaised) -> None:
    _aura(s, e.aura).resonance = e.value


def _summoned(s: GameState, e: ev.Summoned) -> None:
    _remove_one(s.players[e.seat].hand, e.card)
    s.players[e.seat].ether -= e.cost
    card = s.cards[e.card]
    if isinstance(card, Follower):
        s.players[e.seat].units.append(
            Unit(
                uid=e.uid, card=e.card, owner=e.seat, kind="follower", hp=card.hp, max_hp=card.hp, defense=card.defense
            )
        )
    else:
        s.players[e.seat].auras.append(Aura(uid=e.uid, card=e.card, owner=e.seat, resonance=0))
    s.next_id += 1
    s.passes = 0


def _game_ended(s: GameState, e: ev.GameEnded) -> None:
    s.phase = "over"
    s.active = None
    s.pending = None
    s.winner = e.winner
    s.end_reason = e.reason
    s.pending_adjust = None
    s.deck_look = None


def _nothing(s: GameState, e: Any) -> None:
    """Events that only inform (dice, manual effects, ...): the state does not change."""


FOLD: dict[type[Any], Callable[[GameState, Any], None]] = {
    ev.GameStarted: _game_started,
    ev.PositionLoaded: _position_loaded,
    ev.DiceRolled: _nothing,
    ev.FirstPlayerChosen: _first_player,
    ev.DeckShuffled: _shuffled,
    ev.DeckRebuilt: _rebuilt,
    ev.CardsDrawn: _drawn,
    ev.EtherGained: _ether_gained,
    ev.EtherCapped: _nothing,
    ev.EtherEmptied: _ether_emptied,
    ev.TurnStarted: _turn_started,
    ev.PhaseStarted: _phase_started,
    ev.PriorityGiven: _priority,
    ev.Passed: _passed,
    ev.Untapped: _untapped,
    ev.Tapped: _tapped,
    ev.CardConverted: _converted,
    ev.EtherEffectFired: _ether_effect,
    ev.EtherEffectNotFired: _nothing,
    ev.SpellCast: _spell_cast,
    ev.SpellResolved: _spell_resolved,
    ev.SkillUsed: _skill_used,
    ev.SkillSkipped: _nothing,
    ev.AttackPending: _attack_pending,
    ev.BlockDeclared: _block,
    ev.BlockDeclined: _nothing,
    ev.AttackResolved: _attack_resolved,
    ev.DamageDealt: _damage,
    ev.SephirotChecked: _sephirot,
    ev.Healed: _healed,
    ev.KnockedOut: _knocked_out,
    ev.DefChanged: _def_changed,
    ev.DefChangesExpired: _def_expired,
    ev.ContinuingStarted: _continuing_started,
    ev.ContinuingTicked: _continuing_ticked,
    ev.ManualEffect: _manual,
    ev.Adjusted: _adjusted,
    ev.AdjustRequested: _adjust_requested,
    ev.AdjustRejected: _adjust_rejected,
    ev.DeckLooked: _deck_looked,
    ev.ResonanceRaised: _resonance_raised,
    ev.ResonanceReset: _resonance,
    ev.Summoned: _summoned,
    ev.Conceded: _nothing,
    ev.GameEnded: _game_ended,
}


def fold(state: GameState, event: Any) -> None:
    """Apply one event to `state`, in place."""
    FOLD[type(event)](state, event)


def fold_all(state: GameState, events: Iterable[Any]) -> GameState:
    for event in events:
        FOLD[type(event)](state, event)
    return state
