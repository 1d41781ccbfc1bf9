"""The PostgreSQL store's other tables: rolls, saved decks, guild and channel settings, turn clocks.
The same calls and records as the SQLite store's (bot/store/rolls.py, decks.py, settings.py, clock.py)."""

from __future__ import annotations

import json
from collections.abc import Mapping, Sequence
from typing import Any

from psycopg.rows import dict_row

from bot.names import check_name
from bot.store.clock import ClockSetting, Deadline
from bot.store.errors import NoDeck
from bot.store.pg.connection import Connection, check_id, translated
from bot.store.pg.rows import as_records
from bot.store.pg.session import Session, lock
from bot.store.records import ChannelSettingsRecord, DeckRecord, GuildSettingsRecord, NewRoll, RollRecord, now_text

_ROLL_COLUMNS = "id, channel_id, game_id, user_id, number, expression, faces, total, commitment, created_at"
_INSERT_ROLL = (
    "INSERT INTO rolls (channel_id, game_id, user_id, number, expression, faces, total, commitment, created_at) "
    "VALUES (%s, %s, %s, %s, %s, %s, %s, %s, %s)"
)
_UNSET: Any = object()


def _roll_row(channel_id: int, game_id: int | None, r: NewRoll, now: str) -> tuple[Any, ...]:
    check_id(r.user_id)
    faces = json.dumps(r.faces, separators=(",", ":"))
    return (channel_id, game_id, r.user_id, r.number, r.expression, faces, r.total, r.commitment, now)


def insert_rolls(conn: Connection, channel_id: int, game_id: int | None, rolls: Sequence[NewRoll], now: str) -> None:
    """Insert inside the caller's transaction, so a game's rolls and its events land together."""
    if rolls:
        with conn.cursor() as cur:
            cur.executemany(_INSERT_ROLL, roll_rows(channel_id, game_id, rolls, now))


def roll_rows(channel_id: int, game_id: int | None, rolls: Sequence[NewRoll], now: str) -> list[tuple[Any, ...]]:
    """The rows of `rolls` in _INSERT_ROLL's column order."""
    return [_roll_row(channel_id, game_id, r, now) for r in rolls]


class Rolls:
    def __init__(self, session: Session) -> None:
        self._s = session

    def record(self, channel_id: int, roll: NewRoll, *, game_id: int | None = None) -> RollRecord:
        check_id(channel_id)
        check_id(game_id)
        row = _roll_row(channel_id, game_id, roll, now_text())
        with translated(self._s.where), self._s.conn() as conn, conn.transaction():
            lock(conn, "channel", channel_id)
            cur = conn.cursor(row_factory=dict_row).execute(f"{_INSERT_ROLL} RETURNING {_ROLL_COLUMNS}", row)
            return as_records(cur.fetchall(), RollRecord, what="rolls row")[0]

    def of_channel(self, channel_id: int, *, limit: int = 50) -> list[RollRecord]:
        """The channel's most recent rolls, oldest first."""
        check_id(channel_id)
        return self._select(
            f"SELECT {_ROLL_COLUMNS} FROM (SELECT * FROM rolls WHERE channel_id = %s ORDER BY id DESC LIMIT %s) AS r "
            "ORDER BY id",
            (channel_id, limit),
        )

    def of_game(self, game_id: int) -> list[RollRecord]:
        check_id(game_id)
        return self._select(f"SELECT {_ROLL_COLUMNS} FROM rolls WHERE game_id = %s ORDER BY number, id", (game_id,))

    def _select(self, query: str, params: tuple[Any, ...]) -> list[RollRecord]:
        with translated(self._s.where), self._s.conn() as conn:
            rows = conn.cursor(row_factory=dict_row).execute(query, params).fetchall()
        return as_records(rows, RollRecord, what="rolls row")


