"""The table's own entries in a game's log (undo, rollback, end) and the log they leave in effect.

The event log is append-only, so taking an action back is itself an entry: `table_undo` removes the
last action still in effect (all events of one commit share its version), `table_rollback` removes
every action after a version. Folding the effective events from the start rebuilds the state.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Literal

from pydantic import BaseModel, ConfigDict

from bot.store.errors import CorruptRow
from bot.store.records import EventRecord

UNDO = "table_undo"
ROLLBACK = "table_rollback"
ENDED = "table_ended"
TABLE_TYPES = frozenset({UNDO, ROLLBACK, ENDED})


class _TableEvent(BaseModel):
    model_config = ConfigDict(frozen=True, extra="forbid")


class TableUndo(_TableEvent):
    """A player took back their own last action (version `undone`); everyone sees this entry."""

    type: Literal["table_undo"] = "table_undo"
    by: int
    undone: int


class TableRollback(_TableEvent):
    """A moderator set the table back to how it was at version `to`."""

    type: Literal["table_rollback"] = "table_rollback"
    by: int
    to: int


class TableEnded(_TableEvent):
    """A moderator ended the game without a winner."""

    type: Literal["table_ended"] = "table_ended"
    by: int
    reason: str = ""


class Batch(BaseModel):
    """The events one commit wrote (one action), with who made it."""

    model_config = ConfigDict(frozen=True)

    version: int
    actor: int | None
    events: tuple[EventRecord, ...]


def batches(log: Sequence[EventRecord]) -> list[Batch]:
    """Group the log by commit, in order."""
    out: list[Batch] = []
    current: list[EventRecord] = []
    for record in log:
        if current and record.version != current[0].version:
            out.append(Batch(version=current[0].version, actor=current[0].actor, events=tuple(current)))
            current = []
        current.append(record)
    if current:
        out.append(Batch(version=current[0].version, actor=current[0].actor, events=tuple(current)))
    return out


def in_effect(log: Sequence[EventRecord]) -> list[Batch]:
    """The actions still in effect after every undo and rollback in the log, oldest first."""
    stack: list[Batch] = []
    for batch in batches(log):
        head = batch.events[0]
        if head.type == UNDO:
            undo = head.data_as(TableUndo)
            if not stack or stack[-1].version != undo.undone:
                raise CorruptRow(what=f"events (game {head.game_id}, seq {head.seq})", reason="undo of no action")
            stack.pop()
        elif head.type == ROLLBACK:
            rollback = head.data_as(TableRollback)
            while stack and stack[-1].version > rollback.to:
                stack.pop()
        elif head.type not in TABLE_TYPES:
            stack.append(batch)
    return stack


def effective_events(log: Sequence[EventRecord]) -> list[EventRecord]:
    """The game's events with every undone or rolled-back action left out."""
    return [record for batch in in_effect(log) for record in batch.events]
