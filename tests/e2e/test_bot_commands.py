"""The real `referee run` process against the fake Discord: what it registers and how it answers each command.

One bot process serves the whole module (the `table` fixture); each test uses its own channel where what it
checks could be disturbed by another test's messages.
"""

from __future__ import annotations

import asyncio
from typing import Any

import pytest

from bot.i18n import t
from tests.fake_discord import Callback, InteractionHandle

from .conftest import RefereeTable

pytestmark = pytest.mark.asyncio(loop_scope="module")

NO_MENTIONS: dict[str, list[str]] = {"parse": []}
ANSWER = 5.0  # seconds a test waits for an answer (the fake itself refuses one after 3)


def command(table: RefereeTable, name: str) -> dict[str, Any]:
    [found] = [c for c in table.fake.commands(table.guild) if c["name"] == name]
    return found


def options(cmd: dict[str, Any]) -> dict[str, dict[str, Any]]:
    return {o["name"]: o for o in cmd.get("options") or []}


def channel_posts(table: RefereeTable) -> list[str]:
    """Requests the bot made to post a new channel message (answers must go through the interaction)."""
    return [f"{r.method} {r.path}" for r in table.fake.requests if r.method == "POST" and "/channels/" in r.path]


def assert_answered_through_interactions(table: RefereeTable) -> None:
    """Not one channel post, 429, refused callback or unknown route so far, and the token never logged."""
    assert channel_posts(table) == []
    assert table.fake.rate_limits.given == []
    assert table.fake.stats()["rejected_callbacks"] == 0
    assert table.fake.unknown_routes == []
    assert table.fake.token not in table.bot.log()


def text_of(callback: Callback) -> str:
    parts = [callback.content or ""]
    for embed in callback.embeds:
        parts += [embed.get("title") or "", embed.get("description") or ""]
        parts += [f"{f['name']} {f['value']}" for f in embed.get("fields") or []]
    return "\n".join(parts)


async def test_the_commands_are_synced_to_the_development_guild_with_japanese_names(table: RefereeTable) -> None:
    syncs = table.fake.command_syncs
    assert syncs and all(s["guild_id"] == table.guild.id for s in syncs)  # never a global sync on start
    assert table.fake.commands(None) == []
    synced = {c["name"]: c for c in table.fake.commands(table.guild)}
    assert {"card", "help", "roll", "ruling", "game", "hand", "pass", "deck", "judge", "settings"} <= set(synced)
    japanese = {name: c["name_localizations"]["ja"] for name, c in synced.items()}
    assert japanese == {name: t(f"discord.command.{name}.name", "ja") for name in synced}
    for name, cmd in synced.items():
        assert cmd["description_localizations"]["ja"] == t(f"discord.command.{name}.description", "ja")

    roll = options(command(table, "roll"))
    assert list(roll) == ["dice", "label", "secret"]
    assert roll["dice"]["required"] and roll["dice"]["type"] == 3 and roll["secret"]["type"] == 5
    assert roll["dice"]["name_localizations"]["ja"] == t("discord.command.roll.option.dice.name", "ja")
    ruling = options(command(table, "ruling"))
    assert list(ruling) == ["question", "card", "card2", "public"]
    assert ruling["card"]["autocomplete"] and ruling["card2"]["autocomplete"] and ruling["question"]["required"]
    card = options(command(table, "card"))
    assert card["name"]["autocomplete"] and card["name"]["required"] and card["public"]["type"] == 5
    assert list(options(command(table, "help"))) == ["command"]
    assert_answered_through_interactions(table)


