"""/game start|status|log|end|undo|options|verify through the cogs: who sees what, who may do what."""

from __future__ import annotations

from typing import Any

from bot.engine import Charge, legal_actions
from bot.i18n import t
from tests.discord.conftest import ALICE, BOB, CHANNEL_ID, Harness
from tests.discord.table import (
    aggressive,
    click,
    command_for,
    game_payload,
    last,
    start_table,
    state_of,
    user_of,
)

CAROL = 900000000000000013  # a member of the guild who is not at the table
NO_PERMISSIONS = "1024"  # view channel only: no Manage Server, no Manage Channels
MANAGE_CHANNELS = str(1 << 4)


def plain_member(payload: dict[str, Any], permissions: str = NO_PERMISSIONS) -> dict[str, Any]:
    payload["member"]["permissions"] = permissions
    return payload


async def running(harness: Harness) -> bool:
    try:
        return (await harness.bot.service.status(CHANNEL_ID)).active
    except Exception:
        return False


async def play_to_the_end(harness: Harness) -> None:
    for _ in range(600):
        state, _version = await state_of(harness)
        if state.over:
            return
        assert state.active is not None
        user = user_of(state, state.active)
        actions = legal_actions(state, str(user))
        name, options = command_for(actions[aggressive(state, actions)], state.phase)
        await harness.command(name, user=user, **options)
    raise AssertionError("the game did not end")


async def test_the_invitation_is_public_and_only_the_invited_player_can_accept(harness: Harness) -> None:
    await harness.deliver(game_payload("start", {"opponent": BOB}, user=ALICE))
    invitation = last(harness)
    assert not invitation.ephemeral and invitation.message["allowed_mentions"] == {"parse": []}
    assert f"<@{BOB}>" in invitation.text
    [accept] = [c for c in invitation.custom_ids if c.startswith("hn:acc:")]

    for intruder in (ALICE, CAROL):  # neither the challenger nor a bystander accepts for bob
        answer = await click(harness, invitation, accept, user=intruder, locale="en-US")
        assert answer.ephemeral and t("discord.table.not_invited", "en", user=f"<@{BOB}>") in answer.text
    assert not await running(harness)

    started = await click(harness, invitation, accept, user=BOB, locale="en-US")
    assert not started.ephemeral and "alice" in started.text and "bob" in started.text
    state, _version = await state_of(harness)
    assert [p.id for p in state.players] == [str(ALICE), str(BOB)]
    assert [p.name for p in state.players] == ["alice", "bob"]  # their Discord display names
    again = await click(harness, invitation, accept, user=BOB, locale="en-US")  # the same button once more
    assert again.ephemeral  # a game is running: nothing starts twice


async def test_the_invited_player_can_decline_and_nothing_starts(harness: Harness) -> None:
    await harness.deliver(game_payload("start", {"opponent": BOB}, user=ALICE))
    invitation = last(harness)
    [decline] = [c for c in invitation.custom_ids if c.startswith("hn:dec:")]
    answer = await click(harness, invitation, decline, user=BOB, locale="en-US")
    assert answer.callback_type == 7 and answer.custom_ids == []  # the invitation itself says so, buttons gone
    assert "declined" in answer.text
    assert not await running(harness)


async def test_inviting_yourself_or_with_an_unknown_deck_is_refused_privately(harness: Harness) -> None:
    await harness.deliver(game_payload("start", {"opponent": ALICE}, user=ALICE, locale="en-US"))
    assert last(harness).ephemeral and "yourself" in last(harness).text
    await harness.deliver(game_payload("start", {"opponent": BOB, "deck": "no-such-deck"}, user=ALICE, locale="en-US"))
    assert last(harness).ephemeral and "no-such-deck" in last(harness).text
    assert harness.recorder.public() == []


async def test_a_display_name_with_emoji_joiners_is_seated_without_them(harness: Harness) -> None:
    payload = game_payload("start", {"opponent": BOB}, user=ALICE)
    payload["member"]["user"]["global_name"] = "🏳️\u200d🌈 alice"  # a flag emoji: a joiner and a variation selector
    await harness.deliver(payload)
    invitation = last(harness)
    [accept] = [c for c in invitation.custom_ids if c.startswith("hn:acc:")]
    await click(harness, invitation, accept, user=BOB)
    state, _version = await state_of(harness)
    assert state.players[0].name == "🏳🌈 alice"


async def test_status_is_public_with_the_acting_players_buttons_and_the_log_is_private(harness: Harness) -> None:
    await start_table(harness)
    state, version = await state_of(harness)
    harness.recorder.clear()
    await harness.deliver(game_payload("status", user=CAROL, locale="en-US"))
    board = last(harness)
    assert not board.ephemeral and "alice" in board.text and "bob" in board.text
    acting = user_of(state, state.active or 0)
    assert board.custom_ids and all(f":{version}:{acting}:" in c for c in board.custom_ids)
    await harness.deliver(game_payload("log", user=CAROL, locale="en-US"))
    log = last(harness)
    assert log.ephemeral and "alice" in log.text


