"""One call at a time per channel (bot/service/turns.py): calls on one table wait their turn, other tables
go on meanwhile, and a channel nobody is using costs nothing afterwards (a bot serves many channels)."""

from __future__ import annotations

import asyncio

import pytest

from bot.service.turns import ChannelTurns


async def test_calls_on_one_channel_take_turns_and_other_channels_go_on() -> None:
    turns = ChannelTurns()
    inside: dict[int, int] = {1: 0, 2: 0}
    most: dict[int, int] = {1: 0, 2: 0}
    order: list[tuple[int, int]] = []

    async def call(channel: int, n: int) -> None:
        async with turns(channel):
            inside[channel] += 1
            most[channel] = max(most[channel], inside[channel])
            order.append((channel, n))
            await asyncio.sleep(0.001)
            inside[channel] -= 1

    await asyncio.gather(*(call(1 + n % 2, n) for n in range(20)))
    assert most == {1: 1, 2: 1}  # never two at once on one table
    assert [n for ch, n in order if ch == 1] == sorted(n for ch, n in order if ch == 1)  # in the order asked
    assert order[:2] == [(1, 0), (2, 1)]  # channel 2 did not wait for channel 1
    assert len(turns) == 0  # nobody uses them now: nothing kept


async def test_a_call_cancelled_while_waiting_leaves_nothing_behind() -> None:
    turns = ChannelTurns()
    holding = asyncio.Event()
    release = asyncio.Event()

    async def holder() -> None:
        async with turns(7):
            holding.set()
            await release.wait()

    first = asyncio.create_task(holder())
    await holding.wait()
    waiter = asyncio.create_task(turns(7).__aenter__())
    await asyncio.sleep(0)
    waiter.cancel()
    with pytest.raises(asyncio.CancelledError):
        await waiter
    release.set()
    await first
    assert len(turns) == 0
    async with turns(7):  # the channel is free again
        assert len(turns) == 1
