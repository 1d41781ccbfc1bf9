"""`legal_actions(state, player)`: every action `apply` accepts from this player now.

Adjustments are left out (their values are open-ended), but the answers to a waiting adjustment
request are listed; a concession is listed only on request.
Duplicate cards in hand give one action each, not one per copy.
"""

from __future__ import annotations

from bot.catalog.cards import Arcastella, AuraCompolta, Follower, Spell
from bot.catalog.effects import Effect
from bot.engine import actions as act
from bot.engine.errors import RuleViolation
from bot.engine.handlers import (
    MAIN_TIMINGS_OTHER,
    MAIN_TIMINGS_OWN,
    _check_adjust,
    _support_used,
    blockers,
    ether_effect_allowed,
    in_window,
)
from bot.engine.state import GameState, Unit
from bot.engine.targets import needs, target_choices


def legal_actions(state: GameState, player: str, *, include_concede: bool = False) -> list[act.Action]:
    seat = state.seat_of(player)
    if not state.started or state.over or seat is None:
        return []
    # The seat's own id: an exact str, as validation would have made a str subclass the caller passed.
    player = state.players[seat].id
    out: list[act.Action] = []
    if state.active == seat:
        if state.phase == "charge":
            out.extend(_charge(state, seat, player, _Choices(state, seat)))
            out.append(act.Pass(player=player))
        elif state.phase == "block":
            assert state.pending is not None
            out.extend(act.Block(player=player, blocker=u.uid) for u in blockers(state, state.pending.target))
            out.append(act.NoBlock(player=player))
        elif state.phase == "main" or in_window(state):
            choices = _Choices(state, seat)
            out.extend(_cards(state, seat, player, choices))
            if state.phase == "main":
                out.extend(_skills(state, seat, player, choices))
            out.append(act.Pass(player=player))
    out.extend(_answers(state, seat, player))
    if include_concede:
        out.append(act.Concede(player=player))
    return out


def _answers(state: GameState, seat: int, player: str) -> list[act.Action]:
    """A waiting adjustment request: its owner may confirm it (while it still fits the table) or
    reject it, its asker may withdraw it."""
    pending = state.pending_adjust
    if pending is None or seat not in (pending.owner, pending.seat):
        return []
    out: list[act.Action] = []
    if seat == pending.owner:
        try:
            _check_adjust(state, pending.subject, pending.field, pending.value)  # type: ignore[arg-type]
            out.append(act.ConfirmAdjust(player=player))
        except RuleViolation:
            pass
    out.append(act.RejectAdjust(player=player))
    return out


class _Choices:
    """`target_choices` for one state and seat, remembered by what the effects need: it depends on
    nothing else, and one legal_actions call asks it for many cards and skills."""

    __slots__ = ("known", "seat", "state")

    def __init__(self, state: GameState, seat: int) -> None:
        self.state, self.seat = state, seat
        self.known: dict[tuple[bool, bool], list[tuple[str | None, str | None]]] = {}

    def __call__(self, effects: tuple[Effect, ...]) -> list[tuple[str | None, str | None]]:
        key = needs(effects)
        found = self.known.get(key)
        if found is None:
            found = self.known[key] = target_choices(self.state, self.seat, effects)
        return found


def _charge(state: GameState, seat: int, player: str, choices: _Choices) -> list[act.Action]:
    out: list[act.Action] = []
    for card_id in dict.fromkeys(state.players[seat].hand):
        card = state.cards[card_id]
        if not isinstance(card, Spell):
            continue
        if card.ether_effect and ether_effect_allowed(state, seat, card_id):
            for target, ally in choices(card.ether_effect):
                out.append(act.Charge(player=player, card=card_id, target=target, ally_target=ally))
            out.append(act.Charge(player=player, card=card_id, use_ether_effect=False))
        else:
            out.append(act.Charge(player=player, card=card_id))
    return out


def _timing_ok(state: GameState, seat: int, timing: str) -> bool:
    if state.phase == "start":
        return timing == "turn_start"
    if state.phase == "end":
        return timing == "turn_end"
    if timing == "knockout":
        return state.knockouts_this_turn > 0
    return timing in (MAIN_TIMINGS_OWN if seat == state.turn_player else MAIN_TIMINGS_OTHER)


def _casters(state: GameState, seat: int) -> list[Unit]:
    units = [u for u in state.players[seat].units if u.kind == "arcastella" and not u.knocked_out]
    if not state.options.tapped_may_act:
        units = [u for u in units if not u.tapped]
    return units


def _cards(state: GameState, seat: int, player: str, choices: _Choices) -> list[act.Action]:
    out: list[act.Action] = []
    ether = state.players[seat].ether
    casters = _casters(state, seat)
    for card_id in dict.fromkeys(state.players[seat].hand):
        card = state.cards[card_id]
        if not isinstance(card, Spell | Follower | AuraCompolta):
            continue
        if card.cost > ether or not _timing_ok(state, seat, card.timing):
            continue
        if not isinstance(card, Spell):
            out.extend(act.Summon(player=player, card=card_id, caster=c.uid) for c in casters)
            continue
        pairs = choices(card.effects)  # the same for every caster
        for caster in casters:
            for target, ally in pairs:
                out.append(act.Cast(player=player, card=card_id, caster=caster.uid, target=target, ally_target=ally))
    return out


def _skills(state: GameState, seat: int, player: str, choices: _Choices) -> list[act.Action]:
    out: list[act.Action] = []
    p = state.players[seat]
    for unit in p.units:
        card = state.cards[unit.card]
        if not isinstance(card, Arcastella) or unit.knocked_out:
            continue
        for skill in card.skills:
            if skill.timing in ("turn_start", "turn_end", "knockout") or skill.cost > p.ether:
                continue
            if not _timing_ok(state, seat, skill.timing):
                continue
            if skill.kind in ("attack", "astral"):
                if unit.tapped:
                    continue
                if skill.kind == "astral" and state.options.astral_right == "deck_rebuild" and p.astral_rights <= 0:
                    continue
            else:
                if skill.kind == "leader" and p.leader != unit.uid:
                    continue
                if _support_used(card, unit, skill) or (unit.tapped and not state.options.tapped_may_act):
                    continue
            for target, ally in choices(skill.effects):
                out.append(act.UseSkill(player=player, unit=unit.uid, skill=skill.id, target=target, ally_target=ally))
    return out


__all__ = ["RuleViolation", "legal_actions"]
