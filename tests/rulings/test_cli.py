"""`referee ruling`: quote first, then source, section, citations, 要確認 and the translation note."""

from __future__ import annotations

import json
import shutil
from pathlib import Path

import pytest

from bot.__main__ import main


def run(capsys: pytest.CaptureFixture[str], *argv: str) -> tuple[int, str, str]:
    code = main(["ruling", *argv])
    out, err = capsys.readouterr()
    return code, out, err


def test_plain_output_quotes_first_then_cites(cli_data_dir: Path, capsys: pytest.CaptureFixture[str]) -> None:
    code, out, _ = run(capsys, "Can strength go below zero?", "-k", "1")
    assert code == 0
    lines = out.splitlines()
    assert lines[0] in {
        "ルールの記述が見つかりました。",
        "いちばん近い記述です。ルールにはこの点がはっきり書かれていないかもしれません。",
    }
    assert lines[2].startswith("[1] 「")
    body = "\n".join(lines)
    assert body.index("出典:") < body.index("章:") < body.index("引用: 〔") < body.index("訳注: β版")
    assert "05 特性変更能力を組み合わせる" in body


def test_flagged_passages_show_the_unverified_line(cli_data_dir: Path, capsys: pytest.CaptureFixture[str]) -> None:
    _, out, _ = run(capsys, "Elisa Maza Forever Strong 攻撃力 下げられない", "-k", "1")
    assert "⚠ 要確認: Elisa Maza – Transformed Gargoyle は日本語版のカード・データに見当たりません" in out


