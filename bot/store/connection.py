"""Opening the SQLite file: folder, pragmas, schema. Every failure becomes a clear StoreError."""

from __future__ import annotations

import contextlib
import sqlite3
from collections.abc import Iterator
from pathlib import Path
from typing import Literal

from sqlite_utils import Database

from bot.store.errors import DatabaseBusy, DatabaseUnusable, IdOutOfRange, StoreError
from bot.store.migrations import migrate

BUSY_TIMEOUT_MS = 5000
Synchronous = Literal["NORMAL", "FULL"]


def open_database(
    path: Path,
    *,
    busy_timeout_ms: int = BUSY_TIMEOUT_MS,
    synchronous: Synchronous = "FULL",
    stop_before: str | None = None,
) -> Database:
    """Open (creating on first use) the database at `path`, in WAL mode, migrated to this schema
    (`stop_before` a migration name leaves it at an older one: for upgrade tests)."""
    path = Path(path)
    try:
        path.parent.mkdir(parents=True, exist_ok=True)
    except (OSError, ValueError) as exc:  # ValueError: a NUL in the path
        raise DatabaseUnusable(path=str(path), reason=_reason(exc)) from exc
    except OverflowError as exc:  # sqlite3 refuses an int it cannot store; typed ids reach here
        raise IdOutOfRange(limit=2**63 - 1) from exc
    try:
        # One connection, used by one thread at a time (the service funnels it through its worker).
        conn = sqlite3.connect(str(path), timeout=busy_timeout_ms / 1000, check_same_thread=False)
    except (sqlite3.Error, ValueError) as exc:
        raise DatabaseUnusable(path=str(path), reason=_reason(exc)) from exc
    try:
        db = Database(conn)
        with translated(path):
            db.execute(f"PRAGMA busy_timeout = {int(busy_timeout_ms)}")
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


@contextlib.contextmanager
def translated(path: Path) -> Iterator[None]:
    """Turn sqlite3's exceptions into StoreErrors that say what to do; StoreErrors pass through."""
    try:
        yield
    except StoreError:
        raise
    except sqlite3.OperationalError as exc:
        text = str(exc).lower()
        if "locked" in text or "busy" in text:
            raise DatabaseBusy(path=str(path)) from exc
        raise DatabaseUnusable(path=str(path), reason=_reason(exc)) from exc
    except sqlite3.DatabaseError as exc:
        raise DatabaseUnusable(path=str(path), reason=_reason(exc)) from exc
    except OSError as exc:
        raise DatabaseUnusable(path=str(path), reason=_reason(exc)) from exc
    except OverflowError as exc:  # sqlite3 refuses an int it cannot store; typed ids reach here
        raise IdOutOfRange(limit=2**63 - 1) from exc


def _reason(exc: BaseException) -> str:
    return f"{type(exc).__name__}: {exc}"
