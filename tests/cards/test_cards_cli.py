"""`referee cards check|show|list|schema` as a user runs them."""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

import pytest

from bot.__main__ import main

from .conftest import edit


def run(argv: list[str], capsys: pytest.CaptureFixture[str]) -> tuple[int, str, str]:
    code = main(argv)
    out, err = capsys.readouterr()
    return code, out, err


def test_check_passes_on_the_shipped_data(capsys: pytest.CaptureFixture[str], cards_dir: Path) -> None:
    code, out, err = run(["cards", "check"], capsys)
    assert code == 0, err
    assert "No problems: 42 cards, 3 decks" in out


def test_check_lists_file_card_and_field_of_every_problem(capsys: pytest.CaptureFixture[str], copy_dir: Path) -> None:
    edit(
        copy_dir / "spells.toml",
        'target = "all_enemies" }]\ntext = "[自分のターン] 相手のユニットすべてに3',
        'target = "everyone" }]\ntext = "[自分のターン] 相手のユニットすべてに3',
    )
    edit(copy_dir / "decks" / "starlit_night.toml", 'id = "requiem"', 'id = "requeim"')
    code, out, err = run(["cards", "check", str(copy_dir)], capsys)
    assert code == 1
    assert out == ""
    lines = err.splitlines()
    assert lines[0] == "カードデータに 2 件の問題があります。 / The card data has 2 problem(s)."
    assert lines[1].startswith(
        "decks/starlit_night.toml: starlit-night: cards[4].id: デッキ starlit-night: カード requeim"
    )
    assert lines[1].endswith("deck starlit-night: card requeim is not in the catalog.")
    assert lines[2].startswith("spells.toml: ember-rain: effects[0].target: 値は")


def test_check_one_deck_file_against_the_cards_beside_it(capsys: pytest.CaptureFixture[str], copy_dir: Path) -> None:
    deck = copy_dir / "decks" / "tidal_veil.toml"
    assert run(["cards", "check", str(deck)], capsys)[0] == 0
    edit(deck, 'leader = "mizuha"', 'leader = "ignis-hart"')
    code, _, err = run(["cards", "check", str(deck)], capsys)
    assert code == 1
    assert "tidal-veil: leader:" in err


def test_check_one_card_file_alone(capsys: pytest.CaptureFixture[str], copy_dir: Path) -> None:
    assert run(["cards", "check", str(copy_dir / "followers.toml")], capsys)[0] == 0
    edit(copy_dir / "followers.toml", "hp = 6", "hp = 6\nattack = 3")
    code, _, err = run(["cards", "check", str(copy_dir / "followers.toml")], capsys)
    assert code == 1
    assert "followers.toml: ember-fox: attack:" in err


def test_check_a_missing_path(capsys: pytest.CaptureFixture[str], tmp_path: Path) -> None:
    code, _, err = run(["cards", "check", str(tmp_path / "nowhere")], capsys)
    assert code == 2
    assert "nowhere" in err


def test_show_prints_the_card_and_its_effects(capsys: pytest.CaptureFixture[str]) -> None:
    code, out, _ = run(["cards", "show", "氷棺のレイグラシア"], capsys)
    assert code == 0
    assert out.startswith("氷棺のレイ・グラシア (Rei Glacia of the Ice Coffin) 〔アルカステラ〕 HP 32 DEF 3")
    assert "アストラルコード「永久凍土」（eternal-permafrost） コスト 5 [自分のターン]" in out
    assert "SAMPLE DATA" in out


def test_show_accepts_a_part_of_the_name_that_fits_one_card(capsys: pytest.CaptureFixture[str]) -> None:
    code, out, _ = run(["cards", "show", "れい・ぐらしあ"], capsys)
    assert code == 0
    assert "（id: rei-glacia）" in out


def test_show_in_english(capsys: pytest.CaptureFixture[str]) -> None:
    code, out, _ = run(["cards", "show", "--locale", "en", "ember", "rain"], capsys)
    assert code == 0
    assert "Effects: 3 damage to every enemy unit" in out
    assert "File: spells.toml" in out


def test_show_lists_candidates_when_the_name_is_ambiguous(capsys: pytest.CaptureFixture[str]) -> None:
    code, out, err = run(["cards", "show", "潮"], capsys)
    assert code == 1
    assert out == ""
    assert "潮弾 (tide-bullet)" in err and "潮の精 (tide-sprite)" in err


