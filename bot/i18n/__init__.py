"""Message catalogs: every user-facing sentence, in Japanese and English.

Catalogs are TOML files, one per domain (`ja/dice.toml`, `en/dice.toml`, ...). A key is
`<file stem>.<key in file>`; values are `str.format` templates with named fields.
"""

from __future__ import annotations

import tomllib
from functools import cache
from pathlib import Path
from typing import Any

LOCALES = ("ja", "en")
DEFAULT_LOCALE = "ja"
_HERE = Path(__file__).resolve().parent


def _flatten(prefix: str, table: dict[str, Any], out: dict[str, str]) -> None:
    for key, value in table.items():
        full = f"{prefix}.{key}"
        if isinstance(value, dict):
            _flatten(full, value, out)
        else:
            out[full] = str(value)


@cache
def catalog(locale: str) -> dict[str, str]:
    """All messages of one locale, keyed by dotted key."""
    messages: dict[str, str] = {}
    for path in sorted((_HERE / locale).glob("*.toml")):
        with path.open("rb") as fh:
            _flatten(path.stem, tomllib.load(fh), messages)
    return messages


def normalize_locale(locale: str | None) -> str:
    """Map Discord locales ("ja", "en-US", "en-GB") and None to a catalog we have."""
    if not locale:
        return DEFAULT_LOCALE
    base = locale.split("-")[0].lower()
    return base if base in LOCALES else "en"


def t(key: str, locale: str | None = DEFAULT_LOCALE, /, **args: Any) -> str:
    """The message `key` in `locale`, filled with `args`. A missing key is a bug, so it raises."""
    template = catalog(normalize_locale(locale))[key]
    return template.format(**args) if args else template


def bilingual(key: str, /, **args: Any) -> str:
    """Japanese first, English beside it."""
    ja, en = t(key, "ja", **args), t(key, "en", **args)
    return ja if ja == en else f"{ja} / {en}"
