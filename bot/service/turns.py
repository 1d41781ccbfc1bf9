"""Whose turn it is to touch a channel's table in this process: one asyncio lock per channel, kept only
while someone holds it or waits for it, so a bot that has served a hundred thousand channels keeps none
of them idle (and never pays a weak reference's bookkeeping on every move)."""

from __future__ import annotations

import asyncio
from dataclasses import dataclass, field
from types import TracebackType


@dataclass
class _Entry:
    lock: asyncio.Lock = field(default_factory=asyncio.Lock)
    users: int = 0  # holding or waiting


class ChannelTurns:
    def __init__(self) -> None:
        self._entries: dict[int, _Entry] = {}

    def __call__(self, channel_id: int) -> ChannelTurn:
        """`async with turns(channel):` waits for the channel's turn and holds it for the block."""
        return ChannelTurn(self, channel_id)

    def __len__(self) -> int:
        """How many channels are held or waited for now."""
        return len(self._entries)

    def _join(self, channel_id: int) -> _Entry:
        entry = self._entries.get(channel_id)
        if entry is None:
            entry = self._entries[channel_id] = _Entry()
        entry.users += 1
        return entry

    def _leave(self, channel_id: int, entry: _Entry) -> None:
        entry.users -= 1
        if entry.users == 0:
            del self._entries[channel_id]


class ChannelTurn:
    __slots__ = ("_channel", "_entry", "_turns")

    def __init__(self, turns: ChannelTurns, channel_id: int) -> None:
        self._turns, self._channel = turns, channel_id
        self._entry: _Entry | None = None

    async def __aenter__(self) -> None:
        entry = self._turns._join(self._channel)
        try:
            await entry.lock.acquire()
        except BaseException:  # cancelled while waiting: no longer a user
            self._turns._leave(self._channel, entry)
            raise
        self._entry = entry

    async def __aexit__(
        self, et: type[BaseException] | None, ev: BaseException | None, tb: TracebackType | None
    ) -> None:
        entry, self._entry = self._entry, None
        assert entry is not None
        entry.lock.release()
        self._turns._leave(self._channel, entry)
