"""Fixtures: a FakeDiscord in this process, and what connects to it.

- `fake`, `pointed`, `start_bot`: the fake's own tests, with a tiny discord.py bot (PingBot) in this process.
- `referee` / `table` (module-scoped): the real referee, `python -m bot run` as a child process, against a
  fake in this process; see RefereeProcess and RefereeTable below. A test module that uses them runs its
  tests in one event loop with `pytestmark = pytest.mark.asyncio(loop_scope="module")`.

A game test slots in the same way (tests/e2e/test_bot_game.py, say): take `table`, drive the two players
(`table.fake.invoke(table.alice, table.channel, "game", {...}, subcommand="start")`, `table.fake.click(...)`
on `handle.original` or `table.fake.latest_message(channel, with_components=True)`), crash and restart the
bot in the middle with `await table.bot.restart()`, and read what it filed with `table.bot.sql(...)`. A test
that needs other settings or fake options builds its own with `referee_table(folder, env={...}, **options)`.
"""

from __future__ import annotations

import asyncio
import contextlib
import os
import sqlite3
import sys
from collections.abc import AsyncIterator, Awaitable, Callable
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import discord.gateway
import discord.http
import pytest
import pytest_asyncio

from tests.fake_discord import FakeChannel, FakeDiscord, FakeGuild, FakeUser, point_discord_py_at
from tests.fake_discord.gateway import GatewaySession

from .pingbot import PingBot, PingFeatures


@pytest.fixture
async def fake() -> AsyncIterator[FakeDiscord]:
    async with FakeDiscord() as server:
        yield server


@pytest.fixture
def pointed(monkeypatch: pytest.MonkeyPatch) -> Callable[[FakeDiscord], None]:
    """Points discord.py at a fake for this test only (the class attributes are restored afterwards)."""
    monkeypatch.setattr(discord.http.Route, "BASE", discord.http.Route.BASE)
    monkeypatch.setattr(
        discord.gateway.DiscordWebSocket, "DEFAULT_GATEWAY", discord.gateway.DiscordWebSocket.DEFAULT_GATEWAY
    )
    return lambda server: point_discord_py_at(server.url)


BotStarter = Callable[..., Awaitable[PingFeatures]]


@pytest.fixture
async def start_bot(pointed: Callable[[FakeDiscord], None]) -> AsyncIterator[BotStarter]:
    """Starts PingBot against a fake; every bot started is closed at the end of the test."""
    running: list[tuple[PingFeatures, asyncio.Task[None]]] = []

    async def start(
        server: FakeDiscord, sync_guild: FakeGuild | None = None, cls: type[PingFeatures] = PingBot, **kwargs: object
    ) -> PingFeatures:
        pointed(server)
        bot = cls(sync_guild_id=None if sync_guild is None else sync_guild.id, **kwargs)  # type: ignore[arg-type]
        task = asyncio.create_task(bot.start(server.token))
        bot.run_task = task
        running.append((bot, task))
        waiter = asyncio.create_task(bot.wait_until_ready())
        done, _ = await asyncio.wait({waiter, task}, timeout=15, return_when=asyncio.FIRST_COMPLETED)
        if task in done:
            waiter.cancel()
            task.result()  # raises what went wrong
        assert waiter in done, "the bot did not become ready"
        return bot

    yield start
    for bot, task in running:
        await bot.close()
        # A test that ends a bot on purpose has already looked at its exception.
        with contextlib.suppress(asyncio.CancelledError, Exception):
            await asyncio.wait_for(task, 5)


# -- the real referee process (`referee run`) against a fake Discord ---------------------------------------------
#
# The fake runs in the test's event loop; the bot is a child process started exactly as an admin starts it
# (`python -m bot run`), told where Discord is only through its settings (REFEREE_DISCORD_API_URL), with its own
# temporary data folder. Tests of one module share one fake and one bot process (module-scoped loop), so the
# e2e set stays quick; a test that restarts or kills the bot leaves a running one behind for the next test.

ROOT = Path(__file__).resolve().parents[2]
START_TIMEOUT = 60.0  # a first start builds the rulings index on a busy 2-core machine


