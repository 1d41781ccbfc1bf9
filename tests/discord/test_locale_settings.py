"""The reply language: the user's Discord locale, unless the server or the channel fixed one."""

from __future__ import annotations

from tests.discord.conftest import CHANNEL_ID, GUILD_ID, Harness
from tests.discord.groups import group_payload


async def card_language(harness: Harness, locale: str) -> str:
    """Which language /card answers a user of `locale` in."""
    harness.recorder.clear()
    await harness.command("card", name="ignis-hart", locale=locale)
    [answer] = harness.recorder.messages()
    title = answer.embeds[0]["title"]  # the card's name in the reader's language first
    assert title.startswith(("焔刃のハルト (", "Hart of the Blazing Blade (")), title
    return "ja" if title.startswith("焔刃") else "en"


async def set_locale(harness: Harness, value: str, scope: str = "server", *, admin: bool = True) -> str:
    harness.recorder.clear()
    await harness.deliver(group_payload("settings", "locale", {"value": value, "scope": scope}, admin=admin))
    [answer] = harness.recorder.messages()
    assert answer.ephemeral
    return answer.text


async def test_each_user_reads_their_own_language_by_default(harness: Harness) -> None:
    assert await card_language(harness, "ja") == "ja"
    assert await card_language(harness, "en-US") == "en"
    assert await card_language(harness, "fr") == "en"


async def test_a_member_without_manage_server_cannot_fix_the_language(harness: Harness) -> None:
    said = await set_locale(harness, "en", admin=False)
    assert "このコマンドはここでは使えません" in said
    assert (await harness.bot.service.guild_settings(GUILD_ID)).locale is None
    assert await card_language(harness, "ja") == "ja"


async def test_a_server_language_applies_to_everyone_and_a_channel_one_wins_over_it(harness: Harness) -> None:
    said = await set_locale(harness, "en")
    assert said.startswith("The referee now answers in English everywhere on this server")  # already in English
    assert await card_language(harness, "ja") == "en"
    said = await set_locale(harness, "ja", "channel")
    assert said == "このチャンネルでは審判ボットは日本語で答えます。"
    assert await card_language(harness, "en-US") == "ja"
    await set_locale(harness, "user", "channel")  # the channel lets go: the server's English again
    assert await card_language(harness, "ja") == "en"
    said = await set_locale(harness, "user")
    assert "各ユーザーの Discord の言語" in said
    assert await card_language(harness, "ja") == "ja" and await card_language(harness, "en-GB") == "en"


async def test_a_fixed_language_is_read_from_the_database_by_a_bot_that_did_not_set_it(harness: Harness) -> None:
    # Another process (or this bot before a restart) fixed the channel's language: a bot that starts
    # with nothing remembered reads it before the channel's first command.
    await harness.bot.service.set_channel_settings(CHANNEL_ID, guild_id=GUILD_ID, locale="en")
    harness.bot.fixed_locales.forget()
    assert await card_language(harness, "ja") == "en"


async def test_refusals_are_in_the_fixed_language_too(harness: Harness) -> None:
    await set_locale(harness, "en")
    harness.recorder.clear()
    await harness.command("card", name="not-a-card-at-all", locale="ja")
    [answer] = harness.recorder.messages()
    assert answer.ephemeral and "not in the catalog" in answer.text
