"""Rows as they come back from the store: frozen pydantic models holding JSON text.

The store is generic: it keeps a game's state and events as JSON text and does not know the engine's
classes. `state_as(GameState)` / `data_as(Event)` parse them; a row that does not parse is CorruptRow.
"""

from __future__ import annotations

import json
import time
from collections.abc import Mapping
from functools import cache
from typing import Any, Literal, TypeVar

from pydantic import BaseModel, ConfigDict, TypeAdapter, ValidationError

from bot.store.errors import CorruptRow

M = TypeVar("M")


class RawJson(str):
    """JSON text the caller already serialised (e.g. a model dumped with some fields left out)."""

    __slots__ = ()


JsonLike = RawJson | BaseModel | Mapping[str, Any] | list[Any]


def now_text() -> str:
    """Timestamps are UTC ISO-8601 text to the millisecond, readable in any SQLite browser (the same
    text as `datetime.now(UTC).isoformat(timespec="milliseconds")`, in half the time: every commit
    stamps its rows)."""
    now = time.time()
    return f"{time.strftime('%Y-%m-%dT%H:%M:%S', time.gmtime(now))}.{int(now * 1000) % 1000:03d}+00:00"


def to_json(doc: JsonLike) -> str:
    """Compact JSON text of a pydantic model or a plain JSON-able mapping (RawJson is kept as it is)."""
    if isinstance(doc, RawJson):
        return str(doc)
    if isinstance(doc, BaseModel):
        return doc.model_dump_json()
    return json.dumps(doc, ensure_ascii=False, separators=(",", ":"))


def event_type(doc: JsonLike) -> str:
    """The name an event is filed under: its `type`/`kind` field, else its class name."""
    for name in ("type", "kind"):
        value = getattr(doc, name, None) if isinstance(doc, BaseModel) else None
        if value is None and isinstance(doc, Mapping):
            value = doc.get(name)
        if isinstance(value, str):
            return value
    return type(doc).__name__


def parse_json(text: str, model: Any, *, what: str) -> Any:
    """Parse stored JSON text as `model`: a pydantic model, a TypeAdapter, or any type TypeAdapter accepts."""
    try:
        if isinstance(model, type) and issubclass(model, BaseModel):
            return model.model_validate_json(text)
        adapter = model if isinstance(model, TypeAdapter) else _adapter(model)
        return adapter.validate_json(text)
    except (ValidationError, ValueError, TypeError) as exc:
        raise CorruptRow(what=what, reason=safe_reason(exc)) from exc


@cache
def _adapter(model: Any) -> TypeAdapter[Any]:
    # Building a TypeAdapter costs far more than using one.
    return TypeAdapter(model)


def safe_reason(exc: BaseException) -> str:
    """Why a stored row does not parse, without quoting the row: a game's state holds its deck orders
    and hands, so a message says where and what kind of error, never the input itself."""
    if isinstance(exc, ValidationError):
        errors = exc.errors(include_url=False, include_input=False, include_context=False)
        if errors:
            first = errors[0]
            where = ".".join(str(part) for part in first["loc"]) or "(top level)"
            more = f" (+{len(errors) - 1} more)" if len(errors) > 1 else ""
            return f"{where}: {first['msg']}{more}"[:300]
    if isinstance(exc, json.JSONDecodeError):
        return f"invalid JSON at line {exc.lineno} column {exc.colno}"
    return type(exc).__name__


class _Row(BaseModel):
    model_config = ConfigDict(frozen=True, extra="ignore", strict=False)


class GameRecord(_Row):
    id: int
    channel_id: int
    guild_id: int | None
    status: Literal["active", "finished"]
    state: str
    version: int
    last_seq: int
    seed: bytes | None
    commitment: str | None
    next_roll: int
    result: str | None
    created_at: str
    updated_at: str
    finished_at: str | None
    table_id: str | None = None

    def state_as(self, model: type[M] | Any) -> M:
        parsed: M = parse_json(self.state, model, what=f"games.state (game {self.id}, channel {self.channel_id})")
        return parsed

    def state_dict(self) -> dict[str, Any]:
        parsed: dict[str, Any] = self.state_as(dict[str, Any])
        return parsed

    @property
    def active(self) -> bool:
        return self.status == "active"


class EventRecord(_Row):
    game_id: int
    seq: int
    version: int
    actor: int | None
    type: str
    data: str
    created_at: str

    def data_as(self, model: Any) -> Any:
        parsed: Any = parse_json(self.data, model, what=f"events.data (game {self.game_id}, seq {self.seq})")
        return parsed

    def data_dict(self) -> dict[str, Any]:
        parsed: dict[str, Any] = self.data_as(dict[str, Any])
        return parsed


class RollRecord(_Row):
    id: int
    channel_id: int
    game_id: int | None
    user_id: int | None
    number: int | None
    expression: str
    faces: str
    total: int
    commitment: str | None
    created_at: str

    def face_list(self) -> list[Any]:
        parsed: list[Any] = parse_json(self.faces, list[Any], what=f"rolls.faces (roll {self.id})")
        return parsed


class DeckRecord(_Row):
    user_id: int
    name: str
    cards: str
    created_at: str
    updated_at: str

    def card_list(self) -> list[Any]:
        parsed: list[Any] = parse_json(self.cards, list[Any], what=f"decks.cards ({self.user_id}/{self.name})")
        return parsed


class NewRoll(BaseModel):
    """A roll to file: in a game (with its fair-dice number and commitment) or outside one."""

    model_config = ConfigDict(frozen=True)

    expression: str
    faces: list[Any]
    total: int
    user_id: int | None = None
    number: int | None = None
    commitment: str | None = None


class GuildSettingsRecord(_Row):
    guild_id: int
    locale: str | None = None
    options: str = "{}"
    judge_role_id: int | None = None

    def option_dict(self) -> dict[str, Any]:
        parsed: dict[str, Any] = parse_json(self.options, dict[str, Any], what=f"guild_settings ({self.guild_id})")
        return parsed


class ChannelSettingsRecord(_Row):
    channel_id: int
    guild_id: int | None = None
    locale: str | None = None
    options: str = "{}"

    def option_dict(self) -> dict[str, Any]:
        parsed: dict[str, Any] = parse_json(self.options, dict[str, Any], what=f"channel_settings ({self.channel_id})")
        return parsed