def pytest_configure(config: pytest.Config) -> None:
    config.addinivalue_line("markers", "slow: starts or restarts a bot process of its own (seconds each)")


@dataclass
class RefereeProcess:
    """`referee run` as a child process, pointed at `fake`, syncing its commands to `guild` on start."""

    fake: FakeDiscord
    guild: FakeGuild
    folder: Path
    env: dict[str, str] = field(default_factory=dict)
    proc: asyncio.subprocess.Process | None = None
    sessions: list[str] = field(default_factory=list)  # gateway session ids of every start, oldest first
    starts: int = 0

    @property
    def database(self) -> Path:
        return self.folder / "data" / "referee.sqlite3"

    @property
    def log_file(self) -> Path:
        return self.folder / "referee.log"

    def log(self) -> str:
        """Everything the bot wrote to stderr, over all its starts."""
        return self.log_file.read_text(encoding="utf-8", errors="replace") if self.log_file.exists() else ""

    def settings_env(self) -> dict[str, str]:
        cache = self.folder.parent / "cache"  # the rulings index: a cache, shared by the starts of a module
        return {
            "PATH": os.environ.get("PATH", "/usr/bin:/bin"),
            "HOME": str(self.folder),
            "PYTHONPATH": str(ROOT),
            "DISCORD_TOKEN": self.fake.token,
            "REFEREE_DISCORD_API_URL": self.fake.url,
            "REFEREE_DEV_GUILD_ID": str(self.guild.id),
            "REFEREE_DATA_DIR": str(self.folder / "data"),
            "REFEREE_CACHE_DIR": str(cache),
            "REFEREE_DB_SYNC": "normal",
            **self.env,
        }

    async def start(self, timeout: float = START_TIMEOUT) -> None:
        """Start the bot and wait until its new gateway session is ready (its commands are synced before that)."""
        assert self.proc is None or self.proc.returncode is not None, "the bot is already running"
        self.folder.mkdir(parents=True, exist_ok=True)
        syncs = len(self.fake.command_syncs)
        command = [sys.executable, "-m", "bot", "run", *self.run_args()]
        with self.log_file.open("ab") as log:
            self.proc = await asyncio.create_subprocess_exec(
                *command, cwd=self.folder, env=self.settings_env(), stderr=log
            )
        self.starts += 1
        proc = self.proc
        count, exclude = self.awaited()
        waiting = asyncio.create_task(self.fake.wait_ready(count, timeout, exclude=exclude))
        ended = asyncio.create_task(proc.wait())
        done, _ = await asyncio.wait({waiting, ended}, return_when=asyncio.FIRST_COMPLETED)
        if ended in done:
            waiting.cancel()
            raise RuntimeError(f"referee run ended with {proc.returncode}:\n{self.log()[-3000:]}")
        ended.cancel()
        sessions = waiting.result()
        self.check_ready(sessions)
        self.sessions += [s.session_id for s in sessions]
        assert len(self.fake.command_syncs) > syncs, "the bot connected without syncing its commands"

    def run_args(self) -> list[str]:
        """The arguments after `referee run`."""
        return []

    def awaited(self) -> tuple[int, list[str]]:
        """How many new gateway sessions make a start ready, and the sessions that are not this start's."""
        return 1, list(self.sessions)

    def check_ready(self, sessions: list[GatewaySession]) -> None:
        assert len(sessions) == 1, "one process, one shard: one session"

    async def stop(self, *, kill: bool = False) -> int | None:
        """SIGTERM (or SIGKILL: a crash); returns the exit code."""
        proc = self.proc
        if proc is None:
            return None
        if proc.returncode is None:
            with contextlib.suppress(ProcessLookupError):
                proc.kill() if kill else proc.terminate()
            try:
                await asyncio.wait_for(proc.wait(), 15)
            except TimeoutError:
                proc.kill()
                await proc.wait()
        return proc.returncode

    async def restart(self, *, kill: bool = True) -> None:
        """A crash (SIGKILL by default) and a fresh start of the same bot on the same data folder."""
        await self.stop(kill=kill)
        await self.start()

    @property
    def running(self) -> bool:
        return self.proc is not None and self.proc.returncode is None

    def sql(self, query: str, *params: Any) -> list[dict[str, Any]]:
        """Rows of the bot's database as filed on disk (read with plain sqlite3: the test's own eyes)."""
        with contextlib.closing(sqlite3.connect(self.database)) as db:
            db.row_factory = sqlite3.Row
            return [dict(r) for r in db.execute(query, params)]

    def rolls(self) -> list[dict[str, Any]]:
        return self.sql("SELECT * FROM rolls ORDER BY id")


