"""A real discord.py bot connects to the fake, syncs its command, answers /ping and a button click."""

from __future__ import annotations

from tests.fake_discord import FakeDiscord

from .conftest import BotStarter


async def test_bot_connects_syncs_and_answers_ping_publicly(fake: FakeDiscord, start_bot: BotStarter) -> None:
    guild = await fake.create_guild("club")
    channel = await fake.create_channel(guild, "table-1")
    alice = fake.create_user("alice")
    fake.add_member(guild, alice)

    bot = await start_bot(fake, sync_guild=guild)

    assert [c.name for c in bot.synced] == ["ping"]
    assert fake.command_syncs[-1]["guild_id"] == guild.id
    sent = fake.command_syncs[-1]["payload"][0]
    assert sent["name"] == "ping" and sent["options"][0]["name"] == "secret" and sent["options"][0]["type"] == 5
    assert bot.get_guild(guild.id) is not None

    handle = await fake.invoke(alice, channel, "ping")
    answer = await handle.response(timeout=5)
    assert answer.type == 4 and answer.content == "pong" and not answer.ephemeral
    assert answer.allowed_mentions == {"parse": []}
    posted = fake.latest_message(channel, with_components=True)
    assert posted is not None and posted.content == "pong" and posted.custom_ids() == ["ping:again"]
    assert bot.invocations == [str(handle.id)]
