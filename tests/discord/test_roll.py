"""/roll: public and secret rolls, mentions disabled, bad input refused and not filed."""

from __future__ import annotations

from tests.discord.conftest import ALICE, CHANNEL_ID, Harness


async def test_a_public_roll_shows_the_breakdown_to_the_channel_and_is_filed(harness: Harness) -> None:
    await harness.command("roll", dice="3d6+2", label="炎の一撃")
    [reply] = harness.recorder.messages()
    assert not reply.ephemeral
    assert "3d6+2" in reply.content and "炎の一撃" in reply.content
    assert reply.message["allowed_mentions"] == {"parse": []}
    [filed] = await harness.filed_rolls()
    assert filed.user_id == ALICE and filed.expression == "3d6+2"
    assert str(filed.total) in reply.content
    assert not [s for s in harness.recorder.sent if s.door == "rest"]  # answered through the interaction only


async def test_a_secret_roll_shows_the_result_to_the_roller_and_only_the_fact_to_the_channel(harness: Harness) -> None:
    await harness.command("roll", dice="2d6>=7", label="罠を見抜く", secret=True)
    [private] = harness.recorder.private()
    [public] = harness.recorder.public()
    assert "2d6>=7" in private.content and "罠を見抜く" in private.content
    [filed] = await harness.filed_rolls()
    assert f"**{filed.total}**" in private.content
    assert f"<@{ALICE}>" in public.content and "シークレット" in public.content
    for hidden in ("2d6", "罠を見抜く", "成功", "失敗"):  # neither what was rolled, nor why, nor how it went
        assert hidden not in public.content
    assert private.message["allowed_mentions"] == public.message["allowed_mentions"] == {"parse": []}


async def test_a_label_cannot_ping_anyone(harness: Harness) -> None:
    await harness.command("roll", dice="1d6", label=f"@everyone @here <@{ALICE}>")
    [reply] = harness.recorder.messages()
    assert reply.message["allowed_mentions"] == {"parse": []}  # Discord pings nobody from this message
    assert "@everyone" not in reply.content and "@here" not in reply.content  # and it does not even read as one
    assert f"<@{ALICE}>" not in reply.content


async def test_bad_dice_are_refused_privately_in_the_users_language_and_nothing_is_filed(harness: Harness) -> None:
    await harness.command("roll", dice="3d", locale="en-US")
    await harness.command("roll", dice="3d", locale="ja")
    english, japanese = harness.recorder.messages()
    assert english.ephemeral and japanese.ephemeral
    assert "Write the number of faces" in english.text and "面の数" not in english.text
    assert "面の数を書いてください" in japanese.text
    assert await harness.filed_rolls() == []


async def test_the_same_interaction_delivered_twice_rolls_once(harness: Harness) -> None:
    from tests.discord.conftest import command_payload

    payload = command_payload("roll", {"dice": "1d20"})
    await harness.deliver(payload)
    await harness.deliver(payload)
    assert len(harness.recorder.messages()) == 1
    assert len(await harness.filed_rolls()) == 1


async def test_a_roll_in_a_channel_with_a_table_is_filed_with_that_game(harness: Harness) -> None:
    from tests.discord.table import start_table, state_of

    await harness.command("roll", dice="1d6")  # before the table: filed with the channel only
    await start_table(harness)
    await harness.command("roll", dice="2d6")
    before, during = [r for r in await harness.filed_rolls() if r.number is None]  # not the game's own draws
    view = await harness.bot.service.status(CHANNEL_ID)
    assert before.game_id is None
    assert during.game_id == view.game_id and during.expression == "2d6"
    await harness.bot.service.end(CHANNEL_ID, ALICE, is_moderator=True)
    await harness.command("roll", dice="3d6")  # the table is over: the channel's own again
    *_, after = [r for r in await harness.filed_rolls() if r.number is None]
    assert after.expression == "3d6" and after.game_id is None
    assert (await state_of(harness))[0].players  # the game's own log is untouched by the rolls
