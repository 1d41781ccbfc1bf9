"""Issue 9: a zero-width or bidi character made two names that look the same. One rule (bot/names.py)
holds wherever a name is accepted: card, skill and deck names in card files, seats, console actors,
saved decks, and every look-up by name."""

from __future__ import annotations

from pathlib import Path

import pytest

from bot.catalog import Catalog, CatalogError, load_catalog, normalize_name
from bot.console.lines import parse_line
from bot.engine import RuleViolation, SeatSpec, StartGame, apply
from bot.engine.state import GameState
from bot.names import BadName, check_name
from bot.store import Store
from bot.table.start import build_start
from tests.engine.conftest import LoadedDice

from .conftest import edit

HIDDEN = ["\u200b", "\u200c", "\u200d", "\u2060", "\ufeff", "\u202e", "\u2066", "\u200f", "\x07", "\u00ad", "\ufe0f"]


@pytest.mark.parametrize("char", HIDDEN)
def test_a_name_with_an_invisible_or_bidi_character_is_refused_naming_it(char: str) -> None:
    with pytest.raises(BadName) as info:
        check_name(f"ali{char}ce", "player")
    both = info.value.bilingual()
    assert f"U+{ord(char):04X}" in both and "player name" in both and "プレイヤー名" in both
    assert char not in both  # the message spells it out instead of printing it
    with pytest.raises(BadName):
        normalize_name(f"火花{char}の矢")


def test_a_name_is_nfkc_and_trimmed() -> None:
    assert check_name("  ａｌｉｃｅ　 ") == "alice"
    assert check_name("ｱﾘｽ") == "アリス"
    assert check_name("Mary  Ann") == "Mary Ann"
    for bad in ("", "   ", "x" * 101):
        with pytest.raises(BadName):
            check_name(bad)


@pytest.mark.parametrize(
    ("file", "old", "field"),
    [
        ("spells.toml", 'name = "火花の矢"', "name"),
        ("arcastella.toml", 'name = "星読み"', "skills[1].name"),
    ],
)
def test_a_card_file_with_a_hidden_character_in_a_name_is_refused_with_file_card_and_field(
    copy_dir: Path, file: str, old: str, field: str
) -> None:
    edit(copy_dir / file, old, old[:-2] + '\u200b"')
    with pytest.raises(CatalogError) as info:
        load_catalog(copy_dir)
    problems = [p for p in info.value.problems if p.key == "cards.problem.bad_name"]
    assert len(problems) == 1 and problems[0].file == file and problems[0].field == field
    assert "U+200B" in info.value.bilingual()


def test_a_deck_file_with_a_bidi_character_in_its_name_is_refused(copy_dir: Path) -> None:
    edit(copy_dir / "decks" / "starlit_night.toml", 'name_en = "Starlit', 'name_en = "\u202eStarlit')
    with pytest.raises(CatalogError) as info:
        load_catalog(copy_dir)
    (problem,) = info.value.problems
    assert (problem.file, problem.item, problem.field, problem.key) == (
        "decks/starlit_night.toml",
        "starlit-night",
        "name_en",
        "cards.problem.bad_name",
    )


def test_look_ups_refuse_a_name_with_a_hidden_character(shipped: Catalog) -> None:
    assert shipped.find("火花の矢") is not None
    with pytest.raises(BadName):
        shipped.find("火花\u200bの矢")
    with pytest.raises(BadName):
        shipped.find_deck("starlit\u2066-night")


def test_seats_and_console_names_follow_the_rule(shipped: Catalog) -> None:
    with pytest.raises(BadName):
        build_start(shipped, {"players": "alice,ali\u200bce", "decks": "solar-vanguard,tidal-veil"}, hash)
    with pytest.raises(BadName):
        parse_line("bo\u202eb: /pass")
    start, players = build_start(shipped, {"players": "ａｌｉｃｅ,bob", "decks": "solar-vanguard,tidal-veil"}, hash)
    assert players == ["alice", "bob"] and start.players[0].name == "alice"


def test_the_engine_refuses_such_seats_and_two_seats_that_read_the_same(shipped: Catalog) -> None:
    start, _ = build_start(shipped, {"players": "alice,bob", "decks": "solar-vanguard,tidal-veil"}, hash)
    seats = start.players
    hidden = StartGame(players=(seats[0], seats[1].model_copy(update={"name": "b\u200bob"})), cards=start.cards)
    with pytest.raises(BadName):
        apply(GameState(), hidden, LoadedDice())
    twin: SeatSpec = seats[1].model_copy(update={"name": "Alice"})
    with pytest.raises(RuleViolation):
        apply(GameState(), StartGame(players=(seats[0], twin), cards=start.cards), LoadedDice())


def test_saved_deck_names_follow_the_rule(tmp_path: Path) -> None:
    with Store.open(tmp_path / "decks.sqlite3") as store:
        with pytest.raises(BadName):
            store.decks.save(1, "炎\u200bデッキ", ["spark-arrow"])
        assert store.decks.of_user(1) == []
        store.decks.save(1, "ｆｉｒｅ", ["spark-arrow"])
        assert store.decks.get(1, "fire").name == "fire"
        with pytest.raises(BadName):
            store.decks.get(1, "fi\u200bre")
