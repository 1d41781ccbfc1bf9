"""Reading cards/: card files (`*.toml`) and deck files (`decks/*.toml`), every problem collected."""

from __future__ import annotations

import tomllib
from collections.abc import Mapping
from pathlib import Path
from typing import Any

from pydantic import BaseModel, ConfigDict, Field, TypeAdapter, ValidationError

from bot.catalog.cards import Card
from bot.catalog.catalog import Catalog, DeckRefs, check_deck, check_deck_refs, name_clashes
from bot.catalog.decks import Deck, DeckRules
from bot.catalog.problems import CatalogError, Problem, from_pydantic
from bot.errors import RefereeError
from bot.files import InputFileError, read_text
from bot.paths import data_folder

DECKS_FOLDER = "decks"
_CARD = TypeAdapter[Card](Card)


class CardFile(BaseModel):
    """A card file: an optional notice and a list of cards (`[[cards]]` tables)."""

    model_config = ConfigDict(frozen=True, extra="forbid", title="HorizonNotes Referee card file")

    notice: str | None = Field(default=None, description="Shown with every card of the file, e.g. SAMPLE DATA.")
    cards: tuple[Card, ...] = Field(description="The cards.")


class DeckFile(Deck):
    """A deck file: the deck's fields at the top level, and an optional notice."""

    model_config = ConfigDict(title="HorizonNotes Referee deck file")

    notice: str | None = Field(default=None, description="Shown with the deck, e.g. SAMPLE DATA.")


class TomlUnreadable(RefereeError):
    """A card or deck file that cannot be read as TOML: `message_key` is the problem's key (a cards
    problem, or the common.file key of bot/files.py), its args are strings."""

    key = "cards.problem.toml"


def read_toml(path: Path) -> dict[str, Any]:
    """A card or deck file as a TOML table, read through bot/files.py (a regular file of bounded size, in
    UTF-8: never /dev/zero or a FIFO). Deep nesting, which makes tomllib recurse without end, is
    refused as the catalog's own problem like any other broken file."""
    try:
        return tomllib.loads(read_text(path))
    except InputFileError as exc:
        raise TomlUnreadable(exc.message_key, **{k: str(v) for k, v in exc.args_.items()}) from None
    except tomllib.TOMLDecodeError as exc:
        raise TomlUnreadable("cards.problem.toml", detail=str(exc)) from None
    except RecursionError:
        raise TomlUnreadable("cards.problem.too_deep") from None


def problems_of(exc: ValidationError, file: str, item: str, tagged: bool = True) -> list[Problem]:
    """The problems of one validation error, without the echoes pydantic adds.

    A list whose item failed is also reported "too short" because the failed item does not count;
    that echo is dropped when a deeper error explains it.
    """
    errors = exc.errors()
    kept = [
        e
        for e in errors
        if not (
            e["type"] == "too_short"
            and any(len(o["loc"]) > len(e["loc"]) and o["loc"][: len(e["loc"])] == e["loc"] for o in errors)
        )
    ]
    return [from_pydantic(file, item, e, tagged) for e in kept]


def is_deck_file(path: Path, root: Path | None = None) -> bool:
    """Deck files live in a `decks` folder."""
    parent = path.parent
    return parent.name == DECKS_FOLDER and (root is None or parent.parent == root)


