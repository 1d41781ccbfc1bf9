"""The real bot under load through the fake Discord: 200 channels at once, under Discord's rate limits.

    python bench/discord_load.py                       (about a minute)
    python bench/discord_load.py --channels 50 --duration 10          (quicker)

Three processes, as in production the bot is one and Discord is elsewhere:
- the fake Discord (`python -m tests.fake_discord`: gateway and REST v10 on 127.0.0.1, with the rate limits
  of the issue: 50 REST requests a second per token, 5 messages per 5 s per channel, interaction callbacks
  and follow-ups exempt from the global limit), driven over its control endpoint;
- the bot, started as an admin starts it: `referee sync` (the global command sync), then `referee run`, told
  where Discord is only by REFEREE_DISCORD_API_URL, with a temporary data folder and the shipped settings
  (REFEREE_DB_SYNC=full unless --db-sync says otherwise);
- this script: every channel has its own player task that sends interactions at random intervals (a
  Poisson stream of `--rate` interactions a second per channel): mostly /roll (some secret), /ruling at a
  lower rate (`--ruling-share`), and a few interactions delivered twice (`--replay-share`, the same id
  and token again, as Discord may after a reconnect). With `--drops N` the fake also cuts the bot's
  gateway connection N times during the load; what is sent meanwhile arrives when the bot resumes.

Printed: the time from each interaction's dispatch to its first response (median, p99, max, as the fake
measured it), interactions without a response, answers refused by the fake (a second answer to one
interaction, or one after Discord's 3 s), the 429s the fake gave, and the bot's peak memory (VmHWM).
Then the rolls: after the bot stopped, its SQLite `rolls` table must hold each /roll interaction's roll
exactly once (each one rolls an expression unique in its channel), with the total its answer showed.
Targets (issue 11): p99 under 500 ms, none without a response, none lost or doubled.
"""

from __future__ import annotations

import argparse
import asyncio
import contextlib
import os
import random
import re
import sqlite3
import statistics
import sys
import tempfile
import time
from collections import Counter
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

from tests.fake_discord.control import ControlClient  # noqa: E402
from tests.fake_discord.processes import fake_process, stop_process  # noqa: E402

P99_TARGET = 0.5  # seconds
QUESTIONS = (
    "ブロックできるのはいつ？",
    "アストラルコードの対象は？",
    "When can a unit block?",
    "エーテルはいつ増える？",
    "What happens when the deck runs out?",
)
TOTAL = re.compile(r"\*\*(-?\d+)\*\*\s*$")  # the roll's total: the last bold number of its answer


@dataclass
class Sent:
    interaction_id: str
    command: str
    channel_id: str
    user_id: str
    expression: str = ""
    replayed: bool = False


@dataclass
class Load:
    sent: list[Sent] = field(default_factory=list)
    send_errors: Counter[str] = field(default_factory=Counter)


def percentile(values: list[float], fraction: float) -> float:
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, max(0, round(fraction * (len(ordered) - 1))))]


def peak_rss_mb(pid: int) -> float | None:
    """The process's high-water mark of resident memory (Linux /proc), in MB."""
    with contextlib.suppress(OSError):
        for line in Path(f"/proc/{pid}/status").read_text().splitlines():
            if line.startswith("VmHWM:"):
                return int(line.split()[1]) / 1024
    return None


def bot_env(url: str, token: str, folder: Path, db_sync: str) -> dict[str, str]:
    return {
        "PATH": os.environ.get("PATH", "/usr/bin:/bin"),
        "HOME": str(folder),
        "PYTHONPATH": str(ROOT),
        "DISCORD_TOKEN": token,
        "REFEREE_DISCORD_API_URL": url,
        "REFEREE_DATA_DIR": str(folder / "data"),
        "REFEREE_CACHE_DIR": str(folder / "cache"),
        "REFEREE_DB_SYNC": db_sync,
        "REFEREE_LOG_LEVEL": "WARNING",
    }


async def referee(args: list[str], env: dict[str, str], folder: Path) -> asyncio.subprocess.Process:
    log = (folder / "referee.log").open("ab")
    try:
        return await asyncio.create_subprocess_exec(
            sys.executable, "-m", "bot", *args, cwd=folder, env=env, stdout=log, stderr=log
        )
    finally:
        log.close()


async def build_world(fake: ControlClient, channels: int, guilds: int) -> list[tuple[dict[str, Any], list[str]]]:
    """`guilds` guilds holding `channels` channels between them, two players (one ja, one en) per channel."""
    made = [await fake.create_guild(f"club-{g}", locale="ja") for g in range(guilds)]
    world = []
    for n in range(channels):
        guild = made[n % guilds]
        channel = await fake.create_channel(guild["id"], f"table-{n}")
        players = []
        for locale in ("ja", "en-US"):
            user = await fake.create_user(f"player-{n}-{locale}", locale=locale)
            await fake.add_member(guild["id"], user["id"])
            players.append(user["id"])
        world.append((channel, players))
    return world


