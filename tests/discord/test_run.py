"""`referee run` and `referee sync` against a small REST stand-in on 127.0.0.1, and the cog list.

The stand-in answers only what logging in and syncing ask (users/@me, the application, the bulk
command upsert) and records every request; it is enough to see where the bot sends its requests,
what it registers and how it reacts to a refused token, without the network.
"""

from __future__ import annotations

import argparse
import json
import os
import socket
import subprocess
import sys
import threading
from collections.abc import Iterator
from dataclasses import dataclass, field
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from pathlib import Path
from typing import Any

import pytest
from discord.ext import commands

from bot.app import COGS, RefereeBot
from bot.catalog import Catalog
from bot.paths import data_folder
from bot.rulings.search import Rulebook
from bot.service import TableService
from bot.settings import Settings
from bot.store import Store
from tests.discord.conftest import APP_ID, BOT_TOKEN, user_payload

ROOT = Path(__file__).resolve().parents[2]


@dataclass
class RestStandIn:
    url: str
    accept_token: str | None
    requests: list[tuple[str, str, str, Any]] = field(default_factory=list)


@pytest.fixture
def rest(request: pytest.FixtureRequest) -> Iterator[RestStandIn]:
    accept: str | None = getattr(request, "param", BOT_TOKEN)
    stand_in = RestStandIn(url="", accept_token=accept)

    class Handler(BaseHTTPRequestHandler):
        def _answer(self, status: int, body: Any) -> None:
            data = json.dumps(body).encode()
            self.send_response(status)
            self.send_header("Content-Type", "application/json")
            self.send_header("Content-Length", str(len(data)))
            self.end_headers()
            self.wfile.write(data)

        def _handle(self) -> None:
            length = int(self.headers.get("Content-Length") or 0)
            body = json.loads(self.rfile.read(length)) if length else None
            stand_in.requests.append((self.command, self.path, self.headers.get("Authorization", ""), body))
            if self.headers.get("Authorization") != f"Bot {stand_in.accept_token}":
                self._answer(401, {"message": "401: Unauthorized", "code": 0})
            elif self.path == "/api/v10/users/@me":
                self._answer(200, {**user_payload(APP_ID), "bot": True})
            elif self.path == "/api/v10/oauth2/applications/@me":
                owner = user_payload(1)
                self._answer(
                    200,
                    {
                        "id": str(APP_ID),
                        "name": "referee",
                        "description": "",
                        "icon": None,
                        "bot_public": False,
                        "bot_require_code_grant": False,
                        "owner": owner,
                        "verify_key": "0" * 64,
                        "flags": 0,
                    },
                )
            elif self.command == "PUT" and self.path.endswith("/commands"):
                echoed = [
                    {
                        **c,
                        "id": str(APP_ID + i + 1),
                        "application_id": str(APP_ID),
                        "version": "1",
                        "default_member_permissions": None,
                    }
                    for i, c in enumerate(body or [])
                ]
                self._answer(200, echoed)
            else:
                self._answer(404, {"message": "Unknown", "code": 0})

        do_GET = do_PUT = do_POST = _handle

        def log_message(self, format: str, *args: Any) -> None:
            pass

    server = ThreadingHTTPServer(("127.0.0.1", 0), Handler)
    stand_in.url = f"http://127.0.0.1:{server.server_address[1]}"
    thread = threading.Thread(target=server.serve_forever, daemon=True)
    thread.start()
    try:
        yield stand_in
    finally:
        server.shutdown()
        server.server_close()


def referee(*args: str, tmp_path: Path, **env: str) -> subprocess.CompletedProcess[str]:
    base = {"PATH": "/usr/bin:/bin", "HOME": str(tmp_path), "REFEREE_DATA_DIR": str(tmp_path / "data")}
    base["PYTHONPATH"] = str(ROOT)
    return subprocess.run(
        [sys.executable, "-m", "bot", *args],
        capture_output=True,
        text=True,
        env={**base, **env},
        cwd=tmp_path,
        timeout=120,
        check=False,
    )


def test_run_with_a_refused_token_explains_and_fails_without_printing_it(rest: RestStandIn, tmp_path: Path) -> None:
    wrong = "MTIz.wrong-token-never-printed"
    proc = referee("run", tmp_path=tmp_path, DISCORD_TOKEN=wrong, REFEREE_DISCORD_API_URL=rest.url)
    assert proc.returncode == 3
    assert "DISCORD_TOKEN" in proc.stderr and "Developer Portal" in proc.stderr
    assert wrong not in proc.stdout + proc.stderr
    # the REST base came from REFEREE_DISCORD_API_URL
    assert rest.requests[0][:3] == ("GET", "/api/v10/users/@me", f"Bot {wrong}")


