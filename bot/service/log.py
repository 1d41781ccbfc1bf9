"""A game's log as front ends read it: typed entries, never JSON to parse or store rows to filter.

Each entry is one event the table logged, parsed: an engine event (bot/engine/events.py) or one of
the table's own entries (an undo, a rollback, an end). `in_effect` holds the actions that an undo or
rollback has not taken back, in order; `events()` their engine events, which fold to the table.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any

from pydantic import TypeAdapter

from bot.engine import Event
from bot.service.results import TableView
from bot.store import EventRecord
from bot.store.history import TABLE_TYPES, TableEnded, TableJudge, TableRollback, TableUndo, in_effect
from bot.store.records import parse_json

TableEntry = TableUndo | TableRollback | TableEnded | TableJudge
_EVENTS: TypeAdapter[Any] = TypeAdapter(Event)
_TABLE: TypeAdapter[TableEntry] = TypeAdapter(TableEntry)


@dataclass(frozen=True, slots=True)
class LogEntry:
    """One logged event: where it sits (game, sequence number, version of its commit), who made the
    commit, and the event itself. `data` is the event as stored (JSON), for tools that print it raw."""

    game_id: int
    seq: int
    version: int
    actor: int | None
    type: str
    data: str
    created_at: str
    event: Any  # an engine Event, or a TableEntry when `type` is one of the table's own

    @property
    def is_table_entry(self) -> bool:
        return self.type in TABLE_TYPES


@dataclass(frozen=True, slots=True)
class LoggedAction:
    """The entries one commit wrote (one action or one table entry), with who made it."""

    version: int
    actor: int | None
    entries: tuple[LogEntry, ...]


@dataclass(frozen=True)
class GameLog:
    game: TableView
    entries: list[LogEntry]
    in_effect: list[LoggedAction]

    def events(self) -> list[Any]:
        """The engine events of the actions in effect, in order: folding them gives the table."""
        return [e.event for action in self.in_effect for e in action.entries if not e.is_table_entry]


def typed_log(game: TableView, records: Sequence[EventRecord]) -> GameLog:
    """Parse every record once; the actions in effect share the parsed entries."""
    entries = [_entry(r) for r in records]
    by_seq = {e.seq: e for e in entries}
    effective = [
        LoggedAction(batch.version, batch.actor, tuple(by_seq[r.seq] for r in batch.events))
        for batch in in_effect(records)
    ]
    return GameLog(game, entries, effective)


def _entry(record: EventRecord) -> LogEntry:
    where = f"events.data (game {record.game_id}, seq {record.seq})"
    adapter = _TABLE if record.type in TABLE_TYPES else _EVENTS
    event = parse_json(record.data, adapter, what=where)
    return LogEntry(
        record.game_id,
        record.seq,
        record.version,
        record.actor,
        record.type,
        record.data,
        record.created_at,
        event,
    )
