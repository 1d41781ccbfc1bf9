"""What a BCDice player types: D66 as tens and ones, a roll needs a die, and BCDice commands this
grammar lacks are refused by name instead of being read as something else."""

from __future__ import annotations

import json

import pytest

from bot.dice import DiceError, FairRandomness, normalize, render, roll
from bot.dice.verify import log_entry, verify_log
from tests.dice.scripted import Scripted


def _refusal(text: str) -> DiceError:
    with pytest.raises(DiceError) as caught:
        roll(text)
    return caught.value


@pytest.mark.parametrize(("faces", "total"), [((1, 1), 11), ((3, 5), 35), ((5, 3), 53), ((6, 6), 66)])
def test_d66_reads_the_first_die_as_tens_and_the_second_as_ones_unsorted(faces: tuple[int, int], total: int) -> None:
    result = roll("D66", Scripted(list(faces)))
    assert result.total == total
    assert result.dice == (faces,)
    assert result.normalized == "D66"


def test_d66_never_rolls_a_66_sided_die() -> None:
    table = FairRandomness(b"d66", "t")
    for _ in range(300):
        result = roll("d66", table)
        tens, ones = result.dice[0]
        assert 1 <= tens <= 6 and 1 <= ones <= 6 and result.total == 10 * tens + ones


def test_d66_takes_part_in_sums_products_comparisons_and_labels() -> None:
    result = roll("D66+D66*2>=100 宝物表", Scripted([2, 3, 4, 1]))
    assert result.total == 23 + 41 * 2
    assert result.success is True and result.label == "宝物表"
    assert normalize("ｄ６６ + 1") == "D66+1"
    shown = render(roll("D66", Scripted([5, 3])), "en")
    assert "→ 53" in shown and "total **53**" in shown


def test_a_fair_d66_verifies_from_its_log() -> None:
    table = FairRandomness(b"seed", "t")
    entries = [log_entry(roll("D66", table), "t") for _ in range(3)]
    assert verify_log(b"seed", [json.dumps(e) for e in entries]).ok


@pytest.mark.parametrize("text", ["2D66", "1d66", "2d66+1", "3D66 label"])
def test_a_counted_d66_is_refused_with_a_message_saying_so(text: str) -> None:
    error = _refusal(text)
    assert error.message_key == "dice.error.counted_d66"
    assert "D66+D66" in error.message("en")


def test_d666_is_still_a_die_of_666_faces() -> None:
    assert roll("d666", Scripted([600])).total == 600


@pytest.mark.parametrize("text", ["134 text", "134", "2 b6", "3+4 攻撃", "2*3>=5"])
def test_a_line_without_a_die_is_not_a_roll(text: str) -> None:
    assert _refusal(text).message_key == "dice.error.no_dice"


@pytest.mark.parametrize(
    ("text", "command"),
    [
        ("2b6", "2b6"),
        ("2B6>=3", "2B6>=3"),
        ("2R6>=3", "2R6>=3"),
        ("3D6MAX", "3D6MAX"),
        ("D66S", "D66S"),
        ("D66N", "D66N"),
        ("3U6[6]", "3U6[6]"),
        ("4d6r1 stats", "4d6r1"),
        ("CHOICE[a,b]", None),
    ],
)
def test_a_bcdice_command_the_grammar_lacks_is_named_as_unsupported(text: str, command: str | None) -> None:
    error = _refusal(text)
    if command is None:  # nothing here reads as a number or a die: the plain "cannot read" message
        assert error.message_key == "dice.error.unexpected"
        return
    assert error.message_key == "dice.error.unsupported_command"
    assert error.args_["command"] == command
    assert "not support" in error.message("en") and "space" not in error.message("en").split(";")[0]


def test_following_the_advice_no_longer_rolls_something_else() -> None:
    # The old message said to put a space before the label; "2 b6" then rolled the constant 2.
    for text in ("2 b6", "2 R6>=3"):
        assert _refusal(text).message_key == "dice.error.no_dice"


def test_a_japanese_label_written_tight_still_gets_the_space_advice() -> None:
    assert _refusal("3d6炎").message_key == "dice.error.label_needs_space"
