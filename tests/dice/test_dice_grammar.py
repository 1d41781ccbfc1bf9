"""Every grammar feature and every limit of the dice expressions."""

from __future__ import annotations

import pytest

from bot.dice import DiceError, FairRandomness, normalize, parse, roll
from tests.dice.scripted import Scripted


def rolled(text: str, *faces: int) -> tuple[int, tuple[tuple[int, ...], ...], bool | None]:
    rng = Scripted(faces)
    result = roll(text, rng)
    assert rng.faces == [], "the expression used fewer dice than scripted"
    return result.total, result.dice, result.success


@pytest.mark.parametrize(
    ("text", "normalized"),
    [
        ("3d6", "3d6"),
        ("d6", "1d6"),
        ("3D6", "3d6"),
        ("3d6+2", "3d6+2"),
        ("3d6 + 2", "3d6+2"),
        ("+3d6", "3d6"),
        ("-1d4+3", "-1d4+3"),
        ("2d6-1d4-1", "2d6-1d4-1"),
        ("2d6*2", "2d6*2"),
        ("3*2d6", "3*2d6"),
        ("2d6×2", "2d6*2"),
        ("2d6x2", "2d6*2"),
        ("2X3d6", "2*3d6"),
        ("4d6kh3", "4d6kh3"),
        ("4d6k3", "4d6kh3"),
        ("4D6KH3", "4d6kh3"),
        ("2d6kl1", "2d6kl1"),
        ("2d6>=7", "2d6>=7"),
        ("2d6 >= 7", "2d6>=7"),
        ("2d6<=7", "2d6<=7"),
        ("2d6>7", "2d6>7"),
        ("2d6<7", "2d6<7"),
        ("2d6=7", "2d6=7"),
        ("2d6==7", "2d6=7"),
        ("2d6≥7", "2d6>=7"),
        ("2d6≦7", "2d6<=7"),
        ("1d6>=-1", "1d6>=-1"),
        ("007d6", "7d6"),
    ],
)
def test_expressions_read_into_a_canonical_form(text: str, normalized: str) -> None:
    assert parse(text).normalized == normalized


@pytest.mark.parametrize(
    ("text", "normalized"),
    [
        ("３ｄ６＋２", "3d6+2"),
        ("３Ｄ６", "3d6"),
        ("2d6　", "2d6"),
        ("　２ｄ６　＋　１　", "2d6+1"),
        ("2d6−1", "2d6-1"),  # U+2212 MINUS SIGN
        ("2d6－1", "2d6-1"),  # full-width hyphen-minus
        ("3×2d6", "3*2d6"),
        ("２ｄ６＞＝７", "2d6>=7"),
        ("４ｄ６ｋｈ３", "4d6kh3"),
    ],
)
def test_japanese_input_is_read_after_nfkc(text: str, normalized: str) -> None:
    assert parse(text).normalized == normalized


def test_sums_differences_and_products_add_up() -> None:
    assert rolled("3d6+2", 1, 2, 3) == (8, ((1, 2, 3),), None)
    assert rolled("2d6-1d4-1", 6, 5, 4) == (6, ((6, 5), (4,)), None)
    assert rolled("-1d4+3", 4) == (-1, ((4,),), None)
    assert rolled("2d6*3", 2, 5) == (21, ((2, 5),), None)
    assert rolled("2*3d6*2", 1, 1, 1) == (12, ((1, 1, 1),), None)
    assert rolled("2*3+1d1", 1) == (7, ((1,),), None)


def test_keep_highest_and_lowest_drop_the_others() -> None:
    rng = Scripted([1, 5, 3, 6])
    result = roll("4d6kh3", rng)
    assert result.total == 14
    assert result.dropped == ((0,),)
    rng = Scripted([4, 2])
    result = roll("2d6kl1", rng)
    assert result.total == 2
    assert result.dropped == ((0,),)


def test_keep_with_equal_faces_drops_exactly_one() -> None:
    result = roll("4d6kh3", Scripted([3, 3, 3, 3]))
    assert result.total == 9
    assert len(result.dropped[0]) == 1


def test_comparison_turns_the_total_into_success_or_failure() -> None:
    assert rolled("2d6>=7", 3, 4)[2] is True
    assert rolled("2d6>=7", 3, 3)[2] is False
    assert rolled("2d6<=7", 3, 4)[2] is True
    assert rolled("2d6>7", 3, 4)[2] is False
    assert rolled("2d6<7", 3, 3)[2] is True
    assert rolled("2d6=7", 3, 4)[2] is True
    assert rolled("2d6==7", 3, 5)[2] is False
    assert rolled("3d6", 1, 1, 1)[2] is None


