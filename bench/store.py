"""The cost of one action as a front end pays it (`service.act`), against the floor of a SQLite write.

    python bench/store.py                                        (about two minutes; temporary databases)
    python bench/store.py --cycles 1000 --games 2000 --active 200 --actions 2000       (quicker)

The headline, once in each `synchronous` mode: FULL, the shipped default (every commit is on the disk
before the caller hears of it), and NORMAL (REFEREE_DB_SYNC=normal: no fsync per commit).
- cycle: `await service.act(channel, user, action)`, timed on the event loop around the await: what a
  front end calls. It takes the channel's lock, hands the call to the store's worker thread, loads the
  game (held in memory since its last commit), runs the real engine's `apply` with the table's fair
  dice, commits (state, the action's events and rolls, version-checked, one transaction, one fsync in
  FULL) and hands the outcome back to the event loop. Random legal moves of real games with the
  shipped decks; a finished game is replaced by a new one.
- floor: one single-row upsert (INSERT ... ON CONFLICT DO UPDATE) of the state text of the moment, in
  its own transaction, in raw SQL on a plain sqlite3 connection, in a database file of its own beside
  the store's, in the same mode (WAL, same `synchronous`). Each write changes the row (the last two
  states in turn), so every one of them writes a page.
- measured two ways, and the verdict is given for both: "in turn", the cycle and the floor take turns,
  each right after the same work (choosing the next move: status and legal_actions), so both find the
  CPU caches, the disk and the WAL alike; "back to back", the floor alone in a tight loop, as floors
  are usually measured.
Below the headline, where the time goes: the same cycle without the worker hand-over (`act_now` on
the event loop's thread), and the engine's `apply` and the state's JSON alone, on the same moves.

Then sustained: 10,000 stored games (9,000 finished, copied from a real finished game with its log;
1,000 running real games); random moves on random running tables through `service.act`: one request
at a time (with the floor taken in turn on the big database's disk), and 8 players at once each on
their own tables (actions waiting together share one commit). Actions per second, in each mode.
Last, peak RSS of this process and the database size.
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
from dataclasses import dataclass
from pathlib import Path
from typing import Any, Literal

from bot.catalog import load_catalog
from bot.dice import FairRandomness
from bot.engine import Action, GameState, StartGame, apply, legal_actions, start_action
from bot.service import TableService
from bot.service.state_text import state_text
from bot.store import Store
from bot.store.records import now_text

Mode = Literal["FULL", "NORMAL"]
DECKS = ("solar-vanguard", "tidal-veil", "starlit-night")
A, B = 101, 202
UPSERT = "INSERT INTO floor (k, v) VALUES (1, ?) ON CONFLICT (k) DO UPDATE SET v = excluded.v"
TARGET = 3.0  # issue 10: the cycle through service.act within 3x of the floor in the shipped mode


def pct(samples: list[float], p: float) -> float:
    ordered = sorted(samples)
    return ordered[min(len(ordered) - 1, int(len(ordered) * p))]


def us(seconds: float) -> str:
    return f"{seconds * 1e6:8.1f} µs"


def report(name: str, samples: list[float]) -> None:
    med, p99 = statistics.median(samples), pct(samples, 0.99)
    print(f"  {name:<40} median {us(med)}   p99 {us(p99)}   n={len(samples)}")


class Table:
    """Real games with the shipped decks, started and played through the service's public calls."""

    def __init__(self, service: TableService, seed: int) -> None:
        self.service = service
        self.rnd = random.Random(seed)

    def start_action(self) -> StartGame:
        first, second = self.rnd.sample(DECKS, 2)
        return start_action(self.service.catalog, [(str(A), "A", first), (str(B), "B", second)])

    async def start(self, channel: int) -> None:
        await self.service.start_game(channel, A, self.start_action())

    async def move(self, channel: int) -> tuple[int, Action, GameState]:
        """The seat to act, a random legal action of theirs, and the state it applies to."""
        state = (await self.service.status(channel)).state
        assert state.active is not None
        player = state.players[state.active].id
        return int(player), self.rnd.choice(legal_actions(state, player)), state


class Floor:
    """A single-row upsert in its own transaction, raw SQL on a plain sqlite3 connection, in a file of
    its own (another connection writing the store's file would make the store's connection drop its
    page cache on every cycle), in the same journal and synchronous mode as the store."""

    def __init__(self, path: Path, mode: Mode) -> None:
        self.conn = sqlite3.connect(str(path), isolation_level=None)
        self.conn.execute("PRAGMA journal_mode = WAL")
        self.conn.execute(f"PRAGMA synchronous = {mode}")
        self.conn.execute("CREATE TABLE IF NOT EXISTS floor (k INTEGER PRIMARY KEY, v TEXT NOT NULL)")
        self.texts = ["", " "]

    def remember(self, text: str) -> None:
        """The state text of the moment: the floor writes the last two in turn, so each write changes the row."""
        self.texts = [self.texts[1], text]

    def write(self, i: int) -> float:
        text = self.texts[i % 2]
        t0 = time.perf_counter()
        self.conn.execute("BEGIN IMMEDIATE")
        self.conn.execute(UPSERT, (text,))
        self.conn.execute("COMMIT")
        return time.perf_counter() - t0

    def close(self) -> None:
        self.conn.close()


