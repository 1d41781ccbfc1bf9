"""The real bot under load through the fake Discord: 200 channels playing at once, under Discord's rate limits.

    python bench/discord_load.py                               (games and rolls; about two minutes)
    python bench/discord_load.py --channels 50 --duration 10   (quicker)
    python bench/discord_load.py --mode rolls                  (the older load: /roll and /ruling only)

Three processes, as in production the bot is one and Discord is elsewhere:
- the fake Discord (`python -m tests.fake_discord`: gateway and REST v10 on 127.0.0.1, with the rate limits
  of the issue: 50 REST requests a second per token, 5 messages per 5 s per channel, interaction callbacks
  and follow-ups exempt from the global limit), driven over its control endpoint;
- the bot, started as an admin starts it: `referee sync` (the global command sync), then `referee run`, told
  where Discord is only by REFEREE_DISCORD_API_URL, with a temporary data folder and the shipped settings
  (REFEREE_DB_SYNC=full unless --db-sync says otherwise);
- this script. In every channel two players play one game after another (`--mode games`, the default):
  `/game start` and the accept button, then, at random (exponential) intervals of `--rate` moves a second,
  a move chosen from what the bot offered in its last public reply: a button of the acting player (pass,
  next phase, block, no block), the hand (its button or `/hand`) and a pick from the ephemeral hand menu,
  `/charge` with a card its autocomplete offered, or `/pass`. Now and then (`--double-share`) a button is
  pressed twice at once, by its player or by both players, and (`--replay-share`) an interaction is delivered twice (the
  same id and token, as Discord may after a reconnect). Beside the games each channel rolls `/roll`
  (`--roll-rate` a second) and asks `/ruling` (`--ruling-share` of those). With `--drops N` the fake cuts
  the bot's gateway connection N times during the load; what is sent meanwhile arrives when it resumes.

Printed: the time from each interaction's dispatch to its first response (median, p99, max, as the fake
measured it), interactions without a response, answers refused by the fake (a second answer to one
interaction, or one after Discord's 3 s), the 429s the fake gave, and the bot's peak memory (VmHWM).
Then, after the bot stopped, its SQLite file is read:
- the moves: every move answered in public as played must be in the game's log exactly once (at the
  version its reply's buttons carry, by that player), and the log must hold no move that was refused or
  never answered as played;
- the rolls: the `rolls` table must hold each /roll exactly once (each one rolls an expression unique in
  its channel), with the total its answer showed, and filed with the channel's game while one runs.
Targets (issue 11): p99 under 500 ms, none without a response, none lost or doubled.
"""

from __future__ import annotations

import argparse
import asyncio
import contextlib
import json
import os
import random
import re
import sqlite3
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

from tests.fake_discord.control import ControlClient  # noqa: E402
from tests.fake_discord.processes import fake_process, stop_process  # noqa: E402

P99_TARGET = 0.5  # seconds
WAIT = 4.0  # how long the driver waits for an answer before moving on (Discord's limit is 3 s)
QUESTIONS = (
    "ブロックできるのはいつ？",
    "アストラルコードの対象は？",
    "When can a unit block?",
    "エーテルはいつ増える？",
    "What happens when the deck runs out?",
)
TOTAL = re.compile(r"\*\*(-?\d+)\*\*\s*$")  # the roll's total: the last bold number of its answer
# hn:{kind}:{channel}:{version}:{user}:{index} (buttons) and hn:play:{channel}:{version}:{user} (the hand menu)
COMPONENT = re.compile(r"hn:(?P<kind>[a-z]+):(?P<channel>\d+):(?P<version>\d+):(?P<user>\d+)(?::(?P<index>\d+))?$")
MOVE_BUTTONS = ("pass", "noblock", "block")


@dataclass
class Sent:
    interaction_id: str
    command: str
    channel_id: str
    user_id: str
    expression: str = ""
    replayed: bool = False