class Loader:
    """Collects cards, decks and problems from files; `catalog()` checks decks against the cards."""

    def __init__(self, root: Path | None = None, rules: DeckRules | None = None) -> None:
        self.root = root
        self.rules = rules or DeckRules()
        self.cards: dict[str, Card] = {}
        self.decks: dict[str, Deck] = {}
        self.sources: dict[str, str] = {}
        self.deck_sources: dict[str, str] = {}
        self.notices: dict[str, str] = {}
        self.problems: list[Problem] = []
        self.broken_decks: list[tuple[str, DeckRefs]] = []
        self.broken_cards: set[str] = set()

    def name(self, path: Path) -> str:
        if self.root is not None and path.is_relative_to(self.root):
            return path.relative_to(self.root).as_posix()
        return str(path)

    def _read(self, path: Path) -> dict[str, Any] | None:
        try:
            return read_toml(path)
        except TomlUnreadable as exc:
            self.problems.append(Problem(file=self.name(path), key=exc.message_key, args=exc.args_))
        return None

    def add_card_file(self, path: Path) -> None:
        """Validate each card of the file on its own, so one broken card hides no other problem."""
        data = self._read(path)
        if data is None:
            return
        file = self.name(path)
        for key in sorted(set(data) - {"notice", "cards"}):
            self.problems.append(Problem(file=file, field=key, key="cards.problem.extra_forbidden"))
        notice = data.get("notice")
        if notice is not None and not isinstance(notice, str):
            self.problems.append(Problem(file=file, field="notice", key="cards.problem.string_type"))
        raw_cards = data.get("cards")
        if not isinstance(raw_cards, list) or not raw_cards:
            self.problems.append(Problem(file=file, field="cards", key="cards.problem.no_cards"))
            return
        for index, raw in enumerate(raw_cards):
            item = str(raw.get("id")) if isinstance(raw, dict) and raw.get("id") else f"#{index + 1}"
            try:
                card = _CARD.validate_python(raw)
            except ValidationError as exc:
                self.problems.extend(problems_of(exc, file, item))
                self.broken_cards.add(item)
                continue
            if card.id in self.cards:
                self.problems.append(Problem.duplicate("card", file, card.id, self.sources[card.id]))
                continue
            self.cards[card.id] = card
            self.sources[card.id] = file
            if isinstance(notice, str):
                self.notices[card.id] = notice

    def add_deck_file(self, path: Path) -> None:
        data = self._read(path)
        if data is None:
            return
        file = self.name(path)
        item = str(data.get("id") or path.stem)
        try:
            deck_file = DeckFile.model_validate(data)
        except ValidationError as exc:
            self.problems.extend(problems_of(exc, file, item, tagged=False))
            self.broken_decks.append((file, DeckRefs.from_raw(item, data)))
            return
        deck = Deck.model_validate(deck_file.model_dump(exclude={"notice"}))
        if deck.id in self.decks:
            self.problems.append(Problem.duplicate("deck", file, deck.id, self.deck_sources[deck.id]))
            return
        self.decks[deck.id] = deck
        self.deck_sources[deck.id] = file
        if deck_file.notice:
            self.notices[deck.id] = deck_file.notice

    def add_folder(self, folder: Path) -> None:
        files = sorted(folder.rglob("*.toml"))
        if not files:
            self.problems.append(Problem(file=str(folder), key="cards.problem.empty_folder"))
        for path in files:
            if is_deck_file(path, folder):
                self.add_deck_file(path)
            else:
                self.add_card_file(path)

    def check(self) -> list[Problem]:
        """Every problem so far plus those only visible with all files read (names, deck contents)."""
        problems = list(self.problems)
        problems.extend(name_clashes(self.cards.values(), self.sources))
        for deck_id, deck in self.decks.items():
            problems.extend(check_deck(deck, self.cards, self.rules, self.deck_sources[deck_id], self.broken_cards))
        for file, refs in self.broken_decks:
            problems.extend(check_deck_refs(refs, self.cards, self.rules, file, self.broken_cards))
        return sorted(problems, key=lambda p: p.file)  # stable: each file's problems stay in order

    def catalog(self) -> Catalog:
        problems = self.check()
        if problems:
            raise CatalogError(problems)
        sources: Mapping[str, str] = {**self.sources, **self.deck_sources}
        return Catalog(self.cards, self.decks, self.rules, sources, self.notices)


def load_catalog(cards_dir: Path | None = None, rules: DeckRules | None = None) -> Catalog:
    """Load and check the cards folder (default: the one bot.paths finds; pass settings.cards_dir).

    Raises CatalogError listing every problem with file, card or deck id and field.
    """
    folder = data_folder("cards", cards_dir)
    loader = Loader(folder, rules)
    loader.add_folder(folder)
    return loader.catalog()
