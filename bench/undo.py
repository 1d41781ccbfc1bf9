"""Undo and a judge's verify read against a long log: both must stay well under 100 ms per call.

    .venv/bin/python bench/undo.py                       (10,000 actions, 3,333 undos; a few minutes)
    .venv/bin/python bench/undo.py --actions 2000 --pairs 600   (quicker)

- undo: a running game whose log holds `--actions` of one player's own adjustments (no barrier in
  the way), then `--undos` undos in a row, each timed: the table's rule (only the last action in
  effect, only by its player, never past a barrier) on the full log.
- verify: a finished game whose log holds `--pairs` action + undo pairs, then the reads of
  `referee verify --channel`: every numbered draw from the log (TableService.fair_draws, which folds
  the table through every undo) and the rolls as filed (filed_rolls); also `referee replay`'s check.
The databases are temporary, with REFEREE_DB_SYNC=normal (no fsync per write) so the set-up is quick.
"""

from __future__ import annotations

import argparse
import statistics
import tempfile
import time
from pathlib import Path

from bot.catalog import load_catalog
from bot.engine import Adjust, start_action
from bot.service import TableService
from bot.store import Store

A, B, JUDGE = 101, 202, 909
CH = 1


def _table(path: Path) -> tuple[Store, TableService]:
    store = Store.open(path, synchronous="NORMAL")
    catalog = load_catalog()
    service = TableService(store, catalog)
    start = start_action(catalog, [(str(A), "A", "solar-vanguard"), (str(B), "B", "tidal-veil")])
    service._start_now(CH, A, start, None)
    return store, service


def _adjust(i: int) -> Adjust:
    return Adjust(player=str(A), subject=str(A), field="ether", value=1 + i % 2, note=f"#{i}")


def bench_undo(folder: Path, actions: int, undos: int) -> None:
    store, service = _table(folder / "undo.sqlite3")
    made = time.perf_counter()
    for i in range(actions):
        service.act_now(CH, A, _adjust(i))
    print(f"undo: {actions} actions logged in {time.perf_counter() - made:.1f} s")
    times = []
    for _ in range(undos):
        service._cache.clear()  # as after a restart, and as the worst case: nothing held in memory
        began = time.perf_counter()
        service.undo_now(CH, A)
        times.append(time.perf_counter() - began)
    ms = [t * 1000 for t in times]
    print(
        f"undo: {undos} undos on a {actions}-action log: mean {statistics.mean(ms):.1f} ms, "
        f"median {statistics.median(ms):.1f} ms, max {max(ms):.1f} ms per undo"
    )
    service.close()
    store.close()


def bench_verify(folder: Path, pairs: int) -> None:
    store, service = _table(folder / "verify.sqlite3")
    made = time.perf_counter()
    for i in range(pairs):
        service.act_now(CH, A, _adjust(i))
        service.undo_now(CH, A)
    service.end_now(CH, JUDGE, "bench")
    print(f"verify: {pairs} action + undo pairs logged in {time.perf_counter() - made:.1f} s")
    game_id = store.latest(CH).id
    for name, call in (
        ("fair_draws", lambda: service.fair_draws(CH)),
        ("filed_rolls", lambda: service.filed_rolls(game_id)),
        ("check_replay", lambda: service.check_replay(game_id)),
    ):
        began = time.perf_counter()
        call()
        print(f"verify: {name} of a game with {pairs} undos: {(time.perf_counter() - began) * 1000:.1f} ms")
    service.close()
    store.close()


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--actions", type=int, default=10_000)
    parser.add_argument("--undos", type=int, default=100)
    parser.add_argument("--pairs", type=int, default=3_333)
    args = parser.parse_args()
    with tempfile.TemporaryDirectory() as folder:
        bench_undo(Path(folder), args.actions, args.undos)
        bench_verify(Path(folder), args.pairs)


if __name__ == "__main__":
    main()
