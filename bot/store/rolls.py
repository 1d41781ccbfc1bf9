"""The dice log: every roll of a channel, in a game (numbered, with the commitment) or outside one."""

from __future__ import annotations

import json
from collections.abc import Sequence
from pathlib import Path

from sqlite_utils import Database

from bot.store.connection import translated
from bot.store.records import NewRoll, RollRecord, now_text
from bot.store.rows import as_records

_COLUMNS = "id, channel_id, game_id, user_id, number, expression, faces, total, commitment, created_at"


def insert_rolls(db: Database, channel_id: int, game_id: int | None, rolls: Sequence[NewRoll], now: str) -> None:
    """Insert inside the caller's transaction, so a game's rolls and its events land together."""
    if not rolls:
        return
    db.conn.executemany(
        "INSERT INTO rolls (channel_id, game_id, user_id, number, expression, faces, total, commitment, created_at) "
        "VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?)",
        [
            (
                channel_id,
                game_id,
                r.user_id,
                r.number,
                r.expression,
                json.dumps(r.faces, separators=(",", ":")),
                r.total,
                r.commitment,
                now,
            )
            for r in rolls
        ],
    )


class Rolls:
    def __init__(self, db: Database, path: Path) -> None:
        self._db = db
        self._path = path

    def record(self, channel_id: int, roll: NewRoll, *, game_id: int | None = None) -> RollRecord:
        """File one roll made outside the game cycle (e.g. `/roll` in a channel)."""
        with translated(self._path), self._db.atomic():
            insert_rolls(self._db, channel_id, game_id, [roll], now_text())
            cur = self._db.execute(f"SELECT {_COLUMNS} FROM rolls WHERE id = last_insert_rowid()")
            return as_records(cur, RollRecord, what="rolls row")[0]

    def of_channel(self, channel_id: int, *, limit: int = 50) -> list[RollRecord]:
        """The channel's most recent rolls, oldest first."""
        with translated(self._path):
            cur = self._db.execute(
                f"SELECT {_COLUMNS} FROM (SELECT * FROM rolls WHERE channel_id = ? ORDER BY id DESC LIMIT ?) "
                "ORDER BY id",
                (channel_id, limit),
            )
            return as_records(cur, RollRecord, what="rolls row")

    def of_game(self, game_id: int) -> list[RollRecord]:
        with translated(self._path):
            cur = self._db.execute(f"SELECT {_COLUMNS} FROM rolls WHERE game_id = ? ORDER BY number, id", (game_id,))
            return as_records(cur, RollRecord, what="rolls row")