@dataclass
class Move:
    """One interaction meant to play a move, and how the bot answered it."""

    channel_id: str
    game: int  # the channel's game, counted from 1 in the order they started
    user_id: str
    how: str  # button, double, both, menu, charge, pass
    answer: str = "none"  # played (public), refused (ephemeral), none
    version: int | None = None  # the version its reply's buttons carry (None: the game ended with it)


@dataclass
class Load:
    sent: list[Sent] = field(default_factory=list)
    moves: list[Move] = field(default_factory=list)
    games: Counter[str] = field(default_factory=Counter)  # games started per channel
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
    return await seat_players(fake, made, channels)


async def seat_players(
    fake: ControlClient, guilds: list[dict[str, Any]], channels: int
) -> list[tuple[dict[str, Any], list[str]]]:
    """`channels` channels spread over `guilds`, two players (one ja, one en) per channel."""
    world = []
    for n in range(channels):
        guild = guilds[n % len(guilds)]
        channel = await fake.create_channel(guild["id"], f"table-{n}")
        players = []
        for locale in ("ja", "en-US"):
            user = await fake.create_user(f"player-{n}-{locale}", locale=locale)
            await fake.add_member(guild["id"], user["id"])
            players.append(user["id"])
        world.append((channel, players))
    return world


# -- what the bot answered ------------------------------------------------------------------------


def first_answer(answer: dict[str, Any]) -> dict[str, Any] | None:
    return answer["callbacks"][0] if answer.get("callbacks") else None


def is_public(answer: dict[str, Any]) -> bool:
    first = first_answer(answer)
    return first is not None and first["type"] == 4 and not first["ephemeral"]


def custom_ids(message: dict[str, Any] | None) -> list[str]:
    if not message:
        return []
    return [
        c["custom_id"] for row in message.get("components", []) for c in row.get("components", []) if "custom_id" in c
    ]


def menu_values(message: dict[str, Any] | None) -> tuple[str, list[str]] | None:
    """The hand menu of an ephemeral hand message: its custom_id and the values it offers."""
    for row in (message or {}).get("components", []):
        for c in row.get("components", []):
            if c.get("type") == 3 and str(c.get("custom_id", "")).startswith("hn:play:"):
                return c["custom_id"], [o["value"] for o in c.get("options", [])]
    return None


def table_components(message: dict[str, Any] | None) -> list[re.Match[str]]:
    return [m for m in (COMPONENT.match(c) for c in custom_ids(message)) if m is not None]


def version_shown(message: dict[str, Any] | None) -> int | None:
    versions = {int(m["version"]) for m in table_components(message)}
    return max(versions) if versions else None


# -- the players ------------------------------------------------------------------------------------


