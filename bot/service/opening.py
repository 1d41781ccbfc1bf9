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
from typing import TYPE_CHECKING, Any, Literal

from bot.service.api import TableService
from bot.store import DatabaseUnusable, NoGame, Store, TableStore
from bot.store.connection import database_exists

if TYPE_CHECKING:
    from bot.store.pg.copy import Copied


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
        with _postgres().PgStore.open(database_url) as pg:
            yield pg
        return
    if reading_channel is not None and not database_exists(path):
        raise NoGame("store.no_games", channel=reading_channel)
    with Store.open(path, synchronous=synchronous) as store:
        yield store


def copy_to_postgres(source: Path, database_url: str) -> Copied:
    """Copy every row of the SQLite database at `source` into the empty PostgreSQL database
    `database_url` (`referee db copy`); the caller then checks the games replay over there."""
    _postgres()  # first: a clear message when the extra is missing
    from bot.store.pg.copy import copy_sqlite_to_postgres

    return copy_sqlite_to_postgres(source, database_url)


def _postgres() -> Any:
    """The PostgreSQL store's package, imported only when asked for: the SQLite default never loads
    psycopg (an optional extra); without it, a message that says how to install it."""
    try:
        import bot.store.pg as pg
    except ImportError as exc:
        reason = "psycopg is missing: pip install 'horizonnotes-referee[postgres]'"
        raise DatabaseUnusable(path="REFEREE_DATABASE_URL", reason=reason) from exc
    return pg
