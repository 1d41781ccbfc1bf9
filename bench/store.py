"""The durable table's cost: one action's full cycle against the floor of a SQLite write, and load.

    /work/venv/bin/python bench/store.py                  (about a minute; a temporary database)
    /work/venv/bin/python bench/store.py --games 2000 --active 200 --actions 2000    (quicker)

What it measures, in one run, on one database file in the store's own mode (WAL, synchronous=NORMAL,
busy timeout, through sqlite-utils):
- cycle: TableService.act_now = load (version read + cached or parsed state) → the real engine's
  apply with the table's fair dice → commit (state + events + rolls, version-checked, one
  transaction). Random legal moves of real games with the shipped decks; a finished game is replaced.
  Also split into its parts (load, apply, commit), timed the same way.
- floor: one single-row upsert in its own transaction, with a payload the size of a stored state
  (and with a tiny one), on the same connection, in raw SQL: the least any durable write can cost.
  For reference also the same upsert through sqlite-utils' `Table.upsert()`, the library's own way.
- sustained: 10,000 stored games (9,000 finished, copied from a real finished game with its log;
  1,000 running real games); random moves on random running tables through the async service API
  (channel lock, worker thread), one after another as a bot would serve them. Actions per second.
- memory: peak RSS of this process (resource.getrusage), and the database size.
"""

from __future__ import annotations

import argparse
import asyncio
import os
import random
import resource
import sqlite3
import statistics
import sys
import tempfile
import time
from pathlib import Path
from typing import Literal

from bot.catalog import load_catalog
from bot.engine import Action, StartGame, apply, legal_actions, start_action
from bot.service import TableService, _state_json
from bot.store import Store
from bot.store.records import now_text

DECKS = ("solar-vanguard", "tidal-veil", "starlit-night")
A, B = 101, 202


def pct(samples: list[float], p: float) -> float:
    ordered = sorted(samples)
    return ordered[min(len(ordered) - 1, int(len(ordered) * p))]


def us(seconds: float) -> str:
    return f"{seconds * 1e6:8.1f} µs"


class Table:
    """Real games with the shipped decks, started and played through the service."""

    def __init__(self, service: TableService, seed: int) -> None:
        self.service = service
        self.rnd = random.Random(seed)
        self.catalog = service.catalog

    def start_action(self) -> StartGame:
        first, second = self.rnd.sample(DECKS, 2)
        return start_action(self.catalog, [(str(A), "A", first), (str(B), "B", second)])

    def move(self, channel: int) -> tuple[int, Action]:
        state = self.service.status_now(channel).state
        assert state.active is not None
        player = state.players[state.active].id
        return int(player), self.rnd.choice(legal_actions(state, player))


def measure_floor(store: Store, payload: int, rounds: int) -> list[float]:
    store.db.execute("CREATE TABLE IF NOT EXISTS bench_floor (k INTEGER PRIMARY KEY, v TEXT NOT NULL)")
    text = "x" * payload
    samples = []
    for i in range(rounds):
        t0 = time.perf_counter()
        with store.db.atomic():
            store.db.execute(
                "INSERT INTO bench_floor (k, v) VALUES (?, ?) ON CONFLICT (k) DO UPDATE SET v = excluded.v",
                (i % 100, text),
            )
        samples.append(time.perf_counter() - t0)
    return samples


def measure_library_upsert(store: Store, payload: int, rounds: int) -> list[float]:
    """The same upsert through sqlite-utils' own `Table.upsert` (what the library costs per row)."""
    table = store.db.table("bench_floor_lib")
    text = "x" * payload
    samples = []
    for i in range(rounds):
        t0 = time.perf_counter()
        table.upsert({"k": i % 100, "v": text}, pk="k")
        samples.append(time.perf_counter() - t0)
    return samples


