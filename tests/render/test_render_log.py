"""The public log lines of events, and a player's private hand."""

from __future__ import annotations

import random

from bot.dice import FairRandomness
from bot.engine import GameState, apply, legal_actions
from bot.engine import events as ev
from bot.engine.events import Event
from bot.render import render_events, render_hand, render_log, to_text
from bot.table.entries import Logged, TableEnded, TableUndo

Table = tuple[GameState, list[Event], FairRandomness]


def test_a_draw_says_how_many_cards_never_which(table: Table) -> None:
    state, _, _ = table
    drawn = tuple(state.players[0].deck[:2])
    lines = render_events([ev.CardsDrawn(seat=0, cards=drawn, hand_after=7, deck_after=23)], state, "en")
    assert lines == ["alice draws 2 card(s) (hand 7, deck 23)."]
    for card_id in drawn:
        assert (state.cards[card_id].name_en or card_id) not in lines[0] and card_id not in lines[0]
    # The same event from an older log, without the counts: the line without them.
    assert render_events([ev.CardsDrawn(seat=0, cards=drawn)], state, "en") == ["alice draws 2 card(s)."]


def test_a_shuffle_says_its_size_and_draw_number_never_the_order(table: Table) -> None:
    state, _, _ = table
    order = tuple(state.players[1].deck)
    lines = render_events([ev.DeckShuffled(seat=1, order=order, number=9)], state, "ja")
    assert lines == ["bobの山札をシャッフルしました（25枚、ドロー #9）。"]


def test_the_start_of_a_game_tells_lineup_first_player_and_second_player_ether(table: Table) -> None:
    _, events, _ = table
    text = "\n".join(render_events(events, None, "en"))
    assert "alice fields Hart of the Blazing Blade (leader), Lyne of Sunlight, Volk the Iron Wall" in text
    assert "alice plays first (by the table option)." in text
    assert "bob gains 2 ether (second player) → 2." in text
    assert "━━ Turn 1: alice ━━" in text


def test_damage_lines_give_the_roll_the_reduction_and_hp_after() -> None:
    # Play random legal moves until an attack skill's damage is dealt, then read its lines.
    from tests.render.conftest import new_table

    state, _, rng = new_table()
    rnd = random.Random(4)
    for _ in range(400):
        assert state.active is not None
        before = state
        state, events = apply(state, rnd.choice(legal_actions(state, state.players[state.active].id)), rng)
        hits = [e for e in events if isinstance(e, ev.DamageDealt) and e.source == "attack" and e.reduction]
        if hits:
            hit = hits[0]
            lines = render_events(events, before, "en")
            wanted = f"damage (attack: {hit.amount} − DEF {hit.def_applied} = "
            assert any(wanted in line and f"takes {hit.final} damage" in line for line in lines)
            assert any(line.endswith(f"→ HP {hit.hp_after}.") for line in lines if wanted in line)
            return
    raise AssertionError("no attack with a DEF reduction in 400 random moves")


def test_a_knock_out_and_the_winner_are_announced(table: Table) -> None:
    state, _, _ = table
    events: list[Logged] = [
        ev.Adjusted(seat=0, subject="p2.mizuha", field="hp", old=28, new=0),
        ev.KnockedOut(unit="p2.mizuha", afterglow=False),
        ev.GameEnded(winner=0, reason="leader_knocked_out"),
    ]
    lines = render_events(events, state, "ja")
    assert lines[1] == "水葉のミズハ(bob)は戦闘脱落状態になりました。"
    assert lines[2] == "🏆 aliceの勝利: 相手のリーダーが戦闘脱落。"


def test_table_entries_undo_and_end_name_the_player(table: Table) -> None:
    state, _, _ = table
    lines = render_events([TableUndo(by=11, undone=3), TableEnded(by=22, reason="time")], state, "en")
    assert lines == [
        "↩ alice took back their last action.",
        "The game was ended by bob without a winner. Reason: time",
    ]


def test_the_whole_log_replays_from_an_empty_table(table: Table) -> None:
    _, events, _ = table
    message = render_log(events, "en", title="Log")
    assert message.title == "Log" and message.lines[0].startswith("A game of HorizonNotes begins")


def test_a_hand_is_private_to_its_player_and_lists_every_card(table: Table) -> None:
    state, _, _ = table
    message = render_hand(state, 1, "en")
    assert message.private_to == "bob"
    assert message.title == "bob's hand (5)"
    text = to_text(message)
    for card_id in state.players[1].hand:
        assert f"[{card_id}]" in text
    for card_id in set(state.players[0].hand) - set(state.players[1].hand):
        assert f"[{card_id}]" not in text
