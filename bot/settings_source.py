"""Where settings come from: the environment over a `.env` file, a blank value meaning "not set".

The one settings class (bot/settings.py) validates what this gathers. A command that needs only its
language and log level (`referee roll`, which a user waits on every time) reads them here through
the very same gathering, without building the pydantic model: any value that is not plainly right
sends it back to the full settings, which name the problem.
"""

from __future__ import annotations

import io
import os
from collections.abc import Iterable
from dataclasses import dataclass
from pathlib import Path

from bot.files import read_text

ENV_FILE = ".env"
# A .env is a handful of lines; anything near this size is not one.
ENV_FILE_LIMIT = 1024 * 1024
LOCALES = ("ja", "en")
LOG_LEVELS: tuple[str, ...] = ("DEBUG", "INFO", "WARNING", "ERROR", "CRITICAL")


def read_env_file() -> str | None:
    """The text of `.env` in the working folder, or None when there is none. It is read like any file a
    user names (a regular UTF-8 file of sane size): a FIFO, a huge file or stray bytes give a message."""
    path = Path(ENV_FILE)
    try:
        present = path.exists() or path.is_symlink()
    except OSError:
        present = True  # let the reader name the problem
    return read_text(path, limit=ENV_FILE_LIMIT) if present else None


def gather(names: Iterable[str], env_text: str | None) -> dict[str, str]:
    """The raw value of each variable: the environment wins over .env; blank means not set."""
    from dotenv import dotenv_values

    values = dotenv_values(stream=io.StringIO(env_text)) if env_text is not None else {}
    merged: dict[str, str] = {}
    for name in names:
        value = os.environ.get(name)
        if value is None or not value.strip():
            value = values.get(name)
        if value is not None and value.strip():
            merged[name] = value
    return merged


@dataclass(frozen=True)
class LightSettings:
    """The two settings a dice roll reads, read without the settings model."""

    default_locale: str
    log_level: str


def light_settings() -> LightSettings | None:
    """The locale and log level, or None when either is not plainly right (the full settings then
    refuse it with their own message). Blank or absent means the defaults, as in bot/settings.py."""
    raw = gather(("REFEREE_LOCALE", "REFEREE_LOG_LEVEL"), read_env_file())
    locale = raw.get("REFEREE_LOCALE", "ja")
    level = raw.get("REFEREE_LOG_LEVEL", "INFO").strip().upper()
    if locale not in LOCALES or level not in LOG_LEVELS:
        return None
    return LightSettings(locale, level)
