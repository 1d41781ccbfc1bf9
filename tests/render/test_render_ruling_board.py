"""The board beside a ruling: phase, who acts now, and only the units the question names."""

from __future__ import annotations

from bot.dice import FairRandomness
from bot.engine import GameState
from bot.render.ruling_board import named_units, ruling_board

Table = tuple[GameState, list[object], FairRandomness]


def test_a_question_shows_the_phase_who_acts_and_the_units_it_names(table: Table) -> None:
    state, _, _ = table
    field = ruling_board(state, ["焔刃のハルトの攻撃を霧のセイはブロックできる？"], "ja")
    assert field.name == "この卓のいま"
    lines = field.value.splitlines()
    assert lines[0] == "第1ターン・aliceのターン・チャージフェイズ"
    assert "行動するのは: alice（チャージフェイズ）" in lines
    assert any(line.startswith("★焔刃のハルト(alice)  HP ") for line in lines)  # alice's leader, starred
    assert any(line.startswith("  霧のセイ(bob)  HP 24/24  DEF 3") for line in lines)
    for other in ("鉄壁のヴォルク", "水葉のミズハ", "陽光のライネ"):  # on the table, but not asked about
        assert other not in field.value


def test_english_names_match_in_any_case_and_width_and_in_either_locale(table: Table) -> None:
    state, _, _ = table
    asked = ["Can ＶＯＬＫ THE IRON WALL block mizuha of the water leaves?"]
    assert [u.uid for u in named_units(state, asked)] == ["p1.garde-volk", "p2.mizuha"]
    field = ruling_board(state, asked, "en")
    assert "Turn 1 · alice's turn · Charge phase" in field.value
    assert "Volk the Iron Wall(alice)" in field.value and "★Mizuha of the Water Leaves(bob)" in field.value
    assert "Hart" not in field.value
    # A card added to the question (the /ruling card option) names its unit too.
    assert [u.uid for u in named_units(state, ["What does it do?", "陽光のライネ"])] == ["p1.sola-lyne"]


def test_no_unit_named_says_so_and_a_hand_card_is_never_shown(table: Table) -> None:
    state, _, _ = table
    hand_card = state.cards[state.players[0].hand[0]]
    field = ruling_board(state, [f"{hand_card.name}はいつ使える？"], "ja")
    assert "質問に出てくるユニットは卓にありません。" in field.value
    assert hand_card.name not in field.value  # a question about a card in a hand reveals nothing of it
    english = ruling_board(state, ["When does the end phase come?"], "en")
    assert "No unit on the table is named in the question." in english.value
