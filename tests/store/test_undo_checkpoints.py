"""Undo and rollback start from a kept state (a checkpoint) and fold only the actions after it: the
table they give is exactly the one the whole log folds to, whatever mix of moves, undos and rollbacks
came before. On both backends (SQLite and PostgreSQL)."""

from __future__ import annotations

import random

import pytest

import bot.service.undo as service_module
from bot.engine import Adjust
from bot.errors import RefereeError
from bot.service import TableService
from bot.store import writes as writes_module
from bot.store.history import in_effect
from tests.store.conftest import OpenStore, RawSql
from tests.store.tables import AKI, BEN, JUDGE, catalog, next_move, start

CH = 7600


@pytest.mark.parametrize("every", [2, 3, 7])
async def test_undo_and_rollback_from_checkpoints_give_the_table_the_whole_log_gives(
    open_store: OpenStore, monkeypatch: pytest.MonkeyPatch, every: int
) -> None:
    monkeypatch.setattr(writes_module, "CHECKPOINT_EVERY", every)
    monkeypatch.setattr(service_module, "CHECKPOINT_EVERY", every)  # keeping what a long undo rebuilt
    rnd = random.Random(every)
    with open_store() as store:
        service = TableService(store, catalog)
        out = await service.start_game(CH, AKI, start())
        kept = 0
        for step in range(150):
            choice = rnd.random()
            try:
                if choice < 0.4:
                    user = rnd.choice((AKI, BEN))
                    value = rnd.randint(0, 5)
                    out = await service.act(
                        CH, user, Adjust(player=str(user), subject=str(user), field="ether", value=value)
                    )
                elif choice < 0.6:
                    out = await service.act(CH, *next_move(out.state, rnd))
                elif choice < 0.9:
                    last = in_effect(await service.on_worker(store.events, out.game_id))[-1]
                    out = await service.undo(CH, last.actor or AKI)
                else:
                    versions = [b.version for b in in_effect(await service.on_worker(store.events, out.game_id))]
                    out = await service.rollback(CH, JUDGE, is_moderator=True, to_version=rnd.choice(versions[-10:]))
            except RefereeError:
                continue  # a refused undo (a barrier) or move: the rules decide, not this test
            if out.finished:
                break
            service._cache.clear()  # the next step reads the file, as after a restart
            check = await service.replay_check(out.game_id)
            assert check.matches, f"step {step}"
            assert out.state.model_dump() == check.rebuilt.model_dump()
        kept = len(await service.on_worker(store.checkpoints, out.game_id))
        service.close()
    assert kept >= 3  # the test did go through kept states


@pytest.mark.parametrize("pattern", ["aauu", "au", "aaau", "aaaaauuuu"])
async def test_repeated_actions_and_undos_keep_what_they_rebuilt_and_stay_exact(
    open_store: OpenStore, monkeypatch: pytest.MonkeyPatch, pattern: str
) -> None:
    """The kept state at every 4th version is always one an undo then takes back: undos that had to read
    far back keep what they rebuilt, and every table is still the one the whole log gives."""
    monkeypatch.setattr(writes_module, "CHECKPOINT_EVERY", 4)
    monkeypatch.setattr(service_module, "CHECKPOINT_EVERY", 4)
    with open_store() as store:
        service = TableService(store, catalog)
        out = await service.start_game(CH, AKI, start())
        for i, step in enumerate(pattern * 12):
            if step == "a":
                out = await service.act(CH, AKI, Adjust(player=str(AKI), subject=str(AKI), field="ether", value=i % 6))
            else:
                out = await service.undo(CH, AKI)
            service._cache.clear()
            check = await service.replay_check(out.game_id)
            assert check.matches and out.state.model_dump() == check.rebuilt.model_dump(), f"step {i}"
        kept = await service.on_worker(store.checkpoints, out.game_id)
        service.close()
    assert any(v % 4 and v != 1 for v in kept)  # some were kept by undos, not only every 4th version


async def test_a_damaged_kept_state_is_passed_over_for_the_log(
    open_store: OpenStore, raw_sql: RawSql, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setattr(writes_module, "CHECKPOINT_EVERY", 4)
    with open_store() as store:
        service = TableService(store, catalog)
        out = await service.start_game(CH, AKI, start())
        for i in range(10):
            out = await service.act(CH, AKI, Adjust(player=str(AKI), subject=str(AKI), field="ether", value=i % 6))

        raw_sql(f"UPDATE checkpoints SET state = '{{\"players\": [' WHERE game_id = {out.game_id}")
        service._cache.clear()
        for _ in range(3):
            out = await service.undo(CH, AKI)
            check = await service.replay_check(out.game_id)
            assert check.matches and out.state.model_dump() == check.rebuilt.model_dump()
        out = await service.rollback(CH, JUDGE, is_moderator=True, to_version=3)
        assert (await service.replay_check(out.game_id)).matches
        service.close()
