"""A running game whose state row is corrupt can still be ended by a moderator or an admin, and the
damaged row is kept as it was for inspection."""

from __future__ import annotations

import argparse
import random
import sqlite3
from pathlib import Path

import pytest

from bot.cli import game as game_cli
from bot.service import NotModerator, TableService
from bot.settings import Settings
from bot.store import CorruptRow, NoGame, Store
from tests.store.tables import AKI, JUDGE, catalog, next_move, start

CH = 7500


async def _damaged_game(db_path: Path, damage: str = "half") -> tuple[int, str]:
    with Store.open(db_path) as store:
        service = TableService(store, catalog)
        out = await service.start_game(CH, AKI, start())
        rnd = random.Random(5)
        for _ in range(4):
            out = await service.act(CH, *next_move(out.state, rnd))
        service.close()
    with sqlite3.connect(db_path) as conn:
        state = conn.execute("SELECT state FROM games WHERE id = ?", (out.game_id,)).fetchone()[0]
        broken = state[: len(state) // 2] if damage == "half" else "not json"
        conn.execute("UPDATE games SET state = ? WHERE id = ?", (broken, out.game_id))
        if damage == "log too":  # the log no longer rebuilds the table either
            conn.execute("DROP TRIGGER actions_no_update")
            conn.execute("UPDATE actions SET events = '[1]' WHERE game_id = ? AND version = 2", (out.game_id,))
    return out.game_id, broken


def _cli(argv: list[str], settings: Settings) -> int:
    parser = argparse.ArgumentParser(prog="referee")
    game_cli.register(parser.add_subparsers(dest="command", required=True))
    args = parser.parse_args(argv)
    code: int = args.func(args, settings)
    return code


@pytest.mark.parametrize("damage", ["half", "log too"])
async def test_a_moderator_ends_a_game_whose_state_is_corrupt_and_the_row_is_kept(db_path: Path, damage: str) -> None:
    game_id, broken = await _damaged_game(db_path, damage)
    with Store.open(db_path) as store:
        service = TableService(store, catalog)
        with pytest.raises(CorruptRow):
            await service.status(CH)
        with pytest.raises(NotModerator):
            await service.end(CH, AKI, is_moderator=False)
        out = await service.end(CH, JUDGE, is_moderator=True, reason="damaged state")
        assert out.finished and out.revealed_seed
        assert await service.on_worker(store.find, CH) is None  # the channel is free
        archived = await service.on_worker(store.game, game_id)
        assert not archived.active and archived.state == broken  # left as it was, for a human
        ended = await service.on_worker(lambda: store.events(game_id, after_seq=archived.last_seq - 1))
        assert [e.type for e in ended] == ["table_ended"]
        assert (await service.start_game(CH, AKI, start())).version == 1
        service.close()


async def test_the_admin_command_ends_a_damaged_game(
    db_path: Path, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    game_id, broken = await _damaged_game(db_path)
    settings = Settings(REFEREE_DATA_DIR=tmp_path / "unused")
    assert _cli(["game", "end", str(CH), "--db", str(db_path), "--reason", "state damaged"], settings) == 0
    out = capsys.readouterr().out
    assert f"#{game_id}" in out
    with Store.open(db_path) as store:
        assert store.find(CH) is None
        assert store.game(game_id).state == broken
    with pytest.raises(NoGame):  # nothing left to end
        _cli(["game", "end", str(CH), "--db", str(db_path)], settings)
    missing = tmp_path / "missing.sqlite3"
    with pytest.raises(NoGame):
        _cli(["game", "end", str(CH), "--db", str(missing)], settings)
    assert not missing.exists()  # ending nothing creates no database