def test_show_a_deck(capsys: pytest.CaptureFixture[str]) -> None:
    code, out, _ = run(["cards", "show", "潮騒の帳"], capsys)
    assert code == 0
    assert "リーダー: 水葉のミズハ" in out
    assert "合計 30 枚" in out


def test_show_an_unknown_name_fails_bilingually(capsys: pytest.CaptureFixture[str]) -> None:
    code, out, err = run(["cards", "show", "存在しないカード"], capsys)
    assert code != 0
    assert out == ""
    assert (
        "カード「存在しないカード」はカタログにありません。 / The card '存在しないカード' is not in the catalog." in err
    )


def test_list_filters_by_type(capsys: pytest.CaptureFixture[str]) -> None:
    code, out, _ = run(["cards", "list", "--type", "sephirot_code"], capsys)
    assert code == 0
    assert [line.split()[1] for line in out.splitlines()] == ["gevurah-sigil", "keter-circlet", "yesod-chain"]


def test_schema_check_and_write(capsys: pytest.CaptureFixture[str], copy_dir: Path) -> None:
    assert run(["cards", "schema", "--check", "--cards", str(copy_dir)], capsys)[0] == 0
    (copy_dir / "deck.schema.json").write_text("{}", encoding="utf-8")
    code, _, err = run(["cards", "schema", "--check", "--cards", str(copy_dir)], capsys)
    assert code == 1 and "deck.schema.json" in err
    assert run(["cards", "schema", "--cards", str(copy_dir)], capsys)[0] == 0
    assert run(["cards", "schema", "--check", "--cards", str(copy_dir)], capsys)[0] == 0


def test_the_installed_command_checks_a_broken_copy(copy_dir: Path, tmp_path: Path) -> None:
    edit(copy_dir / "arcastella.toml", "def = 4", "def = 40")
    env = {"PATH": "/usr/bin:/bin", "HOME": str(tmp_path), "REFEREE_DATA_DIR": str(tmp_path)}
    proc = subprocess.run(
        [sys.executable, "-m", "bot", "cards", "check", str(copy_dir)],
        capture_output=True,
        text=True,
        env=env,
        cwd=tmp_path,
        check=False,
    )
    assert proc.returncode == 1
    assert "arcastella.toml: garde-volk: def: 20 以下にしてください。 / It must be at most 20." in proc.stderr


@pytest.mark.parametrize("name", ["", "   ", "・"])
def test_show_without_a_name_asks_for_one_instead_of_listing_every_card(
    capsys: pytest.CaptureFixture[str], name: str
) -> None:
    code, out, err = run(["cards", "show", name], capsys)
    assert code == 2
    assert out == ""
    assert "カード名かデッキ名を入れてください" in err and "Give a card or deck name" in err
    assert "ignis-hart)," not in err  # no candidate list


def test_an_unknown_name_says_where_to_find_the_names(capsys: pytest.CaptureFixture[str]) -> None:
    code, _, err = run(["cards", "show", "tidal"], capsys)
    assert code == 2
    assert "`referee cards list`" in err


def test_candidates_are_named_in_the_readers_language(capsys: pytest.CaptureFixture[str]) -> None:
    code, _, err = run(["cards", "show", "--locale", "en", "潮"], capsys)
    assert code == 1
    assert "type more of the name" in err
    assert "(tide-bullet)" in err and "潮弾" not in err


def test_list_refuses_an_unknown_type(capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["cards", "list", "--type", "spells"]) == 2
    err = capsys.readouterr().err
    assert "invalid choice" in err and "コマンドラインが正しくありません" in err


def test_list_of_decks_only(capsys: pytest.CaptureFixture[str]) -> None:
    code, out, _ = run(["cards", "list", "--type", "deck"], capsys)
    assert code == 0
    assert [line.split()[1] for line in out.splitlines()] == ["solar-vanguard", "starlit-night", "tidal-veil"]


def test_check_refuses_an_empty_path_instead_of_checking_the_current_folder(
    capsys: pytest.CaptureFixture[str], tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.chdir(tmp_path)
    code, out, err = run(["cards", "check", ""], capsys)
    assert code == 2
    assert out == ""
    assert "パスが空です" in err and "The path is empty" in err
