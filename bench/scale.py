"""Past one machine: the real bot over PostgreSQL in 1, 2 and 4 processes (a shard each) against one process over
SQLite, with 400 channels playing, through the fake Discord.

    REFEREE_TEST_DATABASE_URL=postgresql://postgres@127.0.0.1:5432/test python bench/scale.py
    python bench/scale.py --channels 100 --duration 10 --setups sqlite,pg1     (quicker)

Each setup starts its own fake Discord (`python -m tests.fake_discord --shards N`), builds the same world (guilds
spread over the shards as Discord routes them, two players a channel), syncs the commands (`referee sync`) and
starts the bots as an admin would: `referee run` over a SQLite file, or `referee run --shards i --shard-count N`
for each i over one fresh PostgreSQL schema. The players are bench/discord_load.py's: in every channel a game
after another, a move at random (exponential) intervals of `--rate` a second, doubled presses and redelivered
interactions now and then, /roll and /ruling beside.

Printed per setup: the moves played a second (actions/s), the time from each interaction's dispatch to its first
response (median, p99, as the fake measured it), the interactions left without an answer, and the moves lost or
doubled (every move answered as played in the log exactly once, nothing else in it: discord_load's check, on the
database the bots wrote). Where the time goes, sampled every 100 ms from pg_stat_activity: the share of the
bots' PostgreSQL connections busy on the CPU, waiting for a lock (the per-channel advisory lock: lock waits),
for the disk (WAL flush: IO), or idle. Where the machine's cores go (from /proc): the bots, the fake Discord
(the gateway and REST the bots talk to), the players (this process), the PostgreSQL server, and idle; then the
CPU a move costs with every process counted, and the moves a second the machine's cores could play at that
cost (its ceiling, whatever the bots do). Then which targets of issue 14 hold.

The offered load is fixed (`--rate` × channels), so a setup that keeps up shows about the offered rate: the
comparison that matters is then the latency, and whether the rate held. On this 2-core machine the fake, the
driver and every bot share the same two cores.
"""

from __future__ import annotations

import argparse
import asyncio
import contextlib
import json
import os
import random
import statistics
import sys
import tempfile
import time
from collections import Counter, defaultdict
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

from bench.discord_load import (  # noqa: E402
    Load,
    MoveCheck,
    bot_env,
    check_moves,
    logged_moves,
    percentile,
    play_dice,
    play_games,
    referee,
    seat_players,
    settle,
)
from bench.discord_load import parse_args as load_args  # noqa: E402
from tests.fake_discord.control import ControlClient  # noqa: E402
from tests.fake_discord.processes import fake_process, stop_process  # noqa: E402
from tests.store.conftest import PG_URL_VARIABLE, fresh_schema  # noqa: E402

P99_TARGET = 0.5
SETUPS = {"sqlite": 1, "pg1": 1, "pg2": 2, "pg4": 4}  # name → bot processes (and shards)


@dataclass
class Result:
    name: str
    processes: int
    actions_per_s: float = 0.0
    median: float = 0.0
    p99: float = 0.0
    sent: int = 0
    unanswered: int = 0
    refused: int = 0
    moves: MoveCheck = field(default_factory=MoveCheck)
    waits: Counter[str] = field(default_factory=Counter)
    cpu: dict[str, float] = field(default_factory=dict)
    duration: float = 0.0


def cpu_seconds(pid: int) -> float:
    """User and system CPU time of a process so far (Linux /proc)."""
    with contextlib.suppress(OSError, IndexError, ValueError):
        fields = Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()
        return (int(fields[11]) + int(fields[12])) / os.sysconf("SC_CLK_TCK")
    return 0.0


def pids_running(command: str, *, argument: str = "") -> list[int]:
    """Processes of this machine named `command` (and with `argument` on their command line)."""
    found = []
    for entry in Path("/proc").iterdir():
        if not entry.name.isdigit():
            continue
        with contextlib.suppress(OSError):
            if (entry / "comm").read_text().strip() != command:
                continue
            if argument and argument.encode() not in (entry / "cmdline").read_bytes():
                continue
            found.append(int(entry.name))
    return found


def machine_idle_seconds() -> float:
    """Idle CPU time of the whole machine so far, summed over its cores (Linux /proc/stat)."""
    with contextlib.suppress(OSError, IndexError, ValueError):
        fields = Path("/proc/stat").read_text().split("\n", 1)[0].split()
        return (int(fields[4]) + int(fields[5])) / os.sysconf("SC_CLK_TCK")  # idle + iowait
    return 0.0


