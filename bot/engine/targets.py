"""Which units and players an effect reaches, and whether a chosen target is allowed.

House rule 15: a knocked-out Arcastella cannot be chosen and is not affected by effects (only by `adjust`).
"""

from __future__ import annotations

from collections.abc import Iterable

from bot.catalog.effects import ContinuingEffect, Effect
from bot.engine.errors import RuleViolation
from bot.engine.naming import unit_name
from bot.engine.state import GameState, Unit


def _flat(effects: Iterable[Effect]) -> list[Effect]:
    out: list[Effect] = []
    for effect in effects:
        if isinstance(effect, ContinuingEffect):
            out.extend(effect.effects)
        else:
            out.append(effect)
    return out


def needs(effects: Iterable[Effect]) -> tuple[bool, bool]:
    """(needs an enemy choice, needs an ally choice) for these effects, 【継続】 ones included."""
    enemy = ally = False
    for effect in _flat(effects):
        target = getattr(effect, "target", None)
        enemy = enemy or target == "chosen_enemy"
        ally = ally or target == "chosen_ally"
    return enemy, ally


def live_units(state: GameState, seat: int) -> list[Unit]:
    return [u for u in state.players[seat].units if not u.knocked_out]


def check_targets(
    state: GameState, seat: int, effects: Iterable[Effect], target: str | None, ally_target: str | None
) -> tuple[str | None, str | None]:
    """The (enemy, ally) choices these effects need, checked; RuleViolation when one is missing or wrong.

    With only an ally choice, `target` may name the ally (the usual `target:` word of the console).
    """
    want_enemy, want_ally = needs(effects)
    if not want_enemy and want_ally and ally_target is None:
        target, ally_target = None, target
    if not want_enemy and target is not None:
        raise RuleViolation("engine.no_target_needed", target=unit_name(state, target))
    if not want_ally and ally_target is not None:
        raise RuleViolation("engine.no_target_needed", target=unit_name(state, ally_target))
    if want_enemy:
        _check_unit(state, target, seat, enemy=True)
    if want_ally:
        _check_unit(state, ally_target, seat, enemy=False)
    return target, ally_target


def _check_unit(state: GameState, uid: str | None, seat: int, *, enemy: bool) -> None:
    if uid is None:
        raise RuleViolation("engine.target_required_enemy" if enemy else "engine.target_required_ally")
    unit = state.find_unit(uid)
    if unit is None:
        raise RuleViolation("engine.unknown_unit", unit=uid)
    if (unit.owner != seat) != enemy:
        raise RuleViolation(
            "engine.target_not_enemy" if enemy else "engine.target_not_ally", unit=unit_name(state, uid)
        )
    if unit.knocked_out:
        raise RuleViolation("engine.unit_knocked_out", unit=unit_name(state, uid))


def target_choices(state: GameState, seat: int, effects: Iterable[Effect]) -> list[tuple[str | None, str | None]]:
    """Every allowed (target, ally_target) pair for these effects, for legal_actions."""
    want_enemy, want_ally = needs(effects)
    enemies: list[str | None] = [u.uid for u in live_units(state, 1 - seat)] if want_enemy else [None]
    allies: list[str | None] = [u.uid for u in live_units(state, seat)] if want_ally else [None]
    if want_ally and not want_enemy:
        return [(a, None) for a in allies]
    return [(e, a) for e in enemies for a in allies]
