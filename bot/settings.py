"""The one settings class. Built in main(), never at import time, so tests can build their own."""

from __future__ import annotations

import os
from pathlib import Path
from typing import Any, Literal

from pydantic import Field, SecretStr, ValidationError, field_validator, model_validator
from pydantic_settings import BaseSettings, PydanticBaseSettingsSource, SettingsConfigDict

from bot.errors import RefereeError
from bot.settings_source import ENV_FILE, LOG_LEVELS, gather, read_env_file

LogLevel = Literal["DEBUG", "INFO", "WARNING", "ERROR", "CRITICAL"]
__all__ = ["LOG_LEVELS", "BadSetting", "Settings", "load_settings"]


def _default_data_dir() -> Path:
    return Path.cwd() / "data"


def _default_cache_dir() -> Path:
    """The user's cache folder (XDG), never the folder a command happens to run from."""
    xdg = os.environ.get("XDG_CACHE_HOME", "")
    base = Path(xdg) if xdg and Path(xdg).is_absolute() else Path.home() / ".cache"
    return base / "horizonnotes-referee"


class Settings(BaseSettings):
    """Read from the environment and from `.env`; every field is explained in `.env.example`.
    A variable set to nothing (or only spaces) counts as not set: `REFEREE_DATABASE=` means the default."""

    model_config = SettingsConfigDict(
        env_file=ENV_FILE, env_file_encoding="utf-8", extra="ignore", env_ignore_empty=True
    )

    discord_token: SecretStr | None = Field(default=None, validation_alias="DISCORD_TOKEN")
    data_dir: Path = Field(default_factory=_default_data_dir, validation_alias="REFEREE_DATA_DIR")
    database_path: Path | None = Field(default=None, validation_alias="REFEREE_DATABASE")
    # A PostgreSQL database instead of the SQLite file (several bot processes over one database).
    database_url: SecretStr | None = Field(default=None, validation_alias="REFEREE_DATABASE_URL")
    dev_guild_id: int | None = Field(default=None, validation_alias="REFEREE_DEV_GUILD_ID")
    default_locale: str = Field(default="ja", validation_alias="REFEREE_LOCALE", pattern="^(ja|en)$")
    cards_dir: Path | None = Field(default=None, validation_alias="REFEREE_CARDS_DIR")
    rules_dir: Path | None = Field(default=None, validation_alias="REFEREE_RULES_DIR")
    # Files rebuilt from other files (the rulings index): safe to delete at any time.
    cache_dir: Path = Field(default_factory=_default_cache_dir, validation_alias="REFEREE_CACHE_DIR")
    log_level: LogLevel = Field(default="INFO", validation_alias="REFEREE_LOG_LEVEL")
    # full: every action is on the disk before anyone is told it happened (a power cut loses nothing);
    # normal: skips that fsync, still safe when the bot is killed, but a power cut can lose the last seconds.
    db_sync: Literal["full", "normal"] = Field(default="full", validation_alias="REFEREE_DB_SYNC")

    # -- sharding (docs/scaling.md): this process runs these shards of REFEREE_SHARD_COUNT; neither set means
    # one connection for everything, as a bot under 2,500 servers needs.
    shards: list[int] | None = Field(default=None, validation_alias="REFEREE_SHARDS")
    shard_count: int | None = Field(default=None, validation_alias="REFEREE_SHARD_COUNT", ge=1, le=10_000)

    @field_validator("shards", mode="before")
    @classmethod
    def _shard_list(cls, value: Any) -> Any:
        if isinstance(value, str):  # "0,1" or "0 1"
            words = value.replace(",", " ").split()
            if not all(w.isdigit() for w in words) or not words:
                raise ValueError("a list of shard numbers, like 0,1")
            return sorted({int(w) for w in words})
        return value

    @model_validator(mode="after")
    def _shards_within_count(self) -> Settings:
        if self.shards is not None:
            if self.shard_count is None:
                raise ValueError("REFEREE_SHARDS needs REFEREE_SHARD_COUNT (how many shards there are in all)")
            outside = [s for s in self.shards if s >= self.shard_count]
            if outside:
                raise ValueError(f"shards {outside} are not below REFEREE_SHARD_COUNT={self.shard_count}")
        return self

    @field_validator("log_level", mode="before")
    @classmethod
    def _level_in_any_case(cls, value: Any) -> Any:
        if isinstance(value, str) and value.strip().upper() in LOG_LEVELS:
            return value.strip().upper()
        return value  # refused as it was given, so the message quotes what the admin wrote

    @property
    def database_file(self) -> Path:
        """The SQLite file: the explicit path, or `referee.sqlite3` in the data folder."""
        return self.database_path if self.database_path is not None else self.data_dir / "referee.sqlite3"

    @field_validator("database_url")
    @classmethod
    def _postgres_only(cls, value: SecretStr | None) -> SecretStr | None:
        if value is not None and not value.get_secret_value().startswith(("postgresql://", "postgres://")):
            raise ValueError("REFEREE_DATABASE_URL must start with postgresql:// (the SQLite file is REFEREE_DATABASE)")
        return value

    @property
    def database_url_text(self) -> str | None:
        """The PostgreSQL URL (it may hold a password: never print it), or None for the SQLite file."""
        return None if self.database_url is None else self.database_url.get_secret_value()

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
    """Settings from the environment and `.env`; a bad value names its variable (never a token's value).
    The .env is read like any file a user names (a regular UTF-8 file of sane size), so a FIFO, a
    huge file or stray bytes give a message instead of a hang or a traceback."""
    text = read_env_file()
    try:
        return _build(text)
    except ValidationError as exc:
        error = exc.errors()[0]
        if not error["loc"]:  # the one check of two fields (its input is every value: never shown)
            raise BadSetting(name="REFEREE_SHARDS", value="", problem=error["msg"]) from None
        name = str(error["loc"][0])
        value = "***" if name in ("DISCORD_TOKEN", "REFEREE_DATABASE_URL") else _shown(error.get("input", ""))
        raise BadSetting(name=name, value=value, problem=error["msg"]) from None


