"""Schema upgrades keep what an older version stored."""

from __future__ import annotations

import json
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


def test_an_action_logged_event_by_event_is_kept_whole_as_one_action(db_path: Path) -> None:
    old = open_database(db_path, stop_before="m004_actions")
    old.execute(
        "INSERT INTO games (channel_id, state, version, last_seq, created_at, updated_at) "
        "VALUES (9, '{}', 3, 4, 'a', 'a')"
    )
    logged = [(1, 1, 7, "Start", '{"type":"Start"}'), (2, 2, 8, "Hit", '{"n":1}'), (3, 2, 8, "Hit", '{"n":2}')]
    logged.append((4, 3, 7, "Pass", '{"名前":"アキ"}'))
    for seq, version, actor, kind, data in logged:
        old.execute(
            "INSERT INTO events (game_id, seq, version, actor, type, data, created_at) VALUES (1, ?, ?, ?, ?, ?, 'a')",
            (seq, version, actor, kind, data),
        )
    old.close()
    with Store.open(db_path) as store:
        rows = store.db.execute("SELECT version, first_seq, last_seq, actor, types FROM actions ORDER BY version")
        assert rows.fetchall() == [(1, 1, 1, 7, '["Start"]'), (2, 2, 3, 8, '["Hit", "Hit"]'), (3, 4, 4, 7, '["Pass"]')]
        kept = [(e.seq, e.version, e.actor, e.type, e.data_dict()) for e in store.events(1)]
        assert kept == [(seq, v, a, k, json.loads(d)) for seq, v, a, k, d in logged]
        store.commit(9, {}, [{"type": "F"}, {"type": "G"}], 3)
        later = [(e.seq, e.version, e.type) for e in store.events(1, after_seq=3)]
        assert later == [(4, 3, "Pass"), (5, 4, "F"), (6, 4, "G")]
        assert [(e.seq, e.type) for e in store.events(1, after_seq=2, limit=2)] == [(3, "Hit"), (4, "Pass")]
        assert [(e.seq, e.type) for e in store.events(1, after_seq=4, limit=1)] == [(5, "F")]
        assert [e.seq for e in store.events(1)] == [e.seq for e in store.events(1, limit=-1)] == [1, 2, 3, 4, 5, 6]
