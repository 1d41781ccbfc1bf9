"""/ruling: the quote first, then where it comes from; more results by button; refusals private."""

from __future__ import annotations

from tests.discord.conftest import BOB, Harness, button_payload, message_payload

QUESTION = "タップされたアルカステラはスペルを発動できますか"


async def test_a_ruling_is_public_and_starts_with_the_quote(harness: Harness) -> None:
    await harness.command("ruling", question=QUESTION)
    [reply] = harness.recorder.messages()
    assert not reply.ephemeral
    [embed] = reply.embeds
    assert QUESTION in embed["title"]
    description = embed["description"]
    assert description.startswith("[1] 「")  # the rules' own words come before anything else
    quote_end = description.index("」")
    assert description.index("出典:") > quote_end and description.index("章:") > quote_end
    assert reply.message["allowed_mentions"] == {"parse": []}
    assert any(c.startswith("ruling:more:") for c in reply.custom_ids)


async def test_more_results_come_by_button_to_whoever_presses_it(harness: Harness) -> None:
    await harness.command("ruling", question=QUESTION)
    [first] = harness.recorder.messages()
    [custom_id] = first.custom_ids
    harness.recorder.clear()
    await harness.deliver(button_payload(custom_id, message_payload(first.message), user=BOB, locale="en-US"))
    [more] = harness.recorder.messages()
    assert more.ephemeral
    [embed] = more.embeds
    assert embed["description"].startswith("[2] 「")
    assert "Source:" in embed["description"]  # in the presser's language
    assert "[1] 「" not in embed["description"]


async def test_a_button_whose_question_was_forgotten_says_so(harness: Harness) -> None:
    await harness.command("ruling", question=QUESTION)
    [first] = harness.recorder.messages()
    [custom_id] = first.custom_ids
    cog = harness.bot.get_cog("RulingCog")
    cog.asked = type(cog.asked)()  # type: ignore[union-attr]  # as after a restart
    harness.recorder.clear()
    await harness.deliver(button_payload(custom_id, message_payload(first.message), locale="en-US"))
    [reply] = harness.recorder.messages()
    assert reply.ephemeral and "Ask again with /ruling" in reply.text


async def test_a_private_ruling_when_asked(harness: Harness) -> None:
    await harness.command("ruling", question=QUESTION, public=False)
    [reply] = harness.recorder.messages()
    assert reply.ephemeral


async def test_an_unknown_card_is_refused_privately_with_close_names(harness: Harness) -> None:
    await harness.command("ruling", question="この二枚はどう働きますか", card="ハルト", public=True)
    [reply] = harness.recorder.messages()
    assert reply.ephemeral
    assert "ハルト" in reply.text and "焔刃のハルト" in reply.text


async def test_cards_named_in_the_question_are_shown_with_their_text(harness: Harness) -> None:
    await harness.command("ruling", question="この攻撃はブロックできますか", card="ignis-hart")
    [reply] = harness.recorder.messages()
    assert "焔刃のハルト" in reply.text


async def test_a_question_the_rules_do_not_answer_says_so(harness: Harness) -> None:
    await harness.command("ruling", question="zzqx flurble wibble", locale="en-US")
    [reply] = harness.recorder.messages()
    assert "Nothing in the corpus" in reply.text
    assert reply.custom_ids == []


async def test_in_a_channel_with_a_table_the_answer_shows_the_board_it_is_about(harness: Harness) -> None:
    from tests.discord.conftest import CHANNEL_ID
    from tests.discord.table import start_table, state_of

    await harness.command("ruling", question="焔刃のハルトはブロックできる？")
    assert not [f for f in harness.recorder.messages()[-1].embeds[0].get("fields", []) if "卓" in f["name"]]
    await harness.bot.service.set_channel_settings(CHANNEL_ID, options={"deck_out": "lose"})
    await start_table(harness)
    state, _ = await state_of(harness)
    hart, rival = state.players[0].units[0], state.players[1].units[-1]
    name_of = {u.uid: state.cards[u.card].name for p in state.players for u in p.units}
    [other, *_] = [u for u in state.players[0].units if name_of[u.uid] not in (name_of[hart.uid], name_of[rival.uid])]
    harness.recorder.clear()
    await harness.command("ruling", question=f"{name_of[hart.uid]}は{name_of[rival.uid]}の攻撃をブロックできる？")
    [reply] = harness.recorder.messages()
    [board] = [f for f in reply.embeds[0]["fields"] if f["name"] == "この卓のいま"]
    assert "チャージフェイズ" in board["value"] and "行動するのは:" in board["value"]
    assert f"★{name_of[hart.uid]}" in board["value"] and name_of[rival.uid] in board["value"]
    assert name_of[other.uid] not in board["value"]  # on the table, not asked about
    harness.recorder.clear()
    await harness.command("ruling", question="If my deck is empty when I must draw, do I lose?", locale="en-US")
    [house] = harness.recorder.messages()
    assert "This table's setting: deck_out = lose" in house.embeds[0]["description"]


async def test_beside_a_running_table_a_question_naming_no_game_is_about_the_game_played(harness: Harness) -> None:
    from tests.discord.table import start_table

    question = "手札って最大何枚まで持てるの？多すぎたら捨てる？"  # no game named, its words belong to both
    await harness.command("ruling", question=question)
    [without] = harness.recorder.messages()
    assert "HorizonNotes ルール" not in without.embeds[0]["description"].split("\n\n")[0]
    await start_table(harness)
    harness.recorder.clear()
    await harness.command("ruling", question=question)
    [beside] = harness.recorder.messages()
    first = beside.embeds[0]["description"].split("\n\n")[0]
    assert "HorizonNotes ルール" in first  # the rules of the game on the table come first
