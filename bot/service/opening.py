"""Opening the table service over a database: what the CLI and the bot start from.

Front ends never open the store themselves; they get a service, use its async calls, and leave it
closed (worker thread stopped, database closed) whatever happens. The SQLite file is the default; a
`database_url` (REFEREE_DATABASE_URL, `postgresql://…`) opens the PostgreSQL store instead, for several
bot processes over one database.
"""

from __future__ import annotations

import contextlib
from collections.abc import Iterator
from pathlib import Path
from typing import Any, Literal

from bot.service.api import TableService
from bot.store import DatabaseUnusable, NoGame, Store, TableStore
from bot.store.connection import database_exists


@contextlib.contextmanager
def open_service(
    path: Path,
    *,
    catalog: Any = None,
    synchronous: Literal["NORMAL", "FULL"] = "FULL",
    reading_channel: int | None = None,
    database_url: str | None = None,
    **options: Any,
) -> Iterator[TableService]:
    """The service over the database at `path` (created on first use), or over the PostgreSQL database
    `database_url` when one is given. A command that only reads names the channel it reads
    (`reading_channel`): a missing file is then "no games in that channel" and no empty database is
    created. `options` go to TableService (seed and table id factories)."""
    with _open_store(path, synchronous, reading_channel, database_url) as store:
        service = TableService(store, catalog, **options)
        try:
            yield service
        finally:
            service.close()


@contextlib.contextmanager
def _open_store(
    path: Path, synchronous: Literal["NORMAL", "FULL"], reading_channel: int | None, database_url: str | None
) -> Iterator[TableStore]:
    if database_url:
        # Imported here: the SQLite default never loads psycopg (an optional extra).
        try:
            from bot.store.pg import PgStore
        except ImportError as exc:
            reason = "psycopg is missing: pip install 'horizonnotes-referee[postgres]'"
            raise DatabaseUnusable(path="REFEREE_DATABASE_URL", reason=reason) from exc
        with PgStore.open(database_url) as pg:
            yield pg
        return
    if reading_channel is not None and not database_exists(path):
        raise NoGame("store.no_games", channel=reading_channel)
    with Store.open(path, synchronous=synchronous) as store:
        yield store
