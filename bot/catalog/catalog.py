"""The Catalog: every card and deck, checked against each other, with lookup by id and by name."""

from __future__ import annotations

from collections.abc import Collection, Iterable, Iterator, Mapping
from dataclasses import dataclass
from types import MappingProxyType
from typing import Any, TypeVar

from bot.catalog.cards import DECK_CARD_TYPES, Card, CardBase
from bot.catalog.decks import Deck, DeckRules
from bot.catalog.names import normalize_name
from bot.catalog.problems import CatalogError, Problem
from bot.errors import RefereeError

C = TypeVar("C", bound=CardBase)


class UnknownCard(RefereeError):
    key = "cards.unknown_card"


class UnknownDeck(RefereeError):
    key = "cards.unknown_deck"


class WrongCardType(RefereeError):
    key = "cards.wrong_type"


class Catalog:
    """Cards and decks by id. Build it with `load_catalog()` or `Catalog.build(...)`; both check everything."""

    def __init__(
        self,
        cards: Mapping[str, Card],
        decks: Mapping[str, Deck],
        rules: DeckRules,
        sources: Mapping[str, str] | None = None,
        notices: Mapping[str, str] | None = None,
    ) -> None:
        self.cards: Mapping[str, Card] = MappingProxyType(dict(cards))
        self.decks: Mapping[str, Deck] = MappingProxyType(dict(decks))
        self.rules = rules
        self._sources = dict(sources or {})
        self._notices = dict(notices or {})
        self._names: dict[str, str] = {}
        self._card_names: dict[str, tuple[str, ...]] = {}  # normalised once, searched on every keystroke
        for card in self.cards.values():
            self._card_names[card.id] = card.names()
            for name in self._card_names[card.id]:
                self._names.setdefault(name, card.id)
        self._deck_names: dict[str, str] = {}
        for deck in self.decks.values():
            for name in (deck.id, deck.name, deck.name_en or ""):
                if name:
                    self._deck_names.setdefault(normalize_name(name), deck.id)

    @classmethod
    def build(cls, cards: Iterable[Card], decks: Iterable[Deck] = (), rules: DeckRules | None = None) -> Catalog:
        """A catalog from models made in code (tests, tools); raises CatalogError listing every problem."""
        rules = rules or DeckRules()
        problems: list[Problem] = []
        card_map: dict[str, Card] = {}
        for card in cards:
            if card.id in card_map:
                problems.append(Problem.duplicate("card", "", card.id, "Catalog.build"))
            card_map[card.id] = card
        deck_map: dict[str, Deck] = {}
        for deck in decks:
            if deck.id in deck_map:
                problems.append(Problem.duplicate("deck", "", deck.id, "Catalog.build"))
            deck_map[deck.id] = deck
        problems.extend(name_clashes(card_map.values(), {}))
        for deck in deck_map.values():
            problems.extend(check_deck(deck, card_map, rules, file=""))
        if problems:
            raise CatalogError(problems)
        return cls(card_map, deck_map, rules)

    def __contains__(self, card_id: object) -> bool:
        return card_id in self.cards

    def __iter__(self) -> Iterator[Card]:
        return iter(self.cards.values())

    def __len__(self) -> int:
        return len(self.cards)

    def get(self, card_id: str) -> Card:
        """The card with this id; UnknownCard if there is none."""
        try:
            return self.cards[card_id]
        except KeyError:
            raise UnknownCard(card=card_id) from None

    def get_as(self, card_id: str, kind: type[C]) -> C:
        """The card with this id, which must be of class `kind` (e.g. Arcastella); WrongCardType otherwise."""
        card = self.get(card_id)
        if not isinstance(card, kind):
            raise WrongCardType(card=card_id, actual=card.type)
        return card

    def find(self, name: str) -> Card | None:
        """The card whose id, Japanese name or English name equals `name` after normalisation.

        Normalisation: NFKC (full-width and half-width forms), case, hiragana as katakana, and the
        middle dot ・, spaces and hyphens ignored. So 「ルミナ・ヴェール」, "るみなヴぇーる" and
        "ﾙﾐﾅｳﾞｪｰﾙ" find the same card.
        """
        card_id = self._names.get(normalize_name(name))
        return self.cards[card_id] if card_id is not None else None

    def search(self, text: str, limit: int = 25) -> list[Card]:
        """Cards matching `text`: exact names first, then prefixes, then substrings (for autocomplete)."""
        wanted = normalize_name(text)
        ranked: list[tuple[int, str, Card]] = []
        for card in self.cards.values():
            names = self._card_names[card.id]
            if wanted in names:
                rank = 0
            elif any(n.startswith(wanted) for n in names):
                rank = 1
            elif any(wanted in n for n in names):
                rank = 2
            else:
                continue
            ranked.append((rank, card.id, card))
        return [card for _, _, card in sorted(ranked, key=lambda r: (r[0], r[1]))][:limit]

    def find_deck(self, name: str) -> Deck | None:
        """The deck whose id, Japanese or English name equals `name` after normalisation."""
        deck_id = self._deck_names.get(normalize_name(name))
        return self.decks[deck_id] if deck_id is not None else None

    def deck(self, name: str) -> Deck:
        """Like find_deck, but UnknownDeck if there is none."""
        deck = self.find_deck(name)
        if deck is None:
            raise UnknownDeck(deck=name)
        return deck

    def source(self, item_id: str) -> str | None:
        """The file a card or deck came from, relative to the cards folder."""
        return self._sources.get(item_id)

    def notice(self, item_id: str) -> str | None:
        """The notice of the file a card or deck came from (e.g. that it is sample data)."""
        return self._notices.get(item_id)


