"""Throughput of parse-and-roll: bot.dice against avrae's d20, in the same run.

    /work/venv/bin/python bench/dice.py            (needs the `bench` extra: pip install -e ".[bench]")

Like with like:
- "seeded MT": both sides draw from Python's Mersenne Twister (`random.randrange`), seeded the same;
  d20 always rolls this way, and bot.dice gets a Randomness wrapping a `random.Random`.
- "OS CSPRNG": bot.dice's SystemRandomness (`secrets`) against d20 with its `random` module swapped
  for `random.SystemRandom()`, which reads the same OS source.
- both sides cache parsed expressions (d20 keeps an LFU cache of ASTs; bot.dice an LRU cache of
  plans), so the steady state of a chat bot is measured; the cold parse is timed separately.
- "with text": bot.dice roll()+render() against d20.roll() plus its Markdown string (`.result`):
  parse, roll and the text a bot posts. Its lowest ratio is in the headline beside parse+roll's.
FairRandomness (HMAC commit-reveal) has no d20 counterpart and is listed for reference.
"""

from __future__ import annotations

import random
import sys
import timeit
from collections.abc import Callable
from importlib.metadata import version
from types import ModuleType

try:
    import d20
    import d20.expression
    from d20 import diceast
except ImportError:  # pragma: no cover - a clear message instead of a traceback
    sys.exit('bench/dice.py needs d20: pip install -e ".[bench]"')

from bot.dice import FairRandomness, SystemRandomness, render, roll
from bot.dice.grammar import parse

EXPRESSIONS = ("3d6+2", "4d6kh3", "2d6>=7")
SEED = 20261130


class _MTStream:
    __slots__ = ("_randrange",)
    number = None

    def __init__(self, rng: random.Random) -> None:
        self._randrange = rng.randrange

    def die(self, sides: int) -> int:
        return self._randrange(sides) + 1


class MersenneRandomness:
    """bot.dice's Randomness protocol over a seeded random.Random, the generator d20 uses."""

    def __init__(self, seed: int) -> None:
        self.next_number = 0
        self._stream = _MTStream(random.Random(seed))

    def stream(self, purpose: str) -> _MTStream:
        self.next_number += 1
        return self._stream


def _number(func: Callable[[], object], seconds: float) -> int:
    number, _ = timeit.Timer(func).autorange()  # at least 0.2 s
    return max(1, int(number * seconds / 0.2))


def ops_per_second(func: Callable[[], object], seconds: float = 0.3) -> float:
    """Best of five timed runs, each sized to take about `seconds`."""
    number = _number(func, seconds)
    return number / min(timeit.repeat(func, number=number, repeat=5))


def compare(ours: Callable[[], object], theirs: Callable[[], object], seconds: float = 0.25) -> tuple[float, float]:
    """Ops/sec of both, best of seven, the runs alternating so a busy machine slows both alike."""
    n_ours, n_theirs = _number(ours, seconds), _number(theirs, seconds)
    best_ours = best_theirs = float("inf")
    for _ in range(7):
        best_ours = min(best_ours, timeit.timeit(ours, number=n_ours))
        best_theirs = min(best_theirs, timeit.timeit(theirs, number=n_theirs))
    return n_ours / best_ours, n_theirs / best_theirs


def d20_with(random_module: ModuleType | random.Random) -> None:
    d20.expression.random = random_module  # type: ignore[attr-defined]


def row(label: str, ours: float, theirs: float | None) -> None:
    if theirs is None:
        print(f"  {label:<26} bot.dice {ours:>10,.0f}/s")
    else:
        print(f"  {label:<26} bot.dice {ours:>10,.0f}/s   d20 {theirs:>10,.0f}/s   ratio {ours / theirs:5.2f}x")


def bench_expression(expr: str) -> tuple[list[float], list[float]]:
    """Print the rows of one expression; return its parse+roll ratios and its with-text ratios."""
    print(expr)
    d20.roll(expr)  # warm both caches
    roll(expr)
    ratios = []
    text_ratios = []

    random.seed(SEED)
    d20_with(random)
    mt = MersenneRandomness(SEED)
    ours, theirs = compare(lambda: roll(expr, mt), lambda: d20.roll(expr))
    row("parse+roll, seeded MT", ours, theirs)
    ratios.append(ours / theirs)

    system = SystemRandomness()
    d20_with(random.SystemRandom())
    ours, theirs = compare(lambda: roll(expr, system), lambda: d20.roll(expr))
    row("parse+roll, OS CSPRNG", ours, theirs)
    ratios.append(ours / theirs)

    ours, theirs = compare(lambda: render(roll(expr, system), "en"), lambda: d20.roll(expr).result)
    row("with text, OS CSPRNG", ours, theirs)
    text_ratios.append(ours / theirs)

    d20_with(random)
    ours, theirs = compare(lambda: render(roll(expr, mt), "en"), lambda: d20.roll(expr).result)
    row("with text, seeded MT", ours, theirs)
    text_ratios.append(ours / theirs)

    ours, theirs = compare(lambda: parse.__wrapped__(expr), lambda: diceast.parser.parse(expr, start="expr"))
    row("cold parse (no cache)", ours, theirs)

    fair = FairRandomness(b"bench seed", "bench")
    row("parse+roll, FairRandomness", ops_per_second(lambda: roll(expr, fair)), None)
    return ratios, text_ratios


def main() -> None:
    print(f"Python {sys.version.split()[0]}, d20 {version('d20')}; ops/sec, best of 7 alternating runs")
    # d20's grammar has no success/failure comparison; "2d6>=7" there is a boolean expression
    # totalling 1 or 0. Both sides roll 2d6 and compare once.
    results = [bench_expression(expr) for expr in EXPRESSIONS]
    ratios = [ratio for plain, _ in results for ratio in plain]
    text_ratios = [ratio for _, text in results for ratio in text]
    d20_with(random)
    print(f"lowest parse+roll ratio over the three expressions and both generators: {min(ratios):.2f}x (target >= 2x)")
    print(
        f"lowest with-text ratio (parse+roll+render, what a bot posts) in the same run: {min(text_ratios):.2f}x"
        " against d20.roll().result"
    )


if __name__ == "__main__":
    main()
