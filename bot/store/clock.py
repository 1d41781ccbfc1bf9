"""Turn clocks: a channel's setting (seconds per turn, automatic pass) and its one stored deadline.

A deadline is a row, not a timer: the bot's one dispatcher task reads the due ones, so a restart loses
none (those that passed while the bot was away fire as it starts). A deadline belongs to the player who
must act in one game and turn; `reminded` marks the one message it may cause, so it never causes two.
"""

from __future__ import annotations

from pathlib import Path

from pydantic import BaseModel, ConfigDict
from sqlite_utils import Database

from bot.store.connection import translated
from bot.store.records import now_text
from bot.store.rows import as_records

_DEADLINE_COLUMNS = "channel_id, game_id, user_id, turn, due_at, reminded, auto_pass"


class ClockSetting(BaseModel):
    model_config = ConfigDict(frozen=True, extra="ignore")

    channel_id: int
    seconds: int
    auto_pass: bool = False


class Deadline(BaseModel):
    """When the player `user_id` of game `game_id` must have acted (`due_at`, seconds since the epoch)."""

    model_config = ConfigDict(frozen=True, extra="ignore")

    channel_id: int
    game_id: int
    user_id: int
    turn: int
    due_at: float
    reminded: bool = False
    auto_pass: bool = False


class Clocks:
    def __init__(self, db: Database, path: Path) -> None:
        self._db = db
        self._path = path

    def setting(self, channel_id: int) -> ClockSetting | None:
        """The channel's turn clock, or None when it has none (the default)."""
        with translated(self._path):
            cur = self._db.execute(
                "SELECT channel_id, seconds, auto_pass FROM clock_settings WHERE channel_id = ?", (channel_id,)
            )
            found = as_records(cur, ClockSetting, what="clock_settings row")
        return found[0] if found else None

    def any_setting(self) -> bool:
        with translated(self._path):
            return self._db.execute("SELECT 1 FROM clock_settings LIMIT 1").fetchone() is not None

    def set_setting(self, channel_id: int, seconds: int, auto_pass: bool) -> ClockSetting | None:
        """Give the channel a clock of `seconds` per turn; 0 takes it (and its deadline) away."""
        with translated(self._path), self._db.atomic():
            if seconds <= 0:
                self._db.execute("DELETE FROM clock_settings WHERE channel_id = ?", (channel_id,))
                self._db.execute("DELETE FROM clocks WHERE channel_id = ?", (channel_id,))
            else:
                self._db.execute(
                    "INSERT INTO clock_settings (channel_id, seconds, auto_pass, updated_at) VALUES (?, ?, ?, ?) "
                    "ON CONFLICT (channel_id) DO UPDATE SET seconds = excluded.seconds, "
                    "auto_pass = excluded.auto_pass, updated_at = excluded.updated_at",
                    (channel_id, seconds, int(auto_pass), now_text()),
                )
        return self.setting(channel_id)

    def deadline(self, channel_id: int) -> Deadline | None:
        with translated(self._path):
            cur = self._db.execute(f"SELECT {_DEADLINE_COLUMNS} FROM clocks WHERE channel_id = ?", (channel_id,))
            found = as_records(cur, Deadline, what="clocks row")
        return found[0] if found else None

    def arm(self, deadline: Deadline) -> None:
        """Set the channel's deadline (replacing the one before)."""
        with translated(self._path), self._db.atomic():
            self._db.execute(
                f"INSERT OR REPLACE INTO clocks ({_DEADLINE_COLUMNS}, armed_at) VALUES (?, ?, ?, ?, ?, ?, ?, ?)",
                (
                    deadline.channel_id,
                    deadline.game_id,
                    deadline.user_id,
                    deadline.turn,
                    deadline.due_at,
                    int(deadline.reminded),
                    int(deadline.auto_pass),
                    now_text(),
                ),
            )

    def clear(self, channel_id: int) -> None:
        with translated(self._path), self._db.atomic():
            self._db.execute("DELETE FROM clocks WHERE channel_id = ?", (channel_id,))

    def mark_reminded(self, channel_id: int, due_at: float) -> bool:
        """Mark the deadline's one message as sent; False when it was marked already or has changed."""
        with translated(self._path), self._db.atomic():
            cur = self._db.execute(
                "UPDATE clocks SET reminded = 1 WHERE channel_id = ? AND due_at = ? AND reminded = 0",
                (channel_id, due_at),
            )
            return cur.rowcount == 1

    def due(self, now: float) -> list[int]:
        """The channels whose deadline has passed and has not caused its message yet, earliest first."""
        with translated(self._path):
            rows = self._db.execute(
                "SELECT channel_id FROM clocks WHERE reminded = 0 AND due_at <= ? ORDER BY due_at", (now,)
            ).fetchall()
        return [row[0] for row in rows if type(row[0]) is int]