def name_clashes(cards: Iterable[Card], sources: Mapping[str, str]) -> list[Problem]:
    """Two cards that normalise to the same name would make find() ambiguous, so that is a problem."""
    owner: dict[str, str] = {}
    problems: list[Problem] = []
    for card in cards:
        for name in card.names():
            other = owner.setdefault(name, card.id)
            if other != card.id:
                problems.append(
                    Problem(
                        file=sources.get(card.id, ""),
                        item=card.id,
                        field="name",
                        key="cards.problem.name_clash",
                        args={"name": name, "other": other},
                    )
                )
    return problems


def check_deck(
    deck: Deck, cards: Mapping[str, Card], rules: DeckRules, file: str, broken: Collection[str] = ()
) -> list[Problem]:
    """Everything about a deck that needs the catalog: ids exist, types fit, copies and size obey the rules."""
    return check_deck_refs(
        DeckRefs(
            deck=deck.id,
            arcastella=list(deck.arcastella),
            codes=[e.code for e in deck.equipment],
            entries=[(e.id, e.count) for e in deck.cards],
        ),
        cards,
        rules,
        file,
        broken,
    )


@dataclass
class DeckRefs:
    """What a deck refers to. Also read from a deck file that failed validation, so its unknown ids are
    reported together with its other problems. `complete` is False when some entries could not be read."""

    deck: str
    arcastella: list[str]
    codes: list[str]
    entries: list[tuple[str, int]]
    complete: bool = True

    @classmethod
    def from_raw(cls, deck: str, data: Mapping[str, Any]) -> DeckRefs:
        def strings(value: Any) -> list[str]:
            return [v for v in value if isinstance(v, str)] if isinstance(value, list) else []

        raw_equipment = data.get("equipment")
        codes = [e.get("code") for e in raw_equipment if isinstance(e, dict)] if isinstance(raw_equipment, list) else []
        raw_cards = data.get("cards")
        raw_cards = raw_cards if isinstance(raw_cards, list) else []
        entries = [
            (e["id"], e.get("count", 1))
            for e in raw_cards
            if isinstance(e, dict) and isinstance(e.get("id"), str) and isinstance(e.get("count", 1), int)
        ]
        return cls(
            deck=deck,
            arcastella=strings(data.get("arcastella")),
            codes=[c for c in codes if isinstance(c, str)],
            entries=entries,
            complete=bool(raw_cards) and len(entries) == len(raw_cards),
        )


def check_deck_refs(
    refs: DeckRefs, cards: Mapping[str, Card], rules: DeckRules, file: str, broken: Collection[str] = ()
) -> list[Problem]:
    """The catalog checks of one deck's references. Ids in `broken` name cards that exist in the files but
    failed validation: their own problems are reported already, so they are not called unknown here."""
    problems: list[Problem] = []

    def add(field: str, key: str, **args: object) -> None:
        problems.append(
            Problem(
                file=file,
                item=refs.deck,
                field=field,
                key=f"cards.problem.{key}",
                args={k: str(v) for k, v in args.items()},
            )
        )

    def expect(field: str, card_id: str, types: tuple[str, ...]) -> None:
        card = cards.get(card_id)
        if card is None and card_id not in broken:
            add(field, "unknown_card", deck=refs.deck, card=card_id)
        elif card is not None and card.type not in types:
            add(field, "wrong_type", card=card_id, actual=card.type, expected=" / ".join(types))

    for i, arcastella in enumerate(refs.arcastella):
        expect(f"arcastella[{i}]", arcastella, ("arcastella",))
    for i, code in enumerate(refs.codes):
        expect(f"equipment[{i}].code", code, ("sephirot_code",))
    for i, (card_id, count) in enumerate(refs.entries):
        expect(f"cards[{i}].id", card_id, DECK_CARD_TYPES)
        if count > rules.max_copies:
            add(f"cards[{i}].count", "too_many_copies", card=card_id, count=count, max=rules.max_copies)
    size = sum(count for _, count in refs.entries)
    if refs.complete and size != rules.size:
        add("cards", "deck_size", size=size, expected=rules.size)
    return problems
