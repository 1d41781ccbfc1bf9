"""Opening the table service over a database file: what the CLI and the bot start from.

Front ends never open the store themselves; they get a service, use its async calls, and leave it
closed (worker thread stopped, file closed) whatever happens.
"""

from __future__ import annotations

import contextlib
from collections.abc import Iterator
from pathlib import Path
from typing import Any, Literal

from bot.service.api import TableService
from bot.store import NoGame, Store
from bot.store.connection import database_exists


@contextlib.contextmanager
def open_service(
    path: Path,
    *,
    catalog: Any = None,
    synchronous: Literal["NORMAL", "FULL"] = "FULL",
    reading_channel: int | None = None,
    **options: Any,
) -> Iterator[TableService]:
    """The service over the database at `path` (created on first use). A command that only reads
    names the channel it reads (`reading_channel`): a missing file is then "no games in that channel"
    and no empty database is created. `options` go to TableService (seed and table id factories)."""
    if reading_channel is not None and not database_exists(path):
        raise NoGame("store.no_games", channel=reading_channel)
    with Store.open(path, synchronous=synchronous) as store:
        service = TableService(store, catalog, **options)
        try:
            yield service
        finally:
            service.close()
