"""The parsed form of an expression (a plan the roller runs) and the result of a roll."""

from __future__ import annotations

import operator
from collections.abc import Callable
from dataclasses import dataclass, replace
from typing import Any

# Canonical comparison operators and what they test.
COMPARATORS: dict[str, Callable[[int, int], bool]] = {
    ">=": operator.ge,
    "<=": operator.le,
    ">": operator.gt,
    "<": operator.lt,
    "=": operator.eq,
}


@dataclass(frozen=True, slots=True)
class Dice:
    """`count` dice of `sides` faces, keeping the `keep` highest ("h") or lowest ("l") when `keep_mode` is set.

    `d66`: BCDice's D66, two d6 read as tens and ones (in the order rolled), worth 11..66.
    """

    count: int
    sides: int
    keep: int | None = None
    keep_mode: str | None = None  # "h" or "l"
    d66: bool = False

    @property
    def kept(self) -> int:
        return self.count if self.keep is None else self.keep

    @property
    def smallest(self) -> int:
        return 11 if self.d66 else self.kept

    @property
    def largest(self) -> int:
        return 66 if self.d66 else self.kept * self.sides

    @property
    def text(self) -> str:
        if self.d66:
            return "D66"
        base = f"{self.count}d{self.sides}"
        return base if self.keep is None else f"{base}k{self.keep_mode}{self.keep}"


D66 = Dice(2, 6, d66=True)


def d66_value(faces: tuple[int, ...]) -> int:
    """What a D66's two faces read as: the first the tens, the second the ones."""
    return 10 * faces[0] + faces[1]


@dataclass(frozen=True, slots=True)
class Term:
    """One signed summand: a product of integers and at most one dice group.

    `factors` keeps the written order for display ("3*2d6" stays so); `multiplier` is the product of
    the integer factors, and `dice` the dice group if any.
    """

    sign: int  # +1 or -1
    factors: tuple[Dice | int, ...]
    dice: Dice | None
    multiplier: int

    @property
    def text(self) -> str:
        return "*".join(f.text if isinstance(f, Dice) else str(f) for f in self.factors)

    def bounds(self) -> tuple[int, int]:
        """Smallest and largest value this term can take, sign included."""
        if self.dice is None:
            low = high = self.multiplier
        else:
            low = self.dice.smallest * self.multiplier
            high = self.dice.largest * self.multiplier
        return (low, high) if self.sign > 0 else (-high, -low)


# One dice group as the roller runs it: (count, sides, signed multiplier, keep or 0, keep highest?, D66?).
Step = tuple[int, int, int, int, bool, bool]


@dataclass(frozen=True, slots=True)
class Plan:
    """A parsed expression: terms, an optional comparison and an optional label.

    `steps` and `constant` are the same terms compiled for the roller: the dice groups in written
    order, and the sum of the plain-number terms.
    """

    terms: tuple[Term, ...]
    comparison: tuple[str, int] | None
    label: str | None
    normalized: str  # canonical expression text, label excluded
    steps: tuple[Step, ...]
    constant: int

    @classmethod
    def build(cls, terms: tuple[Term, ...], comparison: tuple[str, int] | None, label: str | None) -> Plan:
        normalized = "".join(("-" if t.sign < 0 else ("+" if k else "")) + t.text for k, t in enumerate(terms))
        if comparison is not None:
            normalized += f"{comparison[0]}{comparison[1]}"
        steps = tuple(
            (t.dice.count, t.dice.sides, t.sign * t.multiplier, t.dice.keep or 0, t.dice.keep_mode == "h", t.dice.d66)
            for t in terms
            if t.dice is not None
        )
        constant = sum(t.sign * t.multiplier for t in terms if t.dice is None)
        return cls(terms, comparison, label, normalized, steps, constant)

    def bounds(self) -> tuple[int, int]:
        """Smallest and largest total the expression can roll."""
        lows, highs = zip(*(t.bounds() for t in self.terms), strict=True)
        return sum(lows), sum(highs)

    @property
    def canonical(self) -> str:
        """Expression and label as one canonical line: parsing it gives this plan back."""
        return self.normalized if self.label is None else f"{self.normalized} {self.label}"


@dataclass(frozen=True, slots=True)
class RollResult:
    """What one roll gave.

    `dice` holds the faces of each dice term in written order; `dropped` the indices (into the
    same term's faces) that keep-highest/lowest set aside. `number` is the draw number inside a fair
    table, None for rolls from the OS CSPRNG.

    A plain frozen dataclass, not a pydantic model: only the roller makes one, from values it has
    already checked, and `referee roll` then starts without building any model (bench/startup.py).
    """

    expression: str
    normalized: str
    label: str | None
    dice: tuple[tuple[int, ...], ...]
    dropped: tuple[tuple[int, ...], ...]
    total: int
    success: bool | None
    number: int | None = None

    def as_dict(self) -> dict[str, Any]:
        """The fields as plain JSON-ready values (tuples as lists), in field order."""
        return {
            "expression": self.expression,
            "normalized": self.normalized,
            "label": self.label,
            "dice": [list(term) for term in self.dice],
            "dropped": [list(term) for term in self.dropped],
            "total": self.total,
            "success": self.success,
            "number": self.number,
        }

    def unnumbered(self) -> RollResult:
        """The same roll without a draw number (a roll outside the table's numbered draws)."""
        return replace(self, number=None)