class Table:
    """One channel's two players and what the bot last showed them in public."""

    def __init__(self, fake: ControlClient, load: Load, channel: dict[str, Any], players: list[str]) -> None:
        self.fake, self.load, self.channel, self.players = fake, load, channel["id"], players
        self.message: dict[str, Any] | None = None  # the last public reply with the table's buttons
        self.game = 0

    def note(self, answer: dict[str, Any], command: str, user: str) -> None:
        self.load.sent.append(Sent(answer["id"], command, self.channel, user))

    async def start(self, rng: random.Random) -> None:
        challenger, opponent = self.players if rng.random() < 0.5 else self.players[::-1]
        invite = await self.fake.invoke(
            challenger, self.channel, "game", {"opponent": opponent}, subcommand="start", wait=WAIT
        )
        self.note(invite, "game start", challenger)
        accept = [c for c in custom_ids(invite.get("original")) if c.startswith("hn:acc:")]
        if not accept:
            return
        accepted = await self.fake.click(opponent, invite["original"]["id"], accept[0], wait=WAIT)
        self.note(accepted, "accept", opponent)
        if is_public(accepted) and table_components(accepted.get("original")):
            self.game += 1
            self.load.games[self.channel] += 1
            self.message = accepted["original"]

    def record(self, answer: dict[str, Any], user: str, how: str) -> Move:
        move = Move(self.channel, self.game, user, how)
        self.load.moves.append(move)
        self.note(answer, how, user)
        first = first_answer(answer)
        if first is None:
            return move
        move.answer = "played" if is_public(answer) else "refused"
        if move.answer == "played":
            move.version = version_shown(answer.get("original"))
        return move

    def after(self, answer: dict[str, Any]) -> None:
        """A public reply is the new table: its buttons are what the next move is chosen from."""
        if is_public(answer):
            self.message = answer.get("original")

    async def move(self, opts: argparse.Namespace, rng: random.Random) -> None:
        if not table_components(self.message):  # no table yet, or the game is over: a new one
            await self.start(rng)
            return
        parts = table_components(self.message)
        actor = parts[0]["user"]
        other = next(p for p in self.players if p != actor)
        buttons = [m for m in parts if m["kind"] in MOVE_BUTTONS and m["user"] == actor]
        hand = [m for m in parts if m["kind"] == "hand" and m["user"] == actor]
        message_id = str((self.message or {}).get("id"))
        roll = rng.random()
        if buttons and roll < opts.double_share:  # two presses of one button at the same moment
            button = rng.choice(buttons).string
            both = rng.random() < 0.5
            second = other if both else actor
            how = "both" if both else "double"
            answers = await asyncio.gather(
                self.fake.click(actor, message_id, button, wait=WAIT),
                self.fake.click(second, message_id, button, wait=WAIT),
            )
            for answer, user in zip(answers, (actor, second), strict=True):
                self.record(answer, user, how)
                self.after(answer)
            return
        if hand and roll < 0.45:
            await self.from_hand(actor, message_id, hand[0].string, rng)
            return
        if hand and roll < 0.6:
            await self.charge(actor)
            return
        if buttons and roll < 0.85:
            answer = await self.fake.click(actor, message_id, rng.choice(buttons).string, wait=WAIT)
            how = "button"
        else:
            answer = await self.fake.invoke(actor, self.channel, "pass", wait=WAIT)
            how = "pass"
        self.record(answer, actor, how)
        self.after(answer)
        if rng.random() < opts.replay_share:
            await self.fake.redeliver(answer["id"])
            self.load.sent[-1].replayed = True

    async def from_hand(self, actor: str, message_id: str, hand_button: str, rng: random.Random) -> None:
        """The hand (by the table's button or by /hand), then a pick from its menu."""
        if rng.random() < 0.5:
            shown = await self.fake.click(actor, message_id, hand_button, wait=WAIT)
            self.note(shown, "hand button", actor)
        else:
            shown = await self.fake.invoke(actor, self.channel, "hand", wait=WAIT)
            self.note(shown, "/hand", actor)
        menu = menu_values(shown.get("original"))
        if menu is None or not menu[1]:
            return
        custom_id, values = menu
        value = values[0] if rng.random() < 0.6 else rng.choice(values)  # the menu lists the best first
        answer = await self.fake.select(actor, shown["original"]["id"], custom_id, [value], wait=WAIT)
        self.record(answer, actor, "menu")
        self.after(answer)

    async def charge(self, actor: str) -> None:
        offered = await self.fake.autocomplete(actor, self.channel, "charge", {"card": ""}, "card", wait=WAIT)
        self.note(offered, "autocomplete", actor)
        first = first_answer(offered)
        choices = (first or {}).get("data", {}).get("choices") or []
        if not choices:
            return
        answer = await self.fake.invoke(actor, self.channel, "charge", {"card": choices[0]["value"]}, wait=WAIT)
        self.record(answer, actor, "charge")
        self.after(answer)


