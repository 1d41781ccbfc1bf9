"""Shared fixtures. Tests use real files and a real SQLite database under tmp_path."""

from __future__ import annotations

import pytest


@pytest.fixture(autouse=True)
def _isolated_settings(monkeypatch: pytest.MonkeyPatch, tmp_path_factory: pytest.TempPathFactory) -> None:
    """No test reads the developer's .env or token, and every database lands in a temporary folder."""
    for name in (
        "DISCORD_TOKEN",
        "REFEREE_DATABASE",
        "REFEREE_DATABASE_URL",  # a developer's PostgreSQL is never the tests' (they use REFEREE_TEST_DATABASE_URL)
        "REFEREE_DEV_GUILD_ID",
        "REFEREE_SHARDS",
        "REFEREE_SHARD_COUNT",
        "REFEREE_CARDS_DIR",
        "REFEREE_RULES_DIR",
    ):
        monkeypatch.delenv(name, raising=False)
    monkeypatch.setenv("REFEREE_DATA_DIR", str(tmp_path_factory.mktemp("data")))
    monkeypatch.setenv("REFEREE_CACHE_DIR", str(tmp_path_factory.mktemp("cache")))