def test_a_label_follows_the_expression_after_a_space() -> None:
    result = roll("3d6+2 炎の一撃")
    assert result.normalized == "3d6+2"
    assert result.label == "炎の一撃"
    assert roll("2d6>=7　命中判定").label == "命中判定"
    assert roll("1d6 x2").label == "x2", "a spaced x is the start of a label, not a product"
    assert roll("3d6 炎の   一撃\n改行").label == "炎の 一撃 改行"
    assert roll("3d6").label is None
    assert roll("1d6 a\x00b\x1b[31m").label == "ab[31m", "control characters are dropped"


def test_canonical_form_includes_the_label() -> None:
    assert normalize("３ｄ６＋２　炎の一撃") == "3d6+2 炎の一撃"


def limit_error(text: str) -> str:
    table = FairRandomness(b"seed", "t")
    with pytest.raises(DiceError) as info:
        roll(text, table)
    assert table.next_number == 0, "a refused expression must not use a draw"
    return info.value.message_key


@pytest.mark.parametrize(
    ("text", "key"),
    [
        ("201d6", "dice.error.too_many_dice"),
        ("100d6+101d6", "dice.error.too_many_dice"),
        ("1d1001", "dice.error.too_many_faces"),
        ("0d6", "dice.error.count_not_positive"),
        ("3d0", "dice.error.faces_not_positive"),
        ("3d-6", "dice.error.faces_not_positive"),
        ("4d6kh5", "dice.error.keep_out_of_range"),
        ("4d6kl0", "dice.error.keep_out_of_range"),
        ("4d6kh", "dice.error.missing_keep"),
        ("4d6kh-1", "dice.error.keep_out_of_range"),
        ("3d", "dice.error.missing_faces"),
        ("3d6+", "dice.error.incomplete"),
        ("", "dice.error.empty"),
        ("   ", "dice.error.empty"),
        ("2d6*1d6", "dice.error.dice_times_dice"),
        ("2d6>=1d6", "dice.error.target_not_number"),
        ("2d6>=7+1", "dice.error.target_not_number"),
        ("2d6>=7>=8", "dice.error.two_comparisons"),
        ("2d6>=7 <=8", "dice.error.two_comparisons"),
        ("3d6炎", "dice.error.label_needs_space"),
        ("3d6 + 炎", "dice.error.unexpected"),
        ("3d6)", "dice.error.unexpected"),
        ("2d6+-1", "dice.error.negative"),
        ("12345678d6", "dice.error.number_too_large"),
    ],
)
def test_each_bad_input_has_its_own_error_and_rolls_nothing(text: str, key: str) -> None:
    assert limit_error(text) == key


def test_the_limits_themselves_are_allowed() -> None:
    assert len(roll("200d6").dice[0]) == 200
    assert len(roll("100d6+100d1000").dice[1]) == 100
    assert roll("1d1000").dice[0][0] <= 1000
    assert roll("1d1").total == 1
    text = "1d6" + " " * 196 + "x"
    assert len(text) == 200 and roll(text).label == "x"


def test_input_over_200_characters_is_refused() -> None:
    text = "1d6" + " " * 197 + "x"
    assert limit_error(text) == "dice.error.too_long"


def test_errors_read_in_both_languages() -> None:
    with pytest.raises(DiceError) as info:
        roll("201d6")
    text = info.value.bilingual()
    assert "ダイスが多すぎます（201 個）" in text
    assert "Too many dice (201)" in text
    assert text.index("ダイス") < text.index("Too many")


@pytest.mark.parametrize(("text", "quoted"), [("d", "「d」"), ("2D6KH", "「2D6KH」"), ("4d6k", "「4d6k」")])
def test_an_unfinished_die_is_quoted_as_the_player_wrote_it(text: str, quoted: str) -> None:
    with pytest.raises(DiceError) as info:
        roll(text)
    assert quoted in info.value.bilingual()


def test_a_label_cannot_turn_the_line_around() -> None:
    """A right-to-left override would show the expression and total after the label reversed."""
    label = roll("1d6 \u202eevil\u2066 👨\u200d👩\u200d👧").label
    assert label == "evil 👨\u200d👩\u200d👧"  # the emoji's joiners stay