@dataclass
class Verdict:
    mode: Mode
    cycle: float
    floor_in_turn: float
    floor_back_to_back: float

    def line(self) -> str:
        turn, back = self.cycle / self.floor_in_turn, self.cycle / self.floor_back_to_back
        within = {
            (True, True): "yes",
            (False, False): "no",
            (True, False): "yes against the floor in turn, no against it back to back",
            (False, True): "no against the floor in turn, yes against it back to back",
        }[(turn <= TARGET, back <= TARGET)]
        return (
            f"{self.mode}: cycle through service.act {us(self.cycle).strip()} = {turn:.2f}x the floor in turn, "
            f"{back:.2f}x the floor back to back — within {TARGET:g}x: {within}"
        )


def _timed_act_now(service: TableService, channel: int, user: int, action: Any) -> tuple[Any, float]:
    t0 = time.perf_counter()
    result = service.act_now(channel, user, action)
    return result, time.perf_counter() - t0


async def cycle_and_floor(folder: Path, mode: Mode, rounds: int) -> Verdict:
    """The cycle, the floor in turn and back to back, and the parts, on one fresh store opened in `mode`."""
    store = Store.open(folder / f"{mode.lower()}.sqlite3", synchronous=mode)
    service = TableService(store, load_catalog)
    floor = Floor(folder / f"{mode.lower()}-floor.sqlite3", mode)
    table = Table(service, seed=1)
    channel = 1
    names = ("cycle", "floor", "act_now", "apply", "json", "floor_back_to_back")
    out: dict[str, list[float]] = {name: [] for name in names}
    kinds = ("cycle", "floor", "act_now")
    await table.start(channel)
    floor.remember(state_text((await service.status(channel)).state))
    warm_up = rounds // 10  # the first writes grow the WAL file; steady state is what a bot runs in
    for i in range(warm_up + rounds * len(kinds)):
        keep = i >= warm_up
        kind = kinds[i % len(kinds)]
        user, action, before = await table.move(channel)
        if kind == "floor":
            took = floor.write(i // len(kinds))
            if keep:
                out["floor"].append(took)
            continue
        if kind == "cycle":
            t0 = time.perf_counter()
            result = await service.act(channel, user, action)
            took = time.perf_counter() - t0
        else:  # the same work timed on the worker thread itself (the store is the worker's alone)
            result, took = await service.on_worker(_timed_act_now, service, channel, user, action)
        if kind == "act_now":  # the parts, on the same move, after it (the service holds its own copy)
            t1 = time.perf_counter()
            apply(before, action, FairRandomness(b"\x01" * 32, "bench-parts"))
            t2 = time.perf_counter()
            text = state_text(result.state)
            t3 = time.perf_counter()
            if keep:
                out["apply"].append(t2 - t1)
                out["json"].append(t3 - t2)
        else:
            text = state_text(result.state)
        if keep:
            out[kind].append(took)
        floor.remember(text)
        if result.finished:
            await table.start(channel)
    out["floor_back_to_back"] = [floor.write(i) for i in range(rounds)]

    med = statistics.median
    state_size = len(state_text((await service.status(channel)).state))
    shipped = " (shipped)" if mode == "FULL" else ""
    print(f"\n== synchronous={mode}{shipped}: one action, real engine, real dice, random legal moves of real games")
    report("cycle: await service.act(...)", out["cycle"])
    report(f"floor in turn: raw upsert (~{state_size} B)", out["floor"])
    report("floor back to back (tight loop)", out["floor_back_to_back"])
    verdict = Verdict(mode, med(out["cycle"]), med(out["floor"]), med(out["floor_back_to_back"]))
    print(f"   {verdict.line()}")
    print("   where the time goes:")
    report("  act_now (no worker hand-over)", out["act_now"])
    report("  engine apply alone", out["apply"])
    report("  the state's JSON alone", out["json"])
    hand_over = med(out["cycle"]) - med(out["act_now"])
    print(f"   (worker hand-over and lock, the difference of the medians: {us(hand_over).strip()})")
    service.close()
    floor.close()
    store.close()
    return verdict


async def populate(service: TableService, table: Table, games: int, active: int) -> list[int]:
    """`active` running real games, and `games - active` finished ones copied from a real finished game."""
    channels = list(range(1_000_000, 1_000_000 + active))
    for channel in channels:
        await table.start(channel)
    template_channel = 999
    await table.start(template_channel)
    for _ in range(30):
        user, action, _ = await table.move(template_channel)
        if (await service.act(template_channel, user, action)).finished:
            break
    else:
        await service.end(template_channel, 1, is_moderator=True, reason="bench")
    service.close()  # the copies below are written on this thread, with the worker stopped
    store = service.store
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
    service: TableService, table: Table, channels: list[int], actions: int, clients: int, floor: Floor | None
) -> tuple[float, float, list[float], list[float], list[float]]:
    """Wall seconds, CPU seconds (all threads), and per action: the action through `service.act`, choosing
    the move, and (with `floor`, one client only) a floor write taken right after each action. With
    `clients` > 1, that many players at once, each on its own share of the tables."""
    act: list[float] = []
    choose: list[float] = []
    floors: list[float] = []

    async def client(number: int, mine: list[int], quota: int) -> None:
        rnd = random.Random(5 + number)
        for i in range(quota):
            channel = rnd.choice(mine)
            t1 = time.perf_counter()
            user, action, _ = await table.move(channel)
            t2 = time.perf_counter()
            result = await service.act(channel, user, action)
            t3 = time.perf_counter()
            choose.append(t2 - t1)
            act.append(t3 - t2)
            if floor is not None:
                floor.remember(state_text(result.state))
                floors.append(floor.write(i))
            if result.finished:
                await table.start(channel)

    c0 = time.process_time()
    t0 = time.perf_counter()
    await asyncio.gather(*(client(n, channels[n::clients], actions // clients) for n in range(clients)))
    return time.perf_counter() - t0, time.process_time() - c0, act, choose, floors


async def sustained_runs(folder: Path, games: int, active: int, actions: int) -> int:
    path = folder / "bench.sqlite3"
    with Store.open(path) as store:
        service = TableService(store, load_catalog)
        t0 = time.perf_counter()
        channels = await populate(service, Table(service, seed=2), games, active)
        setup = time.perf_counter() - t0
        stored = store.db.execute("SELECT count(*), sum(status = 'active') FROM games").fetchone()
        events = store.db.execute("SELECT count(*) FROM events").fetchone()[0]
    print(f"\n== sustained: {stored[0]} stored games ({stored[1]} running), {events} events (set-up {setup:.1f} s)")
    modes: tuple[Mode, ...] = ("FULL", "NORMAL")
    for mode in modes:
        with Store.open(path, synchronous=mode) as store:
            service = TableService(store, load_catalog)
            table = Table(service, seed=3)
            for channel in channels:  # as a bot that has been running: the games it serves are held
                await service.status(channel)
            print(f"\n   synchronous={mode}{' (shipped)' if mode == 'FULL' else ''}")
            for clients in (1, 8):
                floor = Floor(folder / f"bench-floor-{mode.lower()}.sqlite3", mode) if clients == 1 else None
                run = await sustained(service, table, channels, actions, clients, floor)
                elapsed, cpu, act, choose, floors = run
                done = len(act)
                who = "one request at a time" if clients == 1 else f"{clients} players at once on their own tables"
                print(f"   -- service.act, {who}")
                print(
                    f"   {done} actions on random running tables in {elapsed:.2f} s = {done / elapsed:,.0f} "
                    "actions/s (target >= 1,000; includes choosing each move: status + legal_actions)"
                )
                print(
                    f"   CPU time of this process {cpu:.2f} s = {done / cpu:,.0f} actions per CPU-second; "
                    f"load average now {os.getloadavg()[0]:.1f} on {os.cpu_count()} CPUs"
                )
                report("the action (service.act)", act)
                report("choosing the move (status, legal)", choose)
                if floor is not None:
                    report("floor in turn (raw upsert, own file)", floors)
                    ratio = statistics.median(act) / statistics.median(floors)
                    print(f"   the action / the floor in turn: {ratio:.2f}x")
                    floor.close()
            service.close()
    return int(stored[0])


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0] if __doc__ else None)
    parser.add_argument("--cycles", type=int, default=2_000, help="samples of each kind in the headline")
    parser.add_argument("--games", type=int, default=10_000)
    parser.add_argument("--active", type=int, default=1_000)
    parser.add_argument("--actions", type=int, default=5_000, help="actions in each sustained run")
    args = parser.parse_args()

    python = sys.version.split()[0]
    print(f"bench/store.py — SQLite {sqlite3.sqlite_version}, WAL, Python {python}, {os.cpu_count()} CPUs")
    with tempfile.TemporaryDirectory() as tmp:
        folder = Path(tmp)
        verdicts = [asyncio.run(cycle_and_floor(folder, mode, args.cycles)) for mode in ("FULL", "NORMAL")]
        stored = asyncio.run(sustained_runs(folder, args.games, args.active, args.actions))
        peak = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024
        size = sum(p.stat().st_size for p in folder.glob("bench.sqlite3*")) / 2**20
        print(f"\n== memory: peak RSS {peak:.0f} MiB; the {stored:,}-game database on disk {size:.0f} MiB")
    print("\n== verdict (issue 10: the cycle within 3x of the floor in the shipped mode, FULL)")
    for verdict in verdicts:
        print(f"   {verdict.line()}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