class Decks:
    def __init__(self, session: Session) -> None:
        self._s = session

    def save(self, user_id: int, name: str, cards: Sequence[Any]) -> DeckRecord:
        name = check_name(name, "deck")
        check_id(user_id)
        now = now_text()
        text = json.dumps(list(cards), ensure_ascii=False, separators=(",", ":"))
        with translated(self._s.where), self._s.conn() as conn, conn.transaction():
            conn.execute(
                "INSERT INTO decks (user_id, name, cards, created_at, updated_at) VALUES (%s, %s, %s, %s, %s) "
                "ON CONFLICT (user_id, name) DO UPDATE SET cards = excluded.cards, updated_at = excluded.updated_at",
                (user_id, name, text, now, now),
            )
        return self.get(user_id, name)

    def get(self, user_id: int, name: str) -> DeckRecord:
        name = check_name(name, "deck")
        found = self._select("user_id = %s AND name = %s", (user_id, name))
        if not found:
            raise NoDeck(name=name)
        return found[0]

    def of_user(self, user_id: int) -> list[DeckRecord]:
        return self._select("user_id = %s ORDER BY name", (user_id,))

    def delete(self, user_id: int, name: str) -> None:
        name = check_name(name, "deck")
        check_id(user_id)
        with translated(self._s.where), self._s.conn() as conn, conn.transaction():
            gone = conn.execute("DELETE FROM decks WHERE user_id = %s AND name = %s", (user_id, name)).rowcount
        if not gone:
            raise NoDeck(name=name)

    def _select(self, where: str, params: tuple[Any, ...]) -> list[DeckRecord]:
        check_id(params[0])
        with translated(self._s.where), self._s.conn() as conn:
            rows = (
                conn.cursor(row_factory=dict_row)
                .execute(f"SELECT user_id, name, cards, created_at, updated_at FROM decks WHERE {where}", params)
                .fetchall()
            )
        return as_records(rows, DeckRecord, what="decks row")


def _options(options: Mapping[str, Any]) -> str:
    return json.dumps(dict(options), ensure_ascii=False, separators=(",", ":"), sort_keys=True)


class SettingsTables:
    def __init__(self, session: Session) -> None:
        self._s = session

    def guild(self, guild_id: int) -> GuildSettingsRecord:
        check_id(guild_id)
        with translated(self._s.where), self._s.conn() as conn:
            rows = (
                conn.cursor(row_factory=dict_row)
                .execute(
                    "SELECT guild_id, locale, options, judge_role_id FROM guild_settings WHERE guild_id = %s",
                    (guild_id,),
                )
                .fetchall()
            )
        found = as_records(rows, GuildSettingsRecord, what="guild_settings row")
        return found[0] if found else GuildSettingsRecord(guild_id=guild_id)

    def channel(self, channel_id: int) -> ChannelSettingsRecord:
        check_id(channel_id)
        with translated(self._s.where), self._s.conn() as conn:
            rows = (
                conn.cursor(row_factory=dict_row)
                .execute(
                    "SELECT channel_id, guild_id, locale, options FROM channel_settings WHERE channel_id = %s",
                    (channel_id,),
                )
                .fetchall()
            )
        found = as_records(rows, ChannelSettingsRecord, what="channel_settings row")
        return found[0] if found else ChannelSettingsRecord(channel_id=channel_id)

    def set_guild(
        self,
        guild_id: int,
        *,
        locale: str | None = _UNSET,
        options: Mapping[str, Any] | None = None,
        judge_role_id: int | None = _UNSET,
    ) -> GuildSettingsRecord:
        """Change only what is given (None clears locale or judge role); options are merged in."""
        check_id(guild_id)
        if judge_role_id is not _UNSET:
            check_id(judge_role_id)
        with translated(self._s.where), self._s.conn() as conn, conn.transaction():
            lock(conn, "guild", guild_id)  # read, merge, write: two processes take turns
            current = self.guild(guild_id)
            merged = {**current.option_dict(), **(options or {})}
            conn.execute(
                "INSERT INTO guild_settings (guild_id, locale, options, judge_role_id, updated_at) "
                "VALUES (%s, %s, %s, %s, %s) "
                "ON CONFLICT (guild_id) DO UPDATE SET locale = excluded.locale, options = excluded.options, "
                "judge_role_id = excluded.judge_role_id, updated_at = excluded.updated_at",
                (
                    guild_id,
                    current.locale if locale is _UNSET else locale,
                    _options(merged),
                    current.judge_role_id if judge_role_id is _UNSET else judge_role_id,
                    now_text(),
                ),
            )
        return self.guild(guild_id)

    def set_channel(
        self,
        channel_id: int,
        *,
        guild_id: int | None = None,
        locale: str | None = _UNSET,
        options: Mapping[str, Any] | None = None,
    ) -> ChannelSettingsRecord:
        check_id(channel_id)
        check_id(guild_id)
        with translated(self._s.where), self._s.conn() as conn, conn.transaction():
            lock(conn, "channel", channel_id)
            current = self.channel(channel_id)
            merged = {**current.option_dict(), **(options or {})}
            conn.execute(
                "INSERT INTO channel_settings (channel_id, guild_id, locale, options, updated_at) "
                "VALUES (%s, %s, %s, %s, %s) "
                "ON CONFLICT (channel_id) DO UPDATE SET guild_id = excluded.guild_id, locale = excluded.locale, "
                "options = excluded.options, updated_at = excluded.updated_at",
                (
                    channel_id,
                    guild_id if guild_id is not None else current.guild_id,
                    current.locale if locale is _UNSET else locale,
                    _options(merged),
                    now_text(),
                ),
            )
        return self.channel(channel_id)

    def effective(self, channel_id: int, guild_id: int | None) -> tuple[str | None, dict[str, Any]]:
        chan = self.channel(channel_id)
        guild = self.guild(guild_id) if guild_id is not None else None
        options = {**(guild.option_dict() if guild else {}), **chan.option_dict()}
        return chan.locale or (guild.locale if guild else None), options


