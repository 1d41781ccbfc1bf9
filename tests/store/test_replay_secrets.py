"""A running game's replay shows only what the table has seen; no message quotes stored state."""

from __future__ import annotations

import json
import random
import sqlite3
from pathlib import Path

import pytest

from bot.__main__ import main
from bot.service import TableService
from bot.store import CorruptRow, Store
from tests.store.tables import AKI, JUDGE, catalog, next_move, start

CH = 7400


async def _game(db_path: Path, moves: int, *, end: bool = False) -> int:
    with Store.open(db_path) as store:
        service = TableService(store, catalog)
        out = await service.start_game(CH, AKI, start())
        rnd = random.Random(11)
        for _ in range(moves):
            user, action = next_move((await service.status(CH)).state, rnd)
            out = await service.act(CH, user, action)
        if end:
            await service.end(CH, JUDGE, is_moderator=True)
        service.close()
        return out.game_id


def _secrets(db_path: Path, game_id: int) -> list[str]:
    """The JSON of every hidden list in the log: deck orders, drawn cards, the decks as registered."""
    found = []
    with Store.open(db_path) as store:
        for record in store.events(game_id):
            data = record.data_dict()
            if record.type in ("deck_shuffled", "deck_rebuilt"):
                found.append(json.dumps(data["order"], separators=(",", ":")))
            elif record.type == "cards_drawn" and data["cards"]:
                found.append(json.dumps(data["cards"], separators=(",", ":")))
            elif record.type == "game_started":
                found += [json.dumps(seat["deck"], separators=(",", ":")) for seat in data["players"]]
    return found


async def test_a_running_games_replay_hides_deck_orders_hands_and_deck_lists(
    db_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    game_id = await _game(db_path, 25)
    secrets = _secrets(db_path, game_id)
    assert len(secrets) >= 4  # two decks registered, two shuffled, opening hands drawn
    assert main(["replay", str(CH), "--db", str(db_path), "--locale", "en"]) == 0
    out = capsys.readouterr().out
    assert "deck_shuffled" in out and "cards_drawn" in out  # the entries are there, their secrets are not
    for secret in secrets:
        assert secret not in out
    assert "hidden" in out
    assert "Replay check passed" in out


async def test_a_finished_games_replay_shows_everything(db_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    game_id = await _game(db_path, 10, end=True)
    assert main(["replay", str(CH), "--db", str(db_path), "--locale", "en"]) == 0
    out = capsys.readouterr().out
    for secret in _secrets(db_path, game_id):
        assert secret in out


async def test_a_corrupt_state_row_is_named_without_quoting_it(
    db_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    await _game(db_path, 3)
    with sqlite3.connect(db_path) as conn:
        state = conn.execute("SELECT state FROM games WHERE channel_id = ?", (CH,)).fetchone()[0]
        for damaged in (state[: len(state) // 2], state.replace('"turn":', '"turn":"x",', 1), "[" + state):
            conn.execute("UPDATE games SET state = ? WHERE channel_id = ?", (damaged, CH))
            conn.commit()
            with Store.open(db_path) as store, pytest.raises(CorruptRow) as info:
                TableService(store, catalog).status_now(CH)
            message = info.value.bilingual()
            deck = json.loads(state)["players"][0]["deck"]
            assert state[:12] not in message
            assert all(card not in message for card in deck[:3]), message
            assert main(["replay", str(CH), "--db", str(db_path)]) == 2
            err = capsys.readouterr().err
            assert state[:12] not in err and all(card not in err for card in deck[:3])
