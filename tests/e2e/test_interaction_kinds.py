"""Autocomplete, select menus, member permissions and locale, Discord's limits and its 3-second rule."""

from __future__ import annotations

import pytest

from tests.fake_discord import FakeDiscord
from tests.fake_discord.world import MANAGE_MESSAGES

from .conftest import BotStarter


async def _club(fake: FakeDiscord):  # type: ignore[no-untyped-def]
    guild = await fake.create_guild("club")
    channel = await fake.create_channel(guild)
    alice = fake.create_user("alice", locale="ja")
    fake.add_member(guild, alice)
    return guild, channel, alice


async def test_autocomplete_gets_choices_and_a_select_menu_gets_the_values(
    fake: FakeDiscord, start_bot: BotStarter
) -> None:
    guild, channel, alice = await _club(fake)
    await start_bot(fake, sync_guild=guild)

    suggest = await fake.autocomplete(alice, channel, "pick", {"fruit": "ap"}, focused="fruit")
    choices = await suggest.response()
    assert choices.type == 8 and [c["value"] for c in choices.choices] == ["apple", "apricot"]
    assert suggest.payload["type"] == 4 and suggest.payload["data"]["options"][0]["focused"] is True

    pick = await fake.invoke(alice, channel, "pick", {"fruit": "apple"})
    assert (await pick.response()).content == "picked apple"
    menu = fake.latest_message(channel, with_components=True)
    assert menu is not None and menu.custom_ids() == ["pick:select"]

    chosen = await fake.select(alice, menu, "pick:select", ["banana", "apricot"])
    answer = await chosen.response()
    assert answer.content == "selected banana,apricot" and answer.ephemeral
    assert chosen.payload["data"]["component_type"] == 3


async def test_a_moderator_role_shows_in_the_member_permissions_and_the_locale_is_the_users(
    fake: FakeDiscord, start_bot: BotStarter
) -> None:
    guild, channel, alice = await _club(fake)
    mod_role = await fake.create_role(guild, "moderator", MANAGE_MESSAGES)
    bob = fake.create_user("bob")
    fake.add_member(guild, bob, [mod_role])
    await start_bot(fake, sync_guild=guild)

    player = await (await fake.invoke(alice, channel, "whoami")).response()
    moderator = await (await fake.invoke(bob, channel, "whoami")).response()

    assert player.content == "player (ja)" and moderator.content == "moderator (en-US)"


async def test_an_answer_over_discords_limits_is_refused_with_invalid_form_body(
    fake: FakeDiscord, start_bot: BotStarter
) -> None:
    guild, channel, alice = await _club(fake)
    bot = await start_bot(fake, sync_guild=guild)

    handle = await fake.invoke(alice, channel, "long")
    await fake.wait_until(lambda: bot.errors)

    assert handle.callbacks == [] and handle.rejected[0]["status"] == 400
    assert "50035" in str(bot.errors[0]) and fake.messages(channel) == []


async def test_an_answer_after_the_interaction_expired_is_unknown(fake: FakeDiscord, start_bot: BotStarter) -> None:
    guild, channel, alice = await _club(fake)
    bot = await start_bot(fake, sync_guild=guild)
    fake.interaction_timeout = 0.0  # every answer comes too late

    handle = await fake.invoke(alice, channel, "ping")
    await fake.wait_until(lambda: bot.errors)

    assert handle.callbacks == [] and handle.rejected[0]["error"] == "expired"
    assert "10062" in str(bot.errors[0])
    assert fake.stats()["unanswered"] == 1


async def test_the_same_interaction_delivered_twice_is_answered_once(fake: FakeDiscord, start_bot: BotStarter) -> None:
    guild, channel, alice = await _club(fake)
    bot = await start_bot(fake, sync_guild=guild)
    handle = await fake.invoke(alice, channel, "ping")
    await handle.response()

    await fake.redeliver(handle)
    await fake.wait_until(lambda: handle.rejected or bot.errors)

    # This throwaway bot does not deduplicate: it runs twice and Discord refuses the second answer.
    assert len(bot.invocations) == 2 and len(handle.callbacks) == 1
    assert handle.rejected == [{"type": 4, "status": 400, "error": "already acknowledged"}]


async def test_the_driver_refuses_what_no_user_could_do(fake: FakeDiscord, start_bot: BotStarter) -> None:
    guild, channel, alice = await _club(fake)
    stranger = fake.create_user("stranger")
    bob = fake.create_user("bob")
    fake.add_member(guild, bob)
    await start_bot(fake, sync_guild=guild)
    secret = await fake.invoke(alice, channel, "ping", {"secret": True})
    await secret.response()
    hidden = fake.latest_message(channel, visible_to=alice)
    assert hidden is not None

    with pytest.raises(LookupError):
        await fake.invoke(stranger, channel, "ping")  # not a member
    with pytest.raises(LookupError):
        await fake.invoke(alice, channel, "nosuch")  # not synced
    with pytest.raises(KeyError):
        await fake.invoke(alice, channel, "ping", {"loud": True})  # not an option of /ping
    with pytest.raises(LookupError):
        await fake.click(bob, hidden, "ping:again")  # somebody else's ephemeral message


async def test_a_modal_opened_by_a_command_is_submitted_with_its_values(
    fake: FakeDiscord, start_bot: BotStarter
) -> None:
    guild, channel, alice = await _club(fake)
    await start_bot(fake, sync_guild=guild)

    opened = await fake.invoke(alice, channel, "note")
    modal = await opened.response()
    assert modal.type == 9 and modal.data["custom_id"] == "note:modal"

    submitted = await fake.submit_modal(opened, {"note:text": "first turn"})
    answer = await submitted.response()
    assert answer.content == "noted: first turn" and answer.ephemeral and submitted.type == 5
