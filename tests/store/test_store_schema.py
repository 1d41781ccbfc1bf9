"""Schema upgrades keep what an older version stored."""

from __future__ import annotations

import sqlite3
from pathlib import Path

import pytest

from bot.store import Store
from bot.store.connection import open_database
from bot.store.migrations import KNOWN, schema_version


def test_an_older_database_is_upgraded_in_place_and_keeps_its_games(db_path: Path) -> None:
    old = open_database(db_path, stop_before="m002_table_id")
    assert schema_version(old) == ["m001_tables"]
    old.execute(
        "INSERT INTO games (channel_id, state, version, created_at, updated_at) VALUES (9, '{\"hp\": 7}', 4, 'a', 'a')"
    )
    old.close()
    with Store.open(db_path) as store:
        assert schema_version(store.db) == KNOWN
        game = store.load(9)
        assert (game.state_dict(), game.version, game.table_id) == ({"hp": 7}, 4, None)
        store.commit(9, {"hp": 6}, [{"type": "Hit"}], 4)
    with Store.open(db_path) as store:
        assert store.load(9).version == 5


def test_the_log_survives_the_upgrade_and_stays_append_only(db_path: Path) -> None:
    old = open_database(db_path, stop_before="m003_events_rowid")
    old.execute(
        "INSERT INTO games (channel_id, state, version, last_seq, created_at, updated_at) "
        "VALUES (9, '{}', 2, 2, 'a', 'a')"
    )
    for seq in (1, 2):
        old.execute(
            "INSERT INTO events (game_id, seq, version, type, data, created_at) VALUES (1, ?, ?, 'E', '{}', 'a')",
            (seq, seq),
        )
    old.close()
    with Store.open(db_path) as store:
        store.commit(9, {}, [{"type": "F"}], 2)
        assert [(e.seq, e.type) for e in store.events(1)] == [(1, "E"), (2, "E"), (3, "F")]
    with sqlite3.connect(db_path) as conn, pytest.raises(sqlite3.DatabaseError, match="append-only"):
        conn.execute("UPDATE events SET data = '{}' WHERE seq = 1")
