"""Given dice (bot/dice/given.py): a practice table's faces, in order, then a clear refusal; no shuffle."""

from __future__ import annotations

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from bot.dice import roll, shuffle
from bot.dice.given import GivenDice, GivenDiceError, faces_of, given_seed


def test_rolls_take_the_given_faces_in_order_and_are_numbered_by_their_first_face() -> None:
    dice = GivenDice((4, 3, 1, 6))
    first, second = roll("2d6", dice), roll("1d6", dice)
    assert (first.total, first.number) == (7, 0)
    assert (second.total, second.number) == (1, 2)
    assert dice.next_number == 3


def test_running_out_is_refused_with_the_project_s_error() -> None:
    dice = GivenDice((5,))
    with pytest.raises(GivenDiceError) as refused:
        roll("2d6", dice)
    assert refused.value.message_key == "practice.dice.ran_out"
    assert "run out" in refused.value.bilingual()


def test_a_practice_table_never_shuffles() -> None:
    cards = ["a", "b", "c", "d", "e"]
    dice = GivenDice(())
    assert shuffle(cards, dice) == cards and dice.next_number == 0


def test_a_face_larger_than_the_die_is_refused() -> None:
    with pytest.raises(GivenDiceError):
        roll("1d4", GivenDice((6,)))


@settings(max_examples=50, deadline=None)
@given(st.lists(st.integers(1, 6), max_size=50))
def test_the_stored_seed_gives_back_the_faces(faces: list[int]) -> None:
    assert faces_of(given_seed(faces)) == tuple(faces)


@settings(max_examples=50, deadline=None)
@given(st.binary(min_size=32, max_size=32))
def test_a_fair_seed_is_never_read_as_given_faces(seed: bytes) -> None:
    assert faces_of(seed) is None or seed.startswith(b"referee-given-dice/v1\x00")


def test_faces_outside_a_d6_cannot_be_stored() -> None:
    with pytest.raises(GivenDiceError):
        given_seed([0])
    with pytest.raises(GivenDiceError):
        given_seed([7])