async def play_games(
    fake: ControlClient,
    load: Load,
    channel: dict[str, Any],
    players: list[str],
    opts: argparse.Namespace,
    until: float,
    rng: random.Random,
) -> None:
    """One channel's game: a move at random (exponential) intervals until `until`."""
    table = Table(fake, load, channel, players)
    await asyncio.sleep(min(rng.uniform(0, 1 / opts.rate), max(0.0, until - time.monotonic())))
    while time.monotonic() < until:
        try:
            await table.move(opts, rng)
        except Exception as exc:  # counted and shown: a driver error is not the bot's answer
            load.send_errors[type(exc).__name__] += 1
        await asyncio.sleep(min(rng.expovariate(opts.rate), max(0.0, until - time.monotonic())))


async def play_dice(
    fake: ControlClient,
    load: Load,
    channel: dict[str, Any],
    players: list[str],
    opts: argparse.Namespace,
    rate: float,
    until: float,
    rng: random.Random,
) -> None:
    """One channel's /roll and /ruling: at random (exponential) intervals until `until`."""
    rolls = 0
    await asyncio.sleep(min(rng.uniform(0, 1 / rate), max(0.0, until - time.monotonic())))
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
        await asyncio.sleep(min(rng.expovariate(rate), max(0.0, until - time.monotonic())))


async def drop_now_and_then(fake: ControlClient, drops: int, duration: float) -> int:
    """Cut the bot's gateway connection `drops` times, evenly over the load (it must resume each time)."""
    done = 0
    for _ in range(drops):
        await asyncio.sleep(duration / (drops + 1))
        with contextlib.suppress(Exception):
            await fake.drop_connection(0, code=None)
            done += 1
    return done


async def settle(fake: ControlClient, expected: set[str], timeout: float = 10.0) -> list[dict[str, Any]]:
    """The fake's record of every interaction, once all of ours have an answer (or `timeout` ran out)."""
    deadline = time.monotonic() + timeout
    while True:
        records = [r for r in await fake.interactions() if r["id"] in expected]
        if all(r["first_type"] is not None for r in records) or time.monotonic() > deadline:
            return records
        await asyncio.sleep(0.25)


# -- what the bot filed ---------------------------------------------------------------------------


def filed_rolls(database: Path) -> dict[tuple[str, str, str], list[tuple[int, int | None]]]:
    """(channel, user, expression) → [(total, game id)] of every /roll filed (the game's own draws have numbers)."""
    out: dict[tuple[str, str, str], list[tuple[int, int | None]]] = defaultdict(list)
    with contextlib.closing(sqlite3.connect(database)) as db:
        rows = db.execute(
            "SELECT channel_id, user_id, expression, total, game_id FROM rolls WHERE number IS NULL"
        ).fetchall()
    for c, u, e, total, game in rows:
        out[(str(c), str(u), e)].append((int(total), game))
    return out


def logged_moves(database: Path) -> dict[tuple[str, int], list[tuple[int, str]]]:
    """(channel, its n-th game) → [(version, actor)] of every move in the game's log (the start left out)."""
    out: dict[tuple[str, int], list[tuple[int, str]]] = defaultdict(list)
    with contextlib.closing(sqlite3.connect(database)) as db:
        games = db.execute("SELECT id, channel_id FROM games ORDER BY id").fetchall()
        number: dict[int, tuple[str, int]] = {}
        seen: Counter[str] = Counter()
        for game_id, channel_id in games:
            seen[str(channel_id)] += 1
            number[game_id] = (str(channel_id), seen[str(channel_id)])
        for game_id, version, actor, types in db.execute("SELECT game_id, version, actor, types FROM actions"):
            if "game_started" in json.loads(types):
                continue
            out[number[game_id]].append((int(version), str(actor)))
    return out


@dataclass
class MoveCheck:
    played: int = 0
    refused: int = 0
    unanswered: int = 0
    logged: int = 0
    lost: list[str] = field(default_factory=list)  # answered as played, not in the log (or by another player)
    doubled: list[str] = field(default_factory=list)  # in the log without a played answer, or twice for one


