"""A real discord.py bot connects to the fake, syncs its command, answers /ping and a button click."""

from __future__ import annotations

import aiohttp

from tests.fake_discord import FakeDiscord

from .conftest import BotStarter


async def test_bot_connects_syncs_and_answers_ping_publicly(fake: FakeDiscord, start_bot: BotStarter) -> None:
    guild = await fake.create_guild("club")
    channel = await fake.create_channel(guild, "table-1")
    alice = fake.create_user("alice")
    fake.add_member(guild, alice)

    bot = await start_bot(fake, sync_guild=guild)

    assert sorted(c.name for c in bot.synced) == ["long", "note", "pick", "ping", "slow", "whoami"]
    assert [c.id for c in bot.synced] == [int(c["id"]) for c in fake.commands(guild)]
    assert fake.command_syncs[-1]["guild_id"] == guild.id
    sent = next(c for c in fake.command_syncs[-1]["payload"] if c["name"] == "ping")
    assert sent["name"] == "ping" and sent["options"][0]["name"] == "secret" and sent["options"][0]["type"] == 5
    assert bot.get_guild(guild.id) is not None

    handle = await fake.invoke(alice, channel, "ping")
    answer = await handle.response(timeout=5)
    assert answer.type == 4 and answer.content == "pong" and not answer.ephemeral
    assert answer.allowed_mentions == {"parse": []}
    posted = fake.latest_message(channel, with_components=True)
    assert posted is not None and posted.content == "pong" and posted.custom_ids() == ["ping:again", "ping:later"]
    assert bot.invocations == [str(handle.id)]


async def test_ephemeral_answer_is_marked_and_hidden_from_other_users(fake: FakeDiscord, start_bot: BotStarter) -> None:
    guild = await fake.create_guild("club")
    channel = await fake.create_channel(guild)
    alice, bob = fake.create_user("alice"), fake.create_user("bob")
    fake.add_member(guild, alice)
    fake.add_member(guild, bob)
    await start_bot(fake, sync_guild=guild)

    handle = await fake.invoke(alice, channel, "ping", {"secret": True})
    answer = await handle.response(timeout=5)

    assert answer.type == 4 and answer.ephemeral and answer.content == "pong"
    assert fake.public_messages(channel) == []
    assert fake.latest_message(channel, visible_to=bob) is None
    mine = fake.latest_message(channel, visible_to=alice)
    assert mine is not None and mine.ephemeral and mine.interaction_id == handle.id


async def test_button_click_reaches_the_bot_with_its_custom_id_and_updates_the_message(
    fake: FakeDiscord, start_bot: BotStarter
) -> None:
    guild = await fake.create_guild("club")
    channel = await fake.create_channel(guild)
    alice, bob = fake.create_user("alice"), fake.create_user("bob")
    fake.add_member(guild, alice)
    fake.add_member(guild, bob)
    bot = await start_bot(fake, sync_guild=guild)
    await (await fake.invoke(alice, channel, "ping")).response()
    table = fake.latest_message(channel, with_components=True)
    assert table is not None

    click = await fake.click(bob, table, "ping:again")
    answer = await click.response(timeout=5)

    assert bot.clicks == [(bob.id, "ping:again")]
    assert answer.type == 7 and answer.content == "pong again for bob"
    assert table.content == "pong again for bob" and table.edits == 1
    assert click.payload["data"] == {"custom_id": "ping:again", "component_type": 2}


async def test_deferred_answer_is_edited_and_followed_up_and_a_second_answer_is_refused(
    fake: FakeDiscord, start_bot: BotStarter
) -> None:
    guild = await fake.create_guild("club")
    channel = await fake.create_channel(guild)
    alice = fake.create_user("alice")
    fake.add_member(guild, alice)
    await start_bot(fake, sync_guild=guild)
    handle = await fake.invoke(alice, channel, "slow")

    answer = await handle.response()
    assert answer.type == 5 and answer.ephemeral
    [followup] = await handle.wait_followups(1)
    assert handle.edits[0]["content"] == "done"
    assert handle.original is not None and handle.original.content == "done" and not handle.original.loading
    assert followup.content == "extra" and followup.ephemeral

    url = f"{fake.api_base}/interactions/{handle.id}/{handle.token}/callback"
    async with aiohttp.ClientSession() as http, http.post(url, json={"type": 4, "data": {"content": "again"}}) as resp:
        assert resp.status == 400
        assert (await resp.json())["code"] == 40060
    assert handle.rejected == [{"type": 4, "status": 400, "error": "already acknowledged"}]


async def test_a_deferred_update_then_an_edit_of_the_original_changes_the_clicked_message(
    fake: FakeDiscord, start_bot: BotStarter
) -> None:
    guild = await fake.create_guild("club")
    channel = await fake.create_channel(guild)
    alice = fake.create_user("alice")
    fake.add_member(guild, alice)
    await start_bot(fake, sync_guild=guild)
    await (await fake.invoke(alice, channel, "ping")).response()
    table = fake.latest_message(channel, with_components=True)
    assert table is not None

    click = await fake.click(alice, table, "ping:later")
    assert (await click.response()).type == 6
    await click.wait_edits(1)

    assert click.original is table
    assert table.content == "edited after a deferred update" and table.components == []
    assert len(fake.public_messages(channel)) == 1
