"""Guilds reach the shard Discord assigns them: (guild_id >> 22) % shard_count."""

from __future__ import annotations

from typing import Any

from tests.fake_discord import FakeDiscord, FakeGuild

from .conftest import BotStarter
from .pingbot import PingBot, ShardedPingBot


def _ready_guilds(fake: FakeDiscord, shard_id: int) -> set[int]:
    session = next(s for s in fake.gateway.live_sessions() if s.shard_id == shard_id)
    ready: dict[str, Any] = next(p["d"] for _, p in session.log if p["t"] == "READY")
    return {int(g["id"]) for g in ready["guilds"]}


async def _guilds(fake: FakeDiscord, count: int) -> list[FakeGuild]:
    guilds = []
    for i in range(count):
        guild = await fake.create_guild(f"guild {i}")
        await fake.create_channel(guild)
        guilds.append(guild)
    return guilds


async def test_two_shards_of_one_client_get_the_guilds_discord_assigns_them(
    fake: FakeDiscord, start_bot: BotStarter
) -> None:
    fake.shard_count = 2
    guilds = await _guilds(fake, 6)
    alice = fake.create_user("alice")
    for g in guilds:
        fake.add_member(g, alice)

    bot = await start_bot(fake, cls=ShardedPingBot)
    await fake.wait_ready(2)

    expected = {s: {g.id for g in guilds if (g.id >> 22) % 2 == s} for s in (0, 1)}
    assert expected[0] and expected[1]
    assert _ready_guilds(fake, 0) == expected[0] and _ready_guilds(fake, 1) == expected[1]
    assert {g.id: bot.get_guild(g.id).shard_id for g in guilds} == {  # type: ignore[union-attr]
        g.id: (g.id >> 22) % 2 for g in guilds
    }


async def test_two_processes_each_one_shard_answer_in_their_own_guilds(
    fake: FakeDiscord, start_bot: BotStarter
) -> None:
    guilds = await _guilds(fake, 4)
    alice = fake.create_user("alice")
    for g in guilds:
        fake.add_member(g, alice)
    first = await start_bot(fake, sync_guild=guilds[0], cls=PingBot, shard_id=0, shard_count=2)
    second = await start_bot(fake, sync_guild=guilds[0], cls=PingBot, shard_id=1, shard_count=2)
    # The same commands, global this time, so that every guild has them.
    fake.sync_commands(str(fake.application_id), None, fake.command_syncs[-1]["payload"])

    assert {(g.id >> 22) % 2 for g in guilds} == {0, 1}
    for g in guilds:
        handle = await fake.invoke(alice, next(iter(g.channels.values())), "ping")
        assert (await handle.response(timeout=5)).content == "pong"
        answered_by = first if (g.id >> 22) % 2 == 0 else second
        assert str(handle.id) in answered_by.invocations
