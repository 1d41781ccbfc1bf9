"""Moving a table from the SQLite file to PostgreSQL: every row of every table, ids kept (game #12
stays game #12, so a published commitment or a replay command still names it), in one transaction
on the server (all of it or nothing). The SQLite file is only read (once brought to the current
schema, as every command does when it opens it).

The service checks afterwards that every game replays to its stored state on the server
(bot/cli/db.py): the copy itself moves text, it does not interpret it.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from pathlib import Path

from psycopg import sql

from bot.store.connection import database_exists
from bot.store.connection import translated as sqlite_translated
from bot.store.errors import DatabaseUnusable, StoreError
from bot.store.pg.store import PgStore
from bot.store.store import Store

# Every table of the referee, parents first, with the columns both schemas share.
TABLES: tuple[tuple[str, tuple[str, ...]], ...] = (
    (
        "games",
        (
            "id",
            "channel_id",
            "guild_id",
            "status",
            "state",
            "version",
            "last_seq",
            "seed",
            "commitment",
            "next_roll",
            "result",
            "created_at",
            "updated_at",
            "finished_at",
            "table_id",
        ),
    ),
    ("actions", ("id", "game_id", "version", "first_seq", "last_seq", "actor", "types", "events", "created_at")),
    ("checkpoints", ("game_id", "version", "state")),
    (
        "rolls",
        (
            "id",
            "channel_id",
            "game_id",
            "user_id",
            "number",
            "expression",
            "faces",
            "total",
            "commitment",
            "created_at",
        ),
    ),
    ("decks", ("user_id", "name", "cards", "created_at", "updated_at")),
    ("guild_settings", ("guild_id", "locale", "options", "judge_role_id", "updated_at")),
    ("channel_settings", ("channel_id", "guild_id", "locale", "options", "updated_at")),
    ("clock_settings", ("channel_id", "seconds", "auto_pass", "updated_at")),
    ("clocks", ("channel_id", "game_id", "user_id", "turn", "due_at", "reminded", "auto_pass", "armed_at")),
)
_BOOLEANS = {("clock_settings", "auto_pass"), ("clocks", "reminded"), ("clocks", "auto_pass")}
_IDENTITIES = ("games", "actions", "rolls")  # their next id continues after the copied ones


class TargetNotEmpty(StoreError):
    """The PostgreSQL database already holds a referee's rows: copying again would double them."""

    key = "store.copy.not_empty"


@dataclass
class Copied:
    rows: dict[str, int] = field(default_factory=dict)
    game_ids: list[int] = field(default_factory=list)


def copy_sqlite_to_postgres(source: Path, url: str) -> Copied:
    """Copy every row of the SQLite database at `source` into the (empty) PostgreSQL database `url`."""
    if not database_exists(source):
        raise DatabaseUnusable(path=str(source), reason="no such file")
    copied = Copied()
    with (
        sqlite_translated(source),
        Store.open(source) as sqlite,
        PgStore.open(url) as target,
        target.transaction() as conn,
    ):
        for table, _ in TABLES:
            found = conn.execute(sql.SQL("SELECT EXISTS (SELECT 1 FROM {})").format(sql.Identifier(table)))
            row = found.fetchone()
            if row is not None and row[0]:
                raise TargetNotEmpty(path=target.path, table=table)
        for table, columns in TABLES:
            names = sql.SQL(", ").join(sql.Identifier(c) for c in columns)
            rows = sqlite.db.conn.execute(f"SELECT {', '.join(columns)} FROM {table}")
            count = 0
            with (
                conn.cursor() as cur,
                cur.copy(sql.SQL("COPY {} ({}) FROM STDIN").format(sql.Identifier(table), names)) as copy,
            ):
                flags = [(table, c) in _BOOLEANS for c in columns]
                for values in rows:
                    copy.write_row([bool(v) if flag else v for v, flag in zip(values, flags, strict=True)])
                    count += 1
            copied.rows[table] = count
        for table in _IDENTITIES:
            conn.execute(
                sql.SQL(
                    "SELECT setval(pg_get_serial_sequence({}, 'id'), COALESCE(max(id), 0) + 1, false) FROM {}"
                ).format(sql.Literal(table), sql.Identifier(table))
            )
        ids = conn.execute("SELECT id FROM games ORDER BY id").fetchall()
        copied.game_ids = [int(r[0]) for r in ids]
    return copied
