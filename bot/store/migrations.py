"""The schema, as ordered sqlite-utils migrations. Never edit an applied migration: append a new one.

A database that records a migration this code does not know was written by a newer referee and is
refused (SchemaTooNew) rather than half-understood.
"""

from __future__ import annotations

import itertools
import json
from collections.abc import Callable
from typing import Any

from sqlite_utils import Database
from sqlite_utils.migrations import Migrations

from bot.store.errors import SchemaTooNew

MIGRATIONS = Migrations("horizonnotes-referee")
KNOWN: list[str] = []
# Every table and view any version of the schema has had: a file holding anything else is not ours.
OUR_TABLES = frozenset(
    {
        MIGRATIONS.migrations_table,
        "games",
        "events",
        "events_new",
        "actions",
        "rolls",
        "decks",
        "guild_settings",
        "channel_settings",
        "checkpoints",
        "clock_settings",
        "clocks",
    }
)


def _migration(fn: Callable[[Database], None]) -> Callable[[Database], None]:
    """Register `fn` with sqlite-utils and remember its name, so an unknown applied name stands out."""
    KNOWN.append(fn.__name__)
    return MIGRATIONS()(fn)


@_migration
def m001_tables(db: Database) -> None:
    # Games: one row per game. A running game has status 'active'; at most one per channel (the
    # partial unique index). Finishing a game flips the flag, so the channel is free and the old
    # game stays readable for log, replay and verification.
    db.execute(
        """
        CREATE TABLE games (
            id INTEGER PRIMARY KEY,
            channel_id INTEGER NOT NULL,
            guild_id INTEGER,
            status TEXT NOT NULL DEFAULT 'active' CHECK (status IN ('active', 'finished')),
            state TEXT NOT NULL,
            version INTEGER NOT NULL DEFAULT 0,
            last_seq INTEGER NOT NULL DEFAULT 0,
            seed BLOB,
            commitment TEXT,
            next_roll INTEGER NOT NULL DEFAULT 0,
            result TEXT,
            created_at TEXT NOT NULL,
            updated_at TEXT NOT NULL,
            finished_at TEXT
        )
        """
    )
    db.execute("CREATE UNIQUE INDEX games_active_channel ON games(channel_id) WHERE status = 'active'")
    db.execute("CREATE INDEX games_channel ON games(channel_id, id)")
    # Events: the append-only record of every game. `version` is the game version the commit
    # produced, so all events of one action share it (undo removes one action as a whole).
    db.execute(
        """
        CREATE TABLE events (
            game_id INTEGER NOT NULL REFERENCES games(id),
            seq INTEGER NOT NULL,
            version INTEGER NOT NULL,
            actor INTEGER,
            type TEXT NOT NULL,
            data TEXT NOT NULL,
            created_at TEXT NOT NULL,
            PRIMARY KEY (game_id, seq)
        ) WITHOUT ROWID
        """
    )
    # Append-only is enforced by the database itself, not by good intentions.
    db.execute(
        "CREATE TRIGGER events_no_update BEFORE UPDATE ON events "
        "BEGIN SELECT RAISE(ABORT, 'events are append-only'); END"
    )
    db.execute(
        "CREATE TRIGGER events_no_delete BEFORE DELETE ON events "
        "BEGIN SELECT RAISE(ABORT, 'events are append-only'); END"
    )
    # Dice rolls, in a game (with the fair-dice roll number and commitment) or outside one.
    db.execute(
        """
        CREATE TABLE rolls (
            id INTEGER PRIMARY KEY,
            channel_id INTEGER NOT NULL,
            game_id INTEGER REFERENCES games(id),
            user_id INTEGER,
            number INTEGER,
            expression TEXT NOT NULL,
            faces TEXT NOT NULL,
            total INTEGER NOT NULL,
            commitment TEXT,
            created_at TEXT NOT NULL
        )
        """
    )
    db.execute("CREATE INDEX rolls_channel ON rolls(channel_id, id)")
    db.execute("CREATE UNIQUE INDEX rolls_game_number ON rolls(game_id, number) WHERE game_id IS NOT NULL")
    db.execute(
        """
        CREATE TABLE decks (
            user_id INTEGER NOT NULL,
            name TEXT NOT NULL,
            cards TEXT NOT NULL,
            created_at TEXT NOT NULL,
            updated_at TEXT NOT NULL,
            PRIMARY KEY (user_id, name)
        )
        """
    )
    db.execute(
        """
        CREATE TABLE guild_settings (
            guild_id INTEGER PRIMARY KEY,
            locale TEXT,
            options TEXT NOT NULL DEFAULT '{}',
            judge_role_id INTEGER,
            updated_at TEXT NOT NULL
        )
        """
    )
    db.execute(
        """
        CREATE TABLE channel_settings (
            channel_id INTEGER PRIMARY KEY,
            guild_id INTEGER,
            locale TEXT,
            options TEXT NOT NULL DEFAULT '{}',
            updated_at TEXT NOT NULL
        )
        """
    )