@dataclass
class CpuSplit:
    """CPU time by who spent it, between `begin` and `spent`: where the machine's cores go."""

    bots: list[int]
    start: dict[str, float] = field(default_factory=dict)
    start_database: dict[int, float] = field(default_factory=dict)

    def read(self) -> tuple[dict[str, float], dict[int, float]]:
        fake = [p for p in pids_running("python", argument="tests.fake_discord") if p not in self.bots]
        players = os.times()
        database = {p: cpu_seconds(p) for p in pids_running("postgres")}  # its connections come and go
        return {
            "bots": sum(cpu_seconds(p) for p in self.bots),
            "fake Discord (gateway, REST)": sum(cpu_seconds(p) for p in fake),
            "players (this bench)": players.user + players.system,
            "idle": machine_idle_seconds(),
        }, database

    def begin(self) -> None:
        self.start, self.start_database = self.read()

    def spent(self) -> dict[str, float]:
        now, database = self.read()
        out = {k: now[k] - self.start.get(k, 0.0) for k in now}
        out["PostgreSQL server"] = sum(v - self.start_database.get(p, 0.0) for p, v in database.items())
        return out


def pg_logged_moves(url: str) -> dict[tuple[str, int], list[tuple[int, str]]]:
    """discord_load.logged_moves, read from PostgreSQL."""
    import psycopg

    out: dict[tuple[str, int], list[tuple[int, str]]] = defaultdict(list)
    with psycopg.connect(url) as db:
        number: dict[int, tuple[str, int]] = {}
        seen: Counter[str] = Counter()
        for game_id, channel_id in db.execute("SELECT id, channel_id FROM games ORDER BY id"):
            seen[str(channel_id)] += 1
            number[game_id] = (str(channel_id), seen[str(channel_id)])
        for game_id, version, actor, types in db.execute("SELECT game_id, version, actor, types::text FROM actions"):
            if "game_started" in json.loads(types):
                continue
            out[number[game_id]].append((int(version), str(actor)))
    return out


async def sample_waits(url: str, schema: str, stop: asyncio.Event, waits: Counter[str]) -> None:
    """What the bots' connections to `schema` are doing, every 100 ms (pg_stat_activity)."""
    import psycopg

    query = (
        "SELECT state, wait_event_type, wait_event FROM pg_stat_activity "
        "WHERE pid <> pg_backend_pid() AND datname = current_database() AND backend_type = 'client backend'"
    )
    async with await psycopg.AsyncConnection.connect(url, autocommit=True) as conn:
        while not stop.is_set():
            for state, kind, event in await (await conn.execute(query)).fetchall():
                if state == "active":
                    waits["lock wait" if kind == "Lock" else f"{kind or 'CPU'}:{event or 'running'}"] += 1
                elif state == "idle in transaction":
                    waits["in transaction (bot side)"] += 1
            with contextlib.suppress(TimeoutError):
                await asyncio.wait_for(stop.wait(), 0.1)


async def spread_world(
    fake: ControlClient, shards: int, channels: int, per_shard: int
) -> list[tuple[dict[str, Any], list[str]]]:
    """`per_shard` guilds on each shard (created until Discord's routing spreads them), the channels between
    them, two players a channel (one ja, one en)."""
    by_shard: dict[int, list[dict[str, Any]]] = defaultdict(list)
    for n in range(50 * shards * per_shard):
        if all(len(by_shard[s]) >= per_shard for s in range(shards)):
            break
        guild = await fake.create_guild(f"club-{n}", locale="ja")
        shard = (int(guild["id"]) >> 22) % shards
        if len(by_shard[shard]) < per_shard:
            by_shard[shard].append(guild)
        else:  # an id spent, so the next guild's timestamp falls elsewhere
            await fake.create_channel(guild["id"], "spare")
    return await seat_players(fake, [g for s in range(shards) for g in by_shard[s]], channels)


