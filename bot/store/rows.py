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
    """Log rows (game_id, seq, version, actor, type, data, created_at) as EventRecords. A long log has
    tens of thousands: a row whose every column has its expected type is taken as it is, and only any
    other goes through validation (which names it as CorruptRow)."""
    out: list[EventRecord] = []
    construct = EventRecord.model_construct
    for game_id, seq, version, actor, kind, data, created_at in cursor.fetchall():
        if (
            type(game_id) is int
            and type(seq) is int
            and type(version) is int
            and (actor is None or type(actor) is int)
            and type(kind) is str
            and type(data) is str
            and type(created_at) is str
        ):
            out.append(
                construct(
                    game_id=game_id, seq=seq, version=version, actor=actor, type=kind, data=data, created_at=created_at
                )
            )
            continue
        row = {"game_id": game_id, "seq": seq, "version": version, "actor": actor, "type": kind, "data": data}
        try:
            out.append(EventRecord.model_validate({**row, "created_at": created_at}))
        except ValidationError as exc:
            raise CorruptRow(what=f"events row {_ident(row)}", reason=safe_reason(exc)) from exc
    return out