@_migration
def m002_table_id(db: Database) -> None:
    # The fair-dice table id of a game: part of every roll's HMAC message, so `verify` needs it.
    db.execute("ALTER TABLE games ADD COLUMN table_id TEXT")


@_migration
def m003_events_rowid(db: Database) -> None:
    # The log as a rowid table with a unique (game_id, seq) index instead of WITHOUT ROWID: appending
    # to running games spread through a large log costs about half as much (bench/store.py), since
    # the wide rows go to the end of the table and only the small keys go in the middle of a b-tree.
    db.execute(
        """
        CREATE TABLE events_new (
            id INTEGER PRIMARY KEY,
            game_id INTEGER NOT NULL REFERENCES games(id),
            seq INTEGER NOT NULL,
            version INTEGER NOT NULL,
            actor INTEGER,
            type TEXT NOT NULL,
            data TEXT NOT NULL,
            created_at TEXT NOT NULL,
            UNIQUE (game_id, seq)
        )
        """
    )
    db.execute(
        "INSERT INTO events_new (game_id, seq, version, actor, type, data, created_at) "
        "SELECT game_id, seq, version, actor, type, data, created_at FROM events ORDER BY game_id, seq"
    )
    db.execute("DROP TRIGGER events_no_update")
    db.execute("DROP TRIGGER events_no_delete")
    db.execute("DROP TABLE events")
    db.execute("ALTER TABLE events_new RENAME TO events")
    _append_only(db)


@_migration
def m004_actions(db: Database) -> None:
    # One row per action, its events a JSON array, instead of one row per event: an action writes about
    # four events, and a row each cost a commit about 20 µs more than one row holding them all
    # (bench/store.py). `events` stays readable as before, one row per event, through a view.
    db.execute(
        """
        CREATE TABLE actions (
            id INTEGER PRIMARY KEY,
            game_id INTEGER NOT NULL REFERENCES games(id),
            version INTEGER NOT NULL,
            first_seq INTEGER NOT NULL,
            last_seq INTEGER NOT NULL,
            actor INTEGER,
            types TEXT NOT NULL,
            events TEXT NOT NULL,
            created_at TEXT NOT NULL,
            UNIQUE (game_id, version)
        )
        """
    )
    rows = db.conn.execute(
        "SELECT game_id, version, seq, actor, type, data, created_at FROM events ORDER BY game_id, seq"
    ).fetchall()
    for _, action in itertools.groupby(rows, key=lambda row: (row[0], row[1])):  # (game, version): one action
        _copy_action(db, list(action))
    db.execute("DROP TRIGGER events_no_update")
    db.execute("DROP TRIGGER events_no_delete")
    db.execute("DROP TABLE events")
    db.execute(
        """
        CREATE VIEW events (game_id, seq, version, actor, type, data, created_at) AS
        SELECT a.game_id, a.first_seq + e.key, a.version, a.actor, json_extract(a.types, '$[' || e.key || ']'),
               e.value, a.created_at
        FROM actions AS a JOIN json_each(a.events) AS e
        """
    )
    _append_only(db, "actions")
    _append_only(db, "events", when="INSTEAD OF")  # the view: a clear refusal, not "cannot modify a view"


