"""A player's deck typed as a list of card names, checked against the catalog and its deck rules.

    ミズハ, 霧の精, レイ・グラシア, ケテルの冠 @ レイ・グラシア, 3 潮弾, undertow x3, ...

Entries are separated by new lines, commas, 、 or semicolons. A card is named by its id, Japanese or
English name (bot/catalog `find`: kana and width forgiven). A count goes before the name (`3 潮弾`,
`3x 潮弾`) or after it (`潮弾 x3`, `潮弾 ×3`, `潮弾 3枚`); none means one. The first Arcastella named
is the leader. A Sephirot code names the Arcastella that wears it with `@` (either way round).

A saved deck is kept as a flat list of ids (`stored_ids`): the three Arcastella (leader first), each
code as `code@wearer`, then every card of the deck once per copy. `deck_from_ids` reads it back
through the same checks, so a deck that the catalog's rules no longer allow is refused, not played.
"""

from __future__ import annotations

import re
import unicodedata
from collections.abc import Sequence

from bot.catalog.cards import Card
from bot.catalog.catalog import Catalog, check_deck
from bot.catalog.decks import Deck, DeckEntry, Equipment
from bot.errors import RefereeError
from bot.names import check_name

MAX_ENTRIES = 200  # more than any deck the rules allow lists: a paste gone wrong
MAX_COUNT = 60  # the most copies a deck entry may hold (bot/catalog/decks.py)
SAVED_DECK_ID = "saved-deck"  # a saved deck is known by its owner and name, not by a catalog id

_SEPARATORS = re.compile(r"[\n,、;]+")
_COUNT_BEFORE = re.compile(r"^(\d{1,3})\s*(?:[x×*]|枚)?\s+(.+)$|^(\d{1,3})\s*[x×*]\s*(.+)$", re.IGNORECASE)
_COUNT_AFTER = re.compile(r"^(.+?)\s*(?:[x×*]\s*(\d{1,3})|(\d{1,3})\s*枚)$", re.IGNORECASE)


class DeckListError(RefereeError):
    """A deck list that cannot be a deck: the key says why (under cards.deck_list)."""

    key = "cards.deck_list.empty"


class DeckRulesBroken(RefereeError):
    """A deck list whose cards exist but break the catalog's deck rules: every problem is listed."""

    key = "cards.deck_list.rules"

    def __init__(self, problems: Sequence[str], problems_en: Sequence[str], **args: object) -> None:
        self.problems, self.problems_en = tuple(problems), tuple(problems_en)
        super().__init__(**args)

    def message(self, locale: str = "ja") -> str:
        shown = self.problems if locale == "ja" else self.problems_en
        return "\n".join([super().message(locale), *(f"- {p}" for p in shown)])


def parse_deck_list(catalog: Catalog, name: str, text: str) -> Deck:
    """The deck `text` lists, named `name`; DeckListError or DeckRulesBroken when it cannot be one."""
    name = check_name(name, "deck")
    entries = [e.strip() for e in _SEPARATORS.split(unicodedata.normalize("NFKC", text)) if e.strip()]
    if not entries:
        raise DeckListError("cards.deck_list.empty")
    if len(entries) > MAX_ENTRIES:
        raise DeckListError("cards.deck_list.too_many", limit=MAX_ENTRIES)
    arcastella: list[str] = []
    worn: list[tuple[str, str]] = []  # (code, wearer as typed)
    counts: dict[str, int] = {}
    for entry in entries:
        if "@" in entry:
            worn.append(_worn(catalog, entry))
            continue
        card, count = _card_and_count(catalog, entry)
        if card.type == "arcastella":
            if count != 1 or card.id in arcastella:
                raise DeckListError("cards.deck_list.arcastella_twice", card=card.name)
            arcastella.append(card.id)
        elif card.type == "sephirot_code":
            raise DeckListError("cards.deck_list.code_needs_wearer", card=card.name)
        else:
            counts[card.id] = counts.get(card.id, 0) + count
    if len(arcastella) != 3:
        raise DeckListError("cards.deck_list.arcastella_count", count=len(arcastella))
    equipment: list[Equipment] = []
    for code, wearer in worn:
        if wearer not in arcastella:
            raise DeckListError("cards.deck_list.wearer_not_in_deck", card=catalog.get(wearer).name)
        if any(e.arcastella == wearer for e in equipment):
            raise DeckListError("cards.deck_list.two_codes", card=catalog.get(wearer).name)
        equipment.append(Equipment(arcastella=wearer, code=code))
    if not counts:
        raise DeckListError("cards.deck_list.no_cards")
    if any(n > MAX_COUNT for n in counts.values()):
        raise DeckListError("cards.deck_list.count_too_large", limit=MAX_COUNT)
    deck = Deck(
        id=SAVED_DECK_ID,
        name=name,
        leader=arcastella[0],
        arcastella=tuple(arcastella),
        equipment=tuple(equipment),
        cards=tuple(DeckEntry(id=card_id, count=n) for card_id, n in counts.items()),
    )
    problems = check_deck(deck, catalog.cards, catalog.rules, file="")
    if problems:
        raise DeckRulesBroken(
            [p.message("ja") for p in problems],
            [p.message("en") for p in problems],
            name=name,
            count=len(problems),
        )
    return deck


def stored_ids(deck: Deck) -> list[str]:
    """The deck as a saved deck keeps it: Arcastella (leader first), `code@wearer`, then every copy."""
    ordered = [deck.leader, *(a for a in deck.arcastella if a != deck.leader)]
    return [*ordered, *(f"{e.code}@{e.arcastella}" for e in deck.equipment), *deck.card_ids()]


def deck_from_ids(catalog: Catalog, name: str, ids: Sequence[object]) -> Deck:
    """A saved deck read back, checked again against the catalog as it is now."""
    return parse_deck_list(catalog, name, "\n".join(str(i) for i in ids))


def _worn(catalog: Catalog, entry: str) -> tuple[str, str]:
    """`code @ wearer` (or `wearer @ code`) as (code id, Arcastella id)."""
    parts = [p.strip() for p in entry.split("@")]
    if len(parts) != 2 or not all(parts):
        raise DeckListError("cards.deck_list.bad_wearing", entry=entry[:100])
    first, second = (_card(catalog, p) for p in parts)
    code, wearer = (first, second) if first.type == "sephirot_code" else (second, first)
    if code.type != "sephirot_code" or wearer.type != "arcastella":
        raise DeckListError("cards.deck_list.bad_wearing", entry=entry[:100])
    return code.id, wearer.id


def _card_and_count(catalog: Catalog, entry: str) -> tuple[Card, int]:
    """The card an entry names and how many copies; a whole entry that is a card's name wins over a
    reading of its digits as a count."""
    found = catalog.find(entry)
    if found is not None:
        return found, 1
    before = _COUNT_BEFORE.match(entry)
    if before is not None:
        count, rest = (before.group(1), before.group(2)) if before.group(1) else (before.group(3), before.group(4))
        return _card(catalog, rest), _count(count)
    after = _COUNT_AFTER.match(entry)
    if after is not None:
        return _card(catalog, after.group(1)), _count(after.group(2) or after.group(3))
    return _card(catalog, entry), 1


def _count(text: str) -> int:
    count = int(text)
    if not 1 <= count <= MAX_COUNT:
        raise DeckListError("cards.deck_list.count_too_large", limit=MAX_COUNT)
    return count


def _card(catalog: Catalog, text: str) -> Card:
    found = catalog.find(text)
    if found is None:
        raise DeckListError("cards.deck_list.unknown_card", name=text[:100])
    return found
