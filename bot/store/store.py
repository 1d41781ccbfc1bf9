"""The durable store: the running game of each channel, its append-only event log, and its rolls.

Every write is one `db.atomic()` transaction. A commit names the version it was computed from and is
refused with VersionConflict (writing nothing) when the stored game has moved on, so two processes
sharing the file can never overwrite each other silently.

The log is one `actions` row per write (its events as a JSON array): a row per event cost each commit
more than the whole rest of its log write. The `events` view lays it out one row per event.
"""

from __future__ import annotations

import contextlib
import json
import sqlite3
from collections.abc import Callable, Iterator, Sequence
from pathlib import Path
from types import TracebackType
from typing import Any, NoReturn

from sqlite_utils import Database

from bot.store.clock import Clocks
from bot.store.connection import BUSY_TIMEOUT_MS, Synchronous, open_database, translated
from bot.store.decks import Decks
from bot.store.errors import CorruptRow, GameAlreadyRunning, NoGame, UnknownGame
from bot.store.records import EventRecord, GameRecord, JsonLike, NewRoll, now_text, to_json
from bot.store.rolls import Rolls, insert_rolls
from bot.store.rows import as_events, as_records
from bot.store.settings import SettingsTables
from bot.store.writes import Filed, GameWrites, Write, filed_events

_GAME_COLUMNS = (
    "id, channel_id, guild_id, status, state, version, last_seq, seed, commitment, next_roll, result, "
    "created_at, updated_at, finished_at, table_id"
)

_UPDATE = (
    "UPDATE games SET state = ?, version = version + 1, last_seq = last_seq + ?, "
    "next_roll = COALESCE(?, next_roll), updated_at = ? "
    "WHERE channel_id = ? AND status = 'active' AND version = ?"
)
_UPDATE_FINISH = _UPDATE.replace("updated_at = ? ", "updated_at = ?, status = 'finished', finished_at = ?, result = ? ")
_INSERT_ACTION = (
    "INSERT INTO actions (game_id, version, first_seq, last_seq, actor, types, events, created_at) "
    "VALUES (?, ?, ?, ?, ?, ?, ?, ?)"
)
# The events view, for one game from a sequence number on: only the action rows that hold those events
# are laid out (the view itself would lay out the whole log before picking, say, its first event).
_SELECT_EVENTS = (
    "SELECT a.game_id, a.first_seq + e.key AS seq, a.version, a.actor, "
    "json_extract(a.types, '$[' || e.key || ']') AS type, e.value AS data, a.created_at "
    "FROM (SELECT * FROM actions WHERE game_id = ?1 AND last_seq > ?2 ORDER BY version LIMIT ?3) AS a "
    "JOIN json_each(a.events) AS e WHERE a.first_seq + e.key > ?2 ORDER BY seq LIMIT ?3"
)

_INSERT_CHECKPOINT = "INSERT OR REPLACE INTO checkpoints (game_id, version, state) VALUES (?, ?, ?)"
# The log's outline: one row per commit with the first event's type, and that event's JSON only for the
# table's own entries (undo, rollback, end): enough to know which actions are in effect, at a fraction
# of the cost of reading the events.
_OUTLINE = (
    "SELECT version, actor, json_extract(types, '$[0]') AS head, "
    "CASE WHEN json_extract(types, '$[0]') LIKE 'table\\_%' ESCAPE '\\' THEN json_extract(events, '$[0]') END "
    "FROM actions WHERE game_id = ? ORDER BY version"
)
_OUTLINE_BACK = _OUTLINE.replace("game_id = ?", "game_id = ? AND version < ?").replace(
    "ORDER BY version", "ORDER BY version DESC LIMIT ?"
)
_SELECT_VERSIONS = (
    "SELECT a.game_id, a.first_seq + e.key AS seq, a.version, a.actor, "
    "json_extract(a.types, '$[' || e.key || ']') AS type, e.value AS data, a.created_at "
    "FROM (SELECT * FROM actions WHERE game_id = ?1 AND version IN (SELECT value FROM json_each(?2))) AS a "
    "JOIN json_each(a.events) AS e ORDER BY seq"
)


