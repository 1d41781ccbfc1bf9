"""fair_draws reads a finished game's log in one pass: every draw it lists, and the cards each shuffle
started from, are those of the table folded from the log's start up to that event."""

from __future__ import annotations

import random
from pathlib import Path

import pytest
from pydantic import TypeAdapter

from bot.engine import Event, replay
from bot.engine.context import _rebuild_pool
from bot.errors import RefereeError
from bot.service import TableService
from bot.store import Store
from bot.store.history import effective_events, in_effect
from tests.store.tables import AKI, JUDGE, catalog, next_move, start

CH = 7700
EVENT: TypeAdapter[Event] = TypeAdapter(Event)


@pytest.mark.parametrize("seed", [1, 2, 3])
async def test_each_shuffle_starts_from_the_table_the_log_folds_to_there(db_path: Path, seed: int) -> None:
    rnd = random.Random(seed)
    with Store.open(db_path) as store:
        service = TableService(store, catalog)
        normal = start()  # small decks: they run out and are rebuilt (shuffled again) during the game
        seats = tuple(p.model_copy(update={"deck": p.deck[:12]}) for p in normal.players)
        out = await service.start_game(CH, AKI, normal.model_copy(update={"players": seats}))
        for _ in range(400):
            try:
                if rnd.random() < 0.93:
                    out = await service.act(CH, *next_move(out.state, rnd))
                else:
                    versions = [b.version for b in in_effect(await service.on_worker(store.events, out.game_id))]
                    out = await service.rollback(CH, JUDGE, is_moderator=True, to_version=rnd.choice(versions[-8:]))
            except RefereeError:
                continue
            if out.finished:
                break
        if not out.finished:
            out = await service.end(CH, JUDGE, is_moderator=True)
        _game, draws = await service.draws(CH, game_id=out.game_id)
        service.close()
        entries = store.events(out.game_id)  # the worker has given the connection back
    by_seq = {e.seq: i for i, e in enumerate(entries)}
    shuffles = [d for d in draws if "shuffle" in d]
    assert len(shuffles) >= 4 and any("expression" in d for d in draws)
    for draw in shuffles:
        before = entries[: by_seq[draw["seq"]]]
        table = replay(
            [EVENT.validate_json(r.data) for r in effective_events(before) if not r.type.startswith("table_")]
        )
        player = table.players[draw["seat"]]
        if EVENT.validate_json(entries[by_seq[draw["seq"]]].data).type == "deck_shuffled":
            assert draw["shuffle"] == list(player.deck)
        else:
            assert draw["shuffle"] == _rebuild_pool(player.cemetery, player.afterglow) + list(player.ether_area)
    numbered = [e.seq for e in entries if '"number":' in e.data and '"number":null' not in e.data]
    assert [d["seq"] for d in draws] == numbered  # every numbered draw, in log order, undone ones too
