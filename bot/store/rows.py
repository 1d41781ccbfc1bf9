"""Turning sqlite3 cursor rows into the pydantic records, with CorruptRow for rows that do not fit."""

from __future__ import annotations

import sqlite3
from typing import Any, TypeVar

from pydantic import BaseModel, ValidationError

from bot.store.errors import CorruptRow
from bot.store.records import EventRecord, safe_reason

R = TypeVar("R", bound=BaseModel)


def as_dicts(cursor: sqlite3.Cursor) -> list[dict[str, Any]]:
    names = [d[0] for d in cursor.description]
    return [dict(zip(names, row, strict=True)) for row in cursor.fetchall()]


def as_records(cursor: sqlite3.Cursor, model: type[R], *, what: str) -> list[R]:
    out = []
    for row in as_dicts(cursor):
        try:
            out.append(model.model_validate(row))
        except ValidationError as exc:
            raise CorruptRow(what=f"{what} {_ident(row)}", reason=safe_reason(exc)) from exc
    return out


def _ident(row: dict[str, Any]) -> str:
    keys = ("id", "game_id", "seq", "channel_id", "guild_id", "user_id", "name")
    return ", ".join(f"{k}={row[k]}" for k in keys if k in row)


def as_events(cursor: sqlite3.Cursor) -> list[EventRecord]:
    """Log rows (game_id, seq, version, actor, type, data, created_at) as EventRecords: a long log has
    tens of thousands, so each row goes to pydantic as a plain dict (no zip over cursor.description)."""
    out: list[EventRecord] = []
    validate = EventRecord.model_validate
    for game_id, seq, version, actor, kind, data, created_at in cursor.fetchall():
        row = {"game_id": game_id, "seq": seq, "version": version, "actor": actor, "type": kind, "data": data}
        row["created_at"] = created_at
        try:
            out.append(validate(row))
        except ValidationError as exc:
            raise CorruptRow(what=f"events row {_ident(row)}", reason=safe_reason(exc)) from exc
    return out
