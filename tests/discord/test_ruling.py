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
