"""Per-guild and per-channel settings: locale, table options (JSON), the judge role of a guild."""

from __future__ import annotations

import json
from collections.abc import Mapping
from pathlib import Path
from typing import Any

from sqlite_utils import Database

from bot.store.connection import translated
from bot.store.records import ChannelSettingsRecord, GuildSettingsRecord, now_text
from bot.store.rows import as_records

_UNSET: Any = object()


def _options(options: Mapping[str, Any]) -> str:
    return json.dumps(dict(options), ensure_ascii=False, separators=(",", ":"), sort_keys=True)


class SettingsTables:
    def __init__(self, db: Database, path: Path) -> None:
        self._db = db
        self._path = path

    def guild(self, guild_id: int) -> GuildSettingsRecord:
        """The guild's settings; defaults (nothing set) when the guild never changed any."""
        with translated(self._path):
            cur = self._db.execute(
                "SELECT guild_id, locale, options, judge_role_id FROM guild_settings WHERE guild_id = ?", (guild_id,)
            )
            found = as_records(cur, GuildSettingsRecord, what="guild_settings row")
        return found[0] if found else GuildSettingsRecord(guild_id=guild_id)

    def channel(self, channel_id: int) -> ChannelSettingsRecord:
        with translated(self._path):
            cur = self._db.execute(
                "SELECT channel_id, guild_id, locale, options FROM channel_settings WHERE channel_id = ?", (channel_id,)
            )
            found = as_records(cur, ChannelSettingsRecord, what="channel_settings row")
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
        with translated(self._path), self._db.atomic():
            current = self.guild(guild_id)
            merged = {**current.option_dict(), **(options or {})}
            self._db.execute(
                "INSERT INTO guild_settings (guild_id, locale, options, judge_role_id, updated_at) "
                "VALUES (?, ?, ?, ?, ?) "
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
        with translated(self._path), self._db.atomic():
            current = self.channel(channel_id)
            merged = {**current.option_dict(), **(options or {})}
            self._db.execute(
                "INSERT INTO channel_settings (channel_id, guild_id, locale, options, updated_at) "
                "VALUES (?, ?, ?, ?, ?) "
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
        """Locale and table options for a channel: the channel's own over its guild's."""
        chan = self.channel(channel_id)
        guild = self.guild(guild_id) if guild_id is not None else None
        options = {**(guild.option_dict() if guild else {}), **chan.option_dict()}
        return chan.locale or (guild.locale if guild else None), options
