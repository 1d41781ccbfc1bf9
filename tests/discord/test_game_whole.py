"""Whole games through the cogs: from /game start to a leader's defeat, by slash commands and by clicks."""

from __future__ import annotations

from bot.engine import legal_actions
from tests.discord.conftest import Harness
from tests.discord.table import aggressive, click, command_for, last, start_table, state_of, user_of

STEPS = 600  # far more actions than an aggressive game needs


async def test_a_whole_game_by_slash_commands_ends_with_a_leader_knocked_out(harness: Harness) -> None:
    await start_table(harness)
    for _ in range(STEPS):
        state, _version = await state_of(harness)
        if state.over:
            break
        assert state.active is not None
        user = user_of(state, state.active)
        actions = legal_actions(state, str(user))
        name, options = command_for(actions[aggressive(state, actions)], state.phase)
        before = len(harness.recorder.messages())
        await harness.command(name, user=user, **options)
        [answer] = harness.recorder.messages()[before:]
        assert not answer.ephemeral, f"/{name} {options} was refused: {answer.text}"
    state, _version = await state_of(harness)
    assert state.over and state.end_reason == "leader_knocked_out" and state.winner is not None
    final = last(harness)
    assert state.players[state.winner].name in final.text and final.custom_ids == []  # no buttons once it is over


async def test_a_whole_game_by_buttons_and_the_hand_menu_alone(harness: Harness) -> None:
    """Nothing typed after /game start: every move is a button of the latest public message or an
    option of the hand menu it opens (a phone is enough)."""
    message = await start_table(harness)
    for _ in range(STEPS):
        state, version = await state_of(harness)
        if state.over:
            break
        assert state.active is not None
        user = user_of(state, state.active)
        actions = legal_actions(state, str(user))
        index = aggressive(state, actions)
        wanted = f":{version}:{user}:{index}"
        button = [c for c in message.custom_ids if c.endswith(wanted) and not c.startswith("hn:hand:")]
        if button:
            answer = await click(harness, message, button[0], user=user)
        else:  # a card or a skill: open the hand, choose it in the menu
            [hand_id] = [c for c in message.custom_ids if c.startswith("hn:hand:") and f":{user}:" in c]
            hand = await click(harness, message, hand_id, user=user)
            assert hand.ephemeral
            [menu] = [c for c in hand.custom_ids if c.startswith("hn:play:")]
            answer = await click(harness, hand, menu, user=user, values=[str(index)])
        assert not answer.ephemeral, answer.text
        message = answer
    state, _version = await state_of(harness)
    assert state.over and state.end_reason == "leader_knocked_out"