def test_an_unverified_point_inside_a_translator_note_is_shown_alone(
    cli_data_dir: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    _, out, _ = run(capsys, "直しましょはエグザートしていなくても使える？", "-k", "2")
    warnings = [line.strip() for line in out.splitlines() if line.strip().startswith("⚠")]
    assert any("タカラトミーが日本語で同じ更新を出しているかは未確認" in line for line in warnings)
    assert all(line.count("要確認") == 1 and "訳注" not in line for line in warnings)


def test_json_output(cli_data_dir: Path, capsys: pytest.CaptureFixture[str]) -> None:
    code, out, _ = run(capsys, "タップ状態のDEFは？", "--json", "-k", "2", "--game", "horizonnotes")
    data = json.loads(out)
    assert code == 0 and data["question"] == "タップ状態のDEFは？" and data["answered"] is True
    assert 1 <= len(data["hits"]) <= 2
    for hit in data["hits"]:
        assert {"text", "game", "source", "section", "kind", "citations", "unverified", "score"} <= set(hit)
        assert hit["game"] == "horizonnotes" and isinstance(hit["citations"], list)
    scores = [h["score"] for h in data["hits"]]
    assert data["hits"][0]["text"]
    assert all(isinstance(s, float) for s in scores)


def test_off_topic_says_so(cli_data_dir: Path, capsys: pytest.CaptureFixture[str]) -> None:
    code, out, _ = run(capsys, "遊戯王のチェーンはどう組むの？")
    assert code == 0
    assert out.startswith("コーパスに該当する記述が見つかりませんでした")
    code, out, _ = run(capsys, "Tournament prize money?", "--json")
    data = json.loads(out)
    assert data["answered"] is False and data["hits"] == [] and data["label"] == "outside"


def test_a_question_the_rules_may_not_settle_still_gets_passages(
    cli_data_dir: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    """The old gate refused this kind of question (deck building and a tournament's time limit are
    nowhere in the rules); now the closest passages come with a label that says the rules may not
    state it. (When the next tournament is asked about alone, no rulebook says: it is outside.)"""
    code, out, _ = run(capsys, "デッキ構築の枚数制限と大会での持ち時間")
    assert code == 0
    assert out.splitlines()[0] == "いちばん近い記述です。ルールにはこの点がはっきり書かれていないかもしれません。"
    assert "[1] 「" in out


def test_locale_option_answers_in_english(cli_data_dir: Path, capsys: pytest.CaptureFixture[str]) -> None:
    code, out, _ = run(capsys, "Hearthstone: how does Taunt work?", "--locale", "en")
    assert code == 0
    assert out.splitlines()[0] == (
        "Nothing in the corpus speaks to this question. Try the words the rules use, or ask one thing at a time."
    )
    _, out, _ = run(capsys, "デッキ構築の枚数制限と大会での持ち時間", "--locale", "en")
    assert out.splitlines()[0] == "The closest passages; the rules may not state this."
    _, out, _ = run(capsys, "DEF", "--locale", "en", "-k", "1")
    assert "\n    Source: HorizonNotes rules" in out and "出典" not in out


@pytest.mark.parametrize(
    ("argv", "message"),
    [
        ([""], "質問が空です"),
        (["   "], "質問が空です"),
        (["DEF", "-k", "0"], "-k は 1 から"),
        (["DEF", "--game", "pokemon"], "ゲーム「pokemon」はコーパスにありません"),
    ],
)
def test_bad_input_gives_a_bilingual_message(
    cli_data_dir: Path, capsys: pytest.CaptureFixture[str], argv: list[str], message: str
) -> None:
    code, out, err = run(capsys, *argv)
    assert code == 2 and out == ""
    assert err.startswith(message) and " / " in err


@pytest.mark.parametrize("question", ['NEAR("a" "b") AND *', "x" * 10_000, "'; DROP TABLE passages; --", "🎴"])
def test_hostile_questions_print_an_answer(
    cli_data_dir: Path, capsys: pytest.CaptureFixture[str], question: str
) -> None:
    code, out, _ = run(capsys, question, "--json")
    assert code == 0 and json.loads(out)["question"] == question


def test_check_reports_the_corpus(cli_data_dir: Path, capsys: pytest.CaptureFixture[str]) -> None:
    code, out, _ = run(capsys, "--check")
    assert code == 0 and "3 文書" in out and "配置できなかった行はありません" in out


@pytest.mark.parametrize(
    ("name", "text", "detail"),
    [
        ("asked.toml", '["horizonnotes-rules/99/09"]\nja = ["?"]\n', "horizonnotes-rules/99/09"),
        ("chatter.toml", '[[message]]\nid = "a"\nkind = "spam"\nlang = "ja"\ntext = "?"\n', "kind"),
    ],
)
def test_check_reports_a_broken_data_file(
    tmp_path: Path,
    rules_dir: Path,
    capsys: pytest.CaptureFixture[str],
    monkeypatch: pytest.MonkeyPatch,
    name: str,
    text: str,
    detail: str,
) -> None:
    shutil.copytree(rules_dir, tmp_path / "rules")
    (tmp_path / "rules" / name).write_text(text, encoding="utf-8")
    monkeypatch.setenv("REFEREE_RULES_DIR", str(tmp_path / "rules"))
    monkeypatch.setenv("REFEREE_DATA_DIR", str(tmp_path / "data"))
    code, out, err = run(capsys, "--check")
    assert code == 2 and out == ""
    assert f"rules/{name} が正しくありません: " in err and detail in err and "is not valid" in err


def test_a_corpus_folder_without_documents_is_an_admin_error(
    tmp_path: Path, rules_dir: Path, capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch
) -> None:
    """A misplaced corpus must not read as "the rules say nothing about DEF"."""
    (tmp_path / "rules").mkdir()
    (tmp_path / "rules" / "lexicon.toml").write_bytes((rules_dir / "lexicon.toml").read_bytes())
    monkeypatch.setenv("REFEREE_RULES_DIR", str(tmp_path / "rules"))
    monkeypatch.setenv("REFEREE_DATA_DIR", str(tmp_path / "data"))
    code, out, err = run(capsys, "DEF")
    assert code == 2 and out == ""
    assert "文書（.txt とそのメタデータ .toml）が一つもありません" in err and "holds no document" in err


def test_a_point_only_the_house_rules_settle_says_no_rule_passage_is_shown(
    cli_data_dir: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    """No rule passage speaks of conceding: the label must not promise "the closest rule passage"."""
    code, out, _ = run(capsys, "サレンダーできる？")
    assert code == 0
    first = out.splitlines()[0]
    assert first == "ルールブックにはこの点が書かれていません。この卓のハウスルールを示します。"
    assert "[H1]" in out and "[1]" not in out
