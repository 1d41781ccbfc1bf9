"""Refusals name cards, skills and units as printed on the sample cards, in both languages, never by id."""

from __future__ import annotations

import pytest

from bot.engine import Block, Cast, Charge, Pass, RuleViolation, SeatSpec, StartGame, UseSkill, new_game
from bot.engine.actions import Action

from .conftest import LoadedDice, pass_until, refused
from .sample_table import ALICE_ARC, BOB_ARC, sample_cards, sample_table


def test_a_card_not_in_hand_is_named_as_printed_with_its_id_kept_for_machines() -> None:
    t = sample_table()
    err = refused(t, Charge(player="alice", card="blaze-lance"))
    assert err.message("ja") == "烈火の槍 は手札にありません。"
    assert err.message("en") == "烈火の槍 (Blaze Lance) is not in your hand."
    assert err.bilingual() == "烈火の槍 は手札にありません。 / 烈火の槍 (Blaze Lance) is not in your hand."
    assert err.args_["card_id"] == "blaze-lance"


def test_a_spell_cast_at_the_wrong_time_is_named() -> None:
    t = sample_table()
    pass_until(t, "main")
    err = refused(t, Cast(player="alice", card="counter-flame", caster="p1.ignis-hart", target="p2.mizuha"))
    assert err.message("ja") == "返し火 は[相手のターン]のメインフェイズにしか使えません。"
    assert err.message("en") == "返し火 (Counter Flame) can only be used in the main phase of your opponent's turn."


def test_units_are_named_with_their_owner_in_both_languages() -> None:
    t = sample_table()
    pass_until(t, "main")
    err = refused(t, UseSkill(player="alice", unit="p2.mizuha", skill="water-blade", target="p1.ignis-hart"))
    assert err.message("ja") == "水葉のミズハ(bob) はあなたのユニットではありません。"
    assert err.message("en") == "bob's 水葉のミズハ (Mizuha of the Water Leaves) is not your unit."


def test_a_tapped_attacker_and_a_self_triggering_skill_are_named() -> None:
    t = sample_table()
    t.do(Charge(player="alice", card="spark-arrow", use_ether_effect=False))  # 1 + 1 ether
    pass_until(t, "main")
    t.do(UseSkill(player="alice", unit="p1.ignis-hart", skill="crimson-slash", target="p2.kiri-no-sei"), 1, 1)
    t.do(Block(player="bob", blocker="p2.mizuha"), 1, 1)
    err = refused(t, UseSkill(player="alice", unit="p1.ignis-hart", skill="crimson-slash", target="p2.mizuha"))
    assert err.message("ja").startswith(
        "焔刃のハルト(alice) はタップ状態なので、攻撃スキルもアストラルコードも使えません"
    )
    assert err.message("en").startswith(
        "alice's 焔刃のハルト (Hart of the Blazing Blade) is tapped and cannot use an attack skill or astral code"
    )
    err = refused(t, UseSkill(player="alice", unit="p1.ignis-hart", skill="vanguard-call"))
    assert "「先陣の号令」" in err.message("ja")
    assert '"先陣の号令 (Call of the Vanguard)"' in err.message("en")


def test_a_bad_deck_names_the_card_and_the_player() -> None:
    cards = sample_cards()
    bad = SeatSpec(id="alice", name="Alice", arcastella=ALICE_ARC, leader="mizuha", deck=("spark-arrow",) * 10)
    good = SeatSpec(id="bob", name="Bob", arcastella=BOB_ARC, leader="mizuha", deck=("tide-bullet",) * 10)
    with pytest.raises(RuleViolation) as info:
        new_game(StartGame(players=(bad, good), cards=cards), LoadedDice())
    assert info.value.message("ja") == "Alice のデッキ: リーダー 水葉のミズハ が3体のアルカステラの中にいません。"
    assert "水葉のミズハ (Mizuha of the Water Leaves)" in info.value.message("en")


def test_no_refusal_shows_an_internal_id_of_a_card_or_unit_the_game_knows() -> None:
    t = sample_table()
    refusals: list[RuleViolation] = [refused(t, Charge(player="alice", card="tide-bullet"))]
    pass_until(t, "main")
    alice_turn: list[Action] = [
        Cast(player="alice", card="spark-arrow", caster="p1.ignis-hart", target="p1.sola-lyne"),  # an ally
        Cast(player="alice", card="spark-arrow", caster="p2.mizuha", target="p2.mizuha"),  # not her caster
        Cast(player="alice", card="counter-flame", caster="p1.ignis-hart", target="p2.mizuha"),  # timing
        UseSkill(player="alice", unit="p1.sola-lyne", skill="vanguard-call"),  # not its skill
        UseSkill(player="alice", unit="p1.ignis-hart", skill="rallying-spirit", target="p2.mizuha"),  # enemy
        Block(player="bob", blocker="p2.kiri-no-sei"),  # no attack
    ]
    refusals += [refused(t, action) for action in alice_turn]
    t.do(Pass(player="alice"))
    refusals.append(refused(t, UseSkill(player="bob", unit="p2.mizuha", skill="water-blade", target="p1.ignis-hart")))
    ids = set(sample_cards()) | {f"p{s}.{c}" for s, arc in ((1, ALICE_ARC), (2, BOB_ARC)) for c in arc}
    for err in refusals:
        text = err.bilingual()
        assert not [i for i in ids if i in text], text
