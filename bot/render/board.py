"""The public board: what every player at the table may see, and nothing they may not.

Shown: turn, phase, who must act, each side's Arcastella and followers (HP, DEF in effect, tapped,
knocked out, Sephirot code), Aura Compolta, ether, counts of hand and deck, the cemetery and the ether
area (both face up), a waiting attack, lasting effects and the table options. Never shown: the cards
in a hand or the order of a deck.
"""

from __future__ import annotations

from bot.catalog.cards import AuraCompolta
from bot.dice.fair import REPRODUCIBLE
from bot.dice.given import PRACTICE
from bot.engine.options import GameOptions
from bot.engine.state import GameState, PlayerState, Unit
from bot.i18n import t
from bot.render.message import Field, Message
from bot.render.names import Names


def render_board(
    state: GameState,
    locale: str,
    *,
    commitment: str | None = None,
    revealed_seed: str | None = None,
    finished: bool = False,
    bars: bool = False,
) -> Message:
    """`finished`: the game is closed even if its state is not over (ended at the table, no winner).
    `bars`: each unit's HP also as a bar, for a board read at a glance (the Discord embed)."""
    names = Names(state, locale)
    lines = status_lines(state, locale, finished=finished)
    lines += dice_lines(commitment, revealed_seed, locale)
    fields = [_player_field(state, seat, names, bars) for seat in range(len(state.players))]
    if state.pending is not None:
        fields.append(_pending_field(state, names))
    if state.continuing or state.def_mods:
        fields.append(_lasting_field(state, names))
    fields.append(Field(name=t("render.board.options", locale), value="\n".join(option_lines(state.options, locale))))
    return Message(title=_title(state, names, finished), lines=lines, fields=fields)


def dice_lines(commitment: str | None, revealed_seed: str | None, locale: str) -> list[str]:
    """What the table says about its dice: the commitment of a fair table, or plainly that a seeded
    table's dice are reproducible and not fair (it has no commitment to show); the seed once revealed."""
    lines = []
    if commitment == PRACTICE:  # a judge's position: never to be taken for a fair game
        lines.append(t("practice.board.marker", locale))
        return lines  # its "seed" is the list of given faces, already in the log
    if commitment == REPRODUCIBLE:
        lines.append(t("render.board.reproducible", locale))
    elif commitment:
        lines.append(t("render.board.dice", locale, commitment=commitment))
    if revealed_seed:
        lines.append(t("render.board.seed", locale, seed=revealed_seed))
    return lines


def _title(state: GameState, names: Names, finished: bool) -> str:
    locale = names.locale
    if state.over or finished:
        return t("render.board.title_over", locale)
    if not state.started:
        return t("render.board.title_setup", locale)
    phase = t(f"render.phase.{state.phase}", locale)
    return t("render.board.title", locale, turn=state.turn, player=names.player(state.turn_player), phase=phase)


def status_lines(state: GameState, locale: str, *, finished: bool = False) -> list[str]:
    """Who must act now, or how the game ended: the line a player looks for first. A game ended at
    the table (`finished`) keeps the state it stopped in, but nobody is to act any more."""
    names = Names(state, locale)
    if finished and not state.over:
        return [t("render.board.no_winner", locale)]
    if state.over:
        if state.winner is None:
            return [t("render.board.no_winner", locale)]
        reason = t(f"render.end_reason.{state.end_reason}", locale) if state.end_reason else ""
        return [t("render.board.winner", locale, player=names.player(state.winner), reason=reason)]
    return _to_act(state, names) + _waiting(state, names)


def _to_act(state: GameState, names: Names) -> list[str]:
    locale = names.locale
    if state.active is None:
        return []
    player = names.player(state.active)
    if state.phase == "block":
        return [t("render.board.to_block", locale, player=player)]
    if state.phase in ("start", "end"):
        timing = t("cards.timing.turn_start" if state.phase == "start" else "cards.timing.turn_end", locale)
        return [t("render.board.window", locale, player=player, timing=timing)]
    return [t("render.board.to_act", locale, player=player, phase=t(f"render.phase.{state.phase}", locale))]


def _waiting(state: GameState, names: Names) -> list[str]:
    """An adjustment request is not forgotten while play goes on: its owner is reminded to answer it."""
    pending = state.pending_adjust
    if pending is None:
        return []
    return [
        t(
            "render.board.adjust_pending",
            names.locale,
            owner=names.player(pending.owner),
            player=names.player(pending.seat),
            subject=names.unit(pending.subject) if "." in pending.subject else names.player_by_user(pending.subject),
            field=t(f"engine.field.{pending.field}", names.locale),
            value=pending.value,
        )
    ]


