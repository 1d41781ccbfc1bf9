"""Where die faces come from. Randomness is injected, so the same code rolls with the OS CSPRNG
outside a game and with the verifiable commit-reveal stream inside one (bot/dice/fair.py).
"""

from __future__ import annotations

import secrets
from typing import Protocol, runtime_checkable


@runtime_checkable
class FaceStream(Protocol):
    """One numbered draw: as many faces as the roll or shuffle needs."""

    def die(self, sides: int) -> int:
        """A uniform face in 1..sides."""
        ...


@runtime_checkable
class Randomness(Protocol):
    """A source of draws. Each `stream()` call is one draw and gets the number `next_number`."""

    next_number: int

    def stream(self, purpose: str) -> FaceStream: ...


class _SystemStream:
    __slots__ = ()
    number: int | None = None

    def die(self, sides: int) -> int:
        if sides < 1:
            raise ValueError(f"a die needs at least one side, not {sides}")
        return secrets.randbelow(sides) + 1


class SystemRandomness:
    """The operating system's CSPRNG (the `secrets` module): rolls outside a game.

    Its draws are counted so the protocol holds, but they carry no number: nobody can re-derive them.
    """

    def __init__(self) -> None:
        self.next_number = 0
        self._stream = _SystemStream()

    def stream(self, purpose: str) -> FaceStream:
        self.next_number += 1
        return self._stream
