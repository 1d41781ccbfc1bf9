"""discord.py waits out the fake's 429s; interaction answers are not bound by the global limit."""

from __future__ import annotations

import asyncio

import discord

from tests.fake_discord import FakeDiscord

from .conftest import BotStarter


async def test_a_429_on_a_channel_post_is_waited_out_and_the_message_arrives(
    fake: FakeDiscord, start_bot: BotStarter
) -> None:
    guild = await fake.create_guild("club")
    channel = await fake.create_channel(guild)
    bot = await start_bot(fake)
    fake.rate_limits.message_period = 1.0
    fake.exhaust_channel_bucket(channel)
    target = bot.get_channel(channel.id)
    assert isinstance(target, discord.TextChannel)

    sent = await target.send("hello")

    [limited] = fake.rate_limits.given
    assert limited.scope == "user" and limited.path == f"/channels/{channel.id}/messages"
    posts = [r for r in fake.requests if r.method == "POST" and r.path == limited.path]
    assert [r.status for r in posts] == [429, 200]
    assert posts[1].at - posts[0].at >= limited.retry_after - 0.05  # discord.py slept retry_after before retrying
    assert [m.content for m in fake.public_messages(channel)] == ["hello"] and sent.id == fake.messages(channel)[0].id


async def test_the_bucket_headers_keep_discord_py_under_the_channel_limit(
    fake: FakeDiscord, start_bot: BotStarter
) -> None:
    guild = await fake.create_guild("club")
    channel = await fake.create_channel(guild)
    bot = await start_bot(fake)
    fake.rate_limits.message_period = 1.0
    target = bot.get_channel(channel.id)
    assert isinstance(target, discord.TextChannel)

    await asyncio.gather(*(target.send(f"line {i}") for i in range(7)))

    assert len(fake.public_messages(channel)) == 7
    assert fake.rate_limits.given == []  # Remaining: 0 made discord.py wait for the reset instead of trying


async def test_over_the_global_limit_discord_py_waits_and_interaction_answers_pass(
    fake: FakeDiscord, start_bot: BotStarter
) -> None:
    guild = await fake.create_guild("club")
    channel = await fake.create_channel(guild)
    alice = fake.create_user("alice")
    fake.add_member(guild, alice)
    bot = await start_bot(fake, sync_guild=guild)
    fake.rate_limits.global_limit = 2

    fetched = await asyncio.gather(*(bot.fetch_channel(channel.id) for _ in range(4)))
    assert {c.id for c in fetched} == {channel.id}
    assert any(r.scope == "global" for r in fake.rate_limits.given)

    fake.rate_limits.global_limit = 0  # from now on every request bound by the global limit gets a 429
    handles = [await fake.invoke(alice, channel, "ping") for _ in range(5)]
    answers = [await h.response(timeout=5) for h in handles]
    assert [a.content for a in answers] == ["pong"] * 5
    assert not any("/interactions/" in r.path for r in fake.rate_limits.given)