def measure_cycle(service: TableService, table: Table, channel: int, rounds: int) -> dict[str, list[float]]:
    """The full cycle, and separately its parts, on real random moves."""
    out: dict[str, list[float]] = {"cycle": [], "load": [], "apply": [], "commit": []}
    asyncio.run(service.start_game(channel, A, table.start_action()))
    for i in range(rounds):
        user, action = table.move(channel)
        if i % 2 == 0:
            t0 = time.perf_counter()
            result = service.act_now(channel, user, action)
            out["cycle"].append(time.perf_counter() - t0)
        else:  # the same cycle taken apart (service internals, timed step by step)
            from bot.dice import FairRandomness

            t0 = time.perf_counter()
            game, state = service._load(channel)
            t1 = time.perf_counter()
            assert game.seed is not None and game.table_id is not None
            rng = FairRandomness(game.seed, game.table_id, next_number=game.next_roll)
            new_state, events = apply(state, action, rng)
            t2 = time.perf_counter()
            result = service._commit(game, new_state, list(events), user, next_roll=rng.next_number)
            t3 = time.perf_counter()
            out["load"].append(t1 - t0)
            out["apply"].append(t2 - t1)
            out["commit"].append(t3 - t2)
        if result.finished:
            asyncio.run(service.start_game(channel, A, table.start_action()))
    return out


def populate(service: TableService, table: Table, games: int, active: int) -> list[int]:
    """`active` running real games, and `games - active` finished ones copied from a real finished game."""
    store = service.store
    channels = list(range(1_000_000, 1_000_000 + active))

    async def start_all() -> None:
        for ch in channels:
            await service.start_game(ch, A, table.start_action())

    asyncio.run(start_all())
    template_channel = 999
    asyncio.run(service.start_game(template_channel, A, table.start_action()))
    for _ in range(30):
        user, action = table.move(template_channel)
        if service.act_now(template_channel, user, action).finished:
            break
    else:
        asyncio.run(service.end(template_channel, 1, is_moderator=True, reason="bench"))
    template = store.latest(template_channel).id
    now = now_text()
    existing = store.db.execute("SELECT count(*) FROM games").fetchone()[0]
    with store.db.atomic():
        for n in range(max(0, games - existing)):
            new_id = store.db.execute(
                "INSERT INTO games (channel_id, guild_id, status, state, version, last_seq, seed, commitment, "
                "next_roll, result, created_at, updated_at, finished_at, table_id) "
                "SELECT ?, guild_id, status, state, version, last_seq, seed, commitment, next_roll, result, "
                "?, ?, ?, table_id FROM games WHERE id = ? RETURNING id",
                (2_000_000 + n, now, now, now, template),
            ).fetchone()[0]
            store.db.execute(
                "INSERT INTO events (game_id, seq, version, actor, type, data, created_at) "
                "SELECT ?, seq, version, actor, type, data, created_at FROM events WHERE game_id = ?",
                (new_id, template),
            )
    return channels


async def sustained(
    service: TableService, table: Table, channels: list[int], actions: int, *, inline: bool = False
) -> tuple[float, float, list[float], list[float]]:
    """Wall seconds, CPU seconds (all threads), and per action: choosing the move, and the action
    (through `service.act`, or `act_now` on this thread when `inline`)."""
    rnd = random.Random(5)
    choose: list[float] = []
    act: list[float] = []
    c0 = time.process_time()
    t0 = time.perf_counter()
    while len(act) < actions:
        channel = rnd.choice(channels)
        t1 = time.perf_counter()
        user, action = table.move(channel)
        t2 = time.perf_counter()
        result = service.act_now(channel, user, action) if inline else await service.act(channel, user, action)
        t3 = time.perf_counter()
        choose.append(t2 - t1)
        act.append(t3 - t2)
        if result.finished:
            await service.start_game(channel, A, table.start_action())
    return time.perf_counter() - t0, time.process_time() - c0, choose, act


def report(name: str, samples: list[float]) -> None:
    print(f"  {name:<34} median {us(statistics.median(samples))}   p99 {us(pct(samples, 0.99))}   n={len(samples)}")


