"""Where die faces come from. Randomness is injected, so the same code rolls with the OS CSPRNG
outside a game and with the verifiable commit-reveal stream inside one (bot/dice/fair.py).
"""

from __future__ import annotations

import os
from typing import Protocol, runtime_checkable

from bot.dice.sampling import ByteStream


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


class _SystemStream(ByteStream):
    """Faces from os.urandom, read a block at a time: one system call serves a whole roll."""

    __slots__ = ()
    number: int | None = None

    def _more(self) -> bytes:
        return os.urandom(64)


class SystemRandomness:
    """The operating system's CSPRNG (os.urandom, the source of `secrets`): rolls outside a game.

    Each draw gets fresh bytes of its own, mapped to faces by the same rejection sampling as the
    fair stream. Draws are counted so the protocol holds, but carry no number: nobody can re-derive them.
    """

    def __init__(self) -> None:
        self.next_number = 0

    def stream(self, purpose: str) -> FaceStream:
        self.next_number += 1
        return _SystemStream()
