"""Turn clocks through the service, on a real database (SQLite and PostgreSQL): off by default, one
message per deadline, an automatic pass when chosen, and deadlines that outlive the process that armed them."""

from __future__ import annotations

import time
from collections.abc import Iterator

import pytest

from bot.service import ClockRange, TableService
from bot.store import TableStore
from tests.store.conftest import OpenStore
from tests.store.tables import AKI, BEN, catalog, start

CH = 4200


@pytest.fixture
def service(store: TableStore) -> Iterator[TableService]:
    service = TableService(store, catalog)
    yield service
    service.close()


def acting(state: object) -> int:
    seat = state.active  # type: ignore[attr-defined]
    return int(state.players[seat].id)  # type: ignore[attr-defined]


async def test_without_a_clock_no_deadline_is_kept_and_nothing_fires(service: TableService) -> None:
    await service.start_game(CH, AKI, start())
    assert await service.clock(CH) == (None, None)
    assert await service.fire_clocks(time.time() + 10**6) == []


async def test_a_passed_deadline_reminds_the_player_who_must_act_once(service: TableService) -> None:
    started = await service.start_game(CH, AKI, start())
    before = time.time()
    await service.set_clock(CH, 60)
    setting, deadline = await service.clock(CH)
    assert setting is not None and setting.seconds == 60 and not setting.auto_pass
    assert deadline is not None and deadline.user_id == acting(started.state)
    assert deadline.due_at >= before + 60
    assert await service.fire_clocks(deadline.due_at - 1) == []  # not yet
    [fired] = await service.fire_clocks(deadline.due_at + 1)
    assert (fired.kind, fired.user_id, fired.seconds, fired.outcome) == ("reminder", acting(started.state), 60, None)
    assert await service.fire_clocks(deadline.due_at + 1000) == []  # at most one message per deadline
    assert (await service.status(CH)).version == started.version  # a reminder changes nothing


async def test_with_auto_pass_the_table_passes_and_the_next_player_gets_a_fresh_deadline(
    service: TableService,
) -> None:
    started = await service.start_game(CH, AKI, start())
    await service.set_clock(CH, 45, auto_pass=True)
    _, deadline = await service.clock(CH)
    assert deadline is not None
    [fired] = await service.fire_clocks(deadline.due_at + 1)
    assert fired.kind == "passed" and fired.outcome is not None
    assert fired.outcome.version == started.version + 1
    log = await service.log(CH)
    assert log.in_effect[-1].actor == deadline.user_id  # filed as that player's pass
    _, after = await service.clock(CH)
    assert after is not None and after.due_at == deadline.due_at + 1 + 45
    assert after.user_id == acting(fired.outcome.state)


async def test_deadlines_outlive_the_process_that_set_them(open_store: OpenStore) -> None:
    with open_store() as store:
        first = TableService(store, catalog)
        await first.start_game(CH, AKI, start())
        await first.set_clock(CH, 30)
        _, deadline = await first.clock(CH)
        first.close()
    assert deadline is not None
    with open_store() as store:  # a restart: a new service over the same file
        second = TableService(store, catalog)
        [fired] = await second.fire_clocks(deadline.due_at + 1)
        second.close()
    assert fired.kind == "reminder" and fired.user_id == deadline.user_id


async def test_a_clock_out_of_range_is_refused_and_zero_turns_it_off(service: TableService) -> None:
    await service.start_game(CH, AKI, start())
    with pytest.raises(ClockRange) as info:
        await service.set_clock(CH, 10)
    assert "30" in info.value.message("en")
    assert await service.clock(CH) == (None, None)
    await service.set_clock(CH, 60)
    assert (await service.clock(CH))[1] is not None
    assert await service.set_clock(CH, 0) is None
    assert await service.clock(CH) == (None, None)


async def test_the_deadline_follows_the_player_who_acts_and_ends_with_the_game(service: TableService) -> None:
    await service.start_game(CH, AKI, start())
    await service.set_clock(CH, 60, auto_pass=True)
    seen = set()
    for _ in range(6):  # pass after pass: the move changes hands and each player gets their own deadline
        _, deadline = await service.clock(CH)
        assert deadline is not None
        seen.add(deadline.user_id)
        await service.fire_clocks(deadline.due_at + 1)
    assert seen == {AKI, BEN}
    await service.end(CH, AKI, is_moderator=True)
    assert (await service.clock(CH))[1] is None