async def play(
    fake: ControlClient,
    load: Load,
    channel: dict[str, Any],
    players: list[str],
    opts: argparse.Namespace,
    until: float,
    rng: random.Random,
) -> None:
    """One channel's players: interactions at random (exponential) intervals until `until`."""
    rolls = 0
    await asyncio.sleep(rng.uniform(0, 1 / opts.rate))
    while time.monotonic() < until:
        user = rng.choice(players)
        try:
            if rng.random() < opts.ruling_share:
                question = rng.choice(QUESTIONS)
                answer = await fake.invoke(user, channel["id"], "ruling", {"question": question})
                load.sent.append(Sent(answer["id"], "ruling", channel["id"], user))
            else:
                rolls += 1
                expression = f"{rolls % 4 + 1}d6+{rolls}"  # unique in the channel: its row is findable
                options: dict[str, Any] = {"dice": expression}
                if rng.random() < opts.secret_share:
                    options["secret"] = True
                answer = await fake.invoke(user, channel["id"], "roll", options)
                sent = Sent(answer["id"], "roll", channel["id"], user, expression)
                load.sent.append(sent)
                if rng.random() < opts.replay_share:
                    sent.replayed = True
                    await fake.redeliver(answer["id"])
        except Exception as exc:  # counted and shown: a driver error is not the bot's answer
            load.send_errors[type(exc).__name__] += 1
        await asyncio.sleep(min(rng.expovariate(opts.rate), max(0.0, until - time.monotonic())))


async def drop_now_and_then(fake: ControlClient, drops: int, duration: float) -> int:
    """Cut the bot's gateway connection `drops` times, evenly over the load (it must resume each time)."""
    done = 0
    for _ in range(drops):
        await asyncio.sleep(duration / (drops + 1))
        with contextlib.suppress(Exception):
            await fake.drop_connection(0, code=None)
            done += 1
    return done


async def settle(fake: ControlClient, expected: int, timeout: float = 10.0) -> list[dict[str, Any]]:
    """The fake's record of every interaction, once all have an answer (or `timeout` ran out)."""
    deadline = time.monotonic() + timeout
    while True:
        records = [r for r in await fake.interactions() if r["type"] in (2, 3)]
        if sum(1 for r in records if r["first_type"] is not None) >= expected or time.monotonic() > deadline:
            return records
        await asyncio.sleep(0.25)


def filed_rolls(database: Path) -> Counter[tuple[str, str, str]]:
    with contextlib.closing(sqlite3.connect(database)) as db:
        rows = db.execute("SELECT channel_id, user_id, expression, total FROM rolls").fetchall()
    return Counter((str(c), str(u), e) for c, u, e, _ in rows)


def totals(database: Path) -> dict[tuple[str, str, str], int]:
    with contextlib.closing(sqlite3.connect(database)) as db:
        rows = db.execute("SELECT channel_id, user_id, expression, total FROM rolls").fetchall()
    return {(str(c), str(u), e): int(t) for c, u, e, t in rows}


