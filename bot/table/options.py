"""Option values as a player gives them (typed at the console or sent by a slash command), checked."""

from __future__ import annotations

from collections.abc import Mapping

from bot.table.errors import TableError

# The words an on/off option takes (`effect:off`, `charge_rejoin:no`, `value:on` for tapped).
ON_WORDS = frozenset({"on", "yes", "true", "1"})
OFF_WORDS = frozenset({"off", "no", "false", "0"})


def split_names(text: str) -> list[str]:
    """A list option's names, separated by commas (`,` or `、`), blanks dropped."""
    return [part.strip() for part in text.replace("、", ",").split(",") if part.strip()]


def need(options: Mapping[str, str], command: str, option: str) -> str:
    """The value of a required option; a missing or blank one is refused, naming the command."""
    value = options.get(option)
    if value is None or not value.strip():
        raise TableError("table.missing_option", command=command, option=option)
    return value


def as_int(text: str, option: str) -> int:
    try:
        return int(text.strip())
    except ValueError:
        raise TableError("table.bad_value", option=option, value=text) from None


def as_flag(text: str, option: str) -> bool:
    lowered = text.strip().lower()
    if lowered in ON_WORDS:
        return True
    if lowered in OFF_WORDS:
        return False
    raise TableError("table.bad_flag", option=option, value=text)
