"""Which connection a call of the PostgreSQL store uses, and the per-channel advisory lock of a write.

A call takes a connection from the pool and holds it until it returns; the calls it makes meanwhile
(a read inside a write, the writes of a `group`: the service's group commit) run on that same
connection, each write's transaction then a savepoint in the outer one.
The thread that took the store (`own`) alone may use it, as with the SQLite store's connection.
"""

from __future__ import annotations

import contextlib
import threading
from collections.abc import Iterator

from psycopg_pool import ConnectionPool

from bot.store.errors import WrongThread
from bot.store.pg.connection import Connection, check_id

# Every write of a channel holds this transaction-scoped lock (a move's write takes it inside its one
# statement), so two processes serving one channel (a reshard, a rolling restart) take turns; the version
# check in the same statement stays the guarantee. The key is namespaced by the schema, so two referee
# databases in one server never wait on each other.
LOCK_CALL = "pg_advisory_xact_lock(hashtextextended('referee:' || current_schema() || ':' || %s, 0))"
_LOCK = f"SELECT {LOCK_CALL}"


class Session:
    def __init__(self, pool: ConnectionPool[Connection], where: str) -> None:
        self.pool = pool
        self.where = where
        self._owner: int | None = None
        self._held = threading.local()  # each thread's connection while one of its calls runs

    def own(self, same_thread: bool) -> None:
        self._owner = threading.get_ident() if same_thread else None

    @contextlib.contextmanager
    def conn(self) -> Iterator[Connection]:
        """The calling thread's connection: the one it already holds (inside a write or a group, so a
        read there sees the transaction's own rows), else one from the pool, held until the block ends."""
        if self._owner is not None and self._owner != threading.get_ident():
            raise WrongThread(path=self.where)
        held: Connection | None = getattr(self._held, "conn", None)
        if held is not None:
            yield held
            return
        with self.pool.connection() as conn:
            self._held.conn = conn
            try:
                yield conn
            finally:
                self._held.conn = None


def lock(conn: Connection, kind: str, key: int) -> None:
    """Wait for (then hold until the transaction ends) the lock of channel/guild `key`."""
    conn.execute(_LOCK, (lock_name(kind, key),))


def lock_name(kind: str, key: int) -> str:
    """What LOCK_CALL's parameter is for channel/guild `key`."""
    check_id(key)
    return f"{kind}:{key}"
