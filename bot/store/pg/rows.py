"""psycopg rows (as dicts) turned into the store's pydantic records, with CorruptRow for rows that do not fit."""

from __future__ import annotations

from typing import Any, TypeVar

from pydantic import BaseModel, ValidationError

from bot.store.errors import CorruptRow
from bot.store.records import EventRecord, safe_reason

R = TypeVar("R", bound=BaseModel)
_IDENT = ("id", "game_id", "seq", "channel_id", "guild_id", "user_id", "name")


def as_records(rows: list[dict[str, Any]], model: type[R], *, what: str) -> list[R]:
    out = []
    for row in rows:
        try:
            out.append(model.model_validate(row))
        except ValidationError as exc:
            ident = ", ".join(f"{k}={row[k]}" for k in _IDENT if k in row)
            raise CorruptRow(what=f"{what} {ident}", reason=safe_reason(exc)) from exc
    return out


def as_events(rows: list[tuple[Any, ...]]) -> list[EventRecord]:
    """Log rows (game_id, seq, version, actor, type, data, created_at) as EventRecords."""
    out: list[EventRecord] = []
    for game_id, seq, version, actor, kind, data, created_at in rows:
        row = {"game_id": game_id, "seq": seq, "version": version, "actor": actor, "type": kind, "data": data}
        row["created_at"] = created_at
        try:
            out.append(EventRecord.model_validate(row))
        except ValidationError as exc:
            raise CorruptRow(what=f"events row game_id={game_id}, seq={seq}", reason=safe_reason(exc)) from exc
    return out
