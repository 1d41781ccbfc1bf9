"""Console lines use the slash commands' words; quoting and full-width input work."""

from __future__ import annotations

import pytest

from bot.console.lines import ConsoleLineError, parse_line


def test_actor_prefix_and_options() -> None:
    line = parse_line("bob: /cast card:flame-arrow caster:aria target:bell")
    assert line is not None
    assert line.actor == "bob"
    assert line.command == "cast"
    assert line.options == {"card": "flame-arrow", "caster": "aria", "target": "bell"}


def test_group_command_takes_its_subcommand() -> None:
    line = parse_line("/game start")
    assert line is not None and line.command == "game start" and line.actor is None


def test_quoted_values_keep_spaces_and_japanese_brackets_work() -> None:
    line = parse_line('alice: /charge card:"星の 欠片"')
    assert line is not None and line.options == {"card": "星の 欠片"}
    line = parse_line("alice: /charge card:「星の 欠片」")
    assert line is not None and line.options == {"card": "星の 欠片"}


def test_full_width_input_is_normalised() -> None:
    line = parse_line("ａｌｉｃｅ：　／ｒｏｌｌ　３ｄ６＋２　炎の一撃")
    assert line is not None
    assert line.actor == "alice" and line.command == "roll" and line.text == "3d6+2 炎の一撃"


def test_blank_and_comment_lines_are_skipped() -> None:
    assert parse_line("   ") is None
    assert parse_line("# setup") is None


@pytest.mark.parametrize("bad", ["hello", "bob: pass", "/", "bob: /charge card:"])
def test_nonsense_is_refused_with_a_bilingual_message(bad: str) -> None:
    with pytest.raises(ConsoleLineError) as info:
        parse_line(bad)
    text = info.value.bilingual()
    assert "読めません" in text and "Cannot read" in text