async def test_a_public_roll_is_seen_by_the_channel_and_filed_once(table: RefereeTable) -> None:
    channel = await table.new_channel("roll-public")
    handle = await table.fake.invoke(table.bob, channel, "roll", {"dice": "3d6+2", "label": "@everyone attack"})
    answer = await handle.response(ANSWER)

    assert answer.type == 4 and not answer.ephemeral
    assert answer.allowed_mentions == NO_MENTIONS  # the label names @everyone: nobody is pinged
    assert "everyone attack" in (answer.content or "") and "@everyone" not in (answer.content or "")
    [row] = [r for r in table.bot.rolls() if r["channel_id"] == channel.id]
    assert row["user_id"] == table.bob.id and row["expression"] == "3d6+2"
    assert str(row["total"]) in (answer.content or "")
    assert [m.id for m in table.fake.public_messages(channel)] == [handle.original.id]  # type: ignore[union-attr]
    assert_answered_through_interactions(table)


async def test_a_secret_roll_shows_the_result_to_the_roller_and_only_a_notice_to_the_channel(
    table: RefereeTable,
) -> None:
    channel = await table.new_channel("roll-secret")
    handle = await table.fake.invoke(
        table.alice, channel, "roll", {"dice": "1d100", "label": "hidden-purpose", "secret": True}
    )
    answer = await handle.response(ANSWER)
    [notice] = await handle.wait_followups(1, ANSWER)

    assert answer.ephemeral and answer.allowed_mentions == NO_MENTIONS
    assert "hidden-purpose" in (answer.content or "")
    assert t("discord.roll.secret_note", "ja") in (answer.content or "")
    assert not notice.ephemeral
    assert notice.content == t("discord.roll.secret_notice", "ja", user=f"<@{table.alice.id}>")
    assert "hidden-purpose" not in notice.content and "1d100" not in notice.content
    public = table.fake.public_messages(channel)
    assert [m.id for m in public] == [notice.id]  # the channel sees the notice and nothing else
    [row] = [r for r in table.bot.rolls() if r["channel_id"] == channel.id]
    assert row["expression"] == "1d100" and str(row["total"]) in (answer.content or "")
    assert_answered_through_interactions(table)


async def test_bad_dice_are_refused_to_the_roller_alone_and_nothing_is_filed(table: RefereeTable) -> None:
    channel = await table.new_channel("roll-bad")
    answer = await (await table.fake.invoke(table.bob, channel, "roll", {"dice": "3d"})).response(ANSWER)

    assert answer.ephemeral and answer.embeds and answer.allowed_mentions == NO_MENTIONS
    assert [r for r in table.bot.rolls() if r["channel_id"] == channel.id] == []
    assert table.fake.public_messages(channel) == []
    assert_answered_through_interactions(table)


async def test_a_ruling_quotes_the_rules_publicly_and_the_more_button_answers_whoever_presses_it(
    table: RefereeTable,
) -> None:
    channel = await table.new_channel("ruling")
    handle = await table.fake.invoke(table.alice, channel, "ruling", {"question": "ブロックできるのはいつ？"})
    answer = await handle.response(ANSWER)

    assert answer.type == 4 and not answer.ephemeral and answer.allowed_mentions == NO_MENTIONS
    assert "ブロック" in text_of(answer)
    assert t("discord.ruling.question", "ja", question="ブロックできるのはいつ？") == answer.embeds[0]["title"]
    message = handle.original
    assert message is not None
    [more_id] = message.custom_ids()
    assert more_id.startswith("ruling:more:")

    more = await (await table.fake.click(table.bob, message, more_id)).response(ANSWER)
    assert more.ephemeral and more.type == 4  # bob's extra results are his alone, in his language
    page = t("discord.ruling.page", "en", first=2, last=3, total=0).rsplit(" ", 1)[0]  # "Results 2–3 of"
    assert page in text_of(more) and "[2]" in text_of(more) and "[1]" not in text_of(more)
    assert_answered_through_interactions(table)


