"""Each console command end to end: parsed line → TableService on a real database → rendered reply."""

from __future__ import annotations

import random

from bot.console.session import ConsoleSession, user_id
from bot.dice import FairRandomness
from bot.engine import Block, Cast, Charge, Summon, UseSkill, legal_actions
from bot.table.words import action_line
from tests.console.conftest import START, refusal, text


async def test_start_names_seats_first_player_and_shows_who_acts(session: ConsoleSession) -> None:
    shown = text(await session.run("alice: /game start players:alice,bob decks:solar-vanguard,tidal-veil first:bob"))
    assert "bob plays first (by the table option)." in shown
    assert "→ To act: bob (Charge phase)" in shown
    view = await session.current()
    assert view is not None
    assert [p.name for p in view.state.players] == ["alice", "bob"]
    assert view.state.players[0].id == str(user_id("alice"))


async def test_status_is_the_public_board_for_anyone(session: ConsoleSession) -> None:
    text(await session.run(START))
    shown = text(await session.run("carol: /game status"))
    assert "Turn 1 · alice's turn · Charge phase" in shown
    assert "Table options" in shown and "Fair dice: commitment" in shown


async def test_hand_is_private_and_needs_a_seated_name(session: ConsoleSession) -> None:
    text(await session.run(START))
    reply = await session.run("bob: /hand")
    assert reply.messages[0].private_to == "bob"
    assert "bob's hand (5)" in text(reply)
    assert "Say who does this" in refusal(await session.run("/hand"))
    assert "Only the seated players" in refusal(await session.run("carol: /hand"))


async def test_spectators_read_but_their_actions_are_refused(session: ConsoleSession) -> None:
    text(await session.run(START))
    assert "Only the seated players can do that" in refusal(await session.run("carol: /pass"))
    assert "It is not your priority" in refusal(await session.run("bob: /pass"))
    # A line without a name acts for the player who must act now.
    assert "alice passes." in text(await session.run("/pass"))
    assert "bob passes." in text(await session.run("/next"))


async def test_every_legal_action_written_as_a_line_is_the_action_played(session: ConsoleSession) -> None:
    """A random game of legal moves, each sent as the console words for it (charge, pass, cast, skill,
    block, noblock, summon): every line is accepted and the table logs exactly that move."""
    text(await session.run(START))
    rnd = random.Random(11)
    seen: set[str] = set()
    for _ in range(160):
        view = await session.current()
        if view is None:
            break
        state = view.state
        assert state.active is not None
        player = state.players[state.active]
        action = rnd.choice(legal_actions(state, player.id))
        line = f"{player.name}: {action_line(state, action)}"
        reply = await session.run(line)
        assert reply.refusal is None, f"{line}: {reply.refusal.bilingual()}"
        seen.add(action.type)
        log = await session.service.log(session.channel_id)
        last = [e.type for e in log.in_effect[-1].entries]
        expected = {Charge: "card_converted", Cast: "spell_cast", UseSkill: "skill_used", Block: "block_declared"}
        expected_type = expected.get(type(action)) or ("summoned" if isinstance(action, Summon) else None)
        if expected_type is not None:
            assert expected_type in last, line
    assert {"charge", "pass", "skill", "block", "noblock"} <= seen


async def test_names_in_japanese_english_or_id_reach_the_same_card_and_unit(session: ConsoleSession) -> None:
    text(await session.run(START))
    view = await session.current()
    assert view is not None
    card = session.catalog.get(view.state.players[0].hand[0])
    for name in (card.name, card.name_en or card.id, card.id):
        reply = await session.run(f'alice: /charge card:"{name}" effect:off')
        assert "alice converts" in text(reply)
        assert "alice took back" in text(await session.run("alice: /undo"))


