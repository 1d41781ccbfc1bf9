"""Races: many clicks at once on one table, and two processes writing the same database; on SQLite and
on PostgreSQL (where each write of a channel also takes the channel's advisory lock)."""

from __future__ import annotations

import asyncio
import multiprocessing
import random
from collections.abc import AsyncIterator
from typing import Any

import pytest

from bot.errors import RefereeError
from bot.service import Outcome, TableService
from bot.store import VersionConflict
from tests.store.conftest import OpenStore
from tests.store.tables import AKI, catalog, next_move, start

CH = 5150


@pytest.fixture
async def two_services(open_store: OpenStore) -> AsyncIterator[tuple[TableService, TableService]]:
    with open_store() as one, open_store() as two:
        first, second = TableService(one, catalog), TableService(two, catalog)
        yield first, second
        first.close()
        second.close()


async def _assert_log_matches(service: TableService, applied: list[Outcome]) -> None:
    """Every applied request is in the log exactly once, in version order, and nothing else is."""
    log = await service.log(CH)
    by_version = {b.version: [e.type for e in b.entries] for b in log.in_effect}
    assert sorted(by_version) == [1, *sorted(o.version for o in applied)]
    for outcome in applied:
        assert by_version[outcome.version] == [e.type for e in outcome.events]
    assert (await service.replay_check(log.game.game_id)).matches


async def test_fifty_clicks_at_once_are_each_applied_once_or_refused(open_store: OpenStore) -> None:
    with open_store() as store:
        service = TableService(store, catalog)
        await service.start_game(CH, AKI, start())
        view = (await service.status(CH)).state  # everyone clicks on the same view of the table
        rnd = random.Random(9)
        requests = [next_move(view, rnd) for _ in range(50)]
        results: list[Any] = await asyncio.gather(
            *(service.act(CH, user, action) for user, action in requests), return_exceptions=True
        )
        unexpected = [r for r in results if not isinstance(r, Outcome | RefereeError)]
        assert not unexpected, unexpected
        applied = [r for r in results if isinstance(r, Outcome)]
        assert applied, "at least the first click must land"
        assert sorted(o.version for o in applied) == list(range(2, 2 + len(applied)))
        assert (await service.status(CH)).version == 1 + len(applied)
        await _assert_log_matches(service, applied)
        service.close()


async def test_two_connections_racing_on_one_table_never_overwrite_each_other(
    two_services: tuple[TableService, TableService],
) -> None:
    first, second = two_services
    await first.start_game(CH, AKI, start())
    rnd = random.Random(12)
    applied: list[Outcome] = []
    for _ in range(8):  # rounds of 10 concurrent requests, half through each connection
        view = (await first.status(CH)).state
        requests = [(first if i % 2 else second, *next_move(view, rnd)) for i in range(10)]
        results: list[Any] = await asyncio.gather(
            *(svc.act(CH, user, action) for svc, user, action in requests), return_exceptions=True
        )
        assert all(isinstance(r, Outcome | RefereeError) for r in results), results
        applied += [r for r in results if isinstance(r, Outcome)]
    assert len({o.version for o in applied}) == len(applied)
    await _assert_log_matches(first, applied)


def _contender(open_store: OpenStore, name: str, rounds: int, barrier: Any, results: Any) -> None:
    with open_store() as store:
        for _ in range(rounds):
            game = store.load(CH)
            barrier.wait()  # both have read the same version; now both try to write
            try:
                store.commit(CH, {"last": name}, [{"type": "move", "by": name}], game.version, game_id=game.id)
                results.put((name, "ok"))
            except VersionConflict:
                results.put((name, "conflict"))
            barrier.wait()


def test_two_processes_the_loser_gets_a_conflict_not_a_silent_overwrite(open_store: OpenStore) -> None:
    rounds = 10
    with open_store() as store:
        game = store.start(CH, {"last": None}, [{"type": "start"}])
    ctx = multiprocessing.get_context("fork")  # the children inherit `open_store`: the same database
    barrier, results = ctx.Barrier(2), ctx.Queue()
    players = [ctx.Process(target=_contender, args=(open_store, n, rounds, barrier, results)) for n in "AB"]
    for p in players:
        p.start()
    outcomes = [results.get(timeout=60) for _ in range(2 * rounds)]
    for p in players:
        p.join(timeout=60)
        assert p.exitcode == 0
    assert sorted(kind for _, kind in outcomes) == ["conflict"] * rounds + ["ok"] * rounds
    winners = [name for name, kind in outcomes if kind == "ok"]
    with open_store() as store:
        stored = store.load(CH)
        moves = [e.data_dict()["by"] for e in store.events(game.id) if e.type == "move"]
    assert stored.version == 1 + rounds
    assert sorted(moves) == sorted(winners)  # exactly the winners' moves, each once
    assert stored.state_dict() == {"last": moves[-1]}


def _player(open_store: OpenStore, seed: int, moves: int, barrier: Any, results: Any) -> None:
    """One bot process: its own store and service on the shared database, playing on the one table."""

    async def play() -> list[tuple[int, list[str]]]:
        applied: list[tuple[int, list[str]]] = []
        with open_store() as store:
            service = TableService(store, catalog)
            rnd = random.Random(seed)
            barrier.wait()
            for _ in range(moves):
                try:
                    state = (await service.status(CH)).state
                    out = await service.act(CH, *next_move(state, rnd))
                except RefereeError:
                    continue  # the other process moved first and the move no longer fits: refused, not lost
                applied.append((out.version, [e.type for e in out.events]))
                if out.finished:
                    break
            service.close()
        return applied

    results.put((seed, asyncio.run(play())))


def test_two_bot_processes_on_one_table_lose_nothing_and_double_nothing(open_store: OpenStore) -> None:
    async def open_table() -> None:
        with open_store() as store:
            service = TableService(store, catalog)
            await service.start_game(CH, AKI, start())
            service.close()

    asyncio.run(open_table())
    ctx = multiprocessing.get_context("fork")  # the children inherit `open_store`: the same database
    barrier, results = ctx.Barrier(2), ctx.Queue()
    players = [ctx.Process(target=_player, args=(open_store, seed, 25, barrier, results)) for seed in (1, 2)]
    for p in players:
        p.start()
    per_process = dict(results.get(timeout=120) for _ in players)
    applied = [move for moves in per_process.values() for move in moves]
    for p in players:
        p.join(timeout=60)
        assert p.exitcode == 0

    async def read_back() -> None:
        with open_store() as store:
            service = TableService(store, catalog)
            log = await service.log(CH)
            by_version = {b.version: [e.type for e in b.entries] for b in log.in_effect}
            # Each applied move is in the log once, at the version its process was told, and nothing else is.
            assert sorted(v for v, _ in applied) == sorted(by_version)[1:] == list(range(2, 2 + len(applied)))
            for version, types in applied:
                assert by_version[version] == types
            assert (await service.replay_check(log.game.game_id)).matches
            service.close()

    asyncio.run(read_back())
    assert all(per_process.values()), per_process  # both processes did play on the table
