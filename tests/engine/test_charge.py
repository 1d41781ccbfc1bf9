"""Charge phase (チャージフェイズ): conversion into ether, alternation, both passing in a row, ether effects."""

from __future__ import annotations

import pytest

from bot.engine import Cast, Charge, GameOptions, Pass, RuleViolation, apply

from .conftest import LoadedDice, pass_until, refused, start
from .sample_table import sample_table


def test_converting_a_spell_gains_its_cost_in_ether_and_hands_the_turn_to_act_over() -> None:
    t = start(("spark",) * 10, seat1={"leader": "knight"})
    t.do(Charge(player="alice", card="spark", use_ether_effect=False))
    alice = t.player(0)
    assert alice.ether == 2 and alice.ether_area == ["spark"] and len(alice.hand) == 4
    assert (t.state.phase, t.state.active) == ("charge", 1)


def test_the_charge_phase_ends_only_when_both_players_pass_in_a_row() -> None:
    t = start()
    t.do(Pass(player="alice"))
    t.do(Charge(player="bob", card="bolt", use_ether_effect=False))
    assert (t.state.phase, t.state.active) == ("charge", 0)  # bob's conversion broke the run of passes
    t.do(Charge(player="alice", card="bolt", use_ether_effect=False))  # so alice may convert again
    t.do(Pass(player="bob"))
    assert t.state.phase == "charge"
    t.do(Pass(player="alice"))
    assert (t.state.phase, t.state.active) == ("main", 0)  # main phase: priority to the turn player


def test_without_rejoining_a_player_who_passed_is_done_for_the_phase() -> None:
    t = start(options=GameOptions(first_player="first_seat", charge_rejoin=False))
    t.do(Pass(player="alice"))
    t.do(Charge(player="bob", card="bolt", use_ether_effect=False))
    assert t.state.active == 1  # alice passed for good, so bob goes on
    with pytest.raises(RuleViolation) as info:
        apply(t.state, Charge(player="alice", card="bolt"), LoadedDice())
    # Not "it is not your priority": the table's house rule says a pass is final, and says so.
    assert info.value.message_key == "engine.charge_already_passed"
    assert "You already passed in this charge phase" in info.value.message("en")
    assert "charge_rejoin:off" in info.value.message("ja") and "§6" in info.value.message("ja")
    t.do(Pass(player="bob"))
    assert t.state.phase == "main"


def test_only_the_player_whose_turn_it_is_to_act_may_convert() -> None:
    t = start()
    with pytest.raises(RuleViolation) as info:
        apply(t.state, Charge(player="bob", card="bolt"), LoadedDice())
    assert info.value.message("en") == "It is not your priority."


def test_an_ether_effect_fires_on_conversion_at_most_once_per_turn_per_player() -> None:
    t = start(("bolt",) * 10, ("bolt",) * 10)  # bolt's ether effect: draw one card
    t.do(Charge(player="alice", card="bolt"))
    assert len(t.player(0).hand) == 5 and [e.card for e in t.events if e.type == "ether_effect_fired"] == ["bolt"]
    t.do(Charge(player="bob", card="bolt"))  # per player: bob's own first one still fires
    t.do(Charge(player="alice", card="bolt"))
    assert len(t.player(0).hand) == 4  # the second one did not
    assert [e.seat for e in t.events if e.type == "ether_effect_fired"] == [0, 1]
    pass_until(t, "charge", turn=2)
    t.do(Charge(player="bob", card="bolt"))
    assert [e.seat for e in t.events if e.type == "ether_effect_fired"] == [0, 1, 1]  # a new turn


def test_ether_effects_once_for_the_whole_table_by_option() -> None:
    t = start(options=GameOptions(first_player="first_seat", ether_effect_limit="per_table"))
    t.do(Charge(player="alice", card="bolt"))
    t.do(Charge(player="bob", card="bolt"))
    assert [e.seat for e in t.events if e.type == "ether_effect_fired"] == [0]


def test_ether_effects_once_per_card_name_by_option() -> None:
    deck = ("bolt", "spark", "bolt", "spark", "bolt") + ("bolt",) * 5
    t = start(deck, options=GameOptions(first_player="first_seat", ether_effect_limit="per_card"))
    for card in ("bolt", "spark", "bolt"):
        t.do(Charge(player="alice", card=card))
        t.do(Pass(player="bob"))
    assert [e.card for e in t.events if e.type == "ether_effect_fired"] == ["bolt", "spark"]


def test_a_player_may_keep_the_ether_effect_for_later() -> None:
    t = start()
    t.do(Charge(player="alice", card="bolt", use_ether_effect=False))
    t.do(Pass(player="bob"))
    t.do(Charge(player="alice", card="bolt"))
    assert [e.card for e in t.events if e.type == "ether_effect_fired"] == ["bolt"]


def test_ether_effects_only_in_the_charge_phase_casting_does_not_fire_them() -> None:
    t = start()
    pass_until(t, "main")
    hand = len(t.player(0).hand)
    t.do(Cast(player="alice", card="bolt", caster="p1.sage", target="p2.squire"))
    assert len(t.player(0).hand) == hand - 1 and not any(e.type == "ether_effect_fired" for e in t.events)
    with pytest.raises(RuleViolation) as info:
        apply(t.state, Charge(player="alice", card="bolt"), LoadedDice())
    assert info.value.message("ja") == "今はチャージフェイズではありません。"
    assert info.value.message("en") == "It is not the charge phase."


def test_only_spell_cards_can_be_converted() -> None:
    t = start(("pup",) * 10)
    with pytest.raises(RuleViolation) as info:
        apply(t.state, Charge(player="alice", card="pup"), LoadedDice())
    assert info.value.message_key == "engine.not_a_spell"
    with pytest.raises(RuleViolation) as info:
        apply(t.state, Charge(player="alice", card="big"), LoadedDice())
    assert info.value.message_key == "engine.card_not_in_hand"


def test_the_ether_cap_option_limits_the_pool() -> None:
    t = start(("big",) * 10, options=GameOptions(first_player="first_seat", ether_cap=6))
    t.do(Charge(player="alice", card="big"))
    t.do(Pass(player="bob"))
    t.do(Charge(player="alice", card="big"))
    assert t.player(0).ether == 6 + 0  # dawnlight gave 1, 1 + 5 = 6, the second big adds nothing


def test_an_ether_effect_without_its_target_says_the_card_may_be_converted_without_it() -> None:
    t = sample_table(("blaze-lance",) * 10)
    err = refused(t, Charge(player="alice", card="blaze-lance"))
    assert err.message("ja").startswith("烈火の槍 のエーテルエフェクトには対象が必要です。")
    assert "エーテルエフェクトを使わずに変換してください" in err.message("ja")
    assert "convert the card without its ether effect" in err.message("en")
    ether = t.player(0).ether
    t.do(Charge(player="alice", card="blaze-lance", use_ether_effect=False))
    assert t.player(0).ether == ether + 3
