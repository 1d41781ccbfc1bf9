"""Log lines carry the context they were given (channel, game, action) at the configured level."""

from __future__ import annotations

import logging

import pytest

from bot.logs import configure_logging


def test_the_level_is_applied_and_context_fields_are_printed(capsys: pytest.CaptureFixture[str]) -> None:
    configure_logging("warning")
    log = logging.getLogger("bot.service")
    log.info("not shown")
    log.warning("commit refused", extra={"channel": 42, "game": 7, "action": "cast"})
    err = capsys.readouterr().err
    assert "not shown" not in err
    assert "commit refused [channel=42 game=7 action=cast]" in err
    configure_logging("INFO")
