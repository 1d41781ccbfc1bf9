"""Log lines carry the context they were given (channel, game, action) at the configured level."""

from __future__ import annotations

import logging
from pathlib import Path

import pytest

from bot.catalog import load_catalog
from bot.console.session import ConsoleSession
from bot.logs import configure_logging
from bot.service.opening import open_service


def test_the_level_is_applied_and_context_fields_are_printed(capsys: pytest.CaptureFixture[str]) -> None:
    configure_logging("warning")
    log = logging.getLogger("bot.service")
    log.info("not shown")
    log.warning("commit refused", extra={"channel": 42, "game": 7, "action": "cast"})
    err = capsys.readouterr().err
    assert "not shown" not in err
    assert "commit refused [channel=42 game=7 action=cast]" in err
    root = logging.getLogger("bot")  # leave logging as the other tests expect it
    root.handlers.clear()
    root.propagate = True


async def test_the_service_logs_each_game_with_its_channel_and_never_its_seed(
    tmp_path: Path, caplog: pytest.LogCaptureFixture
) -> None:
    seed = b"a-secret-seed".ljust(32, b".")
    caplog.set_level(logging.DEBUG, logger="bot")
    with open_service(tmp_path / "t.sqlite3", catalog=load_catalog(), seed_factory=lambda: seed) as service:
        session = ConsoleSession(service, channel_id=42, locale="en")
        await session.run("alice: /game start players:alice,bob decks:solar-vanguard,tidal-veil first:alice")
        await session.run("bob: /pass")  # refused: not bob's turn
        await session.run("alice: /concede")
    lines = [r for r in caplog.records if r.name.startswith("bot.service")]
    assert {r.getMessage() for r in lines} >= {"game started", "game finished", "action applied"}
    assert all(getattr(r, "channel", None) == 42 for r in lines)
    assert any(getattr(r, "action", None) == "concede" for r in lines)
    everything = caplog.text + " ".join(str(r.__dict__) for r in caplog.records)
    assert seed.hex() not in everything and "a-secret-seed" not in everything
