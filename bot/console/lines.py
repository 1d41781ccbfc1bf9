"""Parse one console line: `[name:] /command [sub] [key:value ...] [free text]`.

The words are those of the future slash commands, so a transcript reads like the Discord channel will.
Values may hold spaces when quoted with "…" or 「…」; a bare value runs to the next space.
"""

from __future__ import annotations

import re
import unicodedata

from pydantic import BaseModel, ConfigDict

from bot.errors import RefereeError
from bot.names import check_name

# Slash commands whose first bare word is a subcommand rather than free text.
GROUPS = frozenset({"game"})

_ACTOR = re.compile(r"^\s*([^\s:/][^:/]*?)\s*:\s*(?=/)")
_TOKEN = re.compile(r'(?:([a-z_]+):)?(?:"([^"]*)"|「([^」]*)」)|(\S+)')
_OPTION = re.compile(r"^([a-z_]+):(.*)$")


class ConsoleLineError(RefereeError):
    key = "console.bad_line"


class ConsoleLine(BaseModel):
    """One parsed line. `actor` is None when the line names nobody (the console then asks or refuses)."""

    model_config = ConfigDict(frozen=True)

    actor: str | None
    command: str
    options: dict[str, str]
    text: str


def _tokens(body: str) -> list[tuple[str, bool]]:
    """Split into (token, was_quoted) pairs; `key:"a b"` becomes the option token `key:a b`."""
    out: list[tuple[str, bool]] = []
    for match in _TOKEN.finditer(body):
        key, dq, jq, bare = match.groups()
        quoted = dq if dq is not None else jq
        if quoted is None:
            out.append((bare, False))
        elif key is not None:
            out.append((f"{key}:{quoted}", False))
        else:
            out.append((quoted, True))
    return out


def parse_line(line: str) -> ConsoleLine | None:
    """Parse a line; None for a blank line or a `#` comment. Raises ConsoleLineError on nonsense."""
    line = unicodedata.normalize("NFKC", line).strip()
    if not line or line.startswith("#"):
        return None
    actor = None
    if m := _ACTOR.match(line):
        actor = check_name(m.group(1), "player")  # one rule for every name (bot/names.py)
        line = line[m.end() :]
    if not line.startswith("/"):
        raise ConsoleLineError(line=line)
    tokens = _tokens(line[1:])
    if not tokens or tokens[0][1]:
        raise ConsoleLineError(line=line)
    command = tokens[0][0].lower()
    rest = tokens[1:]
    if command in GROUPS and rest and not rest[0][1] and _OPTION.match(rest[0][0]) is None:
        command = f"{command} {rest[0][0].lower()}"
        rest = rest[1:]
    options: dict[str, str] = {}
    free: list[str] = []
    pending: str | None = None
    for token, quoted in rest:
        if pending is not None:
            options[pending] = token
            pending = None
            continue
        m = None if quoted else _OPTION.match(token)
        if m is None:
            free.append(token)
        elif m.group(2):
            options[m.group(1)] = m.group(2)
        else:
            pending = m.group(1)  # `card: "火花の矢"` or `card:「火花の矢」`: the value is the next token
    if pending is not None:
        raise ConsoleLineError(line=line)
    return ConsoleLine(actor=actor, command=command, options=options, text=" ".join(free))
