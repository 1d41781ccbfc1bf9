"""Dice a judge gives: the faces of a practice table, played in the order the position file lists them.

A practice table (docs/positions/README.md) is set up to show a ruling, so its dice are chosen, not
rolled. The store keeps them where a fair table keeps its seed (`given_seed` / `faces_of`), and the
word PRACTICE where a fair table's commitment would be: `verify` refuses such a game, and everything
that shows it says its dice were given.

- Each roll takes the next faces. A draw's number is the index of its first face in the list, so the
  log tells which given faces a roll used, and `next_number` (kept by the store as the table's next
  draw) is how many faces are used up.
- When the faces run out, the roll is refused (`dice.given.ran_out`): a judge's table never rolls
  by itself. The action that needed the roll changes nothing.
- A practice table never shuffles: a shuffle's stream answers every die with its largest face, which
  leaves Fisher-Yates (bot/dice/roller.py) with the cards in the order they were given (a deck rebuilt
  from the cemetery and ether area keeps that order, so the position decides it).
"""

from __future__ import annotations

from collections.abc import Sequence

from bot.dice.errors import DiceError

# Stored and shown where a fair table's commitment would be: this table's dice were given by a judge.
PRACTICE = "practice"
GIVEN_PREFIX = b"referee-given-dice/v1\x00"
MAX_GIVEN = 1000  # more faces than any practice position needs
SIDES = 6  # every die of HorizonNotes is a d6


class GivenDiceError(DiceError):
    """The given faces ran out, or a die asked for a face the list cannot give."""

    key = "practice.dice.ran_out"


def given_seed(faces: Sequence[int]) -> bytes:
    """The faces as the bytes the store keeps in place of a seed."""
    if len(faces) > MAX_GIVEN or any(not 1 <= f <= SIDES for f in faces):
        raise GivenDiceError("practice.dice.bad_faces", limit=MAX_GIVEN)
    return GIVEN_PREFIX + bytes(faces)


def faces_of(seed: bytes) -> tuple[int, ...] | None:
    """The faces a stored seed holds, or None when it is a fair or seeded table's seed."""
    if not seed.startswith(GIVEN_PREFIX):
        return None
    return tuple(seed[len(GIVEN_PREFIX) :])


class _GivenStream:
    __slots__ = ("_dice", "number")

    def __init__(self, dice: GivenDice, number: int | None) -> None:
        self._dice = dice
        self.number = number

    def die(self, sides: int) -> int:
        return self._dice._take(sides)


class _NoShuffle:
    """A practice table's shuffle: the largest face every time, so no card moves."""

    __slots__ = ()
    number: int | None = None

    def die(self, sides: int) -> int:
        return sides


class GivenDice:
    """The `Randomness` of a practice table: the given faces in order, then a refusal."""

    def __init__(self, faces: Sequence[int], next_number: int = 0) -> None:
        self.faces = tuple(faces)
        self.next_number = next_number  # faces used so far

    def stream(self, purpose: str) -> _GivenStream | _NoShuffle:
        if purpose == "shuffle":
            return _NoShuffle()
        return _GivenStream(self, self.next_number)

    def _take(self, sides: int) -> int:
        if self.next_number >= len(self.faces):
            raise GivenDiceError("practice.dice.ran_out", given=len(self.faces))
        face = self.faces[self.next_number]
        if face > sides:
            raise GivenDiceError("practice.dice.too_large", face=face, sides=sides, number=self.next_number + 1)
        self.next_number += 1
        return face
