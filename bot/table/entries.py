"""The table's own entries in a game's log, beside the engine's events: an undo, a rollback, an end.

The event log is append-only, so taking an action back is itself an entry: `table_undo` removes the
last action still in effect (all events of one commit share its version), `table_rollback` removes
every action after a version; a judge call is logged and is no action. `Logged` is anything a game's log
holds.
"""

from __future__ import annotations

from typing import Literal

from pydantic import BaseModel, ConfigDict

from bot.engine.events import Event

UNDO = "table_undo"
ROLLBACK = "table_rollback"
ENDED = "table_ended"
JUDGE = "table_judge"
TABLE_TYPES = frozenset({UNDO, ROLLBACK, ENDED, JUDGE})


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


class TableJudge(_TableEvent):
    """Someone at the table called a judge with a question. It changes nothing on the table and is
    not an action: an undo or rollback passes over it, and it stays in the log."""

    type: Literal["table_judge"] = "table_judge"
    by: int
    question: str


TableEntry = TableUndo | TableRollback | TableEnded | TableJudge
Logged = Event | TableEntry
