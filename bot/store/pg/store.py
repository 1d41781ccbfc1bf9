"""The durable store on PostgreSQL, behind the SQLite store's interface (bot/store/store.py): the same
calls, records and errors, so the service and the front ends never know which one they use.

The same guarantees: every write is one transaction; a commit's version check is inside its UPDATE
(VersionConflict, nothing written, when the game moved on); the log (`actions`, one row per action, and
the `events` view) refuses UPDATE and DELETE by trigger. On top, every write of a channel first takes
that channel's transaction-scoped advisory lock, so two processes never write one table at once.
"""

from __future__ import annotations

import contextlib
from collections.abc import Callable, Iterator, Sequence
from types import TracebackType
from typing import Any

from psycopg import errors as pg_errors
from psycopg import sql
from psycopg.pq import TransactionStatus
from psycopg.rows import dict_row

from bot.store.errors import CorruptRow, GameAlreadyRunning, NoGame, UnknownGame
from bot.store.pg.connection import LOCK_TIMEOUT_MS, Connection, check_id, open_pool, shown, translated
from bot.store.pg.migrations import migrate
from bot.store.pg.rows import as_events, as_records
from bot.store.pg.session import LOCK_CALL, Session, lock, lock_name
from bot.store.pg.tables import Clocks, Decks, Rolls, SettingsTables, insert_rolls, roll_rows
from bot.store.records import EventRecord, GameRecord, JsonLike, NewRoll, now_text, to_json
from bot.store.writes import GameWrites, Write, filed_events

_GAME_COLUMNS = (
    "id, channel_id, guild_id, status, state, version, last_seq, seed, commitment, next_roll, result, "
    "created_at, updated_at, finished_at, table_id"
)
_UPDATE = (
    "UPDATE games SET state = %s, version = version + 1, last_seq = last_seq + %s, "
    "next_roll = COALESCE(%s, next_roll), updated_at = %s "
    "WHERE channel_id = %s AND status = 'active' AND version = %s"
)
_UPDATE_FINISH = _UPDATE.replace(
    "updated_at = %s ", "updated_at = %s, status = 'finished', finished_at = %s, result = %s "
)
# A write is one statement, its own transaction: the channel's lock, the version-checked UPDATE, and what
# goes with it only when that UPDATE wrote (its log row, a checkpoint, its rolls): one round trip.
_LOCKED = f"locked AS MATERIALIZED (SELECT {LOCK_CALL} IS NULL AS held)"
_THEN_LOG = (
    "INSERT INTO actions (game_id, version, first_seq, last_seq, actor, types, events, created_at) "
    "SELECT id, version, last_seq - %s + 1, last_seq - %s + %s, %s, %s::json, %s::json, %s FROM written"
)
_THEN_CHECKPOINT = (
    "INSERT INTO checkpoints (game_id, version, state) SELECT id, version, %s FROM written "
    "ON CONFLICT (game_id, version) DO UPDATE SET state = excluded.state"
)
_THEN_ROLLS = (
    "INSERT INTO rolls (channel_id, game_id, user_id, number, expression, faces, total, commitment, created_at) "
    "SELECT %s, id, r.user_id, r.number, r.expression, r.faces, r.total, r.commitment, %s FROM written "
    "CROSS JOIN (VALUES {rows}) AS r (user_id, number, expression, faces, total, commitment)"
)
_ROLL_VALUES = "(%s::bigint, %s::bigint, %s::text, %s::text, %s::bigint, %s::text)"
_INSERT_ACTION = (
    "INSERT INTO actions (game_id, version, first_seq, last_seq, actor, types, events, created_at) "
    "VALUES (%s, %s, %s, %s, %s, %s, %s, %s)"
)
_INSERT_CHECKPOINT = (
    "INSERT INTO checkpoints (game_id, version, state) VALUES (%s, %s, %s) "
    "ON CONFLICT (game_id, version) DO UPDATE SET state = excluded.state"
)
# The events of one game from a sequence number on: only the action rows that hold them are laid out.
_SELECT_EVENTS = (
    "SELECT a.game_id, a.first_seq + e.ord - 1 AS seq, a.version, a.actor, a.types ->> (e.ord - 1)::int, "
    "e.data::text, a.created_at "
    "FROM (SELECT * FROM actions WHERE game_id = %(game)s AND last_seq > %(after)s ORDER BY version "
    "LIMIT %(limit)s) AS a CROSS JOIN LATERAL json_array_elements(a.events) WITH ORDINALITY AS e (data, ord) "
    "WHERE a.first_seq + e.ord - 1 > %(after)s ORDER BY seq LIMIT %(limit)s"
)
_SELECT_VERSIONS = (
    "SELECT a.game_id, a.first_seq + e.ord - 1 AS seq, a.version, a.actor, a.types ->> (e.ord - 1)::int, "
    "e.data::text, a.created_at "
    "FROM actions AS a CROSS JOIN LATERAL json_array_elements(a.events) WITH ORDINALITY AS e (data, ord) "
    "WHERE a.game_id = %s AND a.version = ANY(%s) ORDER BY seq"
)
_OUTLINE = (
    "SELECT version, actor, types ->> 0, "
    "CASE WHEN types ->> 0 LIKE 'table\\_%%' THEN (events -> 0)::text END "
    "FROM actions WHERE game_id = %s"
)