async def test_a_card_is_found_by_autocomplete_and_shown_to_the_asker(table: RefereeTable) -> None:
    channel = await table.new_channel("card")
    typed = await table.fake.autocomplete(table.bob, channel, "card", {"name": "Blaze"}, "name")
    choices = (await typed.response(ANSWER)).choices
    assert choices[0] == {"name": "Blaze Lance (烈火の槍)", "value": "blaze-lance"}

    answer = await (await table.fake.invoke(table.bob, channel, "card", {"name": "blaze-lance"})).response(ANSWER)
    assert answer.ephemeral and "Blaze Lance" in answer.embeds[0]["title"]
    shown = await (
        await table.fake.invoke(table.alice, channel, "card", {"name": "烈火の槍", "public": True})
    ).response(ANSWER)
    assert not shown.ephemeral and "烈火の槍" in shown.embeds[0]["title"]

    unknown = await (await table.fake.invoke(table.bob, channel, "card", {"name": "No Such Card"})).response(ANSWER)
    assert unknown.ephemeral and "No Such Card" in text_of(unknown)
    assert_answered_through_interactions(table)


async def test_autocomplete_answers_within_discords_limits_in_the_users_language(table: RefereeTable) -> None:
    channel = await table.new_channel("autocomplete")
    card = await table.fake.autocomplete(table.alice, channel, "ruling", {"question": "x", "card": "槍"}, "card")
    command = await table.fake.autocomplete(table.alice, channel, "help", {"command": ""}, "command")
    everything = await table.fake.autocomplete(table.bob, channel, "card", {"name": "a"}, "name")

    assert {"name": "烈火の槍 (Blaze Lance)", "value": "blaze-lance"} in (await card.response(ANSWER)).choices
    names = {c["value"]: c["name"] for c in (await command.response(ANSWER)).choices}
    expected = {
        n: "/" + t(f"discord.command.{n}.name", "ja") for n in ("card", "help", "roll", "ruling", "hand", "pass")
    }
    assert expected.items() <= names.items()
    assert 0 < len((await everything.response(ANSWER)).choices) <= 25
    assert all(h.type == 4 and not h.rejected for h in (card, command, everything))
    assert_answered_through_interactions(table)


async def test_help_lists_every_command_in_the_users_language_ephemerally(table: RefereeTable) -> None:
    channel = await table.new_channel("help")
    japanese = await (await table.fake.invoke(table.alice, channel, "help")).response(ANSWER)
    english = await (await table.fake.invoke(table.bob, channel, "help", {"command": "roll"})).response(ANSWER)

    assert japanese.ephemeral and english.ephemeral
    assert japanese.embeds[0]["title"] == t("discord.help.title", "ja")
    for name in ("roll", "ruling", "card", "help"):
        assert "/" + t(f"discord.command.{name}.name", "ja") in text_of(japanese)
    assert english.embeds[0]["title"] == t("discord.help.command_title", "en", name="roll")
    assert table.fake.public_messages(channel) == []
    assert_answered_through_interactions(table)


async def test_two_users_rolling_at_once_each_get_their_own_answer_and_roll(table: RefereeTable) -> None:
    channel = await table.new_channel("busy")
    sent: list[tuple[int, InteractionHandle]] = []
    for n in range(12):
        player = table.alice if n % 2 else table.bob
        sent.append((player.id, await table.fake.invoke(player, channel, "roll", {"dice": f"1d6+{n}"})))
    answers = await asyncio.gather(*(h.response(ANSWER) for _, h in sent))

    assert all(a.type == 4 and not a.ephemeral for a in answers)
    assert all(len(h.callbacks) == 1 and not h.rejected for _, h in sent)
    filed = {(r["user_id"], r["expression"]): r["total"] for r in table.bot.rolls() if r["channel_id"] == channel.id}
    assert filed.keys() == {(user, f"1d6+{n}") for n, (user, _) in enumerate(sent)}
    for n, ((user, _), answer) in enumerate(zip(sent, answers, strict=True)):
        assert str(filed[(user, f"1d6+{n}")]) in (answer.content or "")
    assert_answered_through_interactions(table)
