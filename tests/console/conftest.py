"""A console session on a real SQLite file through the real TableService, with seeded dice."""

from __future__ import annotations

from collections.abc import AsyncIterator
from functools import cache
from pathlib import Path

import pytest

from bot.catalog import Catalog, load_catalog
from bot.cli.console import console_table_id
from bot.console.session import ConsoleSession, Reply
from bot.render import to_text
from bot.service import TableService
from bot.store import Store

START = "alice: /game start players:alice,bob decks:solar-vanguard,tidal-veil first:alice"


@cache
def catalog() -> Catalog:
    return load_catalog()


@pytest.fixture
async def session(tmp_path: Path) -> AsyncIterator[ConsoleSession]:
    store = Store.open(tmp_path / "console.sqlite3")
    service = TableService(
        store,
        catalog(),
        seed_factory=lambda: b"console-tests".ljust(32, b"."),
        table_id_factory=console_table_id,
    )
    try:
        yield ConsoleSession(service, channel_id=7, locale="en")
    finally:
        service.close()
        store.close()


def text(reply: Reply) -> str:
    """What the table showed, or the refusal; fails loudly when the other one was expected."""
    assert reply.refusal is None, reply.refusal.bilingual()
    return "\n".join(to_text(m) for m in reply.messages)


def refusal(reply: Reply) -> str:
    assert reply.refusal is not None, "the line was accepted"
    return reply.refusal.bilingual()
