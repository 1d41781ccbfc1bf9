"""Opening a database: a fresh file opened by many processes at once, and a file that is not ours."""

from __future__ import annotations

import hashlib
import sqlite3
import subprocess
import sys
import time
from pathlib import Path

import pytest

from bot.store import DatabaseUnusable, Store
from bot.store.connection import APPLICATION_ID

_OPENER = """
import sys, time
from bot.store import Store, StoreError
start = float(sys.argv[2])
time.sleep(max(0.0, start - time.time()))
try:
    with Store.open(sys.argv[1]) as store:
        store.db.execute("SELECT count(*) FROM games").fetchone()
    print("ok")
except StoreError as exc:
    print("refused", exc.message_key, exc.args_.get("reason", ""))  # the reason, should it ever fail
"""


def test_processes_opening_one_fresh_file_at_once_all_succeed(tmp_path: Path) -> None:
    for attempt in range(2):  # two fresh files: the race is not won by luck once
        path = tmp_path / f"fresh{attempt}.sqlite3"
        start = time.time() + 2.5  # after every process has imported the referee
        procs = [
            subprocess.Popen([sys.executable, "-c", _OPENER, str(path), str(start)], stdout=subprocess.PIPE, text=True)
            for _ in range(6)
        ]
        results = [p.communicate(timeout=60)[0].strip() for p in procs]
        assert results == ["ok"] * 6
        with Store.open(path) as store:
            assert store.db.execute("PRAGMA journal_mode").fetchone()[0] == "wal"


def _foreign(path: Path) -> None:
    conn = sqlite3.connect(path)
    conn.execute("CREATE TABLE notes (id INTEGER PRIMARY KEY, body TEXT)")
    conn.execute("INSERT INTO notes (body) VALUES ('someone else''s data')")
    conn.commit()
    conn.close()


def _digest(path: Path) -> str:
    return hashlib.sha256(path.read_bytes()).hexdigest()


@pytest.mark.parametrize("shape", ["plain", "with a games table", "with our migrations table name"])
def test_another_applications_database_is_refused_and_left_exactly_as_it_was(tmp_path: Path, shape: str) -> None:
    path = tmp_path / "other.sqlite3"
    _foreign(path)
    conn = sqlite3.connect(path)
    if shape == "with a games table":
        conn.execute("CREATE TABLE games (id INTEGER PRIMARY KEY, score INTEGER)")
    elif shape == "with our migrations table name":
        conn.execute("CREATE TABLE _sqlite_migrations (migration_set TEXT, name TEXT, applied_at TEXT)")
        conn.execute("INSERT INTO _sqlite_migrations VALUES ('someone-else', 'm001', 'now')")
    conn.commit()
    conn.close()
    before = _digest(path)
    with pytest.raises(DatabaseUnusable) as info:
        Store.open(path)
    assert str(path) in info.value.bilingual() and "Nothing was changed" in info.value.bilingual()
    assert _digest(path) == before
    assert not Path(f"{path}-wal").exists() and not Path(f"{path}-shm").exists()
    conn = sqlite3.connect(path)
    assert conn.execute("PRAGMA journal_mode").fetchone()[0] == "delete"
    assert "_sqlite_migrations" not in {r[0] for r in conn.execute("SELECT name FROM sqlite_master")} or (
        shape == "with our migrations table name"
    )
    conn.close()


def test_a_file_with_another_application_id_is_refused(tmp_path: Path) -> None:
    path = tmp_path / "tagged.sqlite3"
    conn = sqlite3.connect(path)
    conn.execute("PRAGMA application_id = 1234")
    conn.commit()
    conn.close()
    before = _digest(path)
    with pytest.raises(DatabaseUnusable):
        Store.open(path)
    assert _digest(path) == before


def test_our_database_is_marked_and_one_from_before_the_mark_still_opens(db_path: Path) -> None:
    with Store.open(db_path) as store:
        assert store.db.execute("PRAGMA application_id").fetchone()[0] == APPLICATION_ID
        store.db.execute("PRAGMA application_id = 0")  # as a referee before the mark wrote it
    with Store.open(db_path) as store:
        assert store.db.execute("PRAGMA application_id").fetchone()[0] == APPLICATION_ID


def test_an_empty_file_is_a_fresh_database(tmp_path: Path) -> None:
    path = tmp_path / "empty.sqlite3"
    path.touch()
    with Store.open(path) as store:
        assert store.find(1) is None
