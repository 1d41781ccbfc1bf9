"""The damage pipeline, in the rulebook's order (ダメージ処理のフロー):

1. the damage is fixed or rolled (done by the caller, once per effect), and a block has already
   changed the target to the blocker;
2. Sephirot code break check (1d6) if the target wears one;
3. reduction: DEF only for attack skills and astral codes (untapped or blocking: full DEF,
   tapped: DEF // 2); every other source ignores DEF; damage never goes below zero. The event says
   which DEF was met and how it was made up, so a player can check the number;
4. HP goes down (never below zero);
5. the caller handles a knock-out at 0 HP.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Literal

from bot.catalog.cards import SephirotCode
from bot.engine import events as ev
from bot.engine.context import Ctx
from bot.engine.state import SourceKind, Unit

DEF_SOURCES: frozenset[str] = frozenset({"attack", "astral"})
DefRule = Literal["full", "blocking", "halved", "ignored"]


@dataclass(slots=True)
class DamageOutcome:
    final: int
    knocked_out: bool
    broken_code: SephirotCode | None


@dataclass(slots=True)
class Defense:
    """The DEF a hit meets: the printed value, each change to it, and how it counts for this hit."""

    printed: int
    parts: tuple[ev.DefPart, ...]
    rule: DefRule
    applied: int


def defense_against(ctx: Ctx, unit: Unit, source: SourceKind, *, blocker: bool) -> Defense:
    """DEF for one hit (house rule 14: DEF is the only reduction the vocabulary knows)."""
    state = ctx.state
    parts = [
        ev.DefPart(
            kind="effect" if m.card is not None else "adjust",
            card=m.card,
            amount=m.amount,
            until=m.until,
            skill=m.skill,
        )
        for m in state.def_mods
        if m.unit == unit.uid
    ]
    if unit.equipment is not None:
        bonus = getattr(state.cards[unit.equipment], "def_bonus", 0)
        if bonus:
            parts.append(ev.DefPart(kind="code", card=unit.equipment, amount=bonus))
    total = state.effective_def(unit)
    rule: DefRule
    if source not in DEF_SOURCES:
        rule, applied = "ignored", 0
    elif unit.tapped and not blocker:
        rule, applied = "halved", total // 2
    else:
        rule, applied = ("blocking" if blocker else "full"), total
    return Defense(printed=unit.defense, parts=tuple(parts), rule=rule, applied=applied)


def deal_damage(ctx: Ctx, unit: Unit, amount: int, source: SourceKind, card: str, *, blocker: bool) -> DamageOutcome:
    """Steps 2 to 4 for one unit. The caller resolves on-break effects and the knock-out."""
    state = ctx.state
    broken: SephirotCode | None = None
    if unit.equipment is not None and (source in DEF_SOURCES or state.options.sephirot_check == "all_damage"):
        code = state.cards[unit.equipment]
        assert isinstance(code, SephirotCode)
        face = ctx.roll("1d6", "sephirot", seat=unit.owner).total
        is_broken = face in code.breaks_on
        ctx.emit(ev.SephirotChecked(unit=unit.uid, card=code.id, face=face, broken=is_broken, source=source))
        if is_broken:
            broken = code  # the event took the code off `unit` itself: its DEF bonus is gone below
    defense = defense_against(ctx, unit, source, blocker=blocker)
    cut = min(defense.applied, amount)
    final = max(0, amount - cut)
    hp_after = max(0, unit.hp - final)
    ctx.emit(
        ev.DamageDealt(
            source=source,
            card=card,
            target=unit.uid,
            amount=amount,
            reduction=cut,
            final=final,
            hp_after=hp_after,
            printed_def=defense.printed,
            def_parts=defense.parts,
            def_rule=defense.rule,
            def_applied=defense.applied,
            difference=amount - defense.applied,
        )
    )
    return DamageOutcome(final=final, knocked_out=hp_after == 0, broken_code=broken)