async def test_unknown_and_ambiguous_names_are_refused_in_both_languages(session: ConsoleSession) -> None:
    text(await session.run("alice: /game start players:alice,bob decks:solar-vanguard,starlit-night first:alice"))
    unknown = refusal(await session.run("alice: /charge card:炎の竜巻"))
    assert "という名前のカードはありません" in unknown and "There is no card named" in unknown
    both = refusal(await session.run("alice: /adjust subject:鉄壁のヴォルク field:hp value:10"))
    assert "鉄壁のヴォルク(alice)" in both and "鉄壁のヴォルク(bob)" in both and "could be several units" in both
    # Each language lists the units as its board prints them, so a name can be copied back.
    assert "Volk the Iron Wall(alice), Volk the Iron Wall(bob)" in both.split(" / ", 1)[1]
    shown = text(await session.run("alice: /adjust subject:鉄壁のヴォルク(alice) field:hp value:10 a misread card"))
    assert "alice adjusts Volk the Iron Wall(alice) HP: 38 → 10 (a misread card)." in shown
    assert "You have no unit" in refusal(await session.run("alice: /cast card:spark-arrow caster:mizuha"))
    several = refusal(await session.run("alice: /charge card:潮"))
    assert "潮弾 (tide-bullet)" in several and "Tide Bullet (tide-bullet)" in several.split(" / ", 1)[1]
    skill = refusal(await session.run("alice: /skill unit:Volk(alice) skill:dance"))
    assert "Its skills: Shield Bash (shield-bash)" in skill and "スキル: 盾撃 (shield-bash)" in skill


async def test_adjust_ether_of_a_player_and_tapped_of_a_unit(session: ConsoleSession) -> None:
    text(await session.run(START))
    assert "bob adjusts bob ether: 2 → 5." in text(await session.run("bob: /adjust subject:bob field:ether value:5"))
    shown = text(await session.run("bob: /adjust subject:Sei field:tapped value:on"))
    assert "Sei of the Mist(bob) tapped state: 0 → 1" in shown
    assert "field: must be one of" in refusal(await session.run("bob: /adjust subject:bob field:mana value:1"))
    # A name not at the table is refused by that name (not by the id the console made of it).
    shown = refusal(await session.run("bob: /adjust subject:carol field:ether value:3"))
    assert "“carol” is not a player at this table. Players: alice, bob." in shown


async def test_undo_only_by_the_player_who_acted(session: ConsoleSession) -> None:
    text(await session.run(START))
    view = await session.current()
    assert view is not None
    card = view.state.players[0].hand[0]
    text(await session.run(f"alice: /charge card:{card} effect:off"))
    assert "Only the player who made the last action" in refusal(await session.run("bob: /undo"))
    assert "↩ alice took back their last action." in text(await session.run("alice: /undo"))
    after = await session.current()
    assert after is not None and after.state.players[0].hand == view.state.players[0].hand


async def test_concede_ends_the_game_and_frees_the_table(session: ConsoleSession) -> None:
    text(await session.run(START))
    shown = text(await session.run("bob: /concede"))
    assert "🏆 alice wins: the opponent conceded." in shown and "Revealed seed:" in shown
    final = text(await session.run("/game status"))
    assert "Game over" in final and "Winner: alice" in final
    assert "A game of HorizonNotes begins" in text(await session.run(START))


async def test_game_end_needs_a_seated_player_and_has_no_winner(session: ConsoleSession) -> None:
    text(await session.run(START))
    assert "Only a moderator" in refusal(await session.run("carol: /game end"))
    shown = text(await session.run("bob: /game end we ran out of time"))
    assert "The game was ended by bob without a winner. Reason: we ran out of time" in shown
    # Nobody is to act in a closed game, though its state stopped mid-phase.
    assert "To act" not in shown and "The game ended without a winner." in shown
    final = text(await session.run("/game status"))
    assert "Game over" in final and "To act" not in final and "The game ended without a winner." in final


async def test_roll_is_public_and_filed_in_the_channel_dice_log(session: ConsoleSession) -> None:
    shown = text(await session.run("alice: /roll 2d6+1 test"))
    assert shown.startswith("alice: ") and "2d6" in shown
    rolls = await session.service.on_worker(session.service.store.rolls.of_channel, session.channel_id)
    assert [(r.expression, r.game_id) for r in rolls] == [("2d6+1", None)]
    # Repeatable dice (as `--seed` gives) are still outside the game's fair draws: no number is claimed.
    seeded = ConsoleSession(
        session.service, channel_id=session.channel_id, locale="en", dice=FairRandomness(b"s" * 32, "t")
    )
    again = text(await seeded.run("alice: /roll 2d6"))
    assert again.startswith("alice: ") and "fair roll" not in again and "#0" not in again


