"""Lists of numbers packed into one BLOB of the index: a term's or a feature's first postings, read in
one row rather than a row a posting (at 100x the corpus, reading the classifier's row by row was a
third of a long question's search)."""

from __future__ import annotations

import sys
from array import array
from collections.abc import Iterator
from typing import Any


def pack(typecode: str, values: Any) -> bytes:
    """`values` as little-endian machine numbers (`q`: 64-bit integers, `d`: doubles)."""
    packed = array(typecode, values)
    if sys.byteorder != "little":  # the index stores little-endian arrays, whatever the machine
        packed.byteswap()
    return packed.tobytes()


def unpack(typecode: str, data: bytes) -> array[Any]:
    values = array(typecode, data)
    if sys.byteorder != "little":
        values.byteswap()
    return values


class FirstPostings:
    """Each key's postings (score, id), of which the index keeps the `limit` highest, ties by the lower
    id: those written by earlier calls (added back from their rows) and those added since."""

    def __init__(self, limit: int) -> None:
        self.limit = limit
        self._kept: dict[str, list[tuple[float, int]]] = {}  # key -> (-score, id)

    def add(self, key: str, score: float, ident: int) -> None:
        kept = self._kept.setdefault(key, [])
        kept.append((-score, ident))
        if len(kept) > 4 * self.limit:  # the rest can never be among the first: memory stays bounded
            kept[:] = sorted(kept)[: self.limit]

    def add_row(self, key: str, idents: bytes, scores: bytes, typecode: str) -> None:
        """Add back the postings an earlier call wrote in one row: packed ids and scores (`typecode`)."""
        for ident, score in zip(unpack("q", idents), unpack(typecode, scores), strict=True):
            self.add(key, score, ident)

    def first(self) -> Iterator[tuple[str, list[tuple[float, int]]]]:
        """Each key and its kept postings as (score, id), highest first."""
        for key, kept in self._kept.items():
            yield key, [(-score, ident) for score, ident in sorted(kept)[: self.limit]]