def test_run_when_discord_cannot_be_reached_says_so(tmp_path: Path) -> None:
    with socket.socket() as probe:  # a port nobody listens on
        probe.bind(("127.0.0.1", 0))
        port = probe.getsockname()[1]
    url = f"http://127.0.0.1:{port}"
    proc = referee("run", tmp_path=tmp_path, DISCORD_TOKEN=BOT_TOKEN, REFEREE_DISCORD_API_URL=url)
    assert proc.returncode == 5
    assert url in proc.stderr and "接続できません" in proc.stderr
    assert BOT_TOKEN not in proc.stdout + proc.stderr


def test_a_bad_api_url_is_a_named_setting_error(tmp_path: Path) -> None:
    proc = referee("run", tmp_path=tmp_path, DISCORD_TOKEN=BOT_TOKEN, REFEREE_DISCORD_API_URL="discord.com/api")
    assert proc.returncode == 2 and "REFEREE_DISCORD_API_URL" in proc.stderr


def test_sync_registers_every_command_with_its_japanese_names(
    rest: RestStandIn, tmp_path: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    from bot.cli.sync import sync

    monkeypatch.chdir(tmp_path)
    settings = Settings(
        _env_file=None,
        DISCORD_TOKEN=BOT_TOKEN,
        REFEREE_DATA_DIR=tmp_path,
        REFEREE_DISCORD_API_URL=rest.url,
        REFEREE_DEV_GUILD_ID=42,
    )
    assert sync(argparse.Namespace(guild=None), settings) == 0
    [put] = [r for r in rest.requests if r[0] == "PUT"]
    assert put[1] == f"/api/v10/applications/{APP_ID}/commands"  # global: not the dev guild's
    names = {c["name"]: c["name_localizations"]["ja"] for c in put[3]}
    assert {
        "roll": "ダイス",
        "ruling": "裁定",
        "card": "カード",
        "help": "ヘルプ",
        "game": "ゲーム",
        "deck": "デッキ",
        "judge": "ジャッジ",
        "settings": "設定",
    }.items() <= names.items()
    assert str(len(names)) in capsys.readouterr().out


@dataclass
class _Args:
    guild: int | None


async def test_a_cog_that_fails_to_load_stops_the_start(
    tmp_path: Path, catalog: Catalog, index_dir: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    (tmp_path / "broken_cog.py").write_text("async def setup(bot):\n    raise RuntimeError('no table today')\n")
    monkeypatch.syspath_prepend(str(tmp_path))
    settings = Settings(_env_file=None, REFEREE_DATA_DIR=tmp_path)
    for cogs, error in (
        ((*COGS, "broken_cog"), commands.ExtensionFailed),
        (("cogs.dice", "cogs.nowhere"), commands.ExtensionNotFound),
    ):
        with Store.open(tmp_path / "db.sqlite3") as store:
            bot = RefereeBot(
                settings,
                TableService(store, catalog),
                catalog,
                Rulebook.open(index_dir, data_folder("rules")),
                cogs=cogs,
            )
            async with bot:
                with pytest.raises(error):
                    await bot.setup_hook()


def test_the_bot_asks_for_no_privileged_intent_and_no_chat() -> None:
    from bot.app import intents

    chosen = intents()
    assert not chosen.message_content and not chosen.members and not chosen.presences
    # Commands arrive as interactions: the servers' chat, typing and reactions never reach the bot.
    assert chosen.guilds
    assert not chosen.guild_messages and not chosen.dm_messages and not chosen.guild_typing
    assert not chosen.guild_reactions and not chosen.voice_states
    assert os.environ.get("DISCORD_TOKEN") is None


async def test_logging_in_with_a_development_guild_syncs_there_and_only_there(
    rest: RestStandIn, tmp_path: Path
) -> None:
    from bot.cli.run import built_bot

    settings = Settings(
        _env_file=None, REFEREE_DATA_DIR=tmp_path, REFEREE_DISCORD_API_URL=rest.url, REFEREE_DEV_GUILD_ID=4242
    )
    async with built_bot(settings) as bot:
        await bot.login(BOT_TOKEN)  # runs setup_hook, as `referee run` does before connecting
    puts = [r[1] for r in rest.requests if r[0] == "PUT"]
    assert puts == [f"/api/v10/applications/{APP_ID}/guilds/4242/commands"]


async def test_without_a_development_guild_nothing_is_synced_on_start(rest: RestStandIn, tmp_path: Path) -> None:
    from bot.cli.run import built_bot

    settings = Settings(_env_file=None, REFEREE_DATA_DIR=tmp_path, REFEREE_DISCORD_API_URL=rest.url)
    async with built_bot(settings) as bot:
        await bot.login(BOT_TOKEN)
    assert [r for r in rest.requests if r[0] == "PUT"] == []