BAR_CELLS = 10


def hp_bar(hp: int, max_hp: int) -> str:
    """HP as ten cells, full ones first (any HP left shows at least one full cell, 0 shows none)."""
    if max_hp <= 0:
        return "▱" * BAR_CELLS
    full = max(1, round(BAR_CELLS * hp / max_hp)) if hp > 0 else 0
    return "▰" * min(full, BAR_CELLS) + "▱" * (BAR_CELLS - min(full, BAR_CELLS))


def unit_line(state: GameState, unit: Unit, names: Names, leader: str | None = None, bars: bool = False) -> str:
    locale = names.locale
    flags = ""
    if unit.knocked_out:
        flags += t("render.board.knocked_out", locale)
    elif unit.tapped:
        flags += t("render.board.tapped", locale)
    if unit.equipment is not None:
        flags += t("render.board.equipment", locale, code=names.card(unit.equipment))
    mark = t("render.board.leader", locale) if unit.uid == leader else "  "
    return t(
        "render.board.unit",
        locale,
        mark=mark,
        name=names.unit(unit.uid),
        hp=f"{hp_bar(unit.hp, unit.max_hp)} {unit.hp}" if bars else unit.hp,
        max_hp=unit.max_hp,
        defense=state.effective_def(unit),
        state=flags,
    )


def _player_field(state: GameState, seat: int, names: Names, bars: bool = False) -> Field:
    locale = names.locale
    player: PlayerState = state.players[seat]
    rows = [
        t(
            "render.board.counts",
            locale,
            ether=player.ether,
            hand=len(player.hand),
            deck=len(player.deck),
            rights=player.astral_rights,
        )
    ]
    rows += [unit_line(state, unit, names, player.leader, bars) for unit in player.units]
    for aura in player.auras:
        card = state.cards[aura.card]
        top = card.resonance_max if isinstance(card, AuraCompolta) else "?"
        rows.append(t("render.board.aura", locale, name=names.unit(aura.uid), value=aura.resonance, max=top))
    rows.append(t("render.board.cemetery", locale, count=len(player.cemetery), cards=names.cards_of(player.cemetery)))
    if player.afterglow:
        rows.append(t("render.board.afterglow", locale, cards=names.cards_of(player.afterglow)))
    rows.append(
        t("render.board.ether_area", locale, count=len(player.ether_area), cards=names.cards_of(player.ether_area))
    )
    key = "render.board.player_turn" if state.started and seat == state.turn_player else "render.board.player"
    return Field(name=t(key, locale, player=player.name), value="\n".join(rows))


def _pending_field(state: GameState, names: Names) -> Field:
    pending = state.pending
    assert pending is not None
    locale = names.locale
    total = sum(pending.rolls.values())
    rolled = t("render.board.pending_rolled", locale, total=total) if pending.rolls else ""
    line = t(
        "render.board.pending_line",
        locale,
        user=names.unit(pending.user),
        target=names.unit(pending.target),
        skill=names.skill(pending.user, pending.skill),
        rolled=rolled,
        defender=names.player(pending.defender),
    )
    return Field(name=t("render.board.pending", locale), value=line)


def _lasting_field(state: GameState, names: Names) -> Field:
    locale = names.locale
    rows = [
        t(
            "render.board.continuing_line",
            locale,
            source=names.card(c.source),
            player=names.player(c.controller),
            remaining=c.remaining,
        )
        for c in state.continuing
    ]
    for mod in state.def_mods:
        key = "render.board.def_mod_turn" if mod.until == "turn" else "render.board.def_mod_starts"
        rows.append(
            t(
                key,
                locale,
                unit=names.unit(mod.unit),
                amount=f"{mod.amount:+d}",
                remaining=mod.remaining,
                player=names.player(mod.controller),
                by=t("render.log.def_by", locale, card=names.effect_source(mod.card, mod.skill)) if mod.card else "",
            )
        )
    title = t("render.board.continuing", locale) if state.continuing else t("render.board.def_mods", locale)
    return Field(name=title, value="\n".join(rows))


def option_value(value: object) -> str:
    """The word `/game start` takes for this value, so the status shows exactly what to type."""
    if value is None:
        return "none"
    if isinstance(value, bool):
        return "on" if value else "off"
    return str(value)


def option_lines(options: GameOptions, locale: str) -> list[str]:
    """Each option with its label and the exact `key:value` words `/game start` accepts."""
    return [
        t(
            "render.board.option_line",
            locale,
            label=t(f"render.option.{key}", locale),
            key=key,
            value=option_value(getattr(options, key)),
        )
        for key in GameOptions.model_fields
    ]
