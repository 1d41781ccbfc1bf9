"""The durable table's cost: one action's full cycle against the floor of a SQLite write, and load.

    /work/venv/bin/python bench/store.py                  (about two minutes; temporary databases)
    /work/venv/bin/python bench/store.py --games 2000 --active 200 --actions 2000 --cycles 1000  (quicker)

What it measures, in one run, in the store's own set-up (WAL, busy timeout, through sqlite-utils), once
in each `synchronous` mode: FULL, the shipped default (every commit is on the disk before the caller
hears of it), and NORMAL (REFEREE_DB_SYNC=normal: no fsync per commit):
- cycle: TableService.act_now = load (the game the service holds in memory since its last commit: the
  commit's version check refuses it if another process moved the game on, and then the action is
  tried again on the stored game) → the real engine's apply with the table's fair dice → commit
  (state + the action's events as one log row + rolls, version-checked, one transaction). Random
  legal moves of real games with the shipped decks; a finished game is replaced.
  Also split into its parts (load, apply, commit), timed the same way, and beside them the load of
  a game not held in memory (after a restart, or after another process wrote): version read, row
  read and parse.
- floor: one single-row upsert of the game's state text of the moment (same size and content as the
  commit writes), in its own `db.atomic()` transaction, on the store's own connection, in raw SQL: the
  least any durable write of that state can cost. Beside it the same upsert through sqlite-utils'
  `Table.upsert()`, the library's own way, and a 16-byte upsert. The cycle, its parts and the floors
  are sampled in turn, after a warm-up, each right after the same work (choosing the next move), so
  all run against the same file, caches and WAL; and the floor once more back to back in a tight loop
  (the lowest figure: SQLite's code and pages stay hot in the CPU caches).
  Every floor write changes the row's bytes: SQLite leaves a cell whose bytes are unchanged unwritten,
  so upserting one constant value over and over times a commit that writes no page at all.
- ratios: the cycle to the raw floor (the issue's target), and the store's part (load + commit,
  without the engine's apply) to the floor, so one sees where the time goes.
- sustained: 10,000 stored games (9,000 finished, copied from a real finished game with its log;
  1,000 running real games); random moves on random running tables through the async service API
  (channel lock, worker thread): one request at a time, and 8 players at once each on their own
  tables (many channels play at the same time: one chooses a move while another's action is on the
  worker thread, and actions waiting together share one commit); and without the worker hand-over.
  Actions per second, in each mode.
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
from bot.dice import FairRandomness
from bot.engine import Action, StartGame, apply, legal_actions, start_action
from bot.service import TableService
from bot.state_text import state_text
from bot.store import Store
from bot.store.records import now_text
from bot.store.store import _filed

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


class Floor:
    """The floor: one single-row upsert of the game's current state text, in its own transaction
    (`db.atomic()`, like a commit), on the store's own connection; in raw SQL, and through sqlite-utils'
    `Table.upsert()` (the library's own way, which looks the table's schema up on every call)."""

    def __init__(self, store: Store) -> None:
        self.db = store.db
        self.db.execute("CREATE TABLE IF NOT EXISTS bench_floor (k INTEGER PRIMARY KEY, v TEXT NOT NULL)")
        self.db.execute("CREATE TABLE IF NOT EXISTS bench_floor_lib (k INTEGER PRIMARY KEY, v TEXT NOT NULL)")
        self.library = self.db.table("bench_floor_lib")

    def raw(self, text: str) -> float:
        t0 = time.perf_counter()
        with self.db.atomic():
            self.db.execute(
                "INSERT INTO bench_floor (k, v) VALUES (?, ?) ON CONFLICT (k) DO UPDATE SET v = excluded.v", (1, text)
            )
        return time.perf_counter() - t0

    def sqlite_utils(self, text: str) -> float:
        t0 = time.perf_counter()
        self.library.upsert({"k": 1, "v": text}, pk="k")
        return time.perf_counter() - t0


def measure_cycle(service: TableService, table: Table, channel: int, rounds: int) -> dict[str, list[float]]:
    """The full cycle, its parts, and the floor, on real random moves, taken in turn: every sample comes
    right after the same work (choosing the next move: status and legal_actions), so the cycle and the
    floor find the CPU caches, the file, its page cache and the WAL alike (a growing WAL or a checkpoint
    falls on either). The floor writes the state text of the moment."""
    kinds = ("cycle", "parts", "floor", "floor_lib", "floor_tiny")
    names = ("cycle", "load", "apply", "commit", "serialise", "cold", "floor", "floor_lib", "floor_tiny", "floor_hot")
    out: dict[str, list[float]] = {name: [] for name in names}
    floor = Floor(service.store)
    asyncio.run(service.start_game(channel, A, table.start_action()))
    text = state_text(service.status_now(channel).state).text
    texts = (text, text + " ")
    turns = rounds * len(kinds) // 2  # `rounds` actions, half timed whole and half in parts
    warm_up = turns // 10  # the first writes grow the WAL file; steady state is what a bot runs in
    for i in range(turns + warm_up):
        keep = i >= warm_up
        user, action = table.move(channel)
        kind = kinds[i % len(kinds)]
        # Each floor write changes the row (the last two states in turn: `i` changes parity from one
        # floor round to its next): SQLite skips writing a cell whose bytes are unchanged, so an upsert
        # of one value again and again would time a commit that writes nothing.
        if kind.startswith("floor"):
            row = texts[i % 2] if kind != "floor_tiny" else f"{i:016d}"
            took = floor.sqlite_utils(row) if kind == "floor_lib" else floor.raw(row)
            if keep:
                out[kind].append(took)
            continue
        if kind == "cycle":
            t0 = time.perf_counter()
            result = service.act_now(channel, user, action)
            if keep:
                out["cycle"].append(time.perf_counter() - t0)
        else:  # the same cycle taken apart (service internals, timed step by step, as act_now runs them)
            t0 = time.perf_counter()
            held = service._cache.get(channel)
            game, state = (held.game, held.state) if held is not None else service._load(channel)
            before = held.text if held is not None else None
            service._check_seat(state, user, action)
            t1 = time.perf_counter()
            assert game.seed is not None and game.table_id is not None
            rng = FairRandomness(game.seed, game.table_id, next_number=game.next_roll)
            new_state, events = apply(state, action, rng)
            t2 = time.perf_counter()
            result = service._commit(game, new_state, list(events), user, next_roll=rng.next_number, before=before)
            t3 = time.perf_counter()
            # What the commit spent turning the state and events into JSON (done again, untimed above).
            state_text(new_state, before), _filed(events)
            t4 = time.perf_counter()
            if keep:
                out["load"].append(t1 - t0)
                out["apply"].append(t2 - t1)
                out["commit"].append(t3 - t2)
                out["serialise"].append(t4 - t3)
        texts = (texts[1], state_text(result.state).text)
        if result.finished:
            asyncio.run(service.start_game(channel, A, table.start_action()))
        elif kind == "parts" and i % 4 == 1:  # a load as after a restart: nothing held in memory
            service._cache.pop(channel)
            t0 = time.perf_counter()
            service._load(channel)
            if keep:
                out["cold"].append(time.perf_counter() - t0)
    # The same upsert back to back in a tight loop, as floors are usually measured: the lowest figure.
    out["floor_hot"] = [floor.raw(texts[i % 2]) for i in range(rounds)]  # the last two states, in turn
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
                "INSERT INTO actions (game_id, version, first_seq, last_seq, actor, types, events, created_at) "
                "SELECT ?, version, first_seq, last_seq, actor, types, events, created_at FROM actions "
                "WHERE game_id = ?",
                (new_id, template),
            )
    return channels


async def sustained(
    service: TableService, table: Table, channels: list[int], actions: int, *, inline: bool = False, clients: int = 1
) -> tuple[float, float, list[float], list[float]]:
    """Wall seconds, CPU seconds (all threads), and per action: choosing the move, and the action
    (through `service.act`, or `act_now` on this thread when `inline`). With `clients` > 1, that many
    players at once, each on its own share of the tables (as many channels play at the same time): one
    chooses a move while another's action is in the worker thread."""
    choose: list[float] = []
    act: list[float] = []

    async def client(number: int, mine: list[int], quota: int) -> None:
        rnd = random.Random(5 + number)
        for _ in range(quota):
            channel = rnd.choice(mine)
            t1 = time.perf_counter()
            user, action = table.move(channel)
            t2 = time.perf_counter()
            result = service.act_now(channel, user, action) if inline else await service.act(channel, user, action)
            t3 = time.perf_counter()
            choose.append(t2 - t1)
            act.append(t3 - t2)
            if result.finished:
                await service.start_game(channel, A, table.start_action())

    c0 = time.process_time()
    t0 = time.perf_counter()
    await asyncio.gather(*(client(n, channels[n::clients], actions // clients) for n in range(clients)))
    return time.perf_counter() - t0, time.process_time() - c0, choose, act


def report(name: str, samples: list[float]) -> None:
    print(f"  {name:<34} median {us(statistics.median(samples))}   p99 {us(pct(samples, 0.99))}   n={len(samples)}")


def cycle_and_floor(path: Path, mode: Literal["NORMAL", "FULL"], rounds: int) -> dict[str, float]:
    """Cycle, its parts and the floor, on one file opened in `mode`; prints them; returns the medians."""
    store = Store.open(path, synchronous=mode)
    service = TableService(store, load_catalog)
    table = Table(service, seed=1)
    m = measure_cycle(service, table, channel=1, rounds=rounds)
    med = statistics.median
    state_size = len(state_text(service.status_now(1).state).text)
    shipped = " (shipped)" if mode == "FULL" else ""
    print(f"\n== synchronous={mode}{shipped}: one action, real engine, real dice (random legal moves of real games)")
    report("full cycle (load→apply→commit)", m["cycle"])
    report("  load (the game held in memory)", m["load"])
    report("  engine apply", m["apply"])
    report("  commit (state+events+rolls, 1 tx)", m["commit"])
    report("    of which JSON of state+events", m["serialise"])
    report("load of a game not held (restart)", m["cold"])
    print("   floor: one single-row upsert of the state text, own transaction, same connection and mode")
    report(f"raw SQL, state-sized row (~{state_size} B)", m["floor"])
    report("same through sqlite-utils upsert()", m["floor_lib"])
    report("raw SQL, 16-byte row", m["floor_tiny"])
    report("raw SQL, state-sized, back to back", m["floor_hot"])
    print(
        "   (the first three are taken in turn with the cycle, each right after choosing a move as the cycle is;"
        "\n    back to back, in a tight loop with nothing between, the same upsert finds SQLite's code and pages"
        "\n    hot in the CPU caches)"
    )
    floor, hot = med(m["floor"]), med(m["floor_hot"])
    cycle = med(m["cycle"])
    store_part = med([a + b for a, b in zip(m["load"], m["commit"], strict=True)])

    def verdict(ratio: float) -> str:
        return f"target <= 3x: {'met' if ratio <= 3 else 'NOT met'}"

    print(f"   full cycle / raw floor                   {cycle / floor:6.2f}x   ({verdict(cycle / floor)})")
    print(f"   full cycle / raw floor, back to back     {cycle / hot:6.2f}x   ({verdict(cycle / hot)})")
    print(f"   full cycle / sqlite-utils upsert()       {cycle / med(m['floor_lib']):6.2f}x")
    part = f"{store_part / floor:6.2f}x   (back to back {store_part / hot:.2f}x)"
    print(f"   store part (load+commit) / raw floor     {part}")
    print(f"   engine apply alone / raw floor           {med(m['apply']) / floor:6.2f}x")
    print(
        "   (the store part is the JSON of the state and events, and one transaction that writes the game"
        "\n    row, the action's log row and each roll, with their indexes: the floor writes one row)"
    )
    service.close()
    store.close()
    return {"cycle": cycle, "floor": floor, "ratio": cycle / floor}


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0] if __doc__ else None)
    parser.add_argument("--games", type=int, default=10_000)
    parser.add_argument("--active", type=int, default=1_000)
    parser.add_argument("--actions", type=int, default=5_000, help="actions in the sustained run")
    parser.add_argument("--cycles", type=int, default=4_000, help="actions in the cycle measurement")
    args = parser.parse_args()

    sqlite = sqlite3.sqlite_version
    print(f"bench/store.py — SQLite {sqlite}, WAL, Python {sys.version.split()[0]}, {os.cpu_count()} CPUs")
    modes: tuple[Literal["NORMAL", "FULL"], ...] = ("FULL", "NORMAL")  # the shipped mode first
    with tempfile.TemporaryDirectory() as tmp:
        folder = Path(tmp)
        for mode in modes:
            cycle_and_floor(folder / f"{mode.lower()}.sqlite3", mode, args.cycles)

        path = folder / "bench.sqlite3"
        with Store.open(path) as store:
            service = TableService(store, load_catalog)
            t0 = time.perf_counter()
            channels = populate(service, Table(service, seed=2), args.games, args.active)
            setup = time.perf_counter() - t0
            stored = store.db.execute("SELECT count(*), sum(status = 'active') FROM games").fetchone()
            events = store.db.execute("SELECT count(*) FROM events").fetchone()[0]
            service.close()
        print(f"\n== sustained: {stored[0]} stored games ({stored[1]} running), {events} events (set-up {setup:.1f} s)")
        for mode in modes:
            with Store.open(path, synchronous=mode) as store:
                service = TableService(store, load_catalog)
                table = Table(service, seed=3)
                for channel in channels:  # as a bot that has been running: the games it serves are held
                    service.status_now(channel)
                print(f"\n   synchronous={mode}{' (shipped)' if mode == 'FULL' else ''}")
                for how, inline, clients in (
                    ("service.act, one request at a time", False, 1),
                    ("service.act, 8 players at once on their own tables", False, 8),
                    ("act_now on the caller's thread (no worker hand-over), one at a time", True, 1),
                ):
                    run = sustained(service, table, channels, args.actions, inline=inline, clients=clients)
                    elapsed, cpu, choose, act = asyncio.run(run)
                    done = len(act)
                    print(f"   -- {how}")
                    print(
                        f"   {done} actions on random running tables in {elapsed:.2f} s = {done / elapsed:,.0f} "
                        "actions/s (target >= 1,000; includes choosing each move: status + legal_actions)"
                    )
                    print(
                        f"   CPU time of this process {cpu:.2f} s = {done / cpu:,.0f} actions per CPU-second; "
                        f"load average now {os.getloadavg()[0]:.1f} on {os.cpu_count()} CPUs"
                    )
                    report("the action", act)
                    report("choosing the move (status, legal)", choose)
                service.close()

        peak = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024
        size = sum(p.stat().st_size for p in folder.glob("bench.sqlite3*")) / 2**20
        print(f"\n== memory: peak RSS {peak:.0f} MiB; the {stored[0]:,}-game database on disk {size:.0f} MiB")
    return 0


if __name__ == "__main__":
    sys.exit(main())
