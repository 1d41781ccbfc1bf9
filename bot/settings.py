"""The one settings class. Built in main(), never at import time, so tests can build their own."""

from __future__ import annotations

import os
from pathlib import Path
from typing import Literal

from pydantic import Field, SecretStr, ValidationError
from pydantic_settings import BaseSettings, SettingsConfigDict

from bot.errors import RefereeError


def _default_data_dir() -> Path:
    return Path.cwd() / "data"


def _default_cache_dir() -> Path:
    """The user's cache folder (XDG), never the folder a command happens to run from."""
    xdg = os.environ.get("XDG_CACHE_HOME", "")
    base = Path(xdg) if xdg and Path(xdg).is_absolute() else Path.home() / ".cache"
    return base / "horizonnotes-referee"


class Settings(BaseSettings):
    """Read from the environment and from `.env`; every field is explained in `.env.example`."""

    model_config = SettingsConfigDict(env_file=".env", env_file_encoding="utf-8", extra="ignore")

    discord_token: SecretStr | None = Field(default=None, validation_alias="DISCORD_TOKEN")
    data_dir: Path = Field(default_factory=_default_data_dir, validation_alias="REFEREE_DATA_DIR")
    database_path: Path | None = Field(default=None, validation_alias="REFEREE_DATABASE")
    dev_guild_id: int | None = Field(default=None, validation_alias="REFEREE_DEV_GUILD_ID")
    default_locale: str = Field(default="ja", validation_alias="REFEREE_LOCALE", pattern="^(ja|en)$")
    cards_dir: Path | None = Field(default=None, validation_alias="REFEREE_CARDS_DIR")
    rules_dir: Path | None = Field(default=None, validation_alias="REFEREE_RULES_DIR")
    # Files rebuilt from other files (the rulings index): safe to delete at any time.
    cache_dir: Path = Field(default_factory=_default_cache_dir, validation_alias="REFEREE_CACHE_DIR")
    log_level: str = Field(default="INFO", validation_alias="REFEREE_LOG_LEVEL")
    # full: every action is on the disk before anyone is told it happened (a power cut loses nothing);
    # normal: skips that fsync, still safe when the bot is killed, but a power cut can lose the last seconds.
    db_sync: Literal["full", "normal"] = Field(default="full", validation_alias="REFEREE_DB_SYNC")

    @property
    def database_file(self) -> Path:
        """The SQLite file: the explicit path, or `referee.sqlite3` in the data folder."""
        return self.database_path if self.database_path is not None else self.data_dir / "referee.sqlite3"

    @property
    def synchronous(self) -> Literal["NORMAL", "FULL"]:
        """SQLite's `synchronous` mode for the store."""
        return "FULL" if self.db_sync == "full" else "NORMAL"

    # -- the Discord front end (bot/app.py) --
    # Discord's REST address ("/api/v10" is added); tests point it at a fake Discord on 127.0.0.1.
    discord_api_url: str = Field(
        default="https://discord.com", validation_alias="REFEREE_DISCORD_API_URL", pattern=r"^https?://[^\s/]+$"
    )


class BadSetting(RefereeError):
    key = "common.bad_setting"


def load_settings() -> Settings:
    """Settings from the environment and `.env`; a bad value names its variable (never a token's value)."""
    try:
        return Settings()
    except ValidationError as exc:
        error = exc.errors()[0]
        name = str(error["loc"][0]) if error["loc"] else "?"
        value = "***" if name == "DISCORD_TOKEN" else str(error.get("input", ""))
        raise BadSetting(name=name, value=value, problem=error["msg"]) from None
