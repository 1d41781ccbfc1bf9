"""Errors of the rulebook; each carries a key of bot/i18n/*/rulings.toml."""

from __future__ import annotations

from pydantic import ValidationError

from bot.errors import RefereeError


class RulingsError(RefereeError):
    key = "rulings.corpus_invalid"


def first_line(exc: Exception) -> str:
    """What the admin sees of a TOML or validation error in a corpus file: where and what, on one line."""
    if isinstance(exc, ValidationError) and exc.errors():
        error = exc.errors()[0]  # pydantic's own first line only counts the errors
        return f"{'.'.join(map(str, error['loc'])) or '-'}: {error['msg']}"
    lines = str(exc).splitlines()
    return lines[0] if lines else type(exc).__name__
