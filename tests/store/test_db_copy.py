"""`referee db copy`: everything of a SQLite table moves to PostgreSQL, ids kept, every game checked to
replay there; a target that already holds data is refused, so nothing is ever doubled."""

from __future__ import annotations

import argparse
import random
from pathlib import Path

import pytest

from bot.cli import db as db_command
from bot.service import TableService
from bot.settings import Settings
from bot.store import NewRoll, Store
from bot.store.clock import Deadline
from bot.store.pg import PgStore
from bot.store.pg.copy import TargetNotEmpty
from tests.store.tables import AKI, JUDGE, catalog, next_move, start

CH = 7700


def _referee(*argv: str) -> int:
    """`referee db …` as the command line runs it (bot/__main__.py lists the command)."""
    parser = argparse.ArgumentParser()
    db_command.register(parser.add_subparsers(dest="command"))
    args = parser.parse_args(["db", *argv])
    code: int = args.func(args, Settings())
    return code


async def _a_table_with_everything(path: Path) -> None:
    with Store.open(path) as store:
        service = TableService(store, catalog)
        rnd = random.Random(11)
        out = await service.start_game(CH, AKI, start(), guild_id=5)
        for _ in range(12):
            out = await service.act(CH, *next_move(out.state, rnd))
        await service.end(CH, JUDGE, is_moderator=True, reason="copy test")  # a finished game
        out = await service.start_game(CH, AKI, start(), guild_id=5)  # and a running one
        for _ in range(9):
            out = await service.act(CH, *next_move(out.state, rnd))
        await service.record_roll(CH + 1, AKI, "2d6", [[3, 4]], 7)
        await service.save_deck(AKI, "炎デッキ", ["AC-001", "SP-002"])
        await service.set_guild_settings(5, locale="en", judge_role_id=77)
        await service.set_channel_settings(CH, options={"first_player": "first_seat"})
        service.close()
        store.clocks.set_setting(CH, 60, True)
        store.clocks.arm(Deadline(channel_id=CH, game_id=out.game_id, user_id=AKI, turn=3, due_at=1e9, auto_pass=True))
        store.rolls.record(CH + 2, NewRoll(expression="1d6", faces=[[2]], total=2, user_id=9))


async def test_every_row_moves_with_its_id_and_every_game_replays_there(
    db_path: Path, pg_database: tuple[str, str], capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.chdir(db_path.parent.parent)
    await _a_table_with_everything(db_path)
    url, _ = pg_database
    assert _referee("copy", "--from", f"sqlite:///{db_path}", "--to", url, "--locale", "en") == 0
    printed = capsys.readouterr().out
    assert "Copied: 2 games" in printed and "Every one of the 2 games replays" in printed
    with Store.open(db_path) as here, PgStore.open(url) as there:
        assert here.history(CH) == there.history(CH)  # every column, ids included
        for game in here.history(CH):
            assert here.events(game.id) == there.events(game.id)
            assert here.rolls.of_game(game.id) == there.rolls.of_game(game.id)
            assert here.checkpoints(game.id) == there.checkpoints(game.id)
        for channel in (CH + 1, CH + 2):
            assert here.rolls.of_channel(channel) == there.rolls.of_channel(channel)
        assert here.decks.of_user(AKI) == there.decks.of_user(AKI)
        assert here.settings.effective(CH, 5) == there.settings.effective(CH, 5) != (None, {})
        assert here.settings.guild(5) == there.settings.guild(5)
        assert here.clocks.setting(CH) == there.clocks.setting(CH) is not None
        assert here.clocks.deadline(CH) == there.clocks.deadline(CH) is not None
        # The table goes on over there: the running game plays, and new rows get new ids.
        service = TableService(there, catalog)
        running = await service.status(CH)
        out = await service.act(CH, *next_move(running.state, random.Random(3)))
        assert out.version == running.version + 1
        service.close()
        roll = there.rolls.record(CH + 1, NewRoll(expression="1d6", faces=[[1]], total=1))
        assert roll.id > max(r.id for r in here.rolls.of_channel(CH + 1))


async def test_a_second_copy_is_refused_and_doubles_nothing(db_path: Path, pg_database: tuple[str, str]) -> None:
    await _a_table_with_everything(db_path)
    url, _ = pg_database
    assert _referee("copy", "--from", f"sqlite:///{db_path}", "--to", url) == 0
    with PgStore.open(url) as there:
        before = [(g.id, len(there.events(g.id))) for g in there.history(CH)]
    with pytest.raises(TargetNotEmpty) as info:
        _referee("copy", "--from", f"sqlite:///{db_path}", "--to", url)
    assert "games" in info.value.bilingual()
    with PgStore.open(url) as there:
        assert [(g.id, len(there.events(g.id))) for g in there.history(CH)] == before


def test_a_source_or_target_that_is_not_named_right_is_refused(tmp_path: Path) -> None:
    with pytest.raises(db_command.BadCopySource):
        _referee("copy", "--from", str(tmp_path / "x.sqlite3"), "--to", "postgresql://nobody@127.0.0.1:1/x")
    with pytest.raises(db_command.BadCopyTarget):
        _referee("copy", "--from", f"sqlite:///{tmp_path / 'x.sqlite3'}", "--to", "mysql://x")
    assert not (tmp_path / "x.sqlite3").exists()
