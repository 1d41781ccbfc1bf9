"""The public board shows what the players need to decide, and nothing hidden."""

from __future__ import annotations

import pytest

from bot.dice import FairRandomness
from bot.engine import Adjust, GameOptions, GameState, Pass, UseSkill, apply
from bot.engine.events import Event
from bot.render import render_board, render_events, to_text
from tests.render.conftest import new_table

Table = tuple[GameState, list[Event], FairRandomness]


def _names_of(state: GameState, card_ids: list[str]) -> set[str]:
    out: set[str] = set()
    for card_id in card_ids:
        card = state.cards[card_id]
        out |= {card.id, card.name} | ({card.name_en} if card.name_en else set())
    return out


def test_title_and_status_say_turn_phase_turn_player_and_who_acts(table: Table) -> None:
    state, _, _ = table
    ja = to_text(render_board(state, "ja"))
    en = to_text(render_board(state, "en"))
    assert "第1ターン・aliceのターン・チャージフェイズ" in ja
    assert "Turn 1 · alice's turn · Charge phase" in en
    assert "To act: alice (Charge phase)" in en
    assert "alice ▶ turn player" in en


def test_each_side_shows_ether_hand_deck_and_its_arcastella(table: Table) -> None:
    state, _, _ = table
    text = to_text(render_board(state, "en"))
    bob = state.players[1]
    assert f"Ether {bob.ether} · Hand 5 · Deck 25" in text
    # Mizuha is bob's leader: the star, HP of max and the printed DEF (no code worn).
    assert "★Mizuha of the Water Leaves(bob)  HP 28/28  DEF 2" in text
    # Volk wears the Yesod Chain: its DEF bonus counts and the code is named.
    volk = state.find_unit("p1.garde-volk")
    assert volk is not None
    assert f"Volk the Iron Wall(alice)  HP 38/38  DEF {state.effective_def(volk)}  ⟨Yesod Chain⟩" in text


def test_tapped_and_knocked_out_units_are_marked(table: Table) -> None:
    state, _, rng = table
    state, _ = apply(state, Adjust(player="22", subject="p2.kiri-no-sei", field="tapped", value=1), rng)
    state, _ = apply(state, Adjust(player="22", subject="p2.rei-glacia", field="hp", value=0), rng)
    en = to_text(render_board(state, "en"))
    ja = to_text(render_board(state, "ja"))
    assert "Sei of the Mist(bob)  HP 24/24  DEF 3  [tapped]" in en
    assert "Rei Glacia of the Ice Coffin(bob)  HP 0/32" in en and "[KNOCKED OUT]" in en
    assert "[タップ]" in ja and "[戦闘脱落]" in ja


def test_cemetery_and_ether_area_are_public_and_named(table: Table) -> None:
    state, _, _ = table
    state = state.clone()
    alice = state.players[0]
    alice.cemetery.append("spark-arrow")
    alice.ether_area.extend(["blaze-lance", "blaze-lance"])
    text = to_text(render_board(state, "ja"))
    spark, lance = state.cards["spark-arrow"].name, state.cards["blaze-lance"].name
    assert f"墓地（1）: {spark}" in text
    assert f"エーテルエリア（2）: {lance}、{lance}" in text


def test_table_options_are_shown_as_the_words_game_start_takes() -> None:
    state, _, _ = new_table(GameOptions(first_player="first_seat", ether_cap=8, deck_out="lose"))
    text = to_text(render_board(state, "en"))
    assert "ether cap — ether_cap:8" in text
    assert "drawing from an empty deck — deck_out:lose" in text
    assert "unspent ether carries over — ether_carry_over:on" in text
    for key in GameOptions.model_fields:
        assert f"{key}:" in text


def test_commitment_shown_and_seed_only_when_given(table: Table) -> None:
    state, _, rng = table
    text = to_text(render_board(state, "en", commitment=rng.commitment))
    assert rng.commitment in text
    assert "Revealed seed" not in text


def test_a_waiting_attack_names_attacker_target_and_the_defender() -> None:
    state, _, rng = new_table(GameOptions(first_player="first_seat"))
    state, _ = apply(state, Pass(player="11"), rng)
    state, _ = apply(state, Pass(player="22"), rng)  # both passed in a row: alice has 1 ether (leader skill)
    assert state.phase == "main"
    state, _ = apply(state, UseSkill(player="11", unit="p1.sola-lyne", skill="light-bolt", target="p2.mizuha"), rng)
    assert state.phase == "block"
    text = to_text(render_board(state, "en"))
    assert "To act: bob — block the attack or not" in text
    assert "Lyne of Sunlight(alice) → Mizuha of the Water Leaves(bob) with Light Bolt; bob decides" in text


@pytest.mark.parametrize("locale", ["ja", "en"])
def test_no_hand_or_deck_card_is_named_in_public_output(table: Table, locale: str) -> None:
    state, events, _ = table
    hidden = set()
    for player in state.players:
        hidden |= _names_of(state, player.hand + player.deck)
    public = to_text(render_board(state, locale)) + "\n" + "\n".join(render_events(events, None, locale))
    leaked = sorted(name for name in hidden if name in public)
    assert leaked == []
    # The hands and decks are there to leak: the counts prove the cards exist.
    assert all(len(p.hand) == 5 and len(p.deck) == 25 for p in state.players)


def test_a_game_ended_at_the_table_shows_no_one_to_act(table: Table) -> None:
    state, _, _ = table
    text = to_text(render_board(state, "en", finished=True))
    assert text.startswith("Game over") and "The game ended without a winner." in text
    assert "To act" not in text and "Turn 1" not in text


def test_hp_bars_show_what_is_left_at_a_glance() -> None:
    from bot.render.board import hp_bar

    assert hp_bar(30, 30) == "▰" * 10
    assert hp_bar(15, 30) == "▰" * 5 + "▱" * 5
    assert hp_bar(1, 38) == "▰" + "▱" * 9  # any HP left shows
    assert hp_bar(0, 30) == "▱" * 10


def test_the_discord_board_carries_bars_and_the_console_board_does_not(table: Table) -> None:
    state, _, _ = table
    with_bars = render_board(state, "en", bars=True)
    plain = render_board(state, "en")
    assert "▰" in "\n".join(f.value for f in with_bars.fields)
    assert "▰" not in "\n".join(f.value for f in plain.fields)