_DEADLINE_COLUMNS = "channel_id, game_id, user_id, turn, due_at, reminded, auto_pass"


class Clocks:
    def __init__(self, session: Session) -> None:
        self._s = session

    def setting(self, channel_id: int) -> ClockSetting | None:
        check_id(channel_id)
        with translated(self._s.where), self._s.conn() as conn:
            rows = (
                conn.cursor(row_factory=dict_row)
                .execute(
                    "SELECT channel_id, seconds, auto_pass FROM clock_settings WHERE channel_id = %s", (channel_id,)
                )
                .fetchall()
            )
        found = as_records(rows, ClockSetting, what="clock_settings row")
        return found[0] if found else None

    def any_setting(self) -> bool:
        with translated(self._s.where), self._s.conn() as conn:
            return conn.execute("SELECT 1 FROM clock_settings LIMIT 1").fetchone() is not None

    def set_setting(self, channel_id: int, seconds: int, auto_pass: bool) -> ClockSetting | None:
        check_id(channel_id)
        with translated(self._s.where), self._s.conn() as conn, conn.transaction():
            lock(conn, "channel", channel_id)
            if seconds <= 0:
                conn.execute("DELETE FROM clock_settings WHERE channel_id = %s", (channel_id,))
                conn.execute("DELETE FROM clocks WHERE channel_id = %s", (channel_id,))
            else:
                conn.execute(
                    "INSERT INTO clock_settings (channel_id, seconds, auto_pass, updated_at) VALUES (%s, %s, %s, %s) "
                    "ON CONFLICT (channel_id) DO UPDATE SET seconds = excluded.seconds, "
                    "auto_pass = excluded.auto_pass, updated_at = excluded.updated_at",
                    (channel_id, seconds, auto_pass, now_text()),
                )
        return self.setting(channel_id)

    def deadline(self, channel_id: int) -> Deadline | None:
        check_id(channel_id)
        with translated(self._s.where), self._s.conn() as conn:
            rows = (
                conn.cursor(row_factory=dict_row)
                .execute(f"SELECT {_DEADLINE_COLUMNS} FROM clocks WHERE channel_id = %s", (channel_id,))
                .fetchall()
            )
        found = as_records(rows, Deadline, what="clocks row")
        return found[0] if found else None

    def arm(self, deadline: Deadline) -> None:
        """Set the channel's deadline (replacing the one before)."""
        d = deadline
        for value in (d.channel_id, d.game_id, d.user_id):
            check_id(value)
        with translated(self._s.where), self._s.conn() as conn, conn.transaction():
            lock(conn, "channel", d.channel_id)
            conn.execute(
                f"INSERT INTO clocks ({_DEADLINE_COLUMNS}, armed_at) VALUES (%s, %s, %s, %s, %s, %s, %s, %s) "
                "ON CONFLICT (channel_id) DO UPDATE SET game_id = excluded.game_id, user_id = excluded.user_id, "
                "turn = excluded.turn, due_at = excluded.due_at, reminded = excluded.reminded, "
                "auto_pass = excluded.auto_pass, armed_at = excluded.armed_at",
                (d.channel_id, d.game_id, d.user_id, d.turn, d.due_at, d.reminded, d.auto_pass, now_text()),
            )

    def clear(self, channel_id: int) -> None:
        check_id(channel_id)
        with translated(self._s.where), self._s.conn() as conn, conn.transaction():
            lock(conn, "channel", channel_id)
            conn.execute("DELETE FROM clocks WHERE channel_id = %s", (channel_id,))

    def mark_reminded(self, channel_id: int, due_at: float) -> bool:
        """Mark the deadline's one message as sent; False when it was marked already or has changed."""
        check_id(channel_id)
        with translated(self._s.where), self._s.conn() as conn, conn.transaction():
            cur = conn.execute(
                "UPDATE clocks SET reminded = TRUE WHERE channel_id = %s AND due_at = %s AND NOT reminded",
                (channel_id, due_at),
            )
            return cur.rowcount == 1

    def due(self, now: float) -> list[int]:
        with translated(self._s.where), self._s.conn() as conn:
            rows = conn.execute(
                "SELECT channel_id FROM clocks WHERE NOT reminded AND due_at <= %s ORDER BY due_at", (now,)
            ).fetchall()
        return [int(row[0]) for row in rows]
