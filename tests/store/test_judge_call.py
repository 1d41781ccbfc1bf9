"""A judge call is written into the game's log without changing the table or being undone."""

from __future__ import annotations

import random
from collections.abc import Iterator

import pytest

from bot.render import render_events
from bot.service import NoGame, Outcome, TableJudge, TableService, is_barrier
from bot.store import TableStore
from tests.store.tables import AKI, BEN, STRANGER, catalog, next_move, start

CH = 4100


@pytest.fixture
def service(store: TableStore) -> Iterator[TableService]:
    service = TableService(store, catalog)
    yield service
    service.close()


async def undoable_move(service: TableService, rnd: random.Random) -> tuple[dict[str, object], Outcome]:
    """Play random legal moves until one that an undo may take back; the table before it and its outcome."""
    for _ in range(500):
        state = (await service.status(CH)).state
        before = state.model_dump()
        user, action = next_move(state, rnd)
        out = await service.act(CH, user, action)
        assert not out.finished
        entries = (await service.on_worker(service.store.events, out.game_id))[-len(out.events) :]
        if not any(is_barrier(e) for e in entries):
            return before, out
    raise AssertionError("no undoable move in 500")


async def test_a_judge_call_is_logged_and_changes_nothing_on_the_table(service: TableService) -> None:
    await service.start_game(CH, AKI, start())
    _, played = await undoable_move(service, random.Random(3))
    called = await service.call_judge(CH, STRANGER, "Can a tapped unit block?")
    assert called.events == [TableJudge(by=STRANGER, question="Can a tapped unit block?")]
    assert called.state.model_dump() == played.state.model_dump()
    assert called.version == played.version + 1
    log = await service.log(CH)
    assert log.entries[-1].type == "table_judge" and log.entries[-1].actor == STRANGER
    assert log.entries[-1].event.question == "Can a tapped unit block?"
    # the judge call is not an action: the actions in effect end with the move played
    assert log.in_effect[-1].version == played.version
    assert (await service.replay_check(called.game_id)).matches


async def test_an_undo_after_a_judge_call_takes_back_the_move_before_it(service: TableService) -> None:
    await service.start_game(CH, AKI, start())
    before, played = await undoable_move(service, random.Random(5))
    await service.call_judge(CH, BEN, "Was that legal?")
    log = await service.log(CH)
    mover = log.in_effect[-1].actor  # who made the move (the judge call is not an action)
    assert log.in_effect[-1].version == played.version and mover in (AKI, BEN)
    undone = await service.undo(CH, mover)
    assert undone.state.model_dump() == before
    assert [e.type for e in (await service.log(CH)).entries[-2:]] == ["table_judge", "table_undo"]


async def test_the_log_line_of_a_judge_call_names_the_seated_caller_and_the_question(service: TableService) -> None:
    started = await service.start_game(CH, AKI, start())
    called = await service.call_judge(CH, AKI, "潮弾の対象は？")
    [ja] = render_events(called.events, started.state, "ja")
    [en] = render_events(called.events, started.state, "en")
    assert ja == "⚖ Akiがジャッジを呼びました: 「潮弾の対象は？」"
    assert en == "⚖ Aki called a judge: “潮弾の対象は？”"


async def test_without_a_game_a_judge_call_is_not_filed(service: TableService) -> None:
    with pytest.raises(NoGame):
        await service.call_judge(CH, AKI, "Anyone?")
    assert await service.on_worker(service.store.history, CH) == []