async def test_a_long_log_fits_discords_limits_and_keeps_the_latest_lines(harness: Harness) -> None:
    await start_table(harness)
    await play_to_the_end(harness)
    await harness.deliver(game_payload("log", user=ALICE, locale="en-US"))
    log = last(harness)
    assert log.ephemeral
    embeds = log.embeds
    assert 1 <= len(embeds) <= 10
    assert all(len(e.get("description") or "") <= 4096 for e in embeds)
    assert sum(len(e.get("title") or "") + len(e.get("description") or "") for e in embeds) <= 6000
    assert "knocked out" in embeds[-1]["description"]  # the end of the game is there


async def test_end_by_a_bystander_is_refused_and_by_a_seated_player_or_a_moderator_it_ends(harness: Harness) -> None:
    await start_table(harness)
    await harness.deliver(plain_member(game_payload("end", user=CAROL, locale="en-US")))
    assert last(harness).ephemeral and "moderator" in last(harness).text
    assert await running(harness)

    await harness.deliver(plain_member(game_payload("end", {"reason": "time"}, user=BOB, locale="en-US")))
    ended = last(harness)
    assert not ended.ephemeral and ended.custom_ids == []
    assert not await running(harness)

    await start_table(harness)  # a new game; CAROL with Manage Channels ends it without a seat
    await harness.deliver(plain_member(game_payload("end", user=CAROL, locale="en-US"), MANAGE_CHANNELS))
    assert not last(harness).ephemeral
    assert not await running(harness)


async def test_undo_is_public_and_only_for_the_player_who_acted(harness: Harness) -> None:
    await start_table(harness)
    state, _version = await state_of(harness)
    user = user_of(state, state.active or 0)
    # Without its ether effect: an effect that draws cards would make the charge one that cannot be undone.
    first = next(a for a in legal_actions(state, str(user)) if isinstance(a, Charge))
    charge = first.model_copy(update={"use_ether_effect": False, "target": None, "ally_target": None})
    name, options = command_for(charge, state.phase)
    await harness.command(name, user=user, **options)
    other = ALICE if user == BOB else BOB
    await harness.deliver(game_payload("undo", user=other, locale="en-US"))
    assert last(harness).ephemeral
    await harness.deliver(game_payload("undo", user=user, locale="en-US"))
    assert not last(harness).ephemeral
    after, _version = await state_of(harness)
    assert after.players[after.active or 0].hand == state.players[state.active or 0].hand


async def test_options_are_shown_set_validated_and_used_by_the_next_start(harness: Harness) -> None:
    await harness.deliver(game_payload("options", {"option": "ether_cap", "value": "5"}, user=ALICE, locale="en-US"))
    shown = last(harness)
    assert not shown.ephemeral and "ether_cap" in shown.text
    await harness.deliver(game_payload("options", {"option": "ether_cap", "value": "lots"}, user=ALICE))
    assert last(harness).ephemeral
    await harness.deliver(game_payload("options", {"option": "no_such", "value": "1"}, user=ALICE, locale="en-US"))
    assert last(harness).ephemeral and "no_such" in last(harness).text
    _locale, stored = await harness.bot.service.table_settings(CHANNEL_ID, None)
    assert stored == {"ether_cap": "5"}  # the bad values changed nothing
    await start_table(harness)
    state, _version = await state_of(harness)
    assert state.options.ether_cap == 5


async def test_verify_is_refused_while_running_and_public_once_the_game_is_over(harness: Harness) -> None:
    await start_table(harness)
    await harness.deliver(game_payload("verify", user=ALICE, locale="en-US"))
    assert last(harness).ephemeral and "still running" in last(harness).text
    await harness.command("concede", user=BOB)
    await harness.deliver(game_payload("verify", user=CAROL, locale="en-US"))
    checked = last(harness)
    assert not checked.ephemeral and checked.text.startswith("✅") and "Verified game" in checked.text


async def test_the_challenger_may_choose_to_play_first(harness: Harness) -> None:
    await start_table(harness, first="opponent")
    state, _version = await state_of(harness)
    assert state.players[state.turn_player].id == str(BOB)


async def test_without_a_game_every_table_command_says_how_to_start_one_privately(harness: Harness) -> None:
    for payload in (game_payload("status", locale="en-US"), game_payload("log", locale="en-US")):
        await harness.deliver(payload)
        assert last(harness).ephemeral and "/game start" in last(harness).text
    await harness.command("pass", locale="en-US")
    assert last(harness).ephemeral
    await harness.command("hand", locale="en-US")
    assert last(harness).ephemeral
    assert harness.recorder.public() == []


async def test_status_after_the_end_shows_the_final_board_without_buttons(harness: Harness) -> None:
    await start_table(harness)
    await harness.command("concede", user=BOB)
    await harness.deliver(game_payload("status", user=CAROL, locale="en-US"))
    board = last(harness)
    assert not board.ephemeral and board.custom_ids == [] and "alice" in board.text