async def run_setup(name: str, opts: argparse.Namespace, rng: random.Random) -> Result:
    processes = SETUPS[name]
    result = Result(name, processes)
    pg = name.startswith("pg")
    # A PostgreSQL setup plays in a fresh schema, dropped once its moves are read back.
    in_schema = fresh_schema(os.environ[PG_URL_VARIABLE], "bench") if pg else contextlib.nullcontext(("", ""))
    with in_schema as (url, schema), tempfile.TemporaryDirectory(prefix=f"scale-{name}-") as tmp:
        folder = Path(tmp)
        async with fake_process(shards=processes) as fake_url, ControlClient(fake_url) as fake:
            token = (await fake.info())["token"]
            env = bot_env(fake_url, token, folder, opts.db_sync)
            if pg:
                env["REFEREE_DATABASE_URL"] = url
            world = await spread_world(fake, processes, opts.channels, opts.guilds_per_shard)
            sync = await referee(["sync"], env, folder)
            if await sync.wait() != 0:
                raise RuntimeError((folder / "referee.log").read_text()[-3000:])
            bots = []
            for shard in range(processes):
                args = ["run"] + (["--shards", str(shard), "--shard-count", str(processes)] if pg else [])
                bots.append(await referee(args, env, folder))
                if shard == 0:
                    await fake.wait_ready(1, timeout=90)  # the first one runs the migrations
            try:
                await fake.wait_ready(processes, timeout=90)
                split = CpuSplit([b.pid for b in bots])
                split.begin()
                load = Load()
                stop = asyncio.Event()
                sampler = asyncio.create_task(sample_waits(url, schema, stop, result.waits)) if pg else None
                until = time.monotonic() + opts.duration
                began = time.monotonic()
                players = []
                for channel, seats in world:
                    players.append(play_games(fake, load, channel, seats, opts, until, random.Random(rng.random())))
                    if opts.roll_rate > 0:
                        players.append(
                            play_dice(
                                fake, load, channel, seats, opts, opts.roll_rate, until, random.Random(rng.random())
                            )
                        )
                await asyncio.gather(*players)
                result.duration = time.monotonic() - began
                stop.set()
                if sampler is not None:
                    await sampler
                result.cpu = split.spent()
                records = await settle(fake, {s.interaction_id for s in load.sent})
            finally:
                for bot in bots:
                    await stop_process(bot)
        log = pg_logged_moves(url) if pg else logged_moves(folder / "data" / "referee.sqlite3")

    by_id = {r["id"]: r for r in records}
    ours = [by_id[s.interaction_id] for s in load.sent if s.interaction_id in by_id]
    latencies = [r["latency"] for r in ours if r["latency"] is not None]
    result.sent = len(load.sent)
    result.unanswered = sum(1 for r in ours if r["first_type"] is None) + (len(load.sent) - len(ours))
    result.refused = sum(r["rejected"] for r in ours)
    result.moves = check_moves(load.moves, log)
    result.actions_per_s = result.moves.played / result.duration
    if latencies:
        result.median, result.p99 = statistics.median(latencies), percentile(latencies, 0.99)
    return result


def show(result: Result) -> None:
    m = result.moves
    print(
        f"{result.name:>6} ({result.processes} process{'es' if result.processes > 1 else ''}): "
        f"{result.actions_per_s:6.1f} actions/s; first response median {result.median * 1000:4.0f} ms, "
        f"p99 {result.p99 * 1000:5.0f} ms; {result.sent} interactions, {result.unanswered} unanswered, "
        f"{result.refused} answers refused; moves {m.played} played, {m.refused} refused, "
        f"lost {len(m.lost)}, doubled {len(m.doubled)}; "
        f"bots' CPU {result.cpu.get('bots', 0.0) / result.duration:.2f} cores"
    )
    total = sum(result.waits.values())
    if total:
        shares = ", ".join(f"{k} {100 * n / total:.0f}%" for k, n in result.waits.most_common(6))
        print(f"        busy PostgreSQL connections (samples {total}): {shares}")
    if result.cpu:
        spent = ", ".join(f"{k} {v / result.duration:.2f}" for k, v in result.cpu.items())
        print(f"        CPU in cores (of {os.cpu_count()}): {spent}")
        per_move = busy_cpu(result) / max(m.played, 1)
        limit = (
            f"this machine's cores play at most {ceiling(result):.0f} moves/s at that cost"
            if saturated(result)
            else f"{result.cpu.get('idle', 0.0) / result.duration:.2f} cores idle, so no ceiling is read from it"
        )
        print(
            f"        CPU a move played, every process counted: {per_move * 1000:.2f} ms (bots "
            f"{result.cpu['bots'] / max(m.played, 1) * 1000:.2f} ms): {limit}"
        )
    for line in (m.lost + m.doubled)[:5]:
        print(f"        {line}")


