"""What earlier searches read of the index, kept for later ones: a mapping of the most recently used
entries. Questions share most of their words and character n-grams, so most of what a question looks
up was looked up before."""

from __future__ import annotations

from collections import OrderedDict
from collections.abc import Callable, Iterable
from typing import Generic, TypeVar

K = TypeVar("K")
V = TypeVar("V")


class Recent(Generic[K, V]):
    """The `limit` most recently used entries (0: none kept)."""

    def __init__(self, limit: int) -> None:
        self.limit = limit
        self._kept: OrderedDict[K, V] = OrderedDict()

    def __len__(self) -> int:
        return len(self._kept)

    def recall(self, keys: Iterable[K], into: dict[K, V]) -> list[K]:
        """Copy the entries kept of `keys` into `into`; the keys not kept, in their order."""
        kept = self._kept
        missing = []
        for key in keys:
            if key in kept:
                kept.move_to_end(key)
                into[key] = kept[key]
            else:
                missing.append(key)
        return missing

    def keep(self, items: Iterable[tuple[K, V]]) -> None:
        kept = self._kept
        for key, value in items:
            kept[key] = value
        while len(kept) > self.limit:
            kept.popitem(last=False)

    def get(self, key: K, make: Callable[[], V]) -> V:
        """The value kept for `key`, or `make()`, kept from now on."""
        found: dict[K, V] = {}
        if self.recall([key], found):
            found[key] = make()
            self.keep(found.items())
        return found[key]
