"""Opening the SQLite file: folder, pragmas, schema. Every failure becomes a clear StoreError."""

from __future__ import annotations

import contextlib
import random
import sqlite3
import time
from collections.abc import Callable, Iterator
from pathlib import Path
from typing import Literal

from sqlite_utils import Database

from bot.store.errors import DatabaseBusy, DatabaseUnusable, ForeignDatabase, IdOutOfRange, StoreError, WrongThread
from bot.store.migrations import MIGRATIONS, OUR_TABLES, migrate

BUSY_TIMEOUT_MS = 5000
# `PRAGMA application_id` of a referee database ("HNRf"): tells our file from another application's.
APPLICATION_ID = 0x484E5266
Synchronous = Literal["NORMAL", "FULL"]


def open_database(
    path: Path,
    *,
    busy_timeout_ms: int = BUSY_TIMEOUT_MS,
    synchronous: Synchronous = "FULL",
    stop_before: str | None = None,
    same_thread: bool = False,
) -> Database:
    """Open (creating on first use) the database at `path`, in WAL mode, migrated to this schema
    (`stop_before` a migration name leaves it at an older one: for upgrade tests). `same_thread`: only
    the calling thread may use the connection; sqlite3 itself refuses any other."""
    path = Path(path)
    try:
        path.parent.mkdir(parents=True, exist_ok=True)
    except (OSError, ValueError) as exc:  # ValueError: a NUL in the path
        raise DatabaseUnusable(path=str(path), reason=_reason(exc)) from exc
    except OverflowError as exc:  # sqlite3 refuses an int it cannot store; typed ids reach here
        raise IdOutOfRange(limit=2**63 - 1) from exc
    try:
        # One connection, used by one thread at a time (the service funnels it through its worker).
        conn = sqlite3.connect(str(path), timeout=busy_timeout_ms / 1000, check_same_thread=same_thread)
    except (sqlite3.Error, ValueError) as exc:
        raise DatabaseUnusable(path=str(path), reason=_reason(exc)) from exc
    try:
        db = Database(conn)
        with translated(path):
            db.execute(f"PRAGMA busy_timeout = {int(busy_timeout_ms)}")
            # Every step of setting up may meet another process setting up the same fresh file: the
            # switch to WAL is refused with "busy" at once rather than waited for, so all is retried
            # until the busy timeout has passed, like any other statement's wait.
            _retrying_busy(
                conn,
                lambda: _set_up(db, path, synchronous, stop_before),
                deadline=time.monotonic() + busy_timeout_ms / 1000,
            )
    except BaseException:
        conn.close()
        raise
    return db


def database_exists(path: Path) -> bool:
    """Whether a database file is there (a reading command must not create an empty one); a path the
    OS cannot even look at (too long, a NUL in it, a folder without permission) is DatabaseUnusable."""
    try:
        return Path(path).exists()
    except (OSError, ValueError) as exc:
        raise DatabaseUnusable(path=str(path), reason=_reason(exc)) from None


def _set_up(db: Database, path: Path, synchronous: Synchronous, stop_before: str | None) -> None:
    # Nothing is written before the file is known to be ours (or empty): another application's
    # database must be left exactly as it was, not switched to WAL and given our tables.
    marked = _recognise(db, path)
    db.enable_wal()
    # FULL (SQLite's own default): every commit is on the disk before a player is told it
    # happened, so not even a power cut or an OS crash loses a move; it costs one fsync per
    # action (~0.2 ms here). NORMAL (REFEREE_DB_SYNC=normal) skips it: a committed action still
    # survives the process being killed at any moment (tests/store/test_crash.py) and the file
    # is never corrupted, but a power cut can take back the last seconds of play.
    db.execute("PRAGMA synchronous = FULL" if synchronous == "FULL" else "PRAGMA synchronous = NORMAL")
    db.execute("PRAGMA foreign_keys = ON")
    # 32 MiB of page cache (the default is 2 MiB): running games touch pages all over a big log.
    db.execute("PRAGMA cache_size = -32768")
    migrate(db, stop_before=stop_before)
    if not marked:
        db.execute(f"PRAGMA application_id = {APPLICATION_ID}")


def _recognise(db: Database, path: Path) -> bool:
    """Whether the file already carries our application id; ForeignDatabase when it is not a referee
    database: only empty files and ours (also from before the id was written) are opened."""
    app_id = db.execute("PRAGMA application_id").fetchone()[0]
    if app_id == APPLICATION_ID:
        return True
    names = {
        row[0]
        for row in db.execute(
            "SELECT name FROM sqlite_master WHERE type IN ('table', 'view') AND name NOT LIKE 'sqlite_%'"
        ).fetchall()
    }
    if app_id == 0 and not names:
        return False  # a fresh file (or one a process just switched to WAL)
    if app_id == 0 and names <= OUR_TABLES and MIGRATIONS.migrations_table in names:
        sets = {row[0] for row in db.execute(f"SELECT DISTINCT migration_set FROM {MIGRATIONS.migrations_table}")}
        if sets <= {MIGRATIONS.name}:
            return False  # written by a referee from before the application id
    raise ForeignDatabase(path=str(path))


def _retrying_busy(conn: sqlite3.Connection, step: Callable[[], None], *, deadline: float) -> None:
    delay = 0.002
    while True:
        try:
            step()
            return
        except sqlite3.OperationalError as exc:
            if not _is_busy(exc) or time.monotonic() >= deadline:
                raise
            if conn.in_transaction:
                conn.rollback()
            time.sleep(delay + random.random() * delay)  # jitter: the waiting processes do not retry in step
            delay = min(delay * 2, 0.05)


def _is_busy(exc: sqlite3.Error) -> bool:
    text = str(exc).lower()
    return "locked" in text or "busy" in text


@contextlib.contextmanager
def translated(path: Path) -> Iterator[None]:
    """Turn sqlite3's exceptions into StoreErrors that say what to do; StoreErrors pass through."""
    try:
        yield
    except StoreError:
        raise
    except sqlite3.OperationalError as exc:
        if _is_busy(exc):
            raise DatabaseBusy(path=str(path)) from exc
        raise DatabaseUnusable(path=str(path), reason=_reason(exc)) from exc
    except sqlite3.ProgrammingError as exc:
        if "thread" in str(exc):  # a caller that skipped the service's worker: a bug, not the file's fault
            raise WrongThread(path=str(path)) from exc
        raise DatabaseUnusable(path=str(path), reason=_reason(exc)) from exc
    except sqlite3.DatabaseError as exc:
        raise DatabaseUnusable(path=str(path), reason=_reason(exc)) from exc
    except OSError as exc:
        raise DatabaseUnusable(path=str(path), reason=_reason(exc)) from exc
    except OverflowError as exc:  # sqlite3 refuses an int it cannot store; typed ids reach here
        raise IdOutOfRange(limit=2**63 - 1) from exc


def _reason(exc: BaseException) -> str:
    return f"{type(exc).__name__}: {exc}"