@_migration
def m005_checkpoints(db: Database) -> None:
    # The state of a running game as committed at some versions (its start, then every 64th): undo and
    # rollback fold the few actions after one onto it instead of the whole log (bench/undo.py). Kept
    # beside the log, never instead of it: the log alone still rebuilds every state.
    db.execute(
        """
        CREATE TABLE checkpoints (
            game_id INTEGER NOT NULL REFERENCES games(id),
            version INTEGER NOT NULL,
            state TEXT NOT NULL,
            PRIMARY KEY (game_id, version)
        )
        """
    )


@_migration
def m006_clocks(db: Database) -> None:
    # Turn clocks (off by default): a channel's seconds per turn, and its one deadline, a row the bot's
    # dispatcher reads so that a restart loses none. `reminded`: the deadline's one message was sent.
    db.execute(
        """
        CREATE TABLE clock_settings (
            channel_id INTEGER PRIMARY KEY,
            seconds INTEGER NOT NULL CHECK (seconds > 0),
            auto_pass INTEGER NOT NULL DEFAULT 0,
            updated_at TEXT NOT NULL
        )
        """
    )
    db.execute(
        """
        CREATE TABLE clocks (
            channel_id INTEGER PRIMARY KEY,
            game_id INTEGER NOT NULL REFERENCES games(id),
            user_id INTEGER NOT NULL,
            turn INTEGER NOT NULL,
            due_at REAL NOT NULL,
            reminded INTEGER NOT NULL DEFAULT 0,
            auto_pass INTEGER NOT NULL DEFAULT 0,
            armed_at TEXT NOT NULL
        )
        """
    )
    db.execute("CREATE INDEX clocks_due ON clocks(reminded, due_at)")


def _copy_action(db: Database, rows: list[tuple[Any, ...]]) -> None:
    """File the events of one action (rows of the old events table, in order) as one actions row."""
    game_id, version, first_seq, actor, _, _, created_at = rows[0]
    types = json.dumps([row[4] for row in rows])
    events = "[" + ",".join(row[5] for row in rows) + "]"
    db.conn.execute(
        "INSERT INTO actions (game_id, version, first_seq, last_seq, actor, types, events, created_at) "
        "VALUES (?, ?, ?, ?, ?, ?, ?, ?)",
        (game_id, version, first_seq, first_seq + len(rows) - 1, actor, types, events, created_at),
    )


def _append_only(db: Database, table: str = "events", *, when: str = "BEFORE") -> None:
    """Append-only is enforced by the database itself, not by good intentions."""
    for verb in ("UPDATE", "DELETE"):
        db.execute(
            f"CREATE TRIGGER {table}_no_{verb.lower()} {when} {verb} ON {table} "
            "BEGIN SELECT RAISE(ABORT, 'events are append-only'); END"
        )


def migrate(db: Database, *, stop_before: str | None = None) -> None:
    """Bring `db` up to this code's schema (or to just before `stop_before`, for upgrade tests),
    refusing a database from a newer one."""
    wanted = KNOWN[: KNOWN.index(stop_before)] if stop_before else KNOWN
    if _applied_count(db) >= len(wanted):
        return  # the usual start: nothing to do, and no write lock taken
    # One process migrates at a time: every migration runs under one write lock (each its own savepoint),
    # so two processes opening a fresh file never interleave their steps; the other waits for the lock
    # (the busy timeout, retried by the opener) and then finds the schema up to date.
    db.conn.execute("BEGIN IMMEDIATE")
    try:
        if _applied_count(db) < len(wanted):
            MIGRATIONS.apply(db, stop_before=stop_before)
    except BaseException:
        if db.conn.in_transaction:
            db.conn.rollback()
        raise
    db.conn.commit()


def _applied_count(db: Database) -> int:
    applied = schema_version(db)
    unknown = [name for name in applied if name not in KNOWN]
    if unknown:
        raise SchemaTooNew(found=", ".join(unknown), known=KNOWN[-1])
    return len(applied)


def schema_version(db: Database) -> list[str]:
    return [m.name for m in MIGRATIONS.applied(db)]