def cycle_and_floor(path: Path, mode: Literal["NORMAL", "FULL"], rounds: int) -> dict[str, float]:
    """Cycle, its parts and the floor, on one file opened in `mode`; prints them; returns the medians."""
    store = Store.open(path, synchronous=mode)
    service = TableService(store, load_catalog)
    table = Table(service, seed=1)
    cycle = measure_cycle(service, table, channel=1, rounds=rounds)
    state_size = len(_state_json(service.status_now(1).state))
    floor_state = measure_floor(store, state_size, max(rounds, 500))
    floor_tiny = measure_floor(store, 16, max(rounds, 500))
    floor_lib = measure_library_upsert(store, state_size, max(rounds, 500))
    print(f"\n== synchronous={mode}: one action, real engine, real dice (random legal moves of real games)")
    report("full cycle (load→apply→commit)", cycle["cycle"])
    report("  load (version check, cached game)", cycle["load"])
    report("  engine apply", cycle["apply"])
    report("  commit (state+events+rolls, 1 tx)", cycle["commit"])
    print("   floor: one single-row upsert in its own transaction, same file, same mode")
    report(f"upsert of a state-sized row ({state_size} B)", floor_state)
    report("upsert of a 16-byte row", floor_tiny)
    report("same, through sqlite-utils upsert()", floor_lib)
    med = statistics.median
    store_part = [a + b for a, b in zip(cycle["load"], cycle["commit"], strict=True)]
    ratio = med(cycle["cycle"]) / med(floor_state)
    print(f"   full cycle / state-sized upsert floor   {ratio:6.2f}x   (target <= 3x)")
    print(f"   full cycle / 16-byte upsert floor       {med(cycle['cycle']) / med(floor_tiny):6.2f}x")
    print(f"   full cycle / sqlite-utils upsert()      {med(cycle['cycle']) / med(floor_lib):6.2f}x")
    print(f"   store part (load+commit) / state floor  {med(store_part) / med(floor_state):6.2f}x")
    print(f"   engine apply alone / state floor        {med(cycle['apply']) / med(floor_state):6.2f}x")
    service.close()
    store.close()
    return {"cycle": med(cycle["cycle"]), "floor": med(floor_state), "ratio": ratio}


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0] if __doc__ else None)
    parser.add_argument("--games", type=int, default=10_000)
    parser.add_argument("--active", type=int, default=1_000)
    parser.add_argument("--actions", type=int, default=5_000, help="actions in the sustained run")
    parser.add_argument("--cycles", type=int, default=4_000, help="actions in the cycle measurement")
    args = parser.parse_args()

    sqlite = sqlite3.sqlite_version
    print(f"bench/store.py — SQLite {sqlite}, WAL, Python {sys.version.split()[0]}, {os.cpu_count()} CPUs")
    with tempfile.TemporaryDirectory() as tmp:
        folder = Path(tmp)
        cycle_and_floor(folder / "normal.sqlite3", "NORMAL", args.cycles)
        cycle_and_floor(folder / "full.sqlite3", "FULL", max(200, args.cycles // 10))

        path = folder / "bench.sqlite3"
        store = Store.open(path)  # the shipped mode: synchronous=NORMAL
        service = TableService(store, load_catalog)
        table = Table(service, seed=2)
        t0 = time.perf_counter()
        channels = populate(service, table, args.games, args.active)
        setup = time.perf_counter() - t0
        stored = store.db.execute("SELECT count(*), sum(status = 'active') FROM games").fetchone()
        events = store.db.execute("SELECT count(*) FROM events").fetchone()[0]
        print(
            f"\n== sustained, synchronous=NORMAL (shipped): {stored[0]} stored games ({stored[1]} running), "
            f"{events} events (set-up {setup:.1f} s)"
        )
        for inline in (False, True):
            elapsed, cpu, choose, act = asyncio.run(sustained(service, table, channels, args.actions, inline=inline))
            done = len(act)
            how = "act_now on the caller's thread (no worker hop)" if inline else "service.act (lock + worker thread)"
            print(f"   -- through {how}")
            print(
                f"   {done} actions on random running tables in {elapsed:.2f} s = {done / elapsed:,.0f} actions/s "
                "(target >= 1,000; includes choosing each move: status + legal_actions)"
            )
            print(
                f"   CPU time of this process {cpu:.2f} s = {done / cpu:,.0f} actions per CPU-second; "
                f"load average now {os.getloadavg()[0]:.1f} on {os.cpu_count()} CPUs"
            )
            report("the action", act)
            report("choosing the move (status, legal)", choose)
            per_action = statistics.median(act) + statistics.median(choose)
            print(f"   rate at the median latencies: {1 / per_action:,.0f} actions/s")

        peak = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024
        size = sum(p.stat().st_size for p in folder.glob("bench.sqlite3*")) / 2**20
        print(f"\n== memory: peak RSS {peak:.0f} MiB; the {stored[0]:,}-game database on disk {size:.0f} MiB")
        service.close()
        store.close()
    return 0


if __name__ == "__main__":
    sys.exit(main())
