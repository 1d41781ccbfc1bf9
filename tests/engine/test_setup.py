"""Set-up, once (ゲーム開始時の準備), and the start and draw phases."""

from __future__ import annotations

from typing import Any

import pytest

from bot.dice import FairRandomness
from bot.engine import Adjust, Cast, Charge, GameOptions, GameState, Pass, RuleViolation, StartGame, apply, replay

from .conftest import CARDS, LoadedDice, pass_until, seat, start


def test_setup_lays_out_three_arcastella_one_leader_five_cards_and_two_ether_for_the_second_player() -> None:
    t = start(seat1={"leader": "knight"}, seat2={"leader": "knight"})
    alice, bob = t.player(0), t.player(1)
    assert [u.uid for u in alice.units] == ["p1.sage", "p1.knight", "p1.squire"]
    assert alice.leader == "p1.knight" and bob.leader == "p2.knight"
    assert all(u.kind == "arcastella" and u.hp == u.max_hp for u in alice.units + bob.units)
    assert len(alice.hand) == len(bob.hand) == 5 and len(alice.deck) == len(bob.deck) == 5
    assert (alice.ether, bob.ether) == (0, 2)  # 後攻のプレイヤーは、エーテルを2点獲得
    # The first turn's start and draw phases need no decision: the table waits in the charge phase.
    assert (t.state.turn, t.state.turn_player, t.state.phase, t.state.active) == (1, 0, "charge", 0)


def test_the_first_player_is_a_public_roll_by_default() -> None:
    t = start(("bolt",) * 10, ("bolt",) * 10, 5, options=GameOptions(), seat1={"leader": "knight"})
    rolls = [e for e in t.events if e.type == "dice_rolled"]
    assert rolls[0].purpose == "first_player" and rolls[0].faces == (5,) and rolls[0].number == 0
    assert t.state.turn_player == 1  # 4-6: the second seat plays first
    assert t.player(0).ether == 2  # so the first seat is second and gains 2 ether


def test_first_player_can_be_fixed_by_option() -> None:
    t = start(options=GameOptions(first_player="second_seat"), seat2={"leader": "knight"})
    assert t.state.turn_player == 1 and not any(e.type == "dice_rolled" for e in t.events)


def test_decks_are_shuffled_through_the_dice_and_the_order_is_in_the_events() -> None:
    rng = FairRandomness(b"setup-seed", "table-setup")
    deck = ("bolt", "spark", "quick", "dawn", "dusk", "regen", "riddle", "weaken", "big", "study")
    action = StartGame(players=(seat("alice", deck), seat("bob", deck)), cards=CARDS)
    state, events = apply(GameState(), action, rng)
    shuffles = [e for e in events if e.type == "deck_shuffled"]
    assert [s.seat for s in shuffles] == [0, 1] and all(s.number is not None for s in shuffles)
    alice = state.players[0]
    assert sorted(shuffles[0].order) == sorted(deck)
    assert list(shuffles[0].order[:5]) == alice.hand[:5]  # the top five were drawn
    assert replay(events) == state  # no rng needed


def test_equipment_is_worn_from_the_start_and_adds_its_def_bonus() -> None:
    t = start(seat2={"equipment": {"knight": "amulet"}})
    knight = t.unit("p2.knight")
    assert knight.equipment == "amulet" and t.state.effective_def(knight) == 4 + 2


@pytest.mark.parametrize(
    ("spec", "key"),
    [
        ({"arcastella": ("sage", "knight", "bolt")}, "engine.bad_deck_arcastella"),
        ({"leader": "squire", "arcastella": ("sage", "knight", "knight")}, "engine.bad_leader"),
        ({"equipment": {"squire": "bolt"}}, "engine.bad_equipment"),
    ],
)
def test_a_bad_seat_is_refused_and_nothing_starts(spec: dict[str, Any], key: str) -> None:
    action = StartGame(players=(seat("alice", ("bolt",) * 10, **spec), seat("bob", ("bolt",) * 10)), cards=CARDS)
    empty = GameState()
    with pytest.raises(RuleViolation) as info:
        apply(empty, action, LoadedDice())
    assert info.value.message_key == key
    assert empty == GameState()


def test_an_arcastella_in_the_deck_is_refused() -> None:
    action = StartGame(players=(seat("alice", ("knight",) * 10), seat("bob", ("bolt",) * 10)), cards=CARDS)
    with pytest.raises(RuleViolation) as info:
        apply(GameState(), action, LoadedDice())
    assert "knight" in info.value.bilingual()


def test_a_started_game_cannot_start_again() -> None:
    t = start()
    action = StartGame(players=(seat("alice", ("bolt",) * 10), seat("bob", ("bolt",) * 10)), cards=CARDS)
    with pytest.raises(RuleViolation, match="すでに始まって"):
        apply(t.state, action, LoadedDice())


# ---- start phase -------------------------------------------------------------------------------


def test_the_leaders_turn_start_skill_fires_in_its_own_start_phase_only() -> None:
    t = start()  # both leaders are sage, whose leader skill gains 1 ether at turn start
    fired = [e for e in t.events if e.type == "skill_used" and e.skill == "dawnlight"]
    assert [e.seat for e in fired] == [0] and t.player(0).ether == 1
    pass_until(t, "charge", turn=2)
    assert t.player(1).ether == 2 + 1


