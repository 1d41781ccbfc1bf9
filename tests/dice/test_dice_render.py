"""What a table sees: each die, the marks, the total, success in both languages, the short form."""

from __future__ import annotations

import json

from bot.dice import FairRandomness, render, roll
from tests.dice.scripted import Scripted


def test_each_die_is_shown_with_maxima_bold_and_ones_italic() -> None:
    text = render(roll("3d6+2 炎の一撃", Scripted([6, 1, 3])), "ja")
    assert text.splitlines() == ["🎲 炎の一撃 `3d6+2`", "3d6 (**6**, *1*, 3) + 2 → 合計 **12**"]


def test_dropped_dice_are_struck_through_and_keep_their_mark() -> None:
    text = render(roll("4d6kh3", Scripted([6, 1, 3, 6])), "en")
    assert "4d6kh3 (**6**, ~~*1*~~, 3, **6**) → total **15**" in text


def test_success_and_failure_in_japanese_and_english() -> None:
    assert render(roll("2d6>=7", Scripted([3, 4])), "ja").endswith("合計 **7** ≥ 7 → ✅ **成功**")
    assert render(roll("2d6>=7", Scripted([3, 3])), "ja").endswith("合計 **6** ≥ 7 → ❌ **失敗**")
    assert render(roll("2d6>=7", Scripted([3, 4])), "en").endswith("total **7** ≥ 7 → ✅ **success**")
    assert render(roll("2d6<7", Scripted([3, 4])), "en-US").endswith("total **7** < 7 → ❌ **failure**")


def test_products_and_differences_are_shown_as_written() -> None:
    text = render(roll("3×2d6-1d4-1", Scripted([2, 5, 4])), "en")
    assert "3 × 2d6 (2, 5) - 1d4 (**4**) - 1 → total **16**" in text


def test_a_fair_roll_shows_its_number() -> None:
    text = render(roll("1d6", FairRandomness(b"x" * 32, "t", next_number=12)), "ja")
    assert "公正ダイス #12" in text


def test_a_label_cannot_inject_formatting() -> None:
    text = render(roll("1d6 太字**強調**_斜体_"), "ja")
    assert "太字\\*\\*強調\\*\\*\\_斜体\\_" in text


def test_a_label_cannot_ping_or_link() -> None:
    # Full-width ＠ is NFKC-read as @ too; the label still reads the same, with a zero-width space.
    text = render(roll("1d6 @everyone ＠here <@123> [公式](https://example.com)"), "en")
    header = text.splitlines()[0]
    for ping in ("@everyone", "@here", "<@123"):
        assert ping not in header
    assert "](" not in header.replace("\\](", "")
    assert (
        header.replace("\u200b", "")
        .replace("\\", "")
        .startswith("🎲 @everyone @here <@123> [公式](https://example.com)")
    )


def test_long_breakdowns_fall_back_to_a_short_form_within_2000_characters() -> None:
    # 200 dice at their maximum, 199 of them dropped: the full breakdown would be about 2,800 characters.
    result = roll("200d1000kl1 " + "長" * 180, Scripted([1000] * 200))
    text = render(result, "ja")
    assert len(text) <= 2000
    assert "内訳は省略" in text
    assert f"合計 **{result.total}**" in text
    assert f"200d1000kl1（出目の合計 {result.total}）" in text


def test_a_breakdown_that_fits_is_shown_in_full() -> None:
    result = roll("200d6")
    text = render(result, "en")
    assert len(text) <= 2000
    assert text.count(",") == 199


def test_a_rolled_result_reads_as_json_with_every_field() -> None:
    result = roll("4d6kh3+1 能力値", Scripted([2, 6, 3, 5]))
    assert result.as_dict() == {
        "expression": "4d6kh3+1 能力値",
        "normalized": "4d6kh3+1",
        "label": "能力値",
        "dice": [[2, 6, 3, 5]],
        "dropped": [[0]],
        "total": 15,
        "success": None,
        "number": None,
    }
    assert json.loads(json.dumps(result.as_dict())) == result.as_dict()
