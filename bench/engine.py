"""Benchmark of the rules engine: time of `apply` per action and of whole random games.

    python bench/engine.py [--games 300] [--turns 30] [--seed 0]

Plays seeded games of uniformly random legal actions with the sample decks (cards/) and the fair
dice, and prints the median and p99 of: `apply` per action, `legal_actions` per call, and a whole
game (set-up, every legal_actions and apply call, to a result or the turn limit).
Target (issue 10): median `apply` under 60 microseconds, with the engine written plainly (events built
by their own constructors, `apply` folding into a full clone of the state).
"""

from __future__ import annotations

import argparse
import random
import statistics
import time

from bot.catalog import load_catalog
from bot.dice import FairRandomness
from bot.engine import apply, legal_actions, new_game, start_action

TARGET_US = 60.0


def _pct(values: list[float], q: float) -> float:
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, int(q * len(ordered)))]


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--games", type=int, default=300)
    parser.add_argument("--turns", type=int, default=30, help="turn limit of one game")
    parser.add_argument("--seed", type=int, default=0)
    args = parser.parse_args()

    catalog = load_catalog()
    decks = sorted(catalog.decks)
    per_apply: list[float] = []
    per_legal: list[float] = []
    per_game: list[float] = []
    finished = 0
    clock = time.perf_counter
    for game in range(args.seed, args.seed + args.games):
        r = random.Random(game)
        rng = FairRandomness(game.to_bytes(8, "big"), f"bench-{game}")
        seats = [("alice", "Alice", r.choice(decks)), ("bob", "Bob", r.choice(decks))]
        start = clock()
        state, _ = new_game(start_action(catalog, list(seats)), rng)
        while not state.over and state.turn <= args.turns:
            assert state.active is not None
            t0 = clock()
            choices = legal_actions(state, state.players[state.active].id)
            t1 = clock()
            state, _ = apply(state, r.choice(choices), rng)
            t2 = clock()
            per_legal.append(t1 - t0)
            per_apply.append(t2 - t1)
        per_game.append(clock() - start)
        finished += state.over

    print(f"games: {args.games} ({finished} finished, {args.games - finished} at the {args.turns}-turn limit)")
    print(f"actions: {len(per_apply)}")
    _line("apply per action", per_apply, 1e6, "us")
    _line("legal_actions call", per_legal, 1e6, "us")
    _line("whole random game", per_game, 1e3, "ms")
    median = statistics.median(per_apply) * 1e6
    print(f"apply median {median:.1f} us — under {TARGET_US:g} us: {'yes' if median < TARGET_US else 'no'}")


def _line(label: str, values: list[float], scale: float, unit: str) -> None:
    median, p99 = statistics.median(values) * scale, _pct(values, 0.99) * scale
    print(f"{label + ':':20} median {median:8.1f} {unit}   p99 {p99:8.1f} {unit}")


if __name__ == "__main__":
    main()
