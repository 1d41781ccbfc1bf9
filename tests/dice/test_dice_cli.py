"""`referee roll` and `referee verify` as a user runs them."""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

import pytest

from bot.__main__ import main
from bot.dice import FairRandomness, log_entry, roll


def test_roll_prints_the_breakdown(capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["roll", "3d6+2", "炎の一撃"]) == 0
    out = capsys.readouterr().out
    assert out.startswith("🎲 炎の一撃 `3d6+2`\n3d6 (")
    assert "合計 **" in out


def test_roll_json_prints_one_object(capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["roll", "--json", "２ｄ６＞＝７ 命中"]) == 0
    data = json.loads(capsys.readouterr().out)
    assert data["expression"] == "２ｄ６＞＝７ 命中"
    assert data["normalized"] == "2d6>=7"
    assert data["label"] == "命中"
    assert len(data["dice"]) == 1 and len(data["dice"][0]) == 2
    assert data["total"] == sum(data["dice"][0])
    assert data["success"] is (data["total"] >= 7)


def test_roll_in_english(capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["roll", "--locale", "en", "1d6"]) == 0
    assert "total **" in capsys.readouterr().out


def test_bad_input_exits_2_with_the_bilingual_error_on_stderr() -> None:
    proc = subprocess.run([sys.executable, "-m", "bot", "roll", "201d6"], capture_output=True, text=True, check=False)
    assert proc.returncode == 2
    assert proc.stdout == ""
    assert "ダイスが多すぎます" in proc.stderr and "Too many dice" in proc.stderr


def write_log(path: Path, table: FairRandomness, rolls: int) -> list[dict[str, object]]:
    entries = [log_entry(roll("2d6+1 攻撃", table), table.table_id) for _ in range(rolls)]
    path.write_text("".join(json.dumps(e, ensure_ascii=False) + "\n" for e in entries), encoding="utf-8")
    return entries


def test_verify_accepts_an_honest_log(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    table = FairRandomness(b"\x01" * 32, "table-1")
    write_log(tmp_path / "log.jsonl", table, 100)
    code = main(
        ["verify", "--seed", table.seed.hex(), "--log", str(tmp_path / "log.jsonl"), "--commitment", table.commitment]
    )
    out = capsys.readouterr().out
    assert code == 0
    assert "100 件" in out and "all 100 records" in out
    assert "Commitment matches" in out


def test_verify_names_the_tampered_roll_and_fails(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    table = FairRandomness(b"\x02" * 32, "table-1")
    entries = write_log(tmp_path / "log.jsonl", table, 20)
    entries[7]["total"] = int(entries[7]["total"]) + 1  # type: ignore[call-overload]
    (tmp_path / "log.jsonl").write_text("\n".join(json.dumps(e) for e in entries), encoding="utf-8")
    code = main(["verify", "--seed", table.seed.hex(), "--log", str(tmp_path / "log.jsonl")])
    err = capsys.readouterr().err
    assert code == 1
    assert "line 8 (table table-1, #7, 2d6+1)" in err
    assert "1 of 20" in err


def test_verify_fails_on_a_wrong_commitment(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    table = FairRandomness(b"\x03" * 32, "t")
    write_log(tmp_path / "log.jsonl", table, 3)
    code = main(["verify", "--seed", table.seed.hex(), "--log", str(tmp_path / "log.jsonl"), "--commitment", "00" * 32])
    assert code == 1
    assert "Commitment mismatch" in capsys.readouterr().err


def test_verify_refuses_unreadable_input(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    (tmp_path / "log.jsonl").write_text('{"table_id": "t", "number": 0}\n', encoding="utf-8")
    assert main(["verify", "--seed", "zz", "--log", str(tmp_path / "log.jsonl")]) == 2
    assert "hexadecimal" in capsys.readouterr().err
    assert main(["verify", "--seed", "00", "--log", str(tmp_path / "log.jsonl")]) == 2
    assert "Line 1 of the log" in capsys.readouterr().err
    assert main(["verify", "--seed", "00", "--log", str(tmp_path / "missing.jsonl")]) == 2
    assert "does not exist" in capsys.readouterr().err


def test_the_dash_hint_is_in_both_catalogs_and_in_roll_help(capsys: pytest.CaptureFixture[str]) -> None:
    from bot.i18n import t

    ja, en = t("dice.cli.dash_hint", "ja"), t("dice.cli.dash_hint", "en")
    assert ja != en and "referee roll -- -1d6" in ja and "referee roll -- -1d6" in en
    with pytest.raises(SystemExit):
        main(["roll", "--help"])
    shown = " ".join(capsys.readouterr().out.split())  # argparse re-flows the epilog
    assert " ".join(ja.split()) in shown and " ".join(en.split()) in shown


def test_an_expression_starting_with_a_dash_rolls_after_double_dash(capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["roll", "--json", "--", "-1d6"]) == 0
    assert -6 <= json.loads(capsys.readouterr().out)["total"] <= -1