def test_a_leader_skill_does_not_work_on_an_arcastella_that_is_not_the_leader() -> None:
    t = start(seat1={"leader": "knight"})
    assert not any(e.type == "skill_used" for e in t.events) and t.player(0).ether == 0


def test_a_continuing_effect_resolves_in_each_of_its_controllers_start_phases_then_ends() -> None:
    t = start(("regen",) + ("bolt",) * 9)
    pass_until(t, "main")
    t.do(Adjust(player="alice", subject="alice", field="ether", value=5))
    t.do(Adjust(player="alice", subject="p1.knight", field="hp", value=10))
    t.do(Cast(player="alice", card="regen", caster="p1.sage", target="p1.knight"))
    assert t.unit("p1.knight").hp == 10 and t.state.continuing[0].remaining == 2  # nothing at once
    pass_until(t, "charge", turn=2)
    assert t.unit("p1.knight").hp == 10  # not in the opponent's start phase
    pass_until(t, "charge", turn=3)
    assert t.unit("p1.knight").hp == 13 and t.state.continuing[0].remaining == 1
    pass_until(t, "charge", turn=5)
    assert t.unit("p1.knight").hp == 16 and t.state.continuing == []


def test_the_turn_players_arcastella_untap_in_their_start_phase() -> None:
    t = start()
    t.do(Adjust(player="bob", subject="p2.knight", field="tapped", value=1))
    t.do(Adjust(player="alice", subject="p1.knight", field="tapped", value=1))
    pass_until(t, "charge", turn=2)
    assert not t.unit("p2.knight").tapped and t.unit("p1.knight").tapped  # only the turn player's
    pass_until(t, "charge", turn=3)
    assert not t.unit("p1.knight").tapped


def test_a_turn_start_spell_is_cast_in_a_window_of_the_start_phase_and_not_in_the_main_phase() -> None:
    t = start(("dawn",) + ("bolt",) * 9)
    pass_until(t, "main")
    with pytest.raises(RuleViolation) as info:
        apply(t.state, Cast(player="alice", card="dawn", caster="p1.sage"), LoadedDice())
    assert info.value.message_key == "engine.wrong_timing.turn_start"
    assert "house rule 19" in info.value.message("en")  # the start-phase window is this table's reading
    pass_until(t, "start", turn=3)  # no turn-end spell at bob's end phase: straight on to alice's turn 3
    assert (t.state.turn, t.state.phase, t.state.active) == (3, "start", 0)
    assert t.player(0).ether == 2  # dawnlight fired before the window opened
    t.do(Cast(player="alice", card="dawn", caster="p1.sage"))
    assert t.player(0).ether == 2 - 1 + 2 and t.state.phase == "start"
    t.do(Pass(player="alice"))
    assert (t.state.phase, len(t.player(0).hand)) == ("charge", 5)


# ---- draw phase --------------------------------------------------------------------------------


def test_the_draw_phase_draws_until_the_hand_holds_five() -> None:
    t = start()
    pass_until(t, "main")
    t.do(Cast(player="alice", card="bolt", caster="p1.sage", target="p2.squire"))
    assert len(t.player(0).hand) == 4
    pass_until(t, "charge", turn=3)
    assert len(t.player(0).hand) == 5


def test_a_hand_above_five_draws_nothing_and_discards_nothing() -> None:
    t = start(("study",) * 10)
    pass_until(t, "main")
    t.do(Cast(player="alice", card="study", caster="p1.sage"))
    assert len(t.player(0).hand) == 6
    pass_until(t, "charge", turn=3)
    assert len(t.player(0).hand) == 6
    assert not any(e.type == "cards_drawn" and e.seat == 0 for e in t.events[-12:])


def _run_out(options: GameOptions) -> tuple[object, object]:
    t = start(("bolt",) * 5, ("bolt",) * 10, options=options)
    t.do(Charge(player="alice", card="bolt", use_ether_effect=False))
    pass_until(t, "charge", turn=3)
    return t, t.player(0)


def test_drawing_from_an_empty_deck_rebuilds_it_and_earns_an_astral_right_by_default() -> None:
    t, alice = _run_out(GameOptions(first_player="first_seat"))
    rebuilt = [e for e in t.events if e.type == "deck_rebuilt"]  # type: ignore[attr-defined]
    assert len(rebuilt) == 1 and rebuilt[0].order == ("bolt",)
    assert len(alice.hand) == 5 and alice.ether_area == [] and alice.astral_rights == 1  # type: ignore[attr-defined]


def test_drawing_from_an_empty_deck_can_lose_the_game_by_option() -> None:
    t, _ = _run_out(GameOptions(first_player="first_seat", deck_out="lose"))
    assert t.state.over and t.state.winner == 1 and t.state.end_reason == "deck_out"  # type: ignore[attr-defined]


def test_drawing_from_an_empty_deck_can_simply_stop_by_option() -> None:
    t, alice = _run_out(GameOptions(first_player="first_seat", deck_out="stop"))
    assert len(alice.hand) == 4 and not t.state.over  # type: ignore[attr-defined]
