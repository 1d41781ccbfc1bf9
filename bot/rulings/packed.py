"""Lists of numbers packed into one BLOB of the index: a term's or a feature's first postings, read in
one row rather than a row a posting (at 100x the corpus, reading the classifier's row by row was a
third of a long question's search)."""

from __future__ import annotations

import sys
from array import array
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