def check_moves(moves: list[Move], log: dict[tuple[str, int], list[tuple[int, str]]]) -> MoveCheck:
    check = MoveCheck()
    by_game: dict[tuple[str, int], list[Move]] = defaultdict(list)
    for move in moves:
        by_game[(move.channel_id, move.game)].append(move)
        check.played += move.answer == "played"
        check.refused += move.answer == "refused"
        check.unanswered += move.answer == "none"
    for key in set(by_game) | set(log):
        entries = dict(log.get(key, []))
        check.logged += len(log.get(key, []))
        played = [m for m in by_game.get(key, []) if m.answer == "played"]
        shown = Counter(m.version for m in played if m.version is not None)
        for version, count in shown.items():
            if version not in entries:
                check.lost.append(f"{key}: v{version} answered as played, not in the log")
            if count > 1:
                check.doubled.append(f"{key}: v{version} answered as played {count} times")
        for m in played:
            if m.version is not None and m.version in entries and entries[m.version] != m.user_id:
                check.lost.append(f"{key}: v{m.version} answered to {m.user_id}, logged for {entries[m.version]}")
        # The game's last move ends it and shows no buttons: it is counted, not placed.
        extra = len(entries) - len(played)
        if extra > 0:
            unshown = sorted(set(entries) - set(shown))
            check.doubled.append(f"{key}: {extra} moves in the log not answered as played (versions {unshown[:5]})")
        elif extra < 0:
            check.lost.append(f"{key}: {-extra} moves answered as played, missing from the log")
    return check


