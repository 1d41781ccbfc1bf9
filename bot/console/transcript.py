"""Run console lines and write the transcript: each line echoed, then what the table showed.

Private messages (a hand) are marked with the one player who may see them; refusals are printed
with their reason in Japanese and English. The JSON form is the final state and the effective events.
"""

from __future__ import annotations

import json
from collections.abc import Callable, Iterable
from typing import Any, TextIO

from bot.console.session import ConsoleSession, Reply
from bot.i18n import bilingual, t
from bot.render import Message, to_text

REFUSED = "✗"


def format_reply(reply: Reply, locale: str) -> str:
    if reply.refusal is not None:
        return f"{REFUSED} {bilingual('console.refused')}: {reply.refusal.bilingual()}"
    blocks = [_message_text(m, locale) for m in reply.messages]
    return "\n".join(b for b in blocks if b)


def _message_text(message: Message, locale: str) -> str:
    text = to_text(message)
    if message.private_to is not None:
        mark = t("render.hand.private", locale, player=message.private_to)
        return f"{mark}\n" + "\n".join(f"┃ {row}" for row in text.splitlines())
    return text


async def play_lines(
    session: ConsoleSession,
    lines: Iterable[str],
    out: Callable[[str], None],
    *,
    echo: bool = True,
    strict: bool = False,
) -> int:
    """Play every line; 1 when `strict` and a line was refused (the rest is not played), else 0."""
    for raw in lines:
        text = raw.rstrip("\n")
        if not text.strip():
            continue
        if text.lstrip().startswith("#"):
            if echo:
                out(text)
            continue
        if echo:
            out(f"> {text}")
        reply = await session.run(text)
        shown = format_reply(reply, session.locale)
        if shown:
            out(shown)
        if reply.refusal is not None and strict:
            return 1
    return 0


async def final_json(session: ConsoleSession) -> dict[str, Any]:
    """The channel's game (running, else the last finished one): state and the events in effect."""
    log = await session.service.log(session.channel_id)
    game = log.game
    events = [json.loads(e.data) for action in log.in_effect for e in action.entries if not e.is_table_entry]
    return {
        "channel": game.channel_id,
        "game": game.game_id,
        "version": game.version,
        "finished": not game.active,
        "commitment": game.commitment,
        "revealed_seed": game.revealed_seed,
        "state": game.state.model_dump(mode="json"),
        "events": events,
    }


def write_json(data: dict[str, Any], stream: TextIO) -> None:
    json.dump(data, stream, ensure_ascii=False, indent=1)
    stream.write("\n")
