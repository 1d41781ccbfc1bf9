"""Adjustments that move cards in the public log: a discard names its card, a reorder only its count;
and the private view of the top of one's own deck."""

from __future__ import annotations

from bot.dice import FairRandomness
from bot.engine import Adjust, GameState, apply
from bot.engine import events as ev
from bot.engine.events import Event
from bot.engine.fold import fold_all
from bot.render import render_deck_top, render_events, render_log, to_text
from tests.render.conftest import new_table

Table = tuple[GameState, list[Event], FairRandomness]


def _every_name(state: GameState, card_ids: list[str]) -> list[str]:
    """Every way the log could give these cards away: ids, Japanese and English names."""
    out: list[str] = []
    for card_id in card_ids:
        card = state.cards[card_id]
        out += [card_id, card.name, *([card.name_en] if card.name_en else [])]
    return out


def _looked(state: GameState, count: int) -> tuple[GameState, list[Event]]:
    """A manual effect of alice's leader lets her look at `count` cards, and she looks (as the engine logs it)."""
    card = state.players[0].units[0].card
    text = f"自分のデッキの上から{count}枚を見て、好きな順番でデッキの上に戻す。"
    events: list[Event] = [ev.ManualEffect(seat=0, card=card, text=text, look=count)]
    events.append(ev.DeckLooked(seat=0, count=count, card=card))
    return fold_all(state.clone(), events), events


def _reorder(state: GameState, rng: FairRandomness, count: int) -> tuple[GameState, list[Event], tuple[str, ...]]:
    looked, look_events = _looked(state, count)
    order = tuple(reversed(state.players[0].deck[:count]))
    after, events = apply(looked, Adjust(player="11", subject="11", field="deck_top", value=count, cards=order), rng)
    return after, [*look_events, *events], order


def test_a_discard_names_the_card_in_both_languages_and_the_hand_left(table: Table) -> None:
    state, _, rng = table
    assert "blaze-lance" in state.players[0].hand
    action = Adjust(player="11", subject="11", field="discard", value=1, cards=("blaze-lance",))
    _, events = apply(state, action, rng)
    assert render_events(events, state, "ja") == ["aliceが手札から烈火の槍を捨てました（手札4枚）。"]
    assert render_events(events, state, "en") == ["alice discards 烈火の槍 (Blaze Lance) from hand (hand 4)."]


def test_two_copies_are_counted_and_the_note_is_kept() -> None:
    state, _, rng = new_table(seed=b"discard-2")  # a seed whose opening hand holds two Spark Arrows
    assert state.players[0].hand.count("spark-arrow") == 2
    action = Adjust(player="11", subject="11", field="discard", value=2, cards=("spark-arrow",), note="イェソド")
    _, events = apply(state, action, rng)
    assert render_events(events, state, "ja") == ["aliceが手札から火花の矢 ×2を捨てました（手札3枚）（イェソド）。"]


def test_a_reorder_says_only_how_many_cards_never_which_nor_their_order(table: Table) -> None:
    state, _, rng = table
    after, events, order = _reorder(state, rng, 3)
    assert after.players[0].deck[:3] == list(order)  # the event carries the order for replay
    ja = render_events(events, state, "ja")[2:]
    en = render_events(events, state, "en")
    assert en[1].startswith("alice looks at the top 3 card(s) of their deck")
    en = en[2:]
    assert ja == ["aliceが山札の上3枚を並べ替えました。"]
    assert en == ["alice reorders the top 3 card(s) of their deck."]
    for name in _every_name(state, list(order)):
        assert name not in ja[0] and name not in en[0]


def test_the_whole_log_of_a_game_with_a_reorder_never_shows_the_deck(table: Table) -> None:
    state, start_events, rng = table
    _, events, order = _reorder(state, rng, 5)
    log = "\n".join(to_text(render_log([*start_events, *events], locale)) for locale in ("ja", "en"))
    hidden = [c for c in order if c not in state.players[0].hand]
    assert hidden, "every card on top is also in the hand: the check would prove nothing"
    for name in _every_name(state, hidden):
        assert name not in log
    assert "aliceが山札の上5枚を並べ替えました。" in log


def test_the_top_of_the_deck_is_shown_private_to_its_owner_top_first(table: Table) -> None:
    state, _, _ = table
    top = state.players[1].deck[:3]
    message = render_deck_top(state, 1, 3, "en")
    assert message.private_to == "bob"
    text = to_text(message)
    assert "The top 3 card(s) of bob's deck (25 in the deck)" in text
    for place, card_id in enumerate(top, 1):
        assert f"{place}. {state.cards[card_id].name_en} [{card_id}]" in text
    order = ",".join(state.cards[c].name for c in top)
    assert f"bob: /adjust field:deck_top cards:{order}" in text
    assert all(c not in text for c in state.players[1].deck[3:] if c not in top)
