"""The PostgreSQL schema as numbered SQL files (bot/store/pg/sql/NNNN_name.sql), applied in order, each
in its own transaction. Never edit an applied file: add the next one.

Two processes starting at once take turns (an advisory lock around the whole upgrade). A database that
records a migration this code does not know was written by a newer referee: SchemaTooNew.
"""

from __future__ import annotations

from importlib import resources

from psycopg import sql

from bot.store.errors import SchemaTooNew
from bot.store.pg.connection import Connection

MIGRATIONS_TABLE = "referee_migrations"
# The advisory lock key every referee process takes while it upgrades the schema ("HNRf" and 1).
_MIGRATION_LOCK = 0x484E526600000001


def known() -> list[tuple[str, str]]:
    """(name, SQL) of every migration this code has, in order."""
    folder = resources.files("bot.store.pg").joinpath("sql")
    files = sorted(entry.name for entry in folder.iterdir() if entry.name.endswith(".sql"))
    return [(name.removesuffix(".sql"), folder.joinpath(name).read_text(encoding="utf-8")) for name in files]


def applied(conn: Connection) -> list[str]:
    exists = conn.execute("SELECT to_regclass(%s) IS NOT NULL", (MIGRATIONS_TABLE,)).fetchone()
    if exists is None or not exists[0]:
        return []
    rows = conn.execute(sql.SQL("SELECT name FROM {} ORDER BY name").format(sql.Identifier(MIGRATIONS_TABLE)))
    return [str(row[0]) for row in rows.fetchall()]


def migrate(conn: Connection, *, stop_before: str | None = None) -> None:
    """Bring the schema up to this code's (or to just before `stop_before`, for upgrade tests)."""
    wanted = known()
    names = [name for name, _ in wanted]
    if stop_before is not None:
        wanted = wanted[: names.index(stop_before)]
    with conn.transaction():
        conn.execute("SELECT pg_advisory_xact_lock(%s)", (_MIGRATION_LOCK,))
        conn.execute(
            sql.SQL("CREATE TABLE IF NOT EXISTS {} (name TEXT PRIMARY KEY, applied_at TIMESTAMPTZ NOT NULL)").format(
                sql.Identifier(MIGRATIONS_TABLE)
            )
        )
        done = applied(conn)
        unknown = [name for name in done if name not in names]
        if unknown:
            raise SchemaTooNew(found=", ".join(unknown), known=names[-1])
        for name, text in wanted:
            if name in done:
                continue
            conn.execute(text.encode())  # the file's statements, as the server reads them
            conn.execute(
                sql.SQL("INSERT INTO {} (name, applied_at) VALUES (%s, now())").format(
                    sql.Identifier(MIGRATIONS_TABLE)
                ),
                (name,),
            )
