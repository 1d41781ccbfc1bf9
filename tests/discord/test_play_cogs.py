"""The play commands and the table's components through the cogs: public plays, private refusals and
hands, stale and foreign buttons, autocomplete from the legal actions, the look, adjustments."""

from __future__ import annotations

from bot.engine import Cast, Charge, UseSkill, legal_actions
from bot.i18n import t
from tests.discord.conftest import ALICE, BOB, CHANNEL_ID, Harness, command_payload
from tests.discord.table import (
    aggressive,
    choices_of,
    click,
    command_for,
    deck_payload,
    last,
    start_table,
    state_of,
    user_of,
)

CAROL = 900000000000000013


async def acting(harness: Harness) -> tuple[int, int]:
    """(the player who must act now, the other one)."""
    state, _version = await state_of(harness)
    user = user_of(state, state.active or 0)
    return user, (ALICE if user == BOB else BOB)


async def advance_to(harness: Harness, phase: str) -> None:
    """Play the aggressive moves by command until the table is in `phase`."""
    for _ in range(200):
        state, _version = await state_of(harness)
        if state.phase == phase:
            return
        user = user_of(state, state.active or 0)
        actions = legal_actions(state, str(user))
        name, options = command_for(actions[aggressive(state, actions)], state.phase)
        await harness.command(name, user=user, **options)
    raise AssertionError(f"never reached {phase}")


async def test_a_play_is_public_a_refusal_is_private_and_changes_nothing(harness: Harness) -> None:
    await start_table(harness)
    user, other = await acting(harness)
    _state, version = await state_of(harness)

    await harness.command("pass", user=other, locale="en-US")  # not their move
    refused = last(harness)
    assert refused.ephemeral and refused.message["allowed_mentions"] == {"parse": []}
    await harness.command("charge", user=user, card="no-such-card", locale="en-US")
    assert last(harness).ephemeral and "no-such-card" in last(harness).text
    await harness.command("pass", user=CAROL, locale="en-US")  # not seated at all
    assert last(harness).ephemeral
    assert (await state_of(harness))[1] == version

    await harness.command("pass", user=user)
    played = last(harness)
    assert not played.ephemeral and (await state_of(harness))[1] == version + 1
    assert played.custom_ids  # the next player's buttons
    assert not [s for s in harness.recorder.sent if s.door == "rest"]  # answered through interactions only


async def test_the_same_interaction_delivered_twice_plays_once(harness: Harness) -> None:
    await start_table(harness)
    user, _other = await acting(harness)
    _state, version = await state_of(harness)
    payload = command_payload("pass", {}, user=user)
    await harness.deliver(payload)
    await harness.deliver(payload)
    assert (await state_of(harness))[1] == version + 1


async def test_the_hand_is_private_with_a_menu_of_what_can_be_played_and_a_pass_button(harness: Harness) -> None:
    await start_table(harness)
    user, other = await acting(harness)
    state, version = await state_of(harness)
    harness.recorder.clear()
    await harness.command("hand", user=user)
    hand = last(harness)
    assert hand.ephemeral and harness.recorder.public() == []
    seat = state.seat_of(str(user))
    assert seat is not None
    for card in state.players[seat].hand:
        assert state.cards[card].name in hand.text
    [menu] = [c for row in hand.message["components"] for c in row["components"] if c["type"] == 3]
    actions = legal_actions(state, str(user))
    assert 1 <= len(menu["options"]) <= 25
    for option in menu["options"]:
        assert isinstance(actions[int(option["value"])], Charge | Cast | UseSkill)
    assert f"hn:pass:{CHANNEL_ID}:{version}:{user}:" in " ".join(hand.custom_ids)

    await harness.command("hand", user=other)  # the other player sees their own hand, and no menu to play
    assert last(harness).ephemeral and not [c for c in last(harness).custom_ids if c.startswith("hn:play:")]
    await harness.command("hand", user=CAROL, locale="en-US")
    assert last(harness).ephemeral and "seated" in last(harness).text


