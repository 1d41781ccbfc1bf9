"""Reaching the PostgreSQL server: the connection pool, each connection's settings, and psycopg's
errors turned into the store's own (the same StoreErrors the SQLite store raises)."""

from __future__ import annotations

import contextlib
import select
from collections.abc import Iterator
from typing import Any

import psycopg
from psycopg import errors as pg_errors
from psycopg import sql
from psycopg.conninfo import conninfo_to_dict, make_conninfo
from psycopg_pool import ConnectionPool, PoolTimeout

from bot.store.errors import DatabaseBusy, IdOutOfRange, ServerUnusable, StoreError

# How long a write waits for another process's lock on its channel (or a row) before DatabaseBusy:
# the SQLite store's busy timeout, on the server's side.
LOCK_TIMEOUT_MS = 5000
BIGINT_MAX = 2**63 - 1

Connection = psycopg.Connection[tuple[Any, ...]]


def is_postgres_url(target: object) -> bool:
    """Whether `target` names a PostgreSQL database (`postgresql://…` or `postgres://…`)."""
    return isinstance(target, str) and target.startswith(("postgresql://", "postgres://"))


def shown(url: str) -> str:
    """The URL as messages and logs may show it: without its password."""
    try:
        parts = conninfo_to_dict(url)
    except psycopg.ProgrammingError:
        return "postgresql://(unreadable URL)"
    parts.pop("password", None)
    host, db = parts.get("host", ""), parts.get("dbname", "")
    return f"postgresql://{parts.get('user', '')}@{host}:{parts.get('port', 5432)}/{db}"


def open_pool(url: str, *, schema: str | None, max_size: int, lock_timeout_ms: int) -> ConnectionPool[Connection]:
    """A pool of autocommit connections (a write opens its own transaction), each using `schema` when
    given; ServerUnusable when the server cannot be reached within a few seconds."""
    where = shown(url)
    try:
        conninfo = make_conninfo(url, application_name="horizonnotes-referee")
    except psycopg.ProgrammingError as exc:
        raise ServerUnusable(path=where, reason=_reason(exc)) from exc

    try:  # one plain connection first: the pool would only say it timed out, this says why
        psycopg.connect(conninfo, connect_timeout=10).close()
    except psycopg.Error as exc:
        raise ServerUnusable(path=where, reason=_reason(exc)) from exc

    def configure(conn: Connection) -> None:
        conn.execute(sql.SQL("SET lock_timeout = {}").format(sql.Literal(f"{int(lock_timeout_ms)}ms")))
        if schema is not None:
            conn.execute(sql.SQL("SET search_path TO {}").format(sql.Identifier(schema)))

    pool: ConnectionPool[Connection] = ConnectionPool(
        conninfo,
        min_size=1,
        max_size=max_size,
        kwargs={"autocommit": True},
        configure=configure,
        check=still_connected,
        open=False,
        name="referee-store",
    )
    try:
        pool.open(wait=True, timeout=10)
    except (PoolTimeout, psycopg.Error) as exc:
        pool.close()
        raise ServerUnusable(path=where, reason=_reason(exc)) from exc
    return pool


def still_connected(conn: Connection) -> None:
    """The pool's check of a connection it hands out, without a round trip: an idle connection is sent
    nothing, so one with something to read was told goodbye (the server restarted, or an admin ended it)
    or closed. Raising makes the pool drop it and hand out a fresh one: a restart of PostgreSQL costs no
    player's command."""
    if conn.closed or conn.broken:
        raise psycopg.OperationalError("the connection is closed")
    readable, _, _ = select.select([conn.fileno()], [], [], 0)
    if readable:
        conn.close()  # closed, the pool throws it away (a connection merely refused would come back)
        raise psycopg.OperationalError("the server ended this connection")


def check_id(value: int | None) -> None:
    """An id PostgreSQL's 64-bit integers cannot hold: refused before any SQL, as the SQLite store does."""
    if value is not None and not -BIGINT_MAX - 1 <= value <= BIGINT_MAX:
        raise IdOutOfRange(limit=BIGINT_MAX)


@contextlib.contextmanager
def translated(where: str) -> Iterator[None]:
    """Turn psycopg's exceptions into StoreErrors that say what to do; StoreErrors pass through."""
    try:
        yield
    except StoreError:
        raise
    except (pg_errors.LockNotAvailable, pg_errors.DeadlockDetected, pg_errors.SerializationFailure) as exc:
        raise DatabaseBusy(path=where) from exc
    except pg_errors.NumericValueOutOfRange as exc:
        raise IdOutOfRange(limit=BIGINT_MAX) from exc
    except (psycopg.Error, PoolTimeout) as exc:
        raise ServerUnusable(path=where, reason=_reason(exc)) from exc


def _reason(exc: BaseException) -> str:
    return f"{type(exc).__name__}: {str(exc).strip()}"[:500]
