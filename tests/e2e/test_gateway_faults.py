"""discord.py survives what the gateway does to it: drops, RECONNECT, INVALID_SESSION, bad payloads."""

from __future__ import annotations

import asyncio

import pytest

from tests.fake_discord import FakeDiscord

from .conftest import BotStarter


async def _table(fake: FakeDiscord):  # type: ignore[no-untyped-def]
    guild = await fake.create_guild("club")
    channel = await fake.create_channel(guild)
    alice = fake.create_user("alice")
    fake.add_member(guild, alice)
    return guild, channel, alice


async def test_an_interaction_sent_while_the_socket_is_down_arrives_after_resume(
    fake: FakeDiscord, start_bot: BotStarter
) -> None:
    guild, channel, alice = await _table(fake)
    await start_bot(fake, sync_guild=guild)
    [session] = await fake.wait_ready()
    fake.hold_resumes()

    await fake.drop_connection(0, code=4000)
    await fake.wait_until(lambda: not session.connected)
    handle = await fake.invoke(alice, channel, "ping")  # lands in the session's log, not on a socket
    assert not handle.acknowledged
    fake.release_resumes()

    answer = await handle.response(timeout=10)
    assert answer.content == "pong"
    assert session.resumes == 1 and session.connected
    assert len(fake.gateway.sessions) == 1  # resumed, not identified again


async def test_an_abrupt_close_without_close_frame_is_resumed(fake: FakeDiscord, start_bot: BotStarter) -> None:
    guild, channel, alice = await _table(fake)
    await start_bot(fake, sync_guild=guild)
    [session] = await fake.wait_ready()
    fake.hold_resumes()

    await fake.drop_connection(0, code=None)
    await fake.wait_until(lambda: not session.connected)
    handle = await fake.invoke(alice, channel, "ping")
    fake.release_resumes()

    assert (await handle.response(timeout=10)).content == "pong"
    assert session.resumes == 1


async def test_reconnect_opcode_makes_the_bot_resume(fake: FakeDiscord, start_bot: BotStarter) -> None:
    guild, channel, alice = await _table(fake)
    await start_bot(fake, sync_guild=guild)
    [session] = await fake.wait_ready()

    await fake.send_reconnect(0)
    await fake.wait_until(lambda: session.resumes == 1 and session.connected, timeout=10)

    assert (await (await fake.invoke(alice, channel, "ping")).response(timeout=5)).content == "pong"


async def test_invalid_session_makes_the_bot_identify_again(fake: FakeDiscord, start_bot: BotStarter) -> None:
    guild, channel, alice = await _table(fake)
    await start_bot(fake, sync_guild=guild)
    [old] = await fake.wait_ready()

    await fake.invalidate_session(0, resumable=False)
    # discord.py waits a moment, then identifies with a new session.
    [new] = await fake.wait_until(lambda: [s for s in fake.gateway.live_sessions() if s.connected], timeout=15)

    assert new is not old and old.invalid
    assert (await (await fake.invoke(alice, channel, "ping")).response(timeout=5)).content == "pong"


async def test_bad_options_unknown_command_and_stale_button_leave_the_bot_answering(
    fake: FakeDiscord, start_bot: BotStarter
) -> None:
    guild, channel, alice = await _table(fake)
    bot = await start_bot(fake, sync_guild=guild)
    [session] = await fake.wait_ready()
    await (await fake.invoke(alice, channel, "ping")).response()
    table = fake.latest_message(channel, with_components=True)
    assert table is not None

    wrong_type = await fake.invoke(alice, channel, "ping", {"secret": "yes please"}, strict=False)
    unknown = await fake.invoke(alice, channel, "nosuchcommand", {"n": 1}, strict=False)
    stale = await fake.click(alice, table, "ping:gone", strict=False)
    ping = await fake.invoke(alice, channel, "ping")

    assert (await ping.response(timeout=5)).content == "pong"
    assert wrong_type.callbacks == unknown.callbacks == stale.callbacks == []
    assert session.connected and session.resumes == 0
    # discord.py hands a wrongly typed value to the command as it came (the callback then failed).
    assert bot.invocations == [bot.invocations[0], str(wrong_type.id), str(ping.id)]


async def test_a_structurally_broken_payload_ends_a_stock_client_and_a_guarded_parser_survives_it(
    fake: FakeDiscord, start_bot: BotStarter
) -> None:
    guild, channel, alice = await _table(fake)
    stock = await start_bot(fake, sync_guild=guild)
    await fake.send_raw(guild, {"id": "not-a-snowflake", "type": 2, "token": "x"})
    assert stock.run_task is not None
    with pytest.raises(ValueError):
        await asyncio.wait_for(stock.run_task, 10)  # Client.start() raised out of the connection loop
    await stock.close()

    guarded = await start_bot(fake, sync_guild=guild, guard_parsers=True)
    [session] = [s for s in fake.gateway.live_sessions() if s.connected]
    await fake.send_raw(guild, {"id": "not-a-snowflake", "type": 2, "token": "x"})
    await fake.send_raw(guild, {"type": 2})
    ping = await fake.invoke(alice, channel, "ping")

    assert (await ping.response(timeout=5)).content == "pong"
    assert guarded.broken_payloads == 2 and session.connected and not guarded.is_closed()