@dataclass
class RefereeTable:
    """What a test drives: the fake, the bot process, a guild with a channel, and two players
    (alice reads Japanese, bob English)."""

    fake: FakeDiscord
    bot: RefereeProcess
    guild: FakeGuild
    channel: FakeChannel
    alice: FakeUser
    bob: FakeUser

    async def new_channel(self, name: str) -> FakeChannel:
        return await self.fake.create_channel(self.guild, name)

    async def ensure_running(self) -> None:
        """Start the bot again if a test ended it (so one failing test does not fail the rest of the module)."""
        if not self.bot.running:
            await self.bot.start()


@contextlib.asynccontextmanager
async def referee_table(
    folder: Path, *, env: dict[str, str] | None = None, **fake_options: Any
) -> AsyncIterator[RefereeTable]:
    """A fake Discord with a guild, a channel and two members, and `referee run` connected to it
    (`env`: more settings for the bot; `fake_options`: FakeDiscord's, e.g. interaction_timeout)."""
    async with FakeDiscord(**fake_options) as server:
        guild = await server.create_guild("club", locale="ja")
        channel = await server.create_channel(guild, "table-1")
        alice = server.create_user("alice", locale="ja")
        bob = server.create_user("bob", locale="en-US")
        server.add_member(guild, alice)
        server.add_member(guild, bob)
        bot = RefereeProcess(server, guild, folder / "bot", env=dict(env or {}))
        try:
            await bot.start()
            yield RefereeTable(server, bot, guild, channel, alice, bob)
        finally:
            await bot.stop()


@pytest_asyncio.fixture(loop_scope="module", scope="module")
async def referee(tmp_path_factory: pytest.TempPathFactory) -> AsyncIterator[RefereeTable]:
    """One referee process per test module (tests of the module run in its loop: `pytestmark` below)."""
    async with referee_table(tmp_path_factory.mktemp("referee")) as table:
        yield table


@pytest_asyncio.fixture(loop_scope="module")
async def table(referee: RefereeTable) -> RefereeTable:
    """The module's referee, running (restarted if an earlier test left it stopped)."""
    await referee.ensure_running()
    return referee


# -- referee processes that each run some shards, over one PostgreSQL database (tests/e2e/test_bot_shards.py) ----


@dataclass
class ShardProcess(RefereeProcess):
    """`referee run --shards … --shard-count N`, with the settings of `env` (REFEREE_DATABASE_URL: the database
    it shares with the other processes). Ready once every one of its shards has a new gateway session."""

    shards: tuple[int, ...] = (0,)
    shard_count: int = 1

    def run_args(self) -> list[str]:
        return ["--shards", ",".join(map(str, self.shards)), "--shard-count", str(self.shard_count)]

    def awaited(self) -> tuple[int, list[str]]:
        others = [s.session_id for s in self.fake.gateway.live_sessions()]  # other processes' shards
        return len(self.shards), [*self.sessions, *others]

    def check_ready(self, sessions: list[GatewaySession]) -> None:
        assert sorted(s.shard_id for s in sessions) == sorted(self.shards), "sessions of other shards than asked"

    def sql(self, query: str, *params: Any) -> list[dict[str, Any]]:
        """Rows of the shared PostgreSQL database, read with plain psycopg (`%s` placeholders)."""
        return pg_rows(self.env["REFEREE_DATABASE_URL"], query, *params)


def pg_rows(url: str, query: str, *params: Any) -> list[dict[str, Any]]:
    import psycopg
    from psycopg.rows import dict_row

    with psycopg.connect(url, row_factory=dict_row) as conn:
        return list(conn.execute(query, params).fetchall())