async def test_a_button_from_an_older_state_is_refused_politely_and_changes_nothing(harness: Harness) -> None:
    started = await start_table(harness)
    user, _other = await acting(harness)
    [pass_id] = [c for c in started.custom_ids if c.startswith("hn:pass:")]
    first = await click(harness, started, pass_id, user=user)
    assert not first.ephemeral
    _state, version = await state_of(harness)
    again = await click(harness, started, pass_id, user=user, locale="en-US")  # a double click
    assert again.ephemeral and again.text == t("discord.table.stale", "en")
    assert (await state_of(harness))[1] == version


async def test_another_players_button_is_refused_and_changes_nothing(harness: Harness) -> None:
    started = await start_table(harness)
    _user, other = await acting(harness)
    _state, version = await state_of(harness)
    [pass_id] = [c for c in started.custom_ids if c.startswith("hn:pass:")]
    for intruder in (other, CAROL):
        answer = await click(harness, started, pass_id, user=intruder, locale="en-US")
        assert answer.ephemeral and answer.text.startswith("This button is for ")
    assert (await state_of(harness))[1] == version


async def test_a_menu_from_an_older_hand_is_refused(harness: Harness) -> None:
    await start_table(harness)
    user, _other = await acting(harness)
    await harness.command("hand", user=user)
    hand = last(harness)
    [menu] = [c for c in hand.custom_ids if c.startswith("hn:play:")]
    await harness.command("pass", user=user)
    _state, version = await state_of(harness)
    answer = await click(harness, hand, menu, user=user, values=["0"])
    assert answer.ephemeral and (await state_of(harness))[1] == version


async def test_autocomplete_offers_only_legal_values_at_most_25(harness: Harness) -> None:
    await start_table(harness)
    user, other = await acting(harness)
    state, _version = await state_of(harness)
    legal_cards = {a.card for a in legal_actions(state, str(user)) if isinstance(a, Charge)}
    await harness.deliver(command_payload("charge", {"card": ""}, user=user, focused="card"))
    offered = choices_of(harness)
    assert 1 <= len(offered) <= 25
    assert {c["value"] for c in offered} == legal_cards
    assert all(c["name"] != c["value"] for c in offered)  # named, not shown as ids
    await harness.deliver(command_payload("charge", {"card": ""}, user=other, focused="card"))
    assert choices_of(harness) == []  # not their move: nothing to offer
    await harness.deliver(command_payload("cast", {"card": ""}, user=user, focused="card"))
    assert choices_of(harness) == []  # no casting in the charge phase

    await advance_to(harness, "main")
    state, _version = await state_of(harness)
    user = user_of(state, state.active or 0)
    skills = [a for a in legal_actions(state, str(user)) if isinstance(a, UseSkill)]
    assert skills
    unit = skills[0].unit
    await harness.deliver(command_payload("skill", {"unit": unit, "skill": ""}, user=user, focused="skill"))
    offered = choices_of(harness)
    assert {c["value"] for c in offered} == {a.skill for a in skills if a.unit == unit}
    typed = state.cards[skills[0].unit.split(".", 1)[1]].name[:2] if "." in skills[0].unit else ""
    await harness.deliver(command_payload("skill", {"unit": typed}, user=user, focused="unit"))
    assert {c["value"] for c in choices_of(harness)} <= {a.unit for a in skills}


async def test_a_look_at_the_deck_without_an_effect_that_allows_it_is_refused_privately(harness: Harness) -> None:
    await start_table(harness)
    user, _other = await acting(harness)
    harness.recorder.clear()
    await harness.deliver(deck_payload(3, user=user, locale="en-US"))
    assert last(harness).ephemeral and harness.recorder.public() == []