class PgStore(GameWrites):
    """The referee's tables in one PostgreSQL database (in `schema` when given), through a small pool."""

    def __init__(self, session: Session) -> None:
        self._session = session
        self.path = session.where  # what messages name: the URL without its password
        self._closed = False
        self.rolls = Rolls(session)
        self.decks = Decks(session)
        self.settings = SettingsTables(session)
        self.clocks = Clocks(session)

    @classmethod
    def open(
        cls,
        url: str,
        *,
        schema: str | None = None,
        max_connections: int = 4,
        lock_timeout_ms: int = LOCK_TIMEOUT_MS,
        stop_before: str | None = None,
    ) -> PgStore:
        """Connect, create `schema` if it is missing, and migrate (`stop_before`: for upgrade tests)."""
        where = shown(url)
        pool = open_pool(url, schema=schema, max_size=max_connections, lock_timeout_ms=lock_timeout_ms)
        try:
            with translated(where), pool.connection() as conn:
                if schema is not None:
                    conn.execute(sql.SQL("CREATE SCHEMA IF NOT EXISTS {}").format(sql.Identifier(schema)))
                migrate(conn, stop_before=stop_before)
        except BaseException:
            pool.close()
            raise
        return cls(Session(pool, where))

    def rebind(self, *, same_thread: bool) -> None:
        """The service's worker takes the store for itself as it starts (`same_thread`): any other thread
        is then refused (WrongThread), as sqlite3 refuses the SQLite store's connection."""
        self._session.own(same_thread)

    def release(self) -> None:
        if self._closed:
            self._session.pool.close()
            return
        self._session.own(False)

    def close(self) -> None:
        self._closed = True
        self._session.pool.close()

    def __enter__(self) -> PgStore:
        return self

    def __exit__(self, et: type[BaseException] | None, ev: BaseException | None, tb: TracebackType | None) -> None:
        self.close()

    @contextlib.contextmanager
    def transaction(self) -> Iterator[Connection]:
        """One transaction on the store's connection, for tools of this package (the copy from SQLite)."""
        with translated(self.path), self._session.conn() as conn, conn.transaction():
            yield conn

    @contextlib.contextmanager
    def group(self) -> Iterator[Callable[[], bool]]:
        """One transaction around several writes, each then in its own savepoint: one commit for all.
        Yields a check that the transaction is still open (an error outside a savepoint spoils it)."""
        with translated(self.path), self._session.conn() as conn, conn.transaction():
            yield lambda: conn.info.transaction_status == TransactionStatus.INTRANS

    # -- reading ---------------------------------------------------------------------------------

    def find(self, channel_id: int) -> GameRecord | None:
        check_id(channel_id)
        return self._one_game("channel_id = %s AND status = 'active'", (channel_id,))

    def version_of(self, channel_id: int) -> tuple[int, int] | None:
        check_id(channel_id)
        with translated(self.path), self._session.conn() as conn:
            row = conn.execute(
                "SELECT id, version FROM games WHERE channel_id = %s AND status = 'active'", (channel_id,)
            ).fetchone()
        return None if row is None else (int(row[0]), int(row[1]))

    def load(self, channel_id: int) -> GameRecord:
        game = self.find(channel_id)
        if game is None:
            raise NoGame(channel=channel_id)
        return game

    def game(self, game_id: int) -> GameRecord:
        check_id(game_id)
        game = self._one_game("id = %s", (game_id,))
        if game is None:
            raise UnknownGame(game=game_id)
        return game

    def latest(self, channel_id: int) -> GameRecord:
        check_id(channel_id)
        game = self._one_game("channel_id = %s ORDER BY status = 'active' DESC, id DESC LIMIT 1", (channel_id,))
        if game is None:
            raise NoGame("store.no_games", channel=channel_id)
        return game

    def history(self, channel_id: int) -> list[GameRecord]:
        check_id(channel_id)
        return self._games("channel_id = %s ORDER BY id", (channel_id,))

    def events(self, game_id: int, *, after_seq: int = 0, limit: int = -1) -> list[EventRecord]:
        check_id(game_id)
        params = {"game": game_id, "after": after_seq, "limit": None if limit < 0 else limit}
        with translated(self.path), self._session.conn() as conn:
            return as_events(conn.execute(_SELECT_EVENTS, params).fetchall())

    def outline(
        self, game_id: int, *, before: int | None = None, limit: int = -1
    ) -> list[tuple[int, int | None, str, str | None]]:
        check_id(game_id)
        query = _OUTLINE + " ORDER BY version"
        params: list[int | None] = [game_id]
        if before is not None:
            query = _OUTLINE + " AND version < %s ORDER BY version DESC LIMIT %s"
            params += [before, None if limit < 0 else limit]
        with translated(self.path), self._session.conn() as conn:
            rows = conn.execute(query, params).fetchall()
        return [(int(v), None if a is None else int(a), str(h), None if d is None else str(d)) for v, a, h, d in rows]

    def events_of(self, game_id: int, versions: Sequence[int]) -> list[EventRecord]:
        if not versions:
            return []
        check_id(game_id)
        with translated(self.path), self._session.conn() as conn:
            return as_events(conn.execute(_SELECT_VERSIONS, (game_id, list(versions))).fetchall())

    def checkpoints(self, game_id: int) -> list[int]:
        check_id(game_id)
        with translated(self.path), self._session.conn() as conn:
            rows = conn.execute(
                "SELECT version FROM checkpoints WHERE game_id = %s ORDER BY version", (game_id,)
            ).fetchall()
        return [int(row[0]) for row in rows]

    def keep_state(self, game_id: int, version: int, state: JsonLike) -> None:
        check_id(game_id)
        text = to_json(state)
        with translated(self.path), self._session.conn() as conn, conn.transaction():
            conn.execute(_INSERT_CHECKPOINT, (game_id, version, text))

    def checkpoint(self, game_id: int, version: int) -> str:
        check_id(game_id)
        with translated(self.path), self._session.conn() as conn:
            row = conn.execute(
                "SELECT state FROM checkpoints WHERE game_id = %s AND version = %s", (game_id, version)
            ).fetchone()
        if row is None:
            raise CorruptRow(what=f"checkpoints (game {game_id}, version {version})", reason="missing")
        return str(row[0])

    # -- writing ---------------------------------------------------------------------------------

    def start(
        self,
        channel_id: int,
        state: JsonLike,
        events: Sequence[JsonLike] = (),
        *,
        guild_id: int | None = None,
        actor: int | None = None,
        seed: bytes | None = None,
        commitment: str | None = None,
        table_id: str | None = None,
        next_roll: int = 0,
        rolls: Sequence[NewRoll] = (),
        result: JsonLike | None = None,
    ) -> GameRecord:
        """Open a new game in the channel at version 1; GameAlreadyRunning if one is running."""
        for value in (channel_id, guild_id, actor):
            check_id(value)
        now = now_text()
        state_text = to_json(state)
        filed = filed_events(events)
        params = (
            channel_id,
            guild_id,
            "active" if result is None else "finished",
            state_text,
            len(events),
            seed,
            commitment,
            table_id,
            next_roll,
            now,
            now,
            None if result is None else to_json(result),
            None if result is None else now,
        )
        with translated(self.path), self._session.conn() as conn, conn.transaction():
            lock(conn, "channel", channel_id)
            try:
                with conn.transaction():  # a savepoint: the refusal below leaves the caller's transaction usable
                    cur = conn.cursor(row_factory=dict_row).execute(
                        "INSERT INTO games (channel_id, guild_id, status, state, version, last_seq, seed, "
                        "commitment, table_id, next_roll, created_at, updated_at, result, finished_at) "
                        "VALUES (%s, %s, %s, %s, 1, %s, %s, %s, %s, %s, %s, %s, %s, %s) "
                        f"RETURNING {_GAME_COLUMNS}",
                        params,
                    )
                    game = as_records(cur.fetchall(), GameRecord, what="games row")[0]
            except pg_errors.UniqueViolation as exc:
                raise GameAlreadyRunning(channel=channel_id) from exc
            _append(conn, game.id, 1, 1, filed, actor, now)
            if result is None:
                conn.execute(_INSERT_CHECKPOINT, (game.id, 1, state_text))
            insert_rolls(conn, channel_id, game.id, rolls, now)
        return game

    def archive_as_is(
        self, game: GameRecord, events: Sequence[JsonLike], *, actor: int | None = None, result: JsonLike | None = None
    ) -> GameRecord:
        """Finish a running game without writing its state (kept exactly as it was, for a human)."""
        check_id(actor)
        now = now_text()
        filed = filed_events(events)
        with translated(self.path), self._session.conn() as conn, conn.transaction():
            lock(conn, "channel", game.channel_id)
            cur = conn.execute(
                "UPDATE games SET version = version + 1, last_seq = last_seq + %s, updated_at = %s, "
                "status = 'finished', finished_at = %s, result = %s "
                "WHERE id = %s AND status = 'active' AND version = %s",
                (len(events), now, now, to_json(result or {}), game.id, game.version),
            )
            if cur.rowcount != 1:
                self._refuse(game.channel_id, game.version, game.id)
            _append(conn, game.id, game.last_seq + 1, game.version + 1, filed, actor, now)
            return self.game(game.id)

    # -- internals -------------------------------------------------------------------------------

    def _write(
        self, write: Write, actor: int | None, rolls: Sequence[NewRoll], loaded: GameRecord | None
    ) -> GameRecord:
        channel_id, expected_version = write.channel_id, write.expected_version
        for value in (channel_id, write.game_id, actor):
            check_id(value)
        update = (_UPDATE_FINISH if write.finishes else _UPDATE).replace(" WHERE ", " FROM locked WHERE ")
        if write.game_id is not None:
            update += " AND id = %s"
        params: list[Any] = [lock_name("channel", channel_id), *write.update_params()]
        # The version check, the write and its log are one statement: nothing can slip in between, and
        # the log row exists exactly when the state moved.
        parts = [_LOCKED, f"written AS ({update} RETURNING id, version, last_seq)"]
        if write.filed is not None:
            types, texts, count = write.filed
            parts.append(f"logged AS ({_THEN_LOG})")
            params += [write.events, write.events, count - 1, actor, types, texts, write.now]
        if write.checkpoint:
            parts.append(f"kept AS ({_THEN_CHECKPOINT})")
            params.append(write.state_text)
        if rolls:
            parts.append("rolled AS (" + _THEN_ROLLS.format(rows=", ".join([_ROLL_VALUES] * len(rolls))) + ")")
            params += [channel_id, write.now]
            for row in roll_rows(channel_id, None, rolls, write.now):
                params += row[2:8]  # user_id, number, expression, faces, total, commitment
        query = "WITH " + ", ".join(parts) + " SELECT id, last_seq FROM written"
        with translated(self.path), self._session.conn() as conn:
            if conn.info.transaction_status == TransactionStatus.IDLE:
                found = conn.execute(query, params).fetchone()
            else:  # inside a group: a savepoint, so a refusal leaves the others' writes standing
                with conn.transaction():
                    found = conn.execute(query, params).fetchone()
            if found is None:
                self._refuse(channel_id, expected_version, write.game_id)
            written_id, last_seq = int(found[0]), int(found[1])
            if loaded is None:
                return self.game(written_id)
        return write.after(loaded, last_seq)

    def _one_game(self, where: str, params: tuple[Any, ...]) -> GameRecord | None:
        found = self._games(where, params)
        return found[0] if found else None

    def _games(self, where: str, params: tuple[Any, ...]) -> list[GameRecord]:
        with translated(self.path), self._session.conn() as conn:
            cur = conn.cursor(row_factory=dict_row).execute(f"SELECT {_GAME_COLUMNS} FROM games WHERE {where}", params)
            return as_records(cur.fetchall(), GameRecord, what="games row")


def _append(
    conn: Connection,
    game_id: int,
    first_seq: int,
    version: int,
    filed: tuple[str, str, int] | None,
    actor: int | None,
    now: str,
) -> None:
    """All the events of a write as one row (their types and the events as JSON arrays)."""
    if filed is not None:
        types, texts, count = filed
        conn.execute(_INSERT_ACTION, (game_id, version, first_seq, first_seq + count - 1, actor, types, texts, now))
