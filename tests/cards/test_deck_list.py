"""A deck typed as a list of card names: read in either language, checked against the deck rules."""

from __future__ import annotations

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from bot.catalog import Catalog, Deck, load_catalog
from bot.catalog.deck_list import DeckListError, DeckRulesBroken, deck_from_ids, parse_deck_list, stored_ids
from bot.errors import RefereeError
from bot.names import BadName

CATALOG = load_catalog()


def typed(catalog: Catalog, deck: Deck, *, english: bool = False, sep: str = "\n") -> str:
    """The deck as a player would type it: names, counts after the name, the code with its wearer."""

    def name(card_id: str) -> str:
        card = catalog.get(card_id)
        return card.name_en if english and card.name_en else card.name

    entries = [name(a) for a in [deck.leader, *(a for a in deck.arcastella if a != deck.leader)]]
    entries += [f"{name(e.code)} @ {name(e.arcastella)}" for e in deck.equipment]
    entries += [f"{name(e.id)} x{e.count}" for e in deck.cards]
    return sep.join(entries)


@pytest.mark.parametrize("deck_id", sorted(CATALOG.decks))
@pytest.mark.parametrize("english", [False, True])
def test_every_shipped_deck_typed_by_name_reads_back_as_that_deck(deck_id: str, english: bool) -> None:
    deck = CATALOG.decks[deck_id]
    read = parse_deck_list(CATALOG, "マイデッキ", typed(CATALOG, deck, english=english))
    assert read.leader == deck.leader and set(read.arcastella) == set(deck.arcastella)
    assert read.equipment == deck.equipment and sorted(read.card_ids()) == sorted(deck.card_ids())
    again = deck_from_ids(CATALOG, "マイデッキ", stored_ids(read))
    assert again == read


def test_counts_may_come_first_or_last_and_entries_be_split_by_commas() -> None:
    deck = CATALOG.decks["tidal-veil"]
    entries = typed(CATALOG, deck, sep="、").split("、")
    moved = [f"{e.rsplit(' x', 1)[1]} {e.rsplit(' x', 1)[0]}" if " x" in e else e for e in entries]
    read = parse_deck_list(CATALOG, "d", ", ".join(moved))
    assert sorted(read.card_ids()) == sorted(deck.card_ids())
    assert parse_deck_list(CATALOG, "d", typed(CATALOG, deck).replace(" x", " ×")) == read


def test_a_deck_of_the_wrong_size_lists_the_rule_it_breaks_in_both_languages() -> None:
    deck = CATALOG.decks["tidal-veil"]
    short = typed(CATALOG, deck).replace(" x3", " x2")
    with pytest.raises(DeckRulesBroken) as info:
        parse_deck_list(CATALOG, "短い", short)
    assert "The deck has" in info.value.message("en") and "exactly 30" in info.value.message("en")
    assert "「短い」" in info.value.message("ja") and "30" in info.value.message("ja")


def test_too_many_copies_of_a_card_are_refused() -> None:
    deck = CATALOG.decks["tidal-veil"]
    text = typed(CATALOG, deck, english=True).replace("Tide Bullet x3", "Tide Bullet x4")
    text = text.replace("Undertow x3", "Undertow x2")  # still 30 cards: only the copies break the rules
    with pytest.raises(DeckRulesBroken) as info:
        parse_deck_list(CATALOG, "d", text)
    assert "Tide Bullet" in info.value.message("en") or "tide-bullet" in info.value.message("en")


@pytest.mark.parametrize(
    ("change", "key"),
    [
        (lambda t: t + "\nno such card", "cards.deck_list.unknown_card"),
        (lambda t: t.split("\n", 1)[1], "cards.deck_list.arcastella_count"),
        (lambda t: t.replace(" @ ", "\n", 1), "cards.deck_list.code_needs_wearer"),
        (lambda t: "", "cards.deck_list.empty"),
        (lambda t: "\n".join(t.split("\n")[:4]), "cards.deck_list.no_cards"),
    ],
)
def test_a_list_that_is_not_a_deck_says_why(change: object, key: str) -> None:
    text = typed(CATALOG, CATALOG.decks["tidal-veil"])
    with pytest.raises(DeckListError) as info:
        parse_deck_list(CATALOG, "d", change(text))  # type: ignore[operator]
    assert info.value.message_key == key


def test_a_deck_name_with_an_invisible_character_is_refused() -> None:
    with pytest.raises(BadName):
        parse_deck_list(CATALOG, "炎\u200bデッキ", typed(CATALOG, CATALOG.decks["tidal-veil"]))


@settings(max_examples=200, deadline=None)
@given(st.text(max_size=300))
def test_any_text_is_a_deck_or_a_referee_error(text: str) -> None:
    try:
        deck = parse_deck_list(CATALOG, "d", text)
    except RefereeError:
        return
    assert deck.size == CATALOG.rules.size


@settings(max_examples=100, deadline=None)
@given(st.lists(st.sampled_from(sorted(CATALOG.cards)), max_size=40), st.sampled_from(["\n", ",", "、", ";"]))
def test_lists_of_real_card_ids_are_a_deck_or_a_referee_error(ids: list[str], sep: str) -> None:
    try:
        deck = parse_deck_list(CATALOG, "d", sep.join(ids))
    except RefereeError:
        return
    assert deck_from_ids(CATALOG, "d", stored_ids(deck)) == deck