async def test_an_adjustment_of_the_opponents_unit_waits_for_their_confirm_button(harness: Harness) -> None:
    await start_table(harness)
    user, other = await acting(harness)
    state, _version = await state_of(harness)
    seat = state.seat_of(str(other))
    assert seat is not None
    unit = state.players[seat].units[0]
    await harness.command("adjust", user=user, field="hp", subject=unit.uid, value=str(unit.hp - 1), note="burn")
    request = last(harness)
    assert not request.ephemeral
    [confirm] = [c for c in request.custom_ids if c.startswith(f"hn:confirm:{CHANNEL_ID}:") and f":{other}:" in c]
    assert (await state_of(harness))[0].find_unit(unit.uid).hp == unit.hp  # type: ignore[union-attr]
    wrong = await click(harness, request, confirm, user=user)
    assert wrong.ephemeral
    answer = await click(harness, request, confirm, user=other)
    assert not answer.ephemeral
    assert (await state_of(harness))[0].find_unit(unit.uid).hp == unit.hp - 1  # type: ignore[union-attr]


async def test_adjust_reject_is_a_choice_of_the_command(harness: Harness) -> None:
    await start_table(harness)
    user, other = await acting(harness)
    state, _version = await state_of(harness)
    seat = state.seat_of(str(other))
    assert seat is not None
    unit = state.players[seat].units[0]
    await harness.command("adjust", user=user, field="hp", subject=unit.uid, value="1")
    await harness.command("adjust", user=other, field="reject")
    assert not last(harness).ephemeral
    after, _version = await state_of(harness)
    assert after.pending_adjust is None and after.find_unit(unit.uid).hp == unit.hp  # type: ignore[union-attr]


async def test_concede_is_public_and_ends_the_game_without_buttons(harness: Harness) -> None:
    await start_table(harness)
    await harness.command("concede", user=ALICE)
    ended = last(harness)
    assert not ended.ephemeral and ended.custom_ids == []
    state, _version = await state_of(harness)
    assert state.over and state.end_reason == "concession"


async def test_two_clicks_of_one_button_at_the_same_moment_play_once(harness: Harness) -> None:
    import asyncio

    from tests.discord.conftest import message_payload
    from tests.discord.table import component_payload

    started = await start_table(harness)
    user, _other = await acting(harness)
    _state, version = await state_of(harness)
    [pass_id] = [c for c in started.custom_ids if c.startswith("hn:pass:")]
    before = len(harness.recorder.messages())
    payloads = [component_payload(pass_id, message_payload(started.message), user=user) for _ in range(2)]
    await asyncio.gather(*(harness.deliver(p) for p in payloads))
    answers = harness.recorder.messages()[before:]
    assert sorted(a.ephemeral for a in answers) == [False, True]  # one plays, the other hears it is stale
    assert (await state_of(harness))[1] == version + 1


async def test_a_look_allowed_by_an_effect_shows_the_cards_only_to_the_player(harness: Harness) -> None:
    """bob's 星詠みのテラ・ミナ (the second sample deck) uses 星読み: a look at the top three cards."""
    await start_table(harness, first="opponent")
    await advance_to(harness, "main")
    state, _version = await state_of(harness)
    assert state.players[state.active or 0].id == str(BOB)
    [stargazing] = [a for a in legal_actions(state, str(BOB)) if isinstance(a, UseSkill) and a.skill == "stargazing"]
    await harness.command("skill", user=BOB, unit=stargazing.unit, skill="星読み")
    assert not last(harness).ephemeral
    state, _version = await state_of(harness)
    top = state.players[1].deck[:3]
    before = len(harness.recorder.messages())
    await harness.deliver(deck_payload(3, user=BOB, locale="en-US"))
    public, private = harness.recorder.messages()[before:]
    assert not public.ephemeral and "looks at the top 3" in public.text
    assert private.ephemeral
    for card in top:
        name = state.cards[card].name_en or state.cards[card].name
        assert name in private.text
    hidden = {state.cards[c].name_en for c in top} - {state.cards[c].name_en for c in state.players[1].cemetery}
    assert not [n for n in hidden if n and n in public.text]
