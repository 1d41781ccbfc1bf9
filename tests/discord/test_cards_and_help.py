"""/card with autocomplete re-checked on submit, and /help read from the tree."""

from __future__ import annotations

from typing import Any

from bot.catalog import Catalog
from tests.discord.conftest import Harness, command_payload


async def autocomplete(
    harness: Harness, command: str, option: str, typed: str, locale: str = "ja"
) -> list[dict[str, Any]]:
    harness.recorder.clear()
    await harness.deliver(command_payload(command, {option: typed}, focused=option, locale=locale))
    [answer] = [s for s in harness.recorder.sent if s.is_callback]
    assert answer.callback_type == 8  # APPLICATION_COMMAND_AUTOCOMPLETE_RESULT
    return list(answer.payload["data"]["choices"])  # type: ignore[index]


async def test_card_autocomplete_offers_at_most_25_cards_of_the_catalog(harness: Harness, catalog: Catalog) -> None:
    assert len(catalog) > 25  # so the limit is what stops the list
    choices = await autocomplete(harness, "card", "name", "")
    assert len(choices) == 25
    assert all(c["value"] in catalog.cards and 1 <= len(c["name"]) <= 100 for c in choices)


async def test_card_autocomplete_puts_the_typed_card_first_in_the_readers_language(
    harness: Harness, catalog: Catalog
) -> None:
    card = catalog.get("ignis-hart")
    [first, *_] = await autocomplete(harness, "card", "name", "ハルト")
    assert first == {"name": f"{card.name} ({card.name_en})", "value": "ignis-hart"}
    [first, *_] = await autocomplete(harness, "card", "name", "hart", locale="en-US")
    assert first["name"] == f"{card.name_en} ({card.name})"


async def test_a_card_is_shown_privately_by_default(harness: Harness) -> None:
    await harness.command("card", name="ignis-hart")
    [reply] = harness.recorder.messages()
    assert reply.ephemeral
    assert "焔刃のハルト" in reply.text and "紅蓮斬" in reply.text


async def test_a_typed_name_is_looked_up_again_and_may_be_public(harness: Harness) -> None:
    # typed, not chosen: full-width capitals, as a Japanese keyboard may give them
    await harness.command("card", name="ＨＡＲＴ ＯＦ ＴＨＥ ＢＬＡＺＩＮＧ ＢＬＡＤＥ", public=True, locale="en-US")
    [reply] = harness.recorder.messages()
    assert not reply.ephemeral and "Crimson Slash" in reply.text


async def test_a_value_not_in_the_catalog_is_refused_on_submit(harness: Harness) -> None:
    await harness.command("card", name="not-a-card-at-all", public=True, locale="en-US")
    [reply] = harness.recorder.messages()
    assert reply.ephemeral
    assert "not-a-card-at-all" in reply.text and "not in the catalog" in reply.text


async def test_ruling_card_options_autocomplete_from_the_catalog(harness: Harness) -> None:
    choices = await autocomplete(harness, "ruling", "card2", "hart", locale="en-US")
    assert choices and choices[0]["value"] == "ignis-hart"


async def test_help_lists_every_command_in_the_users_language(harness: Harness) -> None:
    await harness.command("help")
    [reply] = harness.recorder.messages()
    assert reply.ephemeral
    for japanese in ("/ダイス 式:", "/裁定 質問:", "/カード 名前:", "/ヘルプ [コマンド]"):
        assert japanese in reply.text, japanese
    harness.recorder.clear()
    await harness.command("help", command="roll", locale="en-US")
    [reply] = harness.recorder.messages()
    assert "/roll dice: [label] [secret]" in reply.text
    assert "`secret` — Only you see the result" in reply.text


async def test_help_for_an_unknown_command_is_refused(harness: Harness) -> None:
    await harness.command("help", command="teleport", locale="en-US")
    [reply] = harness.recorder.messages()
    assert reply.ephemeral and "There is no command 'teleport'" in reply.text
    choices = await autocomplete(harness, "help", "command", "ダ")
    assert choices == [{"name": "/ダイス", "value": "roll"}]


async def test_help_lists_groups_with_their_subcommands_and_explains_option_values(harness: Harness) -> None:
    await harness.command("help")
    [overview] = harness.recorder.messages()
    for japanese in ("/ゲーム 開始 相手:", "/ゲーム 検証", "/ゲーム 取り消し", "/デッキ 上を見る", "/デッキ 保存"):
        assert japanese in overview.text, japanese
    [embed] = overview.embeds
    top_level = {c.name for c in harness.bot.tree.get_commands()}
    assert len(embed["fields"]) == len(top_level)  # every command and group has its field, none dropped
    harness.recorder.clear()
    await harness.command("help", locale="en-US")
    [english] = harness.recorder.messages()
    assert "/game start opponent: [deck]" in english.text and "/deck top count:" in english.text
    assert len(english.embeds[0]["fields"]) == len(top_level)  # the longer English words fit too
    harness.recorder.clear()
    await harness.command("help", command="adjust", locale="en-US")
    [adjust] = harness.recorder.messages()
    assert adjust.ephemeral and "Usage: /adjust" in adjust.text
    assert "field:hp — a unit's HP" in adjust.text and "field:deck_top cards:" in adjust.text
    harness.recorder.clear()
    await harness.command("help", command="/ゲーム 開始", locale="en-US")  # a subcommand, by its Japanese name
    [start] = harness.recorder.messages()
    assert "/game start opponent: [deck]" in start.text
    harness.recorder.clear()
    await harness.command("help", command="game", locale="en-US")  # a group: its subcommands
    [game] = harness.recorder.messages()
    assert "/game status" in game.text and "/game verify" in game.text
    choices = await autocomplete(harness, "help", "command", "ゲーム")
    assert {"name": "/ゲーム 開始", "value": "game start"} in choices