class Store(GameWrites):
    """One connection to the referee's SQLite file, used by one thread at a time (TableService runs it on
    its worker thread)."""

    def __init__(
        self, db: Database, path: Path, *, busy_timeout_ms: int = BUSY_TIMEOUT_MS, synchronous: Synchronous = "FULL"
    ) -> None:
        self.path = path
        self._opened_with = (busy_timeout_ms, synchronous)
        self._use(db)

    def _use(self, db: Database) -> None:
        self.db = db
        self.rolls = Rolls(db, self.path)
        self.decks = Decks(db, self.path)
        self.settings = SettingsTables(db, self.path)
        self.clocks = Clocks(db, self.path)

    def rebind(self, *, same_thread: bool) -> None:
        """Reopen the connection from the calling thread. With `same_thread`, that thread alone may use
        it from now on (sqlite3 refuses any other): the service's worker thread takes the store this way
        when it starts, and gives it back (`same_thread=False`) when it stops."""
        timeout, synchronous = self._opened_with
        fresh = open_database(self.path, busy_timeout_ms=timeout, synchronous=synchronous, same_thread=same_thread)
        self.db.close()
        self.db = fresh
        # The parts keep their identity (a call handed to the worker may already hold their methods).
        for part in (self.rolls, self.decks, self.settings, self.clocks):
            part._db = fresh

    @classmethod
    def open(
        cls,
        path: Path | str,
        *,
        busy_timeout_ms: int = BUSY_TIMEOUT_MS,
        synchronous: Synchronous = "FULL",
    ) -> Store:
        path = Path(path)
        db = open_database(path, busy_timeout_ms=busy_timeout_ms, synchronous=synchronous)
        return cls(db, path, busy_timeout_ms=busy_timeout_ms, synchronous=synchronous)

    def close(self) -> None:
        self._closed = True
        # A connection a service's worker took for itself is closed by that worker as it stops.
        with contextlib.suppress(sqlite3.ProgrammingError):
            self.db.close()

    def release(self) -> None:
        """The worker thread that took the connection (`rebind`) gives it back as it stops: a connection
        any thread may use again, or none when the store was closed meanwhile."""
        if getattr(self, "_closed", False):
            self.db.close()
            return
        self.rebind(same_thread=False)

    def __enter__(self) -> Store:
        return self

    def __exit__(self, et: type[BaseException] | None, ev: BaseException | None, tb: TracebackType | None) -> None:
        self.close()

    @contextlib.contextmanager
    def group(self) -> Iterator[Callable[[], bool]]:
        """One transaction around several writes, each then in its own savepoint: one commit (one
        fsync) for all. Yields a check that the transaction is still open (a disk error undoes it)."""
        with translated(self.path), self.db.atomic():
            yield lambda: self.db.conn.in_transaction

    # -- reading ---------------------------------------------------------------------------------

    def find(self, channel_id: int) -> GameRecord | None:
        """The channel's running game, or None."""
        return self._one_game("channel_id = ? AND status = 'active'", (channel_id,))

    def version_of(self, channel_id: int) -> tuple[int, int] | None:
        """(game id, version) of the channel's running game, or None: the cheap check before reusing a
        game the caller already holds in memory."""
        with translated(self.path):
            row = self.db.execute(
                "SELECT id, version FROM games WHERE channel_id = ? AND status = 'active'", (channel_id,)
            ).fetchone()
        if row is None:
            return None
        if not (isinstance(row[0], int) and isinstance(row[1], int)):
            raise CorruptRow(what=f"games row channel_id={channel_id}", reason=f"id/version {row!r}")
        return row[0], row[1]

    def load(self, channel_id: int) -> GameRecord:
        """The channel's running game; NoGame when there is none."""
        game = self.find(channel_id)
        if game is None:
            raise NoGame(channel=channel_id)
        return game

    def game(self, game_id: int) -> GameRecord:
        """Any game, running or finished, by its id."""
        game = self._one_game("id = ?", (game_id,))
        if game is None:
            raise UnknownGame(game=game_id)
        return game

    def latest(self, channel_id: int) -> GameRecord:
        """The running game of the channel, else its most recently finished one (for log and replay)."""
        game = self._one_game("channel_id = ? ORDER BY status = 'active' DESC, id DESC LIMIT 1", (channel_id,))
        if game is None:
            raise NoGame("store.no_games", channel=channel_id)
        return game

    def history(self, channel_id: int) -> list[GameRecord]:
        """Every game the channel has had, oldest first."""
        with translated(self.path):
            cur = self.db.execute(f"SELECT {_GAME_COLUMNS} FROM games WHERE channel_id = ? ORDER BY id", (channel_id,))
            return as_records(cur, GameRecord, what="games row")

    def events(self, game_id: int, *, after_seq: int = 0, limit: int = -1) -> list[EventRecord]:
        """The game's log in order (append-only; undo and rollback are events in it too)."""
        with translated(self.path):
            try:
                cur = self.db.execute(_SELECT_EVENTS, (game_id, after_seq, limit))
                return as_events(cur)
            except sqlite3.OperationalError as exc:
                if "json" not in str(exc).lower():
                    raise
                self._refuse_log(game_id, exc)

    def outline(
        self, game_id: int, *, before: int | None = None, limit: int = -1
    ) -> list[tuple[int, int | None, str, str | None]]:
        """Each commit of the game's log, in order: (version, actor, type of its first event, that event's
        JSON when it is one of the table's own entries). Reads no other event: for undo and rollback.
        With `before` a version: the `limit` commits before it, newest first (to read the log backwards)."""
        sql, params = (_OUTLINE, (game_id,)) if before is None else (_OUTLINE_BACK, (game_id, before, limit))
        with translated(self.path):
            try:
                rows = self.db.conn.execute(sql, params).fetchall()
            except sqlite3.OperationalError as exc:
                if "json" not in str(exc).lower():
                    raise
                self._refuse_log(game_id, exc)
        for version, actor, head, data in rows:
            if not (type(version) is int and (actor is None or type(actor) is int) and type(head) is str):
                raise CorruptRow(what=f"actions (game {game_id}, version {version!r})", reason="outline")
            if data is not None and type(data) is not str:
                raise CorruptRow(what=f"actions (game {game_id}, version {version})", reason="table entry")
        return rows

    def events_of(self, game_id: int, versions: Sequence[int]) -> list[EventRecord]:
        """The events of these commits only, in log order."""
        if not versions:
            return []
        with translated(self.path):
            try:
                cur = self.db.execute(_SELECT_VERSIONS, (game_id, json.dumps(list(versions))))
                return as_events(cur)
            except sqlite3.OperationalError as exc:
                if "json" not in str(exc).lower():
                    raise
                self._refuse_log(game_id, exc)

    def checkpoints(self, game_id: int) -> list[int]:
        """The versions at which the game's state was kept beside its log, oldest first."""
        with translated(self.path):
            rows = self.db.conn.execute(
                "SELECT version FROM checkpoints WHERE game_id = ? ORDER BY version", (game_id,)
            ).fetchall()
        return [row[0] for row in rows if type(row[0]) is int]

    def keep_state(self, game_id: int, version: int, state: JsonLike) -> None:
        """Keep `state` as the game's state committed at `version` (a checkpoint), after the fact: an undo
        or rollback that had to read far back keeps what it rebuilt, so the next one need not."""
        with translated(self.path), self.db.atomic():
            self.db.conn.execute(_INSERT_CHECKPOINT, (game_id, version, to_json(state)))

    def checkpoint(self, game_id: int, version: int) -> str:
        """The state as committed at `version` (one of `checkpoints`)."""
        with translated(self.path):
            row = self.db.conn.execute(
                "SELECT state FROM checkpoints WHERE game_id = ? AND version = ?", (game_id, version)
            ).fetchone()
        if row is None or type(row[0]) is not str:
            raise CorruptRow(what=f"checkpoints (game {game_id}, version {version})", reason="missing")
        return row[0]

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
        """Open a new game in the channel at version 1; GameAlreadyRunning if one is running.
        With a `result`, the game was over at once (e.g. a deck too small): it is filed as finished."""
        now = now_text()
        with translated(self.path), self.db.atomic():
            try:
                cur = self.db.execute(
                    "INSERT INTO games (channel_id, guild_id, status, state, version, last_seq, seed, commitment, "
                    "table_id, next_roll, created_at, updated_at, result, finished_at) "
                    "VALUES (?, ?, ?, ?, 1, ?, ?, ?, ?, ?, ?, ?, ?, ?) "
                    f"RETURNING {_GAME_COLUMNS}",
                    (
                        channel_id,
                        guild_id,
                        "active" if result is None else "finished",
                        to_json(state),
                        len(events),
                        seed,
                        commitment,
                        table_id,
                        next_roll,
                        now,
                        now,
                        None if result is None else to_json(result),
                        None if result is None else now,
                    ),
                )
            except sqlite3.IntegrityError as exc:
                raise GameAlreadyRunning(channel=channel_id) from exc
            game = as_records(cur, GameRecord, what="games row")[0]
            self._append(game.id, 1, 1, filed_events(events), actor, now)
            if result is None:
                self.db.conn.execute(_INSERT_CHECKPOINT, (game.id, 1, game.state))
            insert_rolls(self.db, channel_id, game.id, rolls, now)
        return game

    def archive_as_is(
        self, game: GameRecord, events: Sequence[JsonLike], *, actor: int | None = None, result: JsonLike | None = None
    ) -> GameRecord:
        """Finish a running game without writing its state: for a game whose state row no longer parses,
        which is then kept exactly as it was for a human to inspect. The entries (the end) are logged and
        the channel is free; VersionConflict or NoGame, writing nothing, if the game moved on meanwhile."""
        now = now_text()
        filed = filed_events(events)
        with translated(self.path), self.db.atomic():
            cursor = self.db.conn.execute(
                "UPDATE games SET version = version + 1, last_seq = last_seq + ?, updated_at = ?, "
                "status = 'finished', finished_at = ?, result = ? "
                "WHERE id = ? AND status = 'active' AND version = ?",
                (len(events), now, now, to_json(result or {}), game.id, game.version),
            )
            if cursor.rowcount != 1:
                self._refuse(game.channel_id, game.version, game.id)
            self._append(game.id, game.last_seq + 1, game.version + 1, filed, actor, now)
            return self.game(game.id)

    # -- internals -------------------------------------------------------------------------------

    def _write(
        self, write: Write, actor: int | None, rolls: Sequence[NewRoll], loaded: GameRecord | None
    ) -> GameRecord:
        channel_id, expected_version = write.channel_id, write.expected_version
        sql = _UPDATE_FINISH if write.finishes else _UPDATE
        if write.game_id is not None:
            sql += " AND id = ?"
        if loaded is None:
            sql += " RETURNING id, last_seq"  # the numbers the events need (RETURNING costs ~8 µs)
        with translated(self.path), self.db.atomic():
            # The version check and the write are one statement: nothing can slip in between.
            cursor = self.db.conn.execute(sql, write.update_params())
            if loaded is not None:  # the version matched, so the row was the loaded one until this write
                found = (loaded.id, loaded.last_seq + write.events) if cursor.rowcount == 1 else None
            else:
                found = cursor.fetchone()
            if found is None:
                self._refuse(channel_id, expected_version, write.game_id)
            written_id, last_seq = found
            first_seq = last_seq - write.events + 1
            self._append(written_id, first_seq, expected_version + 1, write.filed, actor, write.now)
            if write.checkpoint:
                self.db.conn.execute(_INSERT_CHECKPOINT, (written_id, expected_version + 1, write.state_text))
            insert_rolls(self.db, channel_id, written_id, rolls, write.now)
            if loaded is None:  # a caller without the record it started from: read it, in this transaction
                return self.game(written_id)
        return write.after(loaded, last_seq)

    def _refuse_log(self, game_id: int, exc: sqlite3.Error) -> NoReturn:
        """A log row whose JSON does not parse: name the action it holds, change nothing."""
        bad = self.db.conn.execute(
            "SELECT version, first_seq FROM actions "
            "WHERE game_id = ? AND NOT (json_valid(events) AND json_valid(types)) ORDER BY version LIMIT 1",
            (game_id,),
        ).fetchone()
        where = f"game {game_id}" if bad is None else f"game {game_id}, version {bad[0]}, from seq {bad[1]}"
        raise CorruptRow(what=f"actions.events ({where})", reason=str(exc)) from exc

    def _append(
        self, game_id: int, first_seq: int, version: int, filed: Filed | None, actor: int | None, now: str
    ) -> None:
        """All the events of a write as one row (`filed`: their types and the events as JSON arrays, and
        how many there are)."""
        if filed is not None:
            types, texts, count = filed
            row = (game_id, version, first_seq, first_seq + count - 1, actor, types, texts, now)
            self.db.conn.execute(_INSERT_ACTION, row)

    def _one_game(self, where: str, params: tuple[Any, ...]) -> GameRecord | None:
        with translated(self.path):
            cur = self.db.execute(f"SELECT {_GAME_COLUMNS} FROM games WHERE {where}", params)
            found = as_records(cur, GameRecord, what="games row")
        return found[0] if found else None
