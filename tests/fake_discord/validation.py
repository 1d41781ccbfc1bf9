"""Discord's limits on what a bot sends: message bodies and command definitions. A body over a limit gets
400 Invalid Form Body, as on Discord, so a bot that would break in production breaks in the tests too."""

from __future__ import annotations

import re
from typing import Any

from .rest import invalid_form
from .world import iter_components

COMPONENTS_V2 = 1 << 15
NAME = re.compile(r"^[-_'\w]{1,32}$")


def check_message(body: dict[str, Any]) -> None:
    content = body.get("content")
    if content is not None and len(str(content)) > 2000:
        raise invalid_form("content: Must be 2000 or fewer in length.")
    embeds = body.get("embeds") or ([body["embed"]] if body.get("embed") else [])
    if len(embeds) > 10:
        raise invalid_form("embeds: Must be 10 or fewer in length.")
    total = 0
    for embed in embeds:
        total += _check_embed(embed)
    if total > 6000:
        raise invalid_form("embeds: Embed size exceeds maximum size of 6000")
    rows = body.get("components") or []
    flags = int(body.get("flags") or 0)
    if not flags & COMPONENTS_V2 and len(rows) > 5:
        raise invalid_form("components: Must be 5 or fewer in length.")
    for comp in iter_components(rows):
        if comp.get("type") == 1 and len(comp.get("components") or []) > 5:
            raise invalid_form("components: an action row holds at most 5 components")
        if len(str(comp.get("custom_id", ""))) > 100:
            raise invalid_form("custom_id: Must be 100 or fewer in length.")
        if comp.get("type") == 2 and len(str(comp.get("label") or "")) > 80:
            raise invalid_form("label: Must be 80 or fewer in length.")
        if comp.get("type") == 3 and not 1 <= len(comp.get("options") or []) <= 25:
            raise invalid_form("options: a select menu needs 1 to 25 options")


def _check_embed(embed: dict[str, Any]) -> int:
    limits = {"title": 256, "description": 4096}
    size = 0
    for key, limit in limits.items():
        text = str(embed.get(key) or "")
        if len(text) > limit:
            raise invalid_form(f"embeds.{key}: Must be {limit} or fewer in length.")
        size += len(text)
    fields = embed.get("fields") or []
    if len(fields) > 25:
        raise invalid_form("embeds.fields: Must be 25 or fewer in length.")
    for f in fields:
        name, value = str(f.get("name") or ""), str(f.get("value") or "")
        if not name or len(name) > 256 or not value or len(value) > 1024:
            raise invalid_form("embeds.fields: a field needs a name of 1-256 and a value of 1-1024 characters")
        size += len(name) + len(value)
    footer = str((embed.get("footer") or {}).get("text") or "")
    author = str((embed.get("author") or {}).get("name") or "")
    if len(footer) > 2048 or len(author) > 256:
        raise invalid_form("embeds: footer text at most 2048, author name at most 256 characters")
    return size + len(footer) + len(author)


def check_commands(commands: Any) -> None:
    if not isinstance(commands, list) or len(commands) > 100:
        raise invalid_form("a list of at most 100 commands is required")
    seen: set[tuple[str, int]] = set()
    for cmd in commands:
        kind = int(cmd.get("type", 1))
        name = str(cmd.get("name", ""))
        if (name, kind) in seen:
            raise invalid_form(f"duplicate command name {name!r}")
        seen.add((name, kind))
        if kind == 1:
            _check_chat_input(cmd, depth=0)
        elif not 1 <= len(name) <= 32:
            raise invalid_form(f"context menu name {name!r} must be 1-32 characters")


def _check_chat_input(item: dict[str, Any], depth: int) -> None:
    name = str(item.get("name", ""))
    names = [name, *(item.get("name_localizations") or {}).values()]
    for n in names:
        if not NAME.match(n) or n != n.lower():
            raise invalid_form(f"name {n!r}: 1-32 lower-case letters, digits, - or _")
    descriptions = [str(item.get("description", "")), *(item.get("description_localizations") or {}).values()]
    for d in descriptions:
        if not 1 <= len(d) <= 100:
            raise invalid_form(f"description of {name!r} must be 1-100 characters")
    options = item.get("options") or []
    if len(options) > 25:
        raise invalid_form(f"{name!r} has more than 25 options")
    if depth > 2:
        raise invalid_form("subcommands nest at most two levels")
    required_seen_optional = False
    for opt in options:
        if int(opt.get("type", 0)) in (1, 2):
            _check_chat_input(opt, depth + 1)
            continue
        _check_chat_input({**opt, "options": []}, depth + 1)
        if len(opt.get("choices") or []) > 25:
            raise invalid_form(f"option {opt.get('name')!r} has more than 25 choices")
        if opt.get("required"):
            if required_seen_optional:
                raise invalid_form("required options must come before optional ones")
        else:
            required_seen_optional = True
