"""A whole game through the real `referee run` process and the fake Discord: /game start, the accept
button, slash commands and clicks (buttons and the hand menu) in turn, a crash and restart of the bot
in the middle after which the buttons of a message sent before it still work, to a leader knocked out.

The test reads the table from the bot's database file (plain sqlite3) only to choose its moves; what
it checks is what the players see: public replies for plays, ephemeral ones for hands and refusals,
every answer through the interaction (no channel message of the bot's own).
"""

from __future__ import annotations

import json

import pytest

from bot.catalog import load_catalog
from bot.engine import GameState, legal_actions
from tests.discord.table import aggressive, command_for
from tests.fake_discord import FakeMessage, FakeUser

from .conftest import RefereeTable
from .test_bot_commands import ANSWER, channel_posts

pytestmark = pytest.mark.asyncio(loop_scope="module")

STEPS = 400
RESTART_AT = 12  # actions played before the crash


def table_state(table: RefereeTable, channel_id: int) -> GameState | None:
    """The channel's running table as filed, with the catalog's cards (None once it is over)."""
    rows = table.bot.sql("SELECT state FROM games WHERE channel_id = ? AND status = 'active'", channel_id)
    if not rows:
        return None
    state = GameState.model_validate(json.loads(rows[0]["state"]))
    state.cards = dict(load_catalog().cards)
    return state


def finished_state(table: RefereeTable, channel_id: int) -> GameState:
    [row] = table.bot.sql("SELECT state FROM games WHERE channel_id = ? ORDER BY id DESC LIMIT 1", channel_id)
    return GameState.model_validate(json.loads(row["state"]))


def user_by_id(table: RefereeTable, user_id: int) -> FakeUser:
    return table.alice if table.alice.id == user_id else table.bob


async def test_a_whole_game_by_commands_and_clicks_survives_a_restart(table: RefereeTable) -> None:
    channel = await table.new_channel("game-whole")
    invite = await table.fake.invoke(table.alice, channel, "game", {"opponent": table.bob}, subcommand="start")
    answer = await invite.response(ANSWER)
    assert not answer.ephemeral and invite.original is not None
    [accept] = [c for c in invite.original.custom_ids() if c.startswith("hn:acc:")]
    refused = await (await table.fake.click(table.alice, invite.original, accept)).response(ANSWER)
    assert refused.ephemeral  # only bob may accept
    accepted = await table.fake.click(table.bob, invite.original, accept)
    start = await accepted.response(ANSWER)
    assert not start.ephemeral and "alice" in str(start.embeds)
    message: FakeMessage | None = accepted.original

    played = 0
    restarted = False
    for step in range(STEPS):
        state = table_state(table, channel.id)
        if state is None:
            break
        if played == RESTART_AT and not restarted:
            await table.bot.restart()  # SIGKILL and a fresh start on the same data folder
            restarted = True
            continue
        user_id = int(state.players[state.active or 0].id)
        user = user_by_id(table, user_id)
        actions = legal_actions(state, str(user_id))
        index = aggressive(state, actions)
        version = table.bot.sql("SELECT version FROM games WHERE channel_id = ? AND status = 'active'", channel.id)[0]
        suffix = f":{version['version']}:{user_id}:{index}"
        buttons = [c for c in (message.custom_ids() if message else []) if c.endswith(suffix)]
        buttons = [c for c in buttons if not c.startswith("hn:hand:")]
        if step % 2 and buttons and message is not None:  # a click on the latest public message
            handle = await table.fake.click(user, message, buttons[0])
        elif step % 2 and message is not None and [c for c in message.custom_ids() if c.startswith("hn:hand:")]:
            hand_id = next(c for c in message.custom_ids() if c.startswith("hn:hand:"))
            shown = await table.fake.click(user, message, hand_id)
            hand = await shown.response(ANSWER)
            assert hand.ephemeral and shown.original is not None
            [menu] = [c for c in shown.original.custom_ids() if c.startswith("hn:play:")]
            handle = await table.fake.select(user, shown.original, menu, [str(index)])
        else:
            name, options = command_for(actions[index], state.phase)
            handle = await table.fake.invoke(user, channel, name, options)
        reply = await handle.response(ANSWER)
        assert not reply.ephemeral, f"step {step} was refused: {reply.embeds}"
        message = handle.original
        played += 1

    assert restarted and played > 3 * RESTART_AT
    final = finished_state(table, channel.id)
    assert final.phase == "over" and final.end_reason == "leader_knocked_out"
    assert channel_posts(table) == []  # every answer went through its interaction
    assert table.fake.token not in table.bot.log()


async def test_a_button_of_a_message_sent_before_a_restart_plays_after_it(table: RefereeTable) -> None:
    channel = await table.new_channel("game-restart")
    invite = await table.fake.invoke(table.alice, channel, "game", {"opponent": table.bob}, subcommand="start")
    await invite.response(ANSWER)
    assert invite.original is not None
    [accept] = [c for c in invite.original.custom_ids() if c.startswith("hn:acc:")]
    await table.bot.restart()  # the invitation outlives the process too
    accepted = await table.fake.click(table.bob, invite.original, accept)
    assert not (await accepted.response(ANSWER)).ephemeral
    start = accepted.original
    assert start is not None
    [pass_id] = [c for c in start.custom_ids() if c.startswith("hn:pass:")]
    state = table_state(table, channel.id)
    assert state is not None and state.active is not None
    user = user_by_id(table, int(state.players[state.active].id))
    other = table.alice if user is table.bob else table.bob

    await table.bot.restart()
    foreign = await (await table.fake.click(other, start, pass_id)).response(ANSWER)
    assert foreign.ephemeral  # not their button
    played = await (await table.fake.click(user, start, pass_id)).response(ANSWER)
    assert not played.ephemeral
    stale = await (await table.fake.click(user, start, pass_id)).response(ANSWER)
    assert stale.ephemeral  # the table has moved on since that message
