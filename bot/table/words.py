"""An engine action written back as the console line that asks for it (for scripts and suggestions).

Units are written by the Japanese name of their card, with the owner added only where two units on
the board would answer to that name; followers by their table number. Cards and skills by their
Japanese names, so a written line reads the way a player would type it.
"""

from __future__ import annotations

from bot.catalog import Arcastella
from bot.engine import (
    Action,
    Adjust,
    Block,
    Cast,
    Charge,
    Concede,
    ConfirmAdjust,
    LookAtDeck,
    NoBlock,
    Pass,
    RejectAdjust,
    Summon,
    UseSkill,
)
from bot.engine.state import GameState


def unit_word(state: GameState, uid: str) -> str:
    unit = state.find_unit(uid)
    if unit is None:
        return uid
    card = state.cards[unit.card]
    if not isinstance(card, Arcastella):
        return uid.split(".", 1)[-1]
    same = [u for p in state.players for u in p.units if u.card == unit.card]
    if len(same) > 1:
        return f"{card.name}({state.players[unit.owner].name})"
    return card.name


def _quoted(text: str) -> str:
    return f'"{text}"' if " " in text else text


def action_line(state: GameState, action: Action) -> str:
    """The console line (without the `name:` prefix) that asks for `action`."""

    def targets(target: str | None, ally: str | None) -> str:
        out = f" target:{_quoted(unit_word(state, target))}" if target else ""
        return out + (f" ally:{_quoted(unit_word(state, ally))}" if ally else "")

    match action:
        case Charge():
            card = state.cards[action.card].name
            effect = "" if action.use_ether_effect else " effect:off"
            return f"/charge card:{_quoted(card)}{effect}{targets(action.target, action.ally_target)}"
        case Pass():
            return "/pass"
        case Cast():
            card = state.cards[action.card].name
            caster = unit_word(state, action.caster)
            return f"/cast card:{_quoted(card)} caster:{_quoted(caster)}{targets(action.target, action.ally_target)}"
        case UseSkill():
            unit = state.find_unit(action.unit)
            assert unit is not None
            arcastella = state.cards[unit.card]
            skill = arcastella.skill(action.skill) if isinstance(arcastella, Arcastella) else None
            name = skill.name if skill is not None else action.skill
            head = f"/skill unit:{_quoted(unit_word(state, action.unit))} skill:{_quoted(name)}"
            return head + targets(action.target, action.ally_target)
        case Block():
            return f"/block blocker:{_quoted(unit_word(state, action.blocker))}"
        case NoBlock():
            return "/noblock"
        case Summon():
            card = state.cards[action.card].name
            return f"/summon card:{_quoted(card)} caster:{_quoted(unit_word(state, action.caster))}"
        case Adjust(field="discard"):
            card = _quoted(state.cards[action.cards[0]].name) if action.cards else ""
            return f"/adjust field:discard card:{card} value:{action.value} {action.note}".rstrip()
        case Adjust(field="deck_top"):
            order = _quoted(",".join(state.cards[c].name for c in action.cards))
            return f"/adjust field:deck_top cards:{order} {action.note}".rstrip()
        case Adjust():
            return f"/adjust subject:{action.subject} field:{action.field} value:{action.value} {action.note}".rstrip()
        case ConfirmAdjust():
            return "/adjust confirm"
        case RejectAdjust():
            return "/adjust reject"
        case LookAtDeck():
            return f"/deck top:{action.count}"
        case Concede():
            return "/concede"
    raise AssertionError(f"no console words for {action!r}")
