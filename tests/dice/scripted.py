"""A Randomness that deals faces from a list, for tests that need to know exactly what was rolled."""

from __future__ import annotations

from collections.abc import Iterable


class ScriptedStream:
    number: int | None = None

    def __init__(self, faces: list[int]) -> None:
        self._faces = faces

    def die(self, sides: int) -> int:
        face = self._faces.pop(0)
        assert 1 <= face <= sides, f"scripted face {face} does not fit a d{sides}"
        return face


class Scripted:
    """Deals the given faces in order; records the purposes it was asked for."""

    def __init__(self, faces: Iterable[int]) -> None:
        self.next_number = 0
        self.faces = list(faces)
        self.purposes: list[str] = []

    def stream(self, purpose: str) -> ScriptedStream:
        self.next_number += 1
        self.purposes.append(purpose)
        return ScriptedStream(self.faces)
