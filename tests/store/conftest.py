"""Fixtures of the store tests: a real SQLite file under tmp_path, opened through the real Store; and,
for the tests about the store's guarantees, the same on a real PostgreSQL server (`backend`).

The PostgreSQL cases find the server from REFEREE_TEST_DATABASE_URL and run each test in a schema of
its own, dropped afterwards; without the variable they are skipped, saying how to run them.
"""

from __future__ import annotations

import contextlib
import os
import secrets
from collections.abc import Callable, Iterator
from pathlib import Path

import pytest

from bot.store import Store, TableStore

PG_URL_VARIABLE = "REFEREE_TEST_DATABASE_URL"
HOW_TO_RUN = (
    f"PostgreSQL store tests need a server: set {PG_URL_VARIABLE}=postgresql://postgres@127.0.0.1:5432/test "
    "(and install the postgres extra) to run them"
)
OpenStore = Callable[[], TableStore]
RawSql = Callable[[str], None]


@pytest.fixture
def db_path(tmp_path: Path) -> Path:
    return tmp_path / "data" / "referee.sqlite3"


@pytest.fixture(params=["sqlite", "postgresql"])
def backend(request: pytest.FixtureRequest) -> str:
    """Which store a test about the store's guarantees runs on (each such test runs on both)."""
    name: str = request.param
    if name == "postgresql" and not os.environ.get(PG_URL_VARIABLE):
        pytest.skip(HOW_TO_RUN)
    return name


@pytest.fixture
def pg_schema(backend: str) -> Iterator[str | None]:
    """A fresh schema for this test on the PostgreSQL server, dropped afterwards (None on SQLite)."""
    if backend != "postgresql":
        yield None
        return
    import psycopg
    from psycopg import sql

    name = f"test_{secrets.token_hex(6)}"
    yield name
    with psycopg.connect(os.environ[PG_URL_VARIABLE], autocommit=True) as conn:
        conn.execute(sql.SQL("DROP SCHEMA IF EXISTS {} CASCADE").format(sql.Identifier(name)))


@pytest.fixture
def open_store(backend: str, db_path: Path, pg_schema: str | None) -> OpenStore:
    """Opens another store on the test's one database (as a second process would): a context manager."""

    def opened() -> TableStore:
        if backend == "sqlite":
            return Store.open(db_path)
        from bot.store.pg import PgStore

        return PgStore.open(os.environ[PG_URL_VARIABLE], schema=pg_schema)

    return opened


@pytest.fixture
def store(open_store: OpenStore) -> Iterator[TableStore]:
    with open_store() as opened:
        yield opened


@pytest.fixture
def store_target(backend: str, db_path: Path, pg_schema: str | None) -> str:
    """The test's one database as a child process names it: the SQLite file's path, or a postgresql://
    URL whose connections work in the test's schema (see `open_target`)."""
    if backend == "sqlite":
        return str(db_path)
    import psycopg
    from psycopg import sql

    url = os.environ[PG_URL_VARIABLE]
    with psycopg.connect(url, autocommit=True) as conn:
        conn.execute(sql.SQL("CREATE SCHEMA IF NOT EXISTS {}").format(sql.Identifier(str(pg_schema))))
    return schema_url(url, str(pg_schema))


def open_target(target: str) -> TableStore:
    """Open the store `store_target` names (in a test or in a child process it started)."""
    if target.startswith("postgresql://"):
        from bot.store.pg import PgStore

        return PgStore.open(target)
    return Store.open(target)


@pytest.fixture
def raw_sql(backend: str, db_path: Path, pg_schema: str | None) -> RawSql:
    """Runs one statement on the test's database behind the store's back (a human with a SQL shell),
    committed at once; the database's own refusal propagates."""

    def run(statement: str) -> None:
        if backend == "sqlite":
            import sqlite3

            with sqlite3.connect(db_path) as conn:
                conn.execute(statement)
            return
        import psycopg
        from psycopg import sql

        with psycopg.connect(os.environ[PG_URL_VARIABLE], autocommit=True) as conn:
            conn.execute(sql.SQL("SET search_path TO {}").format(sql.Identifier(str(pg_schema))))
            conn.execute(statement.encode())

    return run


@pytest.fixture
def pg_database() -> Iterator[tuple[str, str]]:
    """For PostgreSQL-only tests: (a URL whose connections use a fresh schema, that schema); the
    schema is dropped afterwards. Skipped without a server, saying how to run it."""
    url = os.environ.get(PG_URL_VARIABLE)
    if not url:
        pytest.skip(HOW_TO_RUN)
    with fresh_schema(url) as made:
        yield made


@contextlib.contextmanager
def fresh_schema(url: str, prefix: str = "test") -> Iterator[tuple[str, str]]:
    """A new schema on the server at `url`, dropped afterwards: (a URL whose connections work in it, its
    name). For tests, the end-to-end tests and the benchmark alike."""
    import psycopg
    from psycopg import sql

    name = f"{prefix}_{secrets.token_hex(6)}"
    with psycopg.connect(url, autocommit=True) as conn:
        conn.execute(sql.SQL("CREATE SCHEMA {}").format(sql.Identifier(name)))
    try:
        yield schema_url(url, name), name
    finally:
        with psycopg.connect(url, autocommit=True) as conn:
            conn.execute(sql.SQL("DROP SCHEMA IF EXISTS {} CASCADE").format(sql.Identifier(name)))


def schema_url(url: str, schema: str) -> str:
    """`url` with libpq's `options` set so every connection works in `schema`, as an admin could set it."""
    from psycopg.conninfo import make_conninfo

    return _as_url(make_conninfo(url, options=f"-csearch_path={schema}"))


def _as_url(conninfo: str) -> str:
    """A libpq keyword string as a postgresql:// URL (what REFEREE_DATABASE_URL takes)."""
    from urllib.parse import quote, urlencode

    from psycopg.conninfo import conninfo_to_dict

    parts = {k: str(v) for k, v in conninfo_to_dict(conninfo).items()}
    user = quote(parts.pop("user", ""))
    password = parts.pop("password", None)
    auth = f"{user}:{quote(password)}@" if password else (f"{user}@" if user else "")
    host, port, db = parts.pop("host", ""), parts.pop("port", "5432"), parts.pop("dbname", "")
    query = urlencode(parts)
    return f"postgresql://{auth}{host}:{port}/{quote(db)}" + (f"?{query}" if query else "")
