"""The games the service holds in memory: bounded, least recently used first out."""

from __future__ import annotations

from collections import OrderedDict
from typing import Generic, NamedTuple, TypeVar

from bot.engine import GameState
from bot.store import GameRecord

T = TypeVar("T")


class Held(NamedTuple):
    """A channel's running game as last written or read."""

    game: GameRecord
    state: GameState


class Lru(Generic[T]):
    """A small least-recently-used map from game id, so memory stays bounded however many games run."""

    def __init__(self, size: int) -> None:
        self._size = size
        self._items: OrderedDict[int, T] = OrderedDict()

    def get(self, key: int) -> T | None:
        item = self._items.get(key)
        if item is not None:
            self._items.move_to_end(key)
        return item

    def put(self, key: int, value: T) -> None:
        self._items[key] = value
        self._items.move_to_end(key)
        while len(self._items) > self._size:
            self._items.popitem(last=False)

    def pop(self, key: int) -> None:
        self._items.pop(key, None)

    def clear(self) -> None:
        self._items.clear()
