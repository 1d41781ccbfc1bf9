"""Fixtures: a FakeDiscord in this process and a tiny real discord.py bot connected to it."""

from __future__ import annotations

import asyncio
import contextlib
from collections.abc import AsyncIterator, Awaitable, Callable

import discord.gateway
import discord.http
import pytest

from tests.fake_discord import FakeDiscord, FakeGuild, point_discord_py_at

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