async def test_log_is_every_public_line_from_the_start(session: ConsoleSession) -> None:
    text(await session.run(START))
    text(await session.run("alice: /pass"))
    shown = text(await session.run("carol: /game log"))
    assert "Log of game #1" in shown and "alice passes." in shown


async def test_table_options_and_leaders_at_start(session: ConsoleSession) -> None:
    line = START + " leaders:sola-lyne,霧のセイ ether_cap:6 charge_rejoin:off"
    text(await session.run(line))
    view = await session.current()
    assert view is not None
    state = view.state
    assert state.options.ether_cap == 6 and state.options.charge_rejoin is False
    assert (state.players[0].leader, state.players[1].leader) == ("p1.sola-lyne", "p2.kiri-no-sei")


async def test_bad_start_lines_explain_what_is_wrong(session: ConsoleSession) -> None:
    assert "exactly two players" in refusal(await session.run("alice: /game start players:alice decks:x"))
    assert "There is no deck" in refusal(
        await session.run("alice: /game start players:alice,bob decks:solar-vanguard,nope")
    )
    assert "There is no table option mana" in refusal(await session.run(START + " mana:3"))
    assert "ether_cap:0 is not valid; it takes 1-99, none." in refusal(await session.run(START + " ether_cap:0"))
    assert "使える値: rebuild, lose, stop" in refusal(await session.run(START + " deck_out:maybe"))
    assert "it takes on, off." in refusal(await session.run(START + " charge_rejoin:2"))
    assert "first: must be one of the players" in refusal(
        await session.run("alice: /game start players:alice,bob decks:solar-vanguard,tidal-veil first:zed")
    )
    assert "Only the seated players" in refusal(
        await session.run("carol: /game start players:alice,bob decks:solar-vanguard,tidal-veil")
    )
    assert await session.current() is None


async def test_unknown_commands_and_options_are_refused(session: ConsoleSession) -> None:
    assert "There is no command /dance" in refusal(await session.run("alice: /dance"))
    assert "/pass does not take the option card" in refusal(await session.run("alice: /pass card:x"))
    assert "No game is running" in refusal(await session.run("alice: /pass"))
    assert "Start one with /game start" in refusal(await session.run("/game status"))
    assert "Start one with /game start" in refusal(await session.run("/game log"))
    assert "Cannot read this line" in refusal(await session.run("alice pass"))
    assert "/game start" in text(await session.run("/help"))


async def test_a_charge_event_names_the_card_after_it_is_played(session: ConsoleSession) -> None:
    text(await session.run(START))
    view = await session.current()
    assert view is not None
    card_id = view.state.players[0].hand[0]
    reply = await session.run(f"alice: /charge card:{card_id} effect:off")
    assert f"alice converts {session.catalog.get(card_id).name_en} into ether." in text(reply)


async def test_legal_lists_playable_lines_to_the_actor_only(session: ConsoleSession) -> None:
    text(await session.run(START))
    reply = await session.run("alice: /legal")
    assert reply.messages[0].private_to == "alice"
    lines = reply.messages[0].lines
    assert "alice: /pass" in lines and any(line.startswith("alice: /charge card:") for line in lines)
    assert "alice converts" in text(await session.run(lines[0]))
    assert "Nothing: another player must act" in text(await session.run("alice: /legal"))


async def test_a_skill_by_its_english_name_and_a_unit_by_its_printed_form(session: ConsoleSession) -> None:
    text(await session.run(START))
    text(await session.run("alice: /pass"))
    text(await session.run("bob: /pass"))
    shown = text(
        await session.run('alice: /skill unit:"Lyne of Sunlight(alice)" skill:"Light Bolt" target:水葉のミズハ')
    )
    assert "Lyne of Sunlight(alice) uses Light Bolt (attack, cost 1) → Mizuha of the Water Leaves(bob)." in shown
    assert "has no skill “Moon Beam”" in refusal(await session.run('alice: /skill unit:Hart skill:"Moon Beam"'))
