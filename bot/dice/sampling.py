"""Bytes to die faces without modulo bias (rejection sampling), shared by every byte source.

- sides <= 256: take one byte b; accept when b < 256 - 256 % sides, giving b % sides + 1;
- otherwise take four bytes as a big-endian word w; accept when w < 2**32 - 2**32 % sides.
A rejected byte or word is skipped and the next one is read. The accepted values form whole rounds
of `sides` consecutive numbers, so every face has exactly as many of them.
"""

from __future__ import annotations

_WORD = 1 << 32


def byte_limit(sides: int) -> int:
    """Bytes below this value are accepted for a die of `sides` (<= 256) faces."""
    return 256 - 256 % sides


def word_limit(sides: int) -> int:
    """Four-byte words below this value are accepted for a die of `sides` (> 256) faces."""
    return _WORD - _WORD % sides


def face_from_byte(value: int, sides: int) -> int | None:
    """The face one byte gives on a die of `sides` <= 256 faces, or None when it is rejected."""
    return value % sides + 1 if value < byte_limit(sides) else None


def face_from_word(value: int, sides: int) -> int | None:
    """The face a 32-bit word gives on a die of more than 256 faces, or None when it is rejected."""
    return value % sides + 1 if value < word_limit(sides) else None


class ByteStream:
    """Faces read from a byte source; subclasses say where the next bytes come from (`_more`)."""

    __slots__ = ("_buffer", "_pos")

    def __init__(self) -> None:
        self._buffer = b""
        self._pos = 0

    def _more(self) -> bytes:
        raise NotImplementedError

    def _refill(self) -> None:
        self._buffer = self._buffer[self._pos :] + self._more()
        self._pos = 0

    def die(self, sides: int) -> int:
        # The two loops below are face_from_byte / face_from_word inlined: this is the hot path.
        if sides < 1:
            raise ValueError(f"a die needs at least one side, not {sides}")
        if sides <= 256:
            limit = 256 - 256 % sides
            while True:
                if self._pos >= len(self._buffer):
                    self._refill()
                value = self._buffer[self._pos]
                self._pos += 1
                if value < limit:
                    return value % sides + 1
        if sides > _WORD:
            raise ValueError(f"a die of {sides} sides is beyond the four-byte sampler")
        limit = _WORD - _WORD % sides
        while True:
            if len(self._buffer) - self._pos < 4:
                self._refill()
            value = int.from_bytes(self._buffer[self._pos : self._pos + 4], "big")
            self._pos += 4
            if value < limit:
                return value % sides + 1
