"""The table service: the one API every front end calls (bot/service/api.py), one call per command.

    api.py      the async API: one lock per channel, every database call on one worker thread
    core.py     the worker side: load, play, commit, read
    undo.py     undo and rollback rules
    fair.py     a game's fair-dice draws for a judge (bot/dice/verify.py checks them)
    results.py  Outcome, TableView, GameLog: what the calls return
    errors.py   who may not do what

Front ends import from here only, never from bot.store: the store's errors and the table's own log
entries they need are re-exported (NoGame, TableUndo, TableRollback, TableEnded, TableJudge).
"""

from bot.service.api import TableService
from bot.service.clock import ClockFired, ClockRange
from bot.service.errors import (
    BadRollback,
    NothingToUndo,
    NotModerator,
    NotSeated,
    NotYourSeat,
    NotYourUndo,
    ServiceError,
    UndoBarrier,
)
from bot.service.log import GameLog, LogEntry, LoggedAction
from bot.service.results import Outcome, ReplayCheck, TableView
from bot.service.undo import barrier_reason, is_barrier
from bot.store import NoGame
from bot.table.entries import TableEnded, TableEntry, TableJudge, TableRollback, TableUndo

__all__ = [
    "BadRollback",
    "ClockFired",
    "ClockRange",
    "GameLog",
    "LogEntry",
    "LoggedAction",
    "NoGame",
    "NotModerator",
    "NotSeated",
    "NotYourSeat",
    "NotYourUndo",
    "NothingToUndo",
    "Outcome",
    "ReplayCheck",
    "ServiceError",
    "TableEnded",
    "TableEntry",
    "TableJudge",
    "TableRollback",
    "TableService",
    "TableUndo",
    "TableView",
    "UndoBarrier",
    "barrier_reason",
    "is_barrier",
]
