"""The damage pipeline, in the rulebook's order (ダメージ処理のフロー):

1. the damage is fixed or rolled (done by the caller, once per effect), and a block has already
   changed the target to the blocker;
2. Sephirot code break check (1d6) if the target wears one;
3. reduction: DEF only for attack skills and astral codes (untapped or blocking: full DEF,
   tapped: DEF // 2); every other source ignores DEF; damage never goes below zero;
4. HP goes down (never below zero);
5. the caller handles a knock-out at 0 HP.
"""

from __future__ import annotations

from dataclasses import dataclass

from bot.catalog.cards import SephirotCode
from bot.engine import events as ev
from bot.engine.context import Ctx
from bot.engine.state import SourceKind, Unit

DEF_SOURCES: frozenset[str] = frozenset({"attack", "astral"})


@dataclass(slots=True)
class DamageOutcome:
    final: int
    knocked_out: bool
    broken_code: SephirotCode | None


def reduction(ctx: Ctx, unit: Unit, amount: int, source: SourceKind, *, blocker: bool) -> int:
    """How much DEF takes off (house rule 14: DEF is the only reduction the vocabulary knows)."""
    if source not in DEF_SOURCES:
        return 0
    defense = ctx.state.effective_def(unit)
    if unit.tapped and not blocker:
        defense //= 2
    return min(defense, amount)


def deal_damage(ctx: Ctx, unit: Unit, amount: int, source: SourceKind, card: str, *, blocker: bool) -> DamageOutcome:
    """Steps 2 to 4 for one unit. The caller resolves on-break effects and the knock-out."""
    state = ctx.state
    broken: SephirotCode | None = None
    if unit.equipment is not None and (source in DEF_SOURCES or state.options.sephirot_check == "all_damage"):
        code = state.cards[unit.equipment]
        assert isinstance(code, SephirotCode)
        face = ctx.roll("1d6", "sephirot", seat=unit.owner).total
        is_broken = face in code.breaks_on
        ctx.emit(ev.SephirotChecked(unit=unit.uid, card=code.id, face=face, broken=is_broken))
        if is_broken:
            broken = code  # the event took the code off `unit` itself: its DEF bonus is gone below
    cut = reduction(ctx, unit, amount, source, blocker=blocker)
    final = max(0, amount - cut)
    hp_after = max(0, unit.hp - final)
    ctx.emit(
        ev.DamageDealt(
            source=source, card=card, target=unit.uid, amount=amount, reduction=cut, final=final, hp_after=hp_after
        )
    )
    return DamageOutcome(final=final, knocked_out=hp_after == 0, broken_code=broken)
