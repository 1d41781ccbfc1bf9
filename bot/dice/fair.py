"""Fair dice anyone can check: the commit-reveal scheme of DESIGN.md section 4.

At the start of a game the table draws a secret 32-byte seed and publishes `sha256(seed)` (the
commitment). Draw number n of the table with purpose p (the normalised expression, or "shuffle")
reads bytes from

    block_i = HMAC-SHA256(key=seed, msg=DOMAIN || len(table_id) || table_id || n || len(p) || p || i)

for i = 0, 1, 2, ... (counter mode), lengths and numbers as big-endian integers (4 bytes for lengths
and i, 8 bytes for n), strings in UTF-8. Length prefixes keep (table, number, purpose) unambiguous.

Bytes become faces by rejection sampling, so no face is favoured:
- sides <= 256: take one byte b; accept when b < 256 - 256 % sides, giving b % sides + 1;
- otherwise take four bytes as a big-endian word w; accept when w < 2**32 - 2**32 % sides.
A rejected byte or word is skipped and the next one is read. When the seed is revealed at the end,
`referee verify` recomputes every face from the log (bot/dice/verify.py).
"""

from __future__ import annotations

import hashlib
import hmac
import secrets

DOMAIN = b"horizonnotes-referee/dice/v1\x00"
SEED_BYTES = 32
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


def draw_message(table_id: str, number: int, purpose: str) -> bytes:
    """The HMAC message of one draw, without the block counter."""
    table = table_id.encode("utf-8")
    what = purpose.encode("utf-8")
    return b"".join(
        (DOMAIN, len(table).to_bytes(4, "big"), table, number.to_bytes(8, "big"), len(what).to_bytes(4, "big"), what)
    )


class FairStream:
    """The faces of one draw, read lazily from the HMAC blocks."""

    __slots__ = ("_buffer", "_counter", "_mac", "_pos", "number", "purpose")

    def __init__(self, seed: bytes, table_id: str, number: int, purpose: str) -> None:
        self.number: int | None = number
        self.purpose = purpose
        self._mac = hmac.new(seed, draw_message(table_id, number, purpose), hashlib.sha256)
        self._counter = 0
        self._buffer = b""
        self._pos = 0

    def _refill(self) -> None:
        """Append the next HMAC block to the unread bytes."""
        mac = self._mac.copy()
        mac.update(self._counter.to_bytes(4, "big"))
        self._counter += 1
        self._buffer = self._buffer[self._pos :] + mac.digest()
        self._pos = 0

    def die(self, sides: int) -> int:
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


class FairRandomness:
    """Verifiable randomness of one table: commit to sha256(seed), derive every draw from the seed."""

    def __init__(self, seed: bytes, table_id: str, next_number: int = 0) -> None:
        if not seed:
            raise ValueError("the seed must not be empty")
        if next_number < 0:
            raise ValueError("draw numbers start at 0")
        self._seed = bytes(seed)
        self.table_id = table_id
        self.next_number = next_number

    @classmethod
    def generate(cls, table_id: str) -> FairRandomness:
        """A new table with a fresh secret seed from the OS CSPRNG."""
        return cls(secrets.token_bytes(SEED_BYTES), table_id)

    @property
    def seed(self) -> bytes:
        """The secret: store it privately, reveal it only when the game ends."""
        return self._seed

    @property
    def commitment(self) -> str:
        """sha256(seed) in hex: published when the game starts."""
        return commitment_of(self._seed)

    def stream(self, purpose: str) -> FairStream:
        number = self.next_number
        self.next_number += 1
        return FairStream(self._seed, self.table_id, number, purpose)

    def __repr__(self) -> str:  # never show the seed
        return (
            f"FairRandomness(table_id={self.table_id!r}, next_number={self.next_number}, commitment={self.commitment})"
        )


def commitment_of(seed: bytes) -> str:
    """The published commitment of a seed."""
    return hashlib.sha256(seed).hexdigest()