def settings_with(settings: Settings, values: dict[str, Any]) -> Settings:
    """`settings` with some variables given anew (a command line's options), checked as when loaded."""
    current = {str(f.validation_alias): getattr(settings, name) for name, f in Settings.model_fields.items()}
    try:
        return _Given(**{**current, **{k: str(v) for k, v in values.items()}})
    except ValidationError as exc:
        error = exc.errors()[0]
        shown = _shown(error.get("input", "")) if error["loc"] else " ".join(f"{k}={v}" for k, v in values.items())
        name = str(error["loc"][0]) if error["loc"] else "REFEREE_SHARDS"
        raise BadSetting(name=name, value=shown, problem=error["msg"]) from None


class _Given(Settings):
    """Settings from exactly the values `_build` gathered: no second look at the environment or .env."""

    @classmethod
    def settings_customise_sources(
        cls,
        settings_cls: type[BaseSettings],
        init_settings: PydanticBaseSettingsSource,
        env_settings: PydanticBaseSettingsSource,
        dotenv_settings: PydanticBaseSettingsSource,
        file_secret_settings: PydanticBaseSettingsSource,
    ) -> tuple[PydanticBaseSettingsSource, ...]:
        return (init_settings,)


def _build(env_text: str | None) -> Settings:
    """Settings from the environment and the .env text already read (never read a second time)."""
    names = {str(f.validation_alias) for f in Settings.model_fields.values()}
    merged: dict[str, Any] = gather(names, env_text)  # the environment wins over .env; blank is not set
    return _Given(**merged)


def _shown(value: Any) -> str:
    """A bad value as quoted in the message: short, one line."""
    text = " ".join(str(value).split())
    return text if len(text) <= 80 else text[:77] + "..."