# -- the run --------------------------------------------------------------------------------------


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
                f"({time.monotonic() - started:.1f} s); mode: {opts.mode}"
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
                players: list[Any] = []
                for ch, seats in world:
                    if opts.mode == "games":
                        players.append(play_games(fake, load, ch, seats, opts, until, random.Random(rng.random())))
                        dice_rate = opts.roll_rate
                    else:
                        dice_rate = opts.rate
                    if dice_rate > 0:
                        players.append(
                            play_dice(fake, load, ch, seats, opts, dice_rate, until, random.Random(rng.random()))
                        )
                dropped, *_ = await asyncio.gather(drop_now_and_then(fake, opts.drops, opts.duration), *players)
                spent = time.monotonic() - began
                records = await settle(fake, {s.interaction_id for s in load.sent})
                rolls = [s for s in load.sent if s.command == "roll"]
                full = {s.interaction_id: await fake.interaction(s.interaction_id) for s in rolls}
                rate_limits = await fake.rate_limits()
                stats = await fake.stats()
                peak = peak_rss_mb(bot.pid)
            finally:
                code = await stop_process(bot)
        database = folder / "data" / "referee.sqlite3"
        filed = filed_rolls(database)
        log = logged_moves(database)
        log_text = (folder / "referee.log").read_text(errors="replace")

    by_id = {r["id"]: r for r in records}
    ours = [by_id[s.interaction_id] for s in load.sent if s.interaction_id in by_id]
    latencies = [r["latency"] for r in ours if r["latency"] is not None]
    unanswered = [r for r in ours if r["first_type"] is None]
    refused = sum(r["rejected"] for r in ours)
    lost_rolls = [s for s in rolls if not filed.get((s.channel_id, s.user_id, s.expression))]
    doubled_rolls = [s for s in rolls if len(filed.get((s.channel_id, s.user_id, s.expression), [])) > 1]
    mismatched = 0
    for s in rolls:
        answer = full[s.interaction_id]
        content = answer["callbacks"][0]["data"].get("content", "") if answer["callbacks"] else ""
        shown = TOTAL.search(content.split("\n-#")[0])
        rows = filed.get((s.channel_id, s.user_id, s.expression), [])
        if shown is None or not rows or int(shown.group(1)) != rows[0][0]:
            mismatched += 1  # no total in the answer, no row, or another total than the row's
    with_game = sum(1 for rows in filed.values() for _, game in rows if game is not None)
    kinds = Counter(s.command for s in load.sent)
    moves = check_moves(load.moves, log)

    print()
    print(
        f"sent: {len(load.sent)} interactions in {spent:.1f} s ({len(load.sent) / spent:.1f}/s): "
        + ", ".join(f"{n} {k}" for k, n in kinds.most_common())
        + f"; {sum(1 for s in load.sent if s.replayed)} delivered twice"
        + f"; driver errors: {dict(load.send_errors) or 'none'}"
    )
    if latencies:
        print(
            f"first response: median {statistics.median(latencies) * 1000:.0f} ms, "
            f"p99 {percentile(latencies, 0.99) * 1000:.0f} ms, max {max(latencies) * 1000:.0f} ms"
        )
    resumes = sum(session["resumes"] for session in stats["sessions"])
    print(f"gateway connection cut {dropped} times; the bot resumed {resumes} times")
    print(f"no response: {len(unanswered)}; answers refused by Discord (a second answer, or after 3 s): {refused}")
    if opts.mode == "games":
        playing = sum(1 for n in load.games.values() if n)
        ways = Counter(m.how for m in load.moves if m.answer == "played")
        print(
            f"games: {sum(load.games.values())} started in {playing} channels; moves: {len(load.moves)} sent, "
            f"{moves.played} played ({', '.join(f'{n} by {k}' for k, n in ways.most_common())}), "
            f"{moves.refused} refused, {moves.unanswered} unanswered; {moves.logged} in the bots' log"
        )
        print(f"moves lost: {len(moves.lost)}; doubled: {len(moves.doubled)}")
        for line in (moves.lost + moves.doubled)[:10]:
            print(f"    {line}")
    print(
        f"rolls: {len(rolls)} sent, {len(lost_rolls)} lost, {len(doubled_rolls)} filed twice, "
        f"{mismatched} filed with another total than shown; {with_game} filed with a running game"
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
        ("no roll lost", not lost_rolls),
        ("no roll doubled, no second answer", not doubled_rolls and refused == 0),
        ("every filed roll is the one shown", mismatched == 0),
    ]
    if opts.mode == "games":
        targets += [
            ("no move lost (every move answered as played is in the log, once)", not moves.lost),
            ("no move doubled (nothing in the log that was not answered as played)", not moves.doubled),
        ]
    print()
    for name, held in targets:
        print(f"  {'HOLDS ' if held else 'MISSED'}  {name}")
    return 0 if all(held for _, held in targets) else 1


def parse_args(argv: list[str] | None = None) -> argparse.Namespace:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--mode", choices=("games", "rolls"), default="games")
    parser.add_argument("--channels", type=int, default=200)
    parser.add_argument("--guilds", type=int, default=8)
    parser.add_argument("--duration", type=float, default=60.0, help="seconds of load")
    parser.add_argument("--rate", type=float, default=0.5, help="moves (or, --mode rolls, rolls) a second per channel")
    parser.add_argument("--roll-rate", type=float, default=0.05, help="/roll and /ruling a second per channel (games)")
    parser.add_argument("--ruling-share", type=float, default=0.1)
    parser.add_argument("--secret-share", type=float, default=0.1)
    parser.add_argument("--replay-share", type=float, default=0.02)
    parser.add_argument("--double-share", type=float, default=0.08, help="moves made by two presses at once")
    parser.add_argument("--drops", type=int, default=0, help="cut the gateway connection this many times")
    parser.add_argument("--db-sync", choices=("full", "normal"), default="full")
    parser.add_argument("--seed", type=int, default=11)
    return parser.parse_args(argv)


def main() -> None:
    sys.exit(asyncio.run(run(parse_args())))


if __name__ == "__main__":
    main()