async def run(opts: argparse.Namespace) -> int:
    rng = random.Random(opts.seed)
    with tempfile.TemporaryDirectory(prefix="discord-load-") as tmp:
        folder = Path(tmp)
        async with fake_process() as url, ControlClient(url) as fake:
            token = (await fake.info())["token"]
            env = bot_env(url, token, folder, opts.db_sync)
            started = time.monotonic()
            world = await build_world(fake, opts.channels, opts.guilds)
            print(
                f"world: {opts.channels} channels in {opts.guilds} guilds, {2 * opts.channels} players "
                f"({time.monotonic() - started:.1f} s)"
            )

            sync = await referee(["sync"], env, folder)
            if await sync.wait() != 0:
                print((folder / "referee.log").read_text()[-3000:], file=sys.stderr)
                return 2
            bot = await referee(["run"], env, folder)
            try:
                await fake.wait_ready(timeout=60)
                print(f"bot ready (pid {bot.pid}); {len(await fake.commands())} commands synced globally")
                load = Load()
                until = time.monotonic() + opts.duration
                began = time.monotonic()
                dropped, *_ = await asyncio.gather(
                    drop_now_and_then(fake, opts.drops, opts.duration),
                    *(play(fake, load, ch, players, opts, until, random.Random(rng.random())) for ch, players in world),
                )
                spent = time.monotonic() - began
                records = await settle(fake, len(load.sent))
                full = {s.interaction_id: await fake.interaction(s.interaction_id) for s in load.sent}
                rate_limits = await fake.rate_limits()
                stats = await fake.stats()
                peak = peak_rss_mb(bot.pid)
            finally:
                code = await stop_process(bot)
        database = folder / "data" / "referee.sqlite3"
        filed = filed_rolls(database)
        shown_totals = totals(database)
        log_text = (folder / "referee.log").read_text(errors="replace")

    by_id = {r["id"]: r for r in records}
    ours = [by_id[s.interaction_id] for s in load.sent if s.interaction_id in by_id]
    latencies = [r["latency"] for r in ours if r["latency"] is not None]
    unanswered = [r for r in ours if r["first_type"] is None]
    refused = sum(r["rejected"] for r in ours)
    rolls = [s for s in load.sent if s.command == "roll"]
    lost = [s for s in rolls if filed[(s.channel_id, s.user_id, s.expression)] == 0]
    doubled = [s for s in rolls if filed[(s.channel_id, s.user_id, s.expression)] > 1]
    mismatched = 0
    for s in rolls:
        answer = full[s.interaction_id]
        content = answer["callbacks"][0]["data"].get("content", "") if answer["callbacks"] else ""
        shown = TOTAL.search(content.split("\n-#")[0])
        key = (s.channel_id, s.user_id, s.expression)
        if shown is None or key not in shown_totals or int(shown.group(1)) != shown_totals[key]:
            mismatched += 1  # no total in the answer, no row, or another total than the row's
    kinds = Counter(s.command for s in load.sent)

    print()
    print(
        f"sent: {len(load.sent)} interactions in {spent:.1f} s ({len(load.sent) / spent:.1f}/s): "
        f"{kinds['roll']} /roll ({sum(1 for s in rolls if s.replayed)} of them delivered twice), "
        f"{kinds['ruling']} /ruling; driver errors: {dict(load.send_errors) or 'none'}"
    )
    if latencies:
        print(
            f"first response: median {statistics.median(latencies) * 1000:.0f} ms, "
            f"p99 {percentile(latencies, 0.99) * 1000:.0f} ms, max {max(latencies) * 1000:.0f} ms"
        )
    resumes = sum(session["resumes"] for session in stats["sessions"])
    print(f"gateway connection cut {dropped} times; the bot resumed {resumes} times")
    print(f"no response: {len(unanswered)}; answers refused by Discord (a second answer, or after 3 s): {refused}")
    print(
        f"rolls: {len(rolls)} sent, {len(lost)} lost, {len(doubled)} filed twice, "
        f"{mismatched} filed with another total than shown"
    )
    print(
        f"429s given: {len(rate_limits)} ({sum(1 for r in rate_limits if r['scope'] == 'global')} global); "
        f"REST requests {stats['requests']}; unknown routes {stats['unknown_routes'] or 'none'}"
    )
    print(f"bot peak memory (VmHWM): {peak:.1f} MB" if peak is not None else "bot peak memory: unknown")
    print(f"bot exit code after SIGTERM: {code}; errors in its log: {log_text.count(' ERROR ')}")

    p99 = percentile(latencies, 0.99) if latencies else float("inf")
    targets = [
        (f"p99 first response under {P99_TARGET * 1000:.0f} ms", p99 < P99_TARGET),
        ("every interaction answered", not unanswered and len(ours) == len(load.sent)),
        ("no roll lost", not lost),
        ("no roll doubled, no second answer", not doubled and refused == 0),
        ("every filed roll is the one shown", mismatched == 0),
    ]
    print()
    for name, held in targets:
        print(f"  {'HOLDS ' if held else 'MISSED'}  {name}")
    return 0 if all(held for _, held in targets) else 1


def parse_args(argv: list[str] | None = None) -> argparse.Namespace:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--channels", type=int, default=200)
    parser.add_argument("--guilds", type=int, default=8)
    parser.add_argument("--duration", type=float, default=30.0, help="seconds of load")
    parser.add_argument("--rate", type=float, default=0.25, help="interactions a second per channel")
    parser.add_argument("--ruling-share", type=float, default=0.1)
    parser.add_argument("--secret-share", type=float, default=0.1)
    parser.add_argument("--replay-share", type=float, default=0.02)
    parser.add_argument("--drops", type=int, default=0, help="cut the gateway connection this many times")
    parser.add_argument("--db-sync", choices=("full", "normal"), default="full")
    parser.add_argument("--seed", type=int, default=11)
    return parser.parse_args(argv)


def main() -> None:
    sys.exit(asyncio.run(run(parse_args())))


if __name__ == "__main__":
    main()
