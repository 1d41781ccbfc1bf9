"""Which store runs: the SQLite file by default (without loading psycopg at all), the PostgreSQL
database when REFEREE_DATABASE_URL names one; the commands find the same games either way."""

from __future__ import annotations

import random
import subprocess
import sys
from pathlib import Path

import pytest

from bot.__main__ import main
from bot.service import TableService
from tests.store.tables import AKI, catalog, next_move, start

CH = 7300


def test_the_sqlite_default_loads_nothing_of_psycopg(tmp_path: Path) -> None:
    script = (
        "import sys, asyncio\n"
        "from bot.service.opening import open_service\n"
        "from tests.store.tables import AKI, catalog, start\n"
        f"with open_service({str(tmp_path / 'r.sqlite3')!r}, catalog=catalog) as service:\n"
        "    asyncio.run(service.start_game(1, AKI, start()))\n"
        "assert not [m for m in sys.modules if m.startswith('psycopg')], 'psycopg was imported'\n"
        "print('ok')\n"
    )
    done = subprocess.run([sys.executable, "-c", script], capture_output=True, text=True, timeout=120, check=False)
    assert done.returncode == 0 and done.stdout.strip() == "ok", done.stderr


async def test_the_commands_read_the_postgresql_database_when_the_setting_names_it(
    pg_database: tuple[str, str], tmp_path: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    from bot.store.pg import PgStore

    url, schema = pg_database
    with PgStore.open(url) as store:  # the schema comes from the URL's options, as an admin may set it
        service = TableService(store, catalog)
        out = await service.start_game(CH, AKI, start())
        rnd = random.Random(5)
        for _ in range(8):
            out = await service.act(CH, *next_move(out.state, rnd))
        service.close()
    monkeypatch.chdir(tmp_path)  # no .env of the checkout
    monkeypatch.setenv("REFEREE_DATA_DIR", str(tmp_path / "data"))
    monkeypatch.setenv("REFEREE_DATABASE_URL", url)
    assert main(["replay", str(CH), "--locale", "en"]) == 0
    printed = capsys.readouterr().out
    assert f"Game #{out.game_id} in channel {CH} (running)" in printed and "Replay check passed" in printed
    assert not (tmp_path / "data" / "referee.sqlite3").exists()  # no SQLite file was made beside it
    assert schema in url
