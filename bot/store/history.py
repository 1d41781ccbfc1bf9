"""The table's own entries in a game's log (undo, rollback, end, a judge call) and the log they leave in effect.

The event log is append-only, so taking an action back is itself an entry: `table_undo` removes the
last action still in effect (all events of one commit share its version), `table_rollback` removes
every action after a version. Folding the effective events from the start rebuilds the state.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from typing import Generic, TypeVar

from pydantic import BaseModel

from bot.store.errors import CorruptRow
from bot.store.records import EventRecord, parse_json
from bot.table.entries import ROLLBACK, TABLE_TYPES, UNDO, TableRollback, TableUndo

X = TypeVar("X")
E = TypeVar("E", bound=BaseModel)


@dataclass(frozen=True, slots=True)
class Batch:
    """The events one commit wrote (one action), with who made it. A plain dataclass: a long log has
    thousands, and they are only ever built from records already validated."""

    version: int
    actor: int | None
    events: tuple[EventRecord, ...]


def batches(log: Sequence[EventRecord]) -> list[Batch]:
    """Group the log by commit, in order."""
    out: list[Batch] = []
    current: list[EventRecord] = []
    for record in log:
        if current and record.version != current[0].version:
            out.append(Batch(current[0].version, current[0].actor, tuple(current)))
            current = []
        current.append(record)
    if current:
        out.append(Batch(current[0].version, current[0].actor, tuple(current)))
    return out


class Effect(Generic[X]):
    """The actions in effect, kept up to date as the log is read one commit at a time (one pass, however
    many undos and rollbacks the log holds). `depths` is the number in effect after each commit read."""

    def __init__(self) -> None:
        self.stack: list[tuple[int, X]] = []  # (version, item), oldest first
        self.depths: list[int] = []

    def read(self, version: int, head_type: str, head_data: str | None, item: X, *, where: str) -> None:
        """One commit: its version, the type and data (JSON) of its first event, and what to keep for it."""
        if head_type == UNDO:
            undo = _table_entry(head_data, TableUndo, where)
            if not self.stack or self.stack[-1][0] != undo.undone:
                raise CorruptRow(what=where, reason="undo of no action")
            self.stack.pop()
        elif head_type == ROLLBACK:
            rollback = _table_entry(head_data, TableRollback, where)
            while self.stack and self.stack[-1][0] > rollback.to:
                self.stack.pop()
        elif head_type not in TABLE_TYPES:
            self.stack.append((version, item))
        self.depths.append(len(self.stack))

    def items(self) -> list[X]:
        return [item for _, item in self.stack]


class Tail:
    """The actions in effect, found by reading the log from its end backwards only as far as needed (an
    undo looks at the last few commits, not at the whole log). Going back, an undo entry removes the
    action it names and a rollback every earlier action above its version."""

    def __init__(self) -> None:
        self.found: list[tuple[int, int | None]] = []  # (version, player) in effect, newest first
        self._ceiling = float("inf")  # actions above the lowest rollback target read so far are gone
        self._undone: set[int] = set()
        self._lowest_undone = float("inf")
        self.read_count = 0

    def read(self, version: int, actor: int | None, head_type: str, head_data: str | None, *, where: str) -> None:
        """The commit before the ones read so far."""
        self.read_count += 1
        if head_type == UNDO:
            undone = _table_entry(head_data, TableUndo, where).undone
            self._undone.add(undone)
            self._lowest_undone = min(self._lowest_undone, undone)
        elif head_type == ROLLBACK:
            self._ceiling = min(self._ceiling, _table_entry(head_data, TableRollback, where).to)
        elif head_type not in TABLE_TYPES and version <= self._ceiling and version not in self._undone:
            self.found.append((version, actor))

    def intact_up_to(self, version: int) -> bool:
        """Whether every action in effect at `version` is still in effect after the commits read so far:
        then the table as committed at `version` is a base to fold the later actions in effect onto."""
        return version < self._lowest_undone and version <= self._ceiling


def _table_entry(data: str | None, model: type[E], where: str) -> E:
    return parse_json(data or "", model, what=where)  # type: ignore[no-any-return]


def in_effect(log: Sequence[EventRecord]) -> list[Batch]:
    """The actions still in effect after every undo and rollback in the log, oldest first."""
    effect: Effect[Batch] = Effect()
    for batch in batches(log):
        head = batch.events[0]
        where = f"events (game {head.game_id}, seq {head.seq})"
        effect.read(batch.version, head.type, head.data, batch, where=where)
    return effect.items()


def effective_events(log: Sequence[EventRecord]) -> list[EventRecord]:
    """The game's events with every undone or rolled-back action left out."""
    return [record for batch in in_effect(log) for record in batch.events]
