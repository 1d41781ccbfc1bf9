"""Card-interaction mode: the cards a player names, looked up in cards/ and added to the question."""

from __future__ import annotations

from collections.abc import Sequence
from pathlib import Path

from bot.catalog import Catalog, load_catalog
from bot.rulings.errors import RulingsError
from bot.rulings.models import CardNote

MAX_CARDS = 2  # "how do these two cards interact" is the question this mode answers


def card_notes(names: Sequence[str], catalog: Catalog | None = None, cards_dir: Path | None = None) -> list[CardNote]:
    """The named cards with their type and full rules text; an unknown name is an error with suggestions."""
    if len(names) > MAX_CARDS:
        raise RulingsError("rulings.too_many_cards", max=MAX_CARDS)
    if not names:
        return []
    catalog = catalog if catalog is not None else load_catalog(cards_dir)
    notes: list[CardNote] = []
    for name in names:
        card = catalog.find(name) if name.strip() else None
        if card is None:
            close = "、".join(c.name for c in catalog.search(name, limit=3)) if name.strip() else ""
            if close:
                raise RulingsError("rulings.unknown_card_close", name=name, suggestions=close)
            raise RulingsError("rulings.unknown_card", name=name)
        notes.append(CardNote(name=card.name, type=card.type, text=card.rules_text()))
    return notes