def busy_cpu(result: Result) -> float:
    """CPU seconds the run took from the machine: bots, fake, players and PostgreSQL (not idle)."""
    return sum(v for k, v in result.cpu.items() if k != "idle")


def saturated(result: Result) -> bool:
    """Whether the machine's cores were nearly all busy (under a quarter of a core idle)."""
    return result.cpu.get("idle", 0.0) / max(result.duration, 1e-9) < 0.25


def ceiling(result: Result) -> float:
    """Moves a second this machine's cores could play at the run's CPU cost a move (every process)."""
    per_move = busy_cpu(result) / max(result.moves.played, 1)
    return (os.cpu_count() or 1) / per_move if per_move > 0 else 0.0


def targets(results: dict[str, Result]) -> list[tuple[str, bool | None]]:
    out: list[tuple[str, bool | None]] = []
    sqlite, pg1, pg2 = results.get("sqlite"), results.get("pg1"), results.get("pg2")
    if sqlite and pg1:
        out.append(
            ("one PG process ≥ half the actions/s of one SQLite process", pg1.actions_per_s >= sqlite.actions_per_s / 2)
        )
    if pg1 and pg2:
        why = f"; the cores allow {ceiling(pg2):.0f} at pg2's cost" if saturated(pg2) else ""
        out.append(
            (
                f"two PG processes ≥ 1.6× one PG process ({pg2.actions_per_s / max(pg1.actions_per_s, 1e-9):.2f}×; "
                f"1.6× is {1.6 * pg1.actions_per_s:.0f} moves/s{why})",
                pg2.actions_per_s >= 1.6 * pg1.actions_per_s,
            )
        )
    out.append(("p99 under 500 ms throughout", all(r.p99 < P99_TARGET for r in results.values())))
    out.append(("nothing lost or doubled", all(not r.moves.lost and not r.moves.doubled for r in results.values())))
    out.append(("every interaction answered", all(r.unanswered == 0 for r in results.values())))
    return out


async def run(opts: argparse.Namespace) -> int:
    names = [n.strip() for n in opts.setups.split(",") if n.strip()]
    if any(n.startswith("pg") for n in names) and not os.environ.get(PG_URL_VARIABLE):
        print(f"set {PG_URL_VARIABLE}=postgresql://postgres@127.0.0.1:5432/test to run the PostgreSQL setups")
        names = [n for n in names if not n.startswith("pg")]
    print(
        f"{opts.channels} channels, {opts.rate} moves/s and {opts.roll_rate} rolls/s a channel "
        f"(offered: {opts.channels * opts.rate:.0f} moves/s), {opts.duration:.0f} s a setup, "
        f"REFEREE_DB_SYNC={opts.db_sync}"
    )
    results: dict[str, Result] = {}
    rng = random.Random(opts.seed)
    for name in names:
        results[name] = await run_setup(name, opts, random.Random(rng.random()))
        show(results[name])
    print()
    held = targets(results)
    for text, ok in held:
        print(f"  {'HOLDS ' if ok else 'MISSED'}  {text}")
    return 0 if all(ok for _, ok in held) else 1


def parse_args(argv: list[str] | None = None) -> argparse.Namespace:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--setups", default="sqlite,pg1,pg2,pg4", help="of: " + ", ".join(SETUPS))
    parser.add_argument("--channels", type=int, default=400)
    parser.add_argument("--guilds-per-shard", type=int, default=4)
    parser.add_argument("--duration", type=float, default=30.0, help="seconds of load per setup")
    parser.add_argument("--rate", type=float, default=0.5, help="moves a second per channel")
    parser.add_argument("--roll-rate", type=float, default=0.05, help="/roll and /ruling a second per channel")
    parser.add_argument("--db-sync", choices=("full", "normal"), default="full")
    parser.add_argument("--seed", type=int, default=14)
    opts = parser.parse_args(argv)
    # The players' own knobs (double presses, replays, /ruling share) as discord_load has them.
    for key, value in vars(load_args([])).items():
        if not hasattr(opts, key):
            setattr(opts, key, value)
    return opts


def main() -> None:
    from bot.loop import run as run_loop  # the players on uvloop too: the harness's CPU is not what is measured

    sys.exit(run_loop(run(parse_args())))


if __name__ == "__main__":
    main()
