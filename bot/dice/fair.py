"""Fair dice anyone can check: the commit-reveal scheme of DESIGN.md section 4.

At the start of a game the table draws a secret 32-byte seed and publishes `sha256(seed)` (the
commitment). Draw number n of the table with purpose p (the normalised expression, or "shuffle")
reads bytes from

    block_i = HMAC-SHA256(key=seed, msg=DOMAIN || len(table_id) || table_id || n || len(p) || p || i)

for i = 0, 1, 2, ... (counter mode), lengths and numbers as big-endian integers (4 bytes for lengths
and i, 8 bytes for n), strings in UTF-8. Length prefixes keep (table, number, purpose) unambiguous.

The bytes of the blocks, in order, become faces by the rejection sampling of bot/dice/sampling.py
(one byte per face up to 256 sides, else four bytes), so no face is favoured. When the seed is
revealed at the end, `referee verify` recomputes every face from the log (bot/dice/verify.py).

The scheme is fair only while nobody can guess the seed, so a fair table's seed comes from the OS
(`secrets`). A seed worked out from a public number (`referee console --seed N`, for a transcript
anyone can replay) is a `ReproducibleSeed`: its table publishes no commitment (a hash of a guessable
seed commits to nothing) but the word REPRODUCIBLE in its place, and says so wherever it is shown.
"""

from __future__ import annotations

import hashlib
import hmac
import secrets

from bot.dice.sampling import ByteStream

DOMAIN = b"horizonnotes-referee/dice/v1\x00"
SEED_BYTES = 32
# Stored and shown where a fair table's commitment would be: this table's dice can be predicted.
REPRODUCIBLE = "reproducible"


class ReproducibleSeed(bytes):
    """A seed derived from something public: the table's dice replay exactly, and are not fair."""

    __slots__ = ()


def draw_message(table_id: str, number: int, purpose: str) -> bytes:
    """The HMAC message of one draw, without the block counter."""
    table = table_id.encode("utf-8")
    what = purpose.encode("utf-8")
    return b"".join(
        (DOMAIN, len(table).to_bytes(4, "big"), table, number.to_bytes(8, "big"), len(what).to_bytes(4, "big"), what)
    )


class FairStream(ByteStream):
    """The faces of one draw, read lazily from the HMAC blocks."""

    __slots__ = ("_counter", "_mac", "number", "purpose")

    def __init__(self, seed: bytes | hmac.HMAC, table_id: str, number: int, purpose: str) -> None:
        super().__init__()
        self.number: int | None = number
        self.purpose = purpose
        # A table passes its HMAC already keyed with the seed: copying it skips the key schedule.
        self._mac = seed.copy() if isinstance(seed, hmac.HMAC) else hmac.new(seed, digestmod=hashlib.sha256)
        self._mac.update(draw_message(table_id, number, purpose))
        self._counter = 0

    def _more(self) -> bytes:
        mac = self._mac.copy()
        mac.update(self._counter.to_bytes(4, "big"))
        self._counter += 1
        return mac.digest()


class FairRandomness:
    """Verifiable randomness of one table: commit to sha256(seed), derive every draw from the seed."""

    def __init__(self, seed: bytes, table_id: str, next_number: int = 0) -> None:
        if not seed:
            raise ValueError("the seed must not be empty")
        if next_number < 0:
            raise ValueError("draw numbers start at 0")
        self._seed = bytes(seed)
        self.reproducible = isinstance(seed, ReproducibleSeed)
        self._keyed: hmac.HMAC | None = None  # keyed on the first draw: most actions of a game draw nothing
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
        """sha256(seed) in hex, published when the game starts; REPRODUCIBLE for a seed anyone can work out."""
        return REPRODUCIBLE if self.reproducible else commitment_of(self._seed)

    def stream(self, purpose: str) -> FairStream:
        if self._keyed is None:
            self._keyed = hmac.new(self._seed, digestmod=hashlib.sha256)
        number = self.next_number
        self.next_number += 1
        return FairStream(self._keyed, self.table_id, number, purpose)

    def __repr__(self) -> str:  # never show the seed
        return (
            f"FairRandomness(table_id={self.table_id!r}, next_number={self.next_number}, commitment={self.commitment})"
        )


def commitment_of(seed: bytes) -> str:
    """The published commitment of a seed."""
    return hashlib.sha256(seed).hexdigest()
