"""Group commit: actions of many channels waiting together share one transaction, and nobody hears of
a move that is not on the disk (on SQLite and PostgreSQL)."""

from __future__ import annotations

import asyncio
import contextlib
import random
import threading
from collections.abc import Awaitable, Callable, Iterator, Sequence
from pathlib import Path

import pytest

from bot.engine import Action
from bot.errors import RefereeError
from bot.service import Outcome, TableService
from bot.store import NewRoll, Store, TableStore
from tests.store.conftest import OpenStore, RawSql
from tests.store.tables import AKI, catalog, next_move, start

CHANNELS = list(range(7000, 7012))


def _count_groups(store: TableStore) -> list[int]:
    """Make the real store count the shared transactions it opens (before a service takes it)."""
    opened = [0]
    real = store.group

    @contextlib.contextmanager
    def group() -> Iterator[Callable[[], bool]]:
        opened[0] += 1
        with real() as still_open:
            yield still_open

    store.group = group  # type: ignore[method-assign]
    return opened


async def _held_back(service: TableService, requests: Sequence[Awaitable[object]]) -> list[object]:
    """Hold the worker on one call until every request is queued behind it, then let them all run."""
    gate = threading.Event()
    blocker = asyncio.ensure_future(service._run(gate.wait, 10))
    await asyncio.sleep(0.05)
    tasks = [asyncio.ensure_future(r) for r in requests]
    await asyncio.sleep(0.05)
    gate.set()
    await blocker
    return list(await asyncio.gather(*tasks, return_exceptions=True))


async def _first_moves(service: TableService, channels: list[int], seed: int) -> list[tuple[int, int, Action]]:
    """Start a game in each channel; a legal first move for each: (channel, user, action)."""
    rnd = random.Random(seed)
    moves = []
    for ch in channels:
        await service.start_game(ch, AKI, start())
        moves.append((ch, *next_move((await service.status(ch)).state, rnd)))
    return moves


async def test_actions_waiting_together_are_committed_together_and_each_lands_once(open_store: OpenStore) -> None:
    with open_store() as store:
        groups = _count_groups(store)
        service = TableService(store, catalog)
        moves = await _first_moves(service, CHANNELS, 4)
        groups[0] = 0
        results = await _held_back(service, [service.act(ch, user, action) for ch, user, action in moves])
        assert groups[0] == 1, "the twelve waiting actions shared one transaction"
        assert all(isinstance(r, Outcome) and r.version == 2 for r in results), results
        service.close()
    with open_store() as again:  # what the database holds, read afresh
        fresh = TableService(again, catalog)
        for ch, result in zip(CHANNELS, results, strict=True):
            view = fresh.status_now(ch)
            assert isinstance(result, Outcome)
            assert view.version == 2 and view.state.model_dump() == result.state.model_dump()
            assert fresh.check_replay(view.game_id).matches
        fresh.close()


async def test_when_the_shared_commit_fails_no_one_hears_of_a_move_and_none_is_kept(
    store: TableStore, backend: str, raw_sql: RawSql
) -> None:
    if backend == "postgresql":
        # A roll in channel 1 is refused only at COMMIT (a deferred constraint trigger): the whole shared
        # transaction fails there, after every call in it succeeded.
        raw_sql(
            "CREATE FUNCTION refuse_channel_one() RETURNS trigger LANGUAGE plpgsql AS $$ BEGIN "
            "IF NEW.channel_id = 1 THEN RAISE EXCEPTION 'refused at commit'; END IF; RETURN NULL; END $$; "
            "CREATE CONSTRAINT TRIGGER refuse_at_commit AFTER INSERT ON rolls DEFERRABLE INITIALLY DEFERRED "
            "FOR EACH ROW EXECUTE FUNCTION refuse_channel_one()"
        )
    service = TableService(store, catalog)
    moves = await _first_moves(service, CHANNELS, 5)

    def break_the_commit() -> None:
        if isinstance(store, Store):
            # A row that points at no game, checked only at COMMIT: SQLite refuses the whole transaction.
            store.db.execute("PRAGMA defer_foreign_keys = ON")
            store.db.execute(
                "INSERT INTO rolls (channel_id, game_id, expression, faces, total, created_at) "
                "VALUES (1, 999999, '1d6', '[1]', 1, 'now')"
            )
        else:
            store.rolls.record(1, NewRoll(expression="1d6", faces=[[1]], total=1))

    requests = [service.act(ch, user, action) for ch, user, action in moves]
    results = await _held_back(service, [*requests, service._run(break_the_commit)])
    assert all(isinstance(r, RefereeError) for r in results), results
    for ch in CHANNELS:  # nothing moved, in the database or in what the service shows
        assert (await service.status(ch)).version == 1
    assert await service.on_worker(store.rolls.of_channel, 1) == []
    # The same moves, asked again, are applied (they were refused, not half done).
    again = [await service.act(ch, user, action) for ch, user, action in moves]
    assert [o.version for o in again] == [2] * len(CHANNELS)
    service.close()


async def test_a_refused_action_in_a_group_leaves_the_others_applied(store: TableStore) -> None:
    service = TableService(store, catalog)
    moves = await _first_moves(service, CHANNELS[:4], 6)
    stranger_move = (CHANNELS[0], 424242, moves[0][2])  # not seated: refused
    requests = [service.act(*stranger_move), *(service.act(*m) for m in moves[1:])]
    results = await _held_back(service, requests)
    assert isinstance(results[0], RefereeError)
    assert all(isinstance(r, Outcome) and r.version == 2 for r in results[1:])
    assert (await service.status(CHANNELS[0])).version == 1
    service.close()


@pytest.mark.parametrize("size", [1, 40])
async def test_many_waiting_calls_are_served_in_order(db_path: Path, size: int) -> None:
    with Store.open(db_path) as store:
        service = TableService(store, catalog)
        seen: list[int] = []
        results = await _held_back(service, [service._run(seen.append, n) for n in range(size)])
        assert seen == list(range(size)) and results == [None] * size
        service.close()
