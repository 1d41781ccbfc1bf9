"""/judge: the judge role (and only it) is called, with the board; the call is filed in the game's log."""

from __future__ import annotations

from tests.discord.conftest import ALICE, BOB, CHANNEL_ID, GUILD_ID, Harness, command_payload
from tests.discord.groups import JUDGES, group_payload, role_payload, set_judge_role
from tests.store.tables import start

STRANGER = 900000000000000013


async def judge(harness: Harness, question: str, *, user: int = ALICE, locale: str = "ja") -> None:
    harness.recorder.clear()
    await harness.deliver(command_payload("judge", {"question": question}, user=user, locale=locale))


async def start_game(harness: Harness) -> int:
    service = harness.bot.service
    started = await service.start_game(CHANNEL_ID, ALICE, start(ALICE, BOB), guild_id=GUILD_ID)
    return started.version


async def test_without_a_judge_role_the_call_is_refused_and_nothing_is_filed(harness: Harness) -> None:
    version = await start_game(harness)
    await judge(harness, "Can I block?", locale="en-US")
    [answer] = harness.recorder.messages()
    assert answer.ephemeral and "No judge role is set for this server" in answer.text
    assert (await harness.bot.service.status(CHANNEL_ID)).version == version


async def test_only_an_admin_sets_the_judge_role(harness: Harness) -> None:
    harness.recorder.clear()
    role = {"name": "role", "type": 8, "value": str(JUDGES)}
    resolved = {"roles": {str(JUDGES): role_payload(JUDGES)}}
    await harness.deliver(group_payload("settings", "judge", typed=[role], resolved=resolved, locale="en-US"))
    [refused] = harness.recorder.messages()
    assert refused.ephemeral and "You cannot use this command here." in refused.text
    assert (await harness.bot.service.guild_settings(GUILD_ID)).judge_role_id is None
    harness.recorder.clear()
    await set_judge_role(harness)
    [done] = harness.recorder.messages()
    assert done.ephemeral and f"<@&{JUDGES}>" in done.text
    assert (await harness.bot.service.guild_settings(GUILD_ID)).judge_role_id == JUDGES


async def test_a_call_pings_the_judge_role_alone_shows_the_board_and_is_logged(harness: Harness) -> None:
    await set_judge_role(harness)
    version = await start_game(harness)
    await judge(harness, "@everyone <@&123> ブロックできますか？", user=STRANGER)
    [call] = harness.recorder.messages()
    assert not call.ephemeral
    assert call.content == f"<@&{JUDGES}>"
    # the judges' role may be pinged, nobody else: not @everyone, not another role, not a user
    mentions = call.message["allowed_mentions"]
    assert (
        mentions["parse"] == []
        and [int(r) for r in mentions["roles"]] == [JUDGES]
        and set(mentions) == {"parse", "roles"}
    )
    assert "⚖ ジャッジ呼び出し" in call.text and "ブロックできますか？" in call.text
    assert "Aki" in call.text and "Ben" in call.text  # the board: both seats
    assert f"バージョン {version + 1}" in call.text
    log = await harness.bot.service.log(CHANNEL_ID)
    assert log.entries[-1].type == "table_judge" and log.entries[-1].actor == STRANGER
    assert log.entries[-1].event.question == "@everyone <@&123> ブロックできますか？"
    assert [a.version for a in log.in_effect] == [1]  # not an action


async def test_a_call_without_a_game_still_reaches_the_judges_and_says_it_is_not_filed(harness: Harness) -> None:
    await set_judge_role(harness)
    await judge(harness, "Is this deck legal?", locale="en-US")
    [call] = harness.recorder.messages()
    assert not call.ephemeral and call.content == f"<@&{JUDGES}>"
    assert "No game is running in this channel" in call.text
    assert await harness.bot.service.on_worker(harness.bot.service.store.history, CHANNEL_ID) == []
