"""The players' saved decks: one named list of card ids per user and name."""

from __future__ import annotations

import json
from collections.abc import Sequence
from pathlib import Path
from typing import Any

from sqlite_utils import Database

from bot.names import check_name
from bot.store.connection import translated
from bot.store.errors import NoDeck
from bot.store.records import DeckRecord, now_text
from bot.store.rows import as_records

_COLUMNS = "user_id, name, cards, created_at, updated_at"


class Decks:
    def __init__(self, db: Database, path: Path) -> None:
        self._db = db
        self._path = path

    def save(self, user_id: int, name: str, cards: Sequence[Any]) -> DeckRecord:
        """Create or replace the user's deck `name` (a name with an invisible character is refused)."""
        name = check_name(name, "deck")
        now = now_text()
        with translated(self._path), self._db.atomic():
            self._db.execute(
                "INSERT INTO decks (user_id, name, cards, created_at, updated_at) VALUES (?, ?, ?, ?, ?) "
                "ON CONFLICT (user_id, name) DO UPDATE SET cards = excluded.cards, updated_at = excluded.updated_at",
                (user_id, name, json.dumps(list(cards), ensure_ascii=False, separators=(",", ":")), now, now),
            )
        return self.get(user_id, name)

    def get(self, user_id: int, name: str) -> DeckRecord:
        name = check_name(name, "deck")
        with translated(self._path):
            cur = self._db.execute(f"SELECT {_COLUMNS} FROM decks WHERE user_id = ? AND name = ?", (user_id, name))
            found = as_records(cur, DeckRecord, what="decks row")
        if not found:
            raise NoDeck(name=name)
        return found[0]

    def of_user(self, user_id: int) -> list[DeckRecord]:
        with translated(self._path):
            cur = self._db.execute(f"SELECT {_COLUMNS} FROM decks WHERE user_id = ? ORDER BY name", (user_id,))
            return as_records(cur, DeckRecord, what="decks row")

    def delete(self, user_id: int, name: str) -> None:
        name = check_name(name, "deck")
        with translated(self._path), self._db.atomic():
            gone = self._db.execute("DELETE FROM decks WHERE user_id = ? AND name = ?", (user_id, name)).rowcount
        if not gone:
            raise NoDeck(name=name)
