"""/settings clock and the dispatcher's messages: one per deadline, pinging the player who must act alone."""

from __future__ import annotations

import asyncio
import time
from typing import Any

import pytest
from discord.http import Route

from tests.discord.conftest import ALICE, BOB, CHANNEL_ID, GUILD_ID, Harness, message_payload
from tests.discord.groups import group_payload
from tests.store.tables import start


async def clock_setting(harness: Harness, *, admin: bool = True, locale: str = "ja", **options: Any) -> str:
    harness.recorder.clear()
    await harness.deliver(group_payload("settings", "clock", options, admin=admin, locale=locale))
    [answer] = harness.recorder.messages()
    assert answer.ephemeral
    return answer.text


@pytest.fixture
def posted(harness: Harness, monkeypatch: pytest.MonkeyPatch) -> list[dict[str, Any]]:
    """Messages the bot posts to a channel itself (REST, outside any interaction), as Discord takes them:
    the harness's REST door, answering a new message as Discord does."""
    sent: list[dict[str, Any]] = []
    record = harness.bot.http.request

    async def request(route: Route, **kwargs: Any) -> Any:
        if route.method == "POST" and route.path == "/channels/{channel_id}/messages":
            body = dict(kwargs.get("json") or {})
            sent.append({**body, "channel_id": route.channel_id})
            return message_payload(body, channel_id=int(route.channel_id or 0))
        return await record(route, **kwargs)

    monkeypatch.setattr(harness.bot.http, "request", request)
    return sent


def dispatcher(harness: Harness) -> Any:
    """The loaded dispatcher cog (an extension's module is its own copy, so not an `isinstance` check)."""
    cog = harness.bot.get_cog("ClockCog")
    assert type(cog).__name__ == "ClockCog" and type(cog).__module__ == "cogs.clock"
    return cog


async def test_only_an_admin_sets_a_clock_and_its_range_is_checked(harness: Harness) -> None:
    said = await clock_setting(harness, admin=False, seconds=60)
    assert "このコマンドはここでは使えません" in said
    said = await clock_setting(harness, seconds=10, locale="en-US")
    assert "between 30 seconds and 604800 seconds" in said
    assert await harness.bot.service.clock(CHANNEL_ID) == (None, None)
    said = await clock_setting(harness, seconds=90)
    assert said == "このチャンネルの持ち時間を 90 秒にしました。時間切れのプレイヤーに一度だけ知らせます。"


async def test_a_passed_deadline_posts_one_reminder_that_pings_only_the_player_to_act(
    harness: Harness, posted: list[dict[str, Any]]
) -> None:
    started = await harness.bot.service.start_game(CHANNEL_ID, ALICE, start(ALICE, BOB), guild_id=GUILD_ID)
    await clock_setting(harness, seconds=60)
    _, deadline = await harness.bot.service.clock(CHANNEL_ID)
    assert deadline is not None
    who = int(started.state.players[started.state.active or 0].id)
    assert deadline.user_id == who
    harness.recorder.clear()
    assert await dispatcher(harness).tick(deadline.due_at - 1) == []
    await dispatcher(harness).tick(deadline.due_at + 1)
    await dispatcher(harness).tick(deadline.due_at + 2)  # the same deadline again: nothing more
    [message] = posted
    assert message["channel_id"] == CHANNEL_ID
    assert message["content"] == f"⏰ <@{who}> さんの番です。持ち時間 60 秒が過ぎました。"
    mentions = message["allowed_mentions"]
    assert mentions["parse"] == [] and [int(u) for u in mentions["users"]] == [who]


async def test_with_auto_pass_the_message_shows_the_pass_and_the_table_moved_on(
    harness: Harness, posted: list[dict[str, Any]]
) -> None:
    started = await harness.bot.service.start_game(CHANNEL_ID, ALICE, start(ALICE, BOB), guild_id=GUILD_ID)
    await clock_setting(harness, seconds=30, auto_pass=True, locale="en-US")
    _, deadline = await harness.bot.service.clock(CHANNEL_ID)
    assert deadline is not None
    harness.recorder.clear()
    [fired] = await dispatcher(harness).tick(deadline.due_at + 1)
    assert fired.kind == "passed"
    [message] = posted
    assert message["channel_id"] == CHANNEL_ID
    assert "30 秒が過ぎたため、審判が代わりにパスしました" in message["content"]  # the server's default language
    assert message["embeds"] and message["embeds"][0]["description"]
    assert (await harness.bot.service.status(CHANNEL_ID)).version == started.version + 1


async def test_a_deadline_that_passed_while_the_bot_was_away_fires_as_the_dispatcher_starts(
    harness: Harness, posted: list[dict[str, Any]]
) -> None:
    service = harness.bot.service
    await service.start_game(CHANNEL_ID, ALICE, start(ALICE, BOB), guild_id=GUILD_ID)
    await service.set_clock(CHANNEL_ID, 30)
    _, deadline = await service.clock(CHANNEL_ID)
    assert deadline is not None
    # the bot was down while the deadline passed: the row says so, no timer anywhere remembers it
    await service.on_worker(service.store.clocks.arm, deadline.model_copy(update={"due_at": time.time() - 1}))
    await harness.bot.reload_extension("cogs.clock")  # a dispatcher starting, as after a restart
    for _ in range(500):  # its first round runs at once; wait for it, not for a time
        if posted:
            break
        await asyncio.sleep(0.01)
    [message] = posted
    assert f"<@{deadline.user_id}>" in message["content"]


async def test_the_clocks_message_is_in_the_language_the_channel_fixed(
    harness: Harness, posted: list[dict[str, Any]]
) -> None:
    service = harness.bot.service
    await service.start_game(CHANNEL_ID, ALICE, start(ALICE, BOB), guild_id=GUILD_ID)
    await service.set_channel_settings(CHANNEL_ID, guild_id=GUILD_ID, locale="en")
    await service.set_clock(CHANNEL_ID, 30)
    harness.bot.fixed_locales.forget()  # no command seen in the channel since the bot started
    _, deadline = await service.clock(CHANNEL_ID)
    assert deadline is not None
    await dispatcher(harness).tick(deadline.due_at + 1)
    [message] = posted
    assert message["content"] == f"⏰ <@{deadline.user_id}>, it is your move: your 30 seconds have run out."
