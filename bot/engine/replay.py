"""Rebuild a table from its events alone: no rng, no catalog, no actions."""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from typing import Any

from pydantic import TypeAdapter

from bot.engine.events import Event
from bot.engine.fold import fold_all
from bot.engine.state import GameState

EVENTS: TypeAdapter[list[Event]] = TypeAdapter(list[Event])


def replay(events: Iterable[Event], upto: int | None = None) -> GameState:
    """The state after the first `upto` events (all of them by default), folded from an empty table."""
    items: Sequence[Any] = list(events)
    if upto is not None:
        items = items[:upto]
    return fold_all(GameState(), items)


def events_from_json(data: str | bytes) -> list[Any]:
    """Events back from the JSON `events_to_json` wrote (what the store keeps)."""
    return EVENTS.validate_json(data)


def events_to_json(events: Sequence[Any]) -> bytes:
    return EVENTS.dump_json(list(events))
