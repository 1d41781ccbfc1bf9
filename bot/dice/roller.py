"""Rolling a parsed expression, and shuffling, through an injected source of randomness."""

from __future__ import annotations

from collections.abc import Sequence
from itertools import repeat
from typing import TypeVar

from bot.dice.grammar import parse
from bot.dice.model import COMPARATORS, RollResult, d66_value
from bot.dice.randomness import Randomness, SystemRandomness

T = TypeVar("T")

_system = SystemRandomness()


def roll(text: str, rng: Randomness | None = None) -> RollResult:
    """Parse and roll `text` ("3d6+2 炎の一撃"). `rng=None` rolls with the OS CSPRNG.

    Bad input raises DiceError before any face is drawn, so a fair table's numbering never skips.
    """
    plan = parse(text)
    stream = (rng if rng is not None else _system).stream(plan.normalized)
    die = stream.die
    all_faces: list[tuple[int, ...]] = []
    all_dropped: list[tuple[int, ...]] = []
    total = plan.constant
    for count, sides, multiplier, keep, highest, d66 in plan.steps:
        faces = tuple(map(die, repeat(sides, count)))
        all_faces.append(faces)
        if d66:
            total += multiplier * d66_value(faces)
            all_dropped.append(())
            continue
        if not keep:
            total += multiplier * sum(faces)
            all_dropped.append(())
            continue
        # sorted() is stable: among equal faces kh drops the earlier die first, kl keeps it first.
        order = sorted(range(count), key=faces.__getitem__)
        gone = order[: count - keep] if highest else order[keep:]
        total += multiplier * (sum(faces) - sum([faces[i] for i in gone]))
        all_dropped.append(tuple(sorted(gone)))
    comparison = plan.comparison
    return RollResult(
        expression=text.strip(),
        normalized=plan.normalized,
        label=plan.label,
        dice=tuple(all_faces),
        dropped=tuple(all_dropped),
        total=total,
        success=None if comparison is None else COMPARATORS[comparison[0]](total, comparison[1]),
        number=getattr(stream, "number", None),
    )


def shuffle(items: Sequence[T], rng: Randomness) -> list[T]:
    """A new list with `items` in uniformly random order: Fisher-Yates through one draw ("shuffle")."""
    out = list(items)
    stream = rng.stream("shuffle")
    for i in range(len(out) - 1, 0, -1):
        j = stream.die(i + 1) - 1
        out[i], out[j] = out[j], out[i]
    return out
