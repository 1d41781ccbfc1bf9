"""`referee replay CHANNEL_ID`: the log in order, undone moves marked, and the replay check."""

from __future__ import annotations

import random
from pathlib import Path

import pytest

from bot.__main__ import main
from bot.service import TableService
from bot.store import Store
from tests.store.tables import AKI, catalog, next_move, start

CH = 7100


async def _game(db_path: Path, moves: int) -> int:
    with Store.open(db_path) as store:
        service = TableService(store, catalog)
        out = await service.start_game(CH, AKI, start())
        rnd = random.Random(4)
        for _ in range(moves):
            user, action = next_move((await service.status(CH)).state, rnd)
            out = await service.act(CH, user, action)
        return out.game_id


async def test_replay_prints_the_log_and_confirms_the_stored_state(
    db_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    game_id = await _game(db_path, 20)
    assert main(["replay", str(CH), "--db", str(db_path), "--locale", "en"]) == 0
    out = capsys.readouterr().out
    assert f"Game #{game_id} in channel {CH} (running)" in out
    assert "game_started" in out and "cards_drawn" in out
    assert "Replay check passed" in out
    with Store.open(db_path) as store:
        assert out.count("\n") >= len(store.events(game_id)) + 2


async def test_replay_fails_loudly_when_the_stored_state_was_tampered_with(
    db_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    await _game(db_path, 5)
    import sqlite3

    with sqlite3.connect(db_path) as conn:
        conn.execute("UPDATE games SET state = json_set(state, '$.turn', 99) WHERE channel_id = ?", (CH,))
    assert main(["replay", str(CH), "--db", str(db_path)]) == 1
    assert "再現確認に失敗" in capsys.readouterr().err


def test_replay_of_an_unknown_channel_is_a_clear_error_and_creates_nothing(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    path = tmp_path / "none.sqlite3"
    assert main(["replay", "123", "--db", str(path)]) == 2
    err = capsys.readouterr().err
    assert "チャンネル 123" in err and "channel 123" in err
    assert "No game has been played" in err  # not "no game running": replay reads finished games too
    assert not path.exists()


async def test_replay_as_text_tells_the_game_in_words(db_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    await _game(db_path, 12)
    assert main(["replay", str(CH), "--db", str(db_path), "--locale", "en", "--text"]) == 0
    out = capsys.readouterr().out
    assert "Replay check passed" in out
    assert '"type":' not in out  # words, not stored JSON
    assert "Aki" in out and "Ben" in out


async def test_an_unknown_game_id_or_a_too_large_id_is_named_not_a_traceback(
    db_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    game_id = await _game(db_path, 2)
    assert main(["replay", str(CH), "--db", str(db_path), "--game", "99"]) == 2
    assert "There is no game #99 in this database." in capsys.readouterr().err
    # Another channel's game is not shown under this one (the verifier would name the wrong channel).
    assert main(["verify", "--channel", str(CH + 1), "--db", str(db_path), "--game", str(game_id)]) == 2
    assert f"Game #{game_id} was not played in channel {CH + 1}." in capsys.readouterr().err
    assert main(["replay", str(10**25), "--db", str(db_path)]) == 2
    assert "That id is too large" in capsys.readouterr().err
    assert main(["verify", "--channel", str(10**25), "--db", str(db_path)]) == 2
    assert "That id is too large" in capsys.readouterr().err
