"""The real `referee run` process when Discord misbehaves: broken payloads, unknown commands, a dropped gateway,
a replayed interaction, a crash and restart, and REST answering 429.

One bot process for the module; the restart tests leave a running bot behind them.
"""

from __future__ import annotations

import pytest

from bot.i18n import t
from tests.fake_discord import Callback

from .conftest import RefereeTable

pytestmark = pytest.mark.asyncio(loop_scope="module")

ANSWER = 5.0


def rolls_in(table: RefereeTable, channel_id: int) -> list[tuple[int, str]]:
    return [(r["user_id"], r["expression"]) for r in table.bot.rolls() if r["channel_id"] == channel_id]


def description(answer: Callback) -> str:
    return str(answer.embeds[0].get("description")) if answer.embeds else ""


async def test_broken_payloads_and_an_unknown_command_leave_the_bot_answering(table: RefereeTable) -> None:
    fake, channel = table.fake, await table.new_channel("broken")
    session = fake.gateway.sessions[table.bot.sessions[-1]]

    await fake.send_raw(table.guild, {"id": "not-a-snowflake", "type": 2, "token": "broken-token"})
    await fake.send_raw(table.guild, {"type": 2})
    unknown = await fake.invoke(table.bob, channel, "nosuchcommand", {"n": 1}, strict=False)
    wrong_type = await fake.invoke(table.alice, channel, "roll", {"dice": "1d6", "secret": "yes please"}, strict=False)
    roll = await fake.invoke(table.alice, channel, "roll", {"dice": "2d6"})

    assert (await roll.response(ANSWER)).type == 4
    refusal = await unknown.response(ANSWER)
    assert refusal.ephemeral and description(refusal) == t("discord.error.unknown_command", "en")
    # Discord's copy of /roll is out of date (a string where a boolean belongs): refused, nothing rolled.
    stale = await wrong_type.response(ANSWER)
    assert stale.ephemeral and description(stale) == t("discord.error.unknown_command", "ja")
    assert rolls_in(table, channel.id) == [(table.alice.id, "2d6")]
    assert table.bot.running and session.connected and session.resumes == 0
    log = table.bot.log()
    assert log.count("dropped an INTERACTION_CREATE that could not be read") == 2
    assert "broken-token" not in log and fake.token not in log
    assert "unknown command 'nosuchcommand'" in log and "options of /roll do not match" in log


async def test_an_interaction_sent_while_the_gateway_is_down_is_answered_after_the_resume_and_acts_once(
    table: RefereeTable,
) -> None:
    fake, channel = table.fake, await table.new_channel("dropped")
    session = fake.gateway.sessions[table.bot.sessions[-1]]
    resumes = session.resumes
    fake.hold_resumes()
    try:
        await fake.drop_connection(0, code=None)  # the TCP connection is cut without a close frame
        await fake.wait_until(lambda: not session.connected)
        during = await fake.invoke(table.bob, channel, "roll", {"dice": "2d6+7", "label": "during the gap"})
        assert not during.acknowledged
    finally:
        fake.release_resumes()

    answer = await during.response(ANSWER)
    assert answer.type == 4 and not answer.ephemeral and "during the gap" in (answer.content or "")
    assert session.resumes == resumes + 1 and session.connected
    assert len([s for s in fake.gateway.live_sessions() if s.connected]) == 1  # resumed, not identified anew

    # Discord may deliver an interaction again after a reconnect: the second delivery does nothing.
    await fake.redeliver(during)
    after = await fake.invoke(table.bob, channel, "roll", {"dice": "1d4"})
    await after.response(ANSWER)
    assert len(during.callbacks) == 1 and during.rejected == []
    assert rolls_in(table, channel.id) == [(table.bob.id, "2d6+7"), (table.bob.id, "1d4")]


@pytest.mark.slow
async def test_after_a_crash_and_restart_an_old_ruling_button_is_answered_politely(table: RefereeTable) -> None:
    fake, channel = table.fake, await table.new_channel("restart")
    asked = await fake.invoke(table.alice, channel, "ruling", {"question": "ブロックできるのはいつ？"})
    await asked.response(ANSWER)
    await (await fake.invoke(table.alice, channel, "roll", {"dice": "1d20"})).response(ANSWER)
    message = asked.original
    assert message is not None
    [more_id] = message.custom_ids()

    await table.bot.restart(kill=True)  # SIGKILL: a crash, not a clean stop
    assert len(table.bot.sessions) >= 2

    for user, locale in ((table.alice, "ja"), (table.bob, "en")):
        answer = await (await fake.click(user, message, more_id)).response(ANSWER)
        assert answer.type == 4 and answer.ephemeral
        assert description(answer) == t("discord.ruling.expired", locale)
    asked_again = await fake.invoke(table.alice, channel, "ruling", {"question": "ブロックできるのはいつ？"})
    again = await asked_again.response(ANSWER)
    assert not again.ephemeral and again.components  # a new question gets a working button again
    assert rolls_in(table, channel.id) == [(table.alice.id, "1d20")]  # filed before the crash, kept
    assert "unexpected error" not in table.bot.log()


@pytest.mark.slow
async def test_rest_answering_429_at_start_is_waited_out(table: RefereeTable) -> None:
    fake, channel = table.fake, await table.new_channel("limited")
    fake.rate_limits.global_limit = 2  # two requests a second: logging in and syncing run into 429s
    before = len(fake.rate_limits.given)
    try:
        await table.bot.restart(kill=False)
    finally:
        fake.rate_limits.global_limit = 50
    limited = fake.rate_limits.given[before:]

    assert limited and all(r.scope == "global" for r in limited)
    for refused in limited:
        # The same request was made again once the wait was over, and went through.
        retried = [
            r
            for r in fake.requests
            if r.method == refused.method and r.path == refused.path and 200 <= r.status < 300 and r.at > refused.at
        ]
        assert retried and retried[0].at >= refused.at + refused.retry_after * 0.9
    answer = await (await fake.invoke(table.bob, channel, "roll", {"dice": "1d6"})).response(ANSWER)
    assert answer.type == 4
    assert [s["guild_id"] for s in fake.command_syncs[-1:]] == [table.guild.id]


@pytest.mark.slow
async def test_sigterm_stops_the_bot_cleanly_and_it_starts_again_on_the_same_data(table: RefereeTable) -> None:
    fake, channel = table.fake, await table.new_channel("stopped")
    await (await fake.invoke(table.bob, channel, "roll", {"dice": "1d8"})).response(ANSWER)
    session = fake.gateway.sessions[table.bot.sessions[-1]]

    assert await table.bot.stop() == 0  # what a service manager sends: a clean exit, not a death by signal
    assert not session.connected
    await table.bot.start()
    await (await fake.invoke(table.bob, channel, "roll", {"dice": "1d10"})).response(ANSWER)
    assert rolls_in(table, channel.id) == [(table.bob.id, "1d8"), (table.bob.id, "1d10")]
    assert "Traceback" not in table.bot.log()
