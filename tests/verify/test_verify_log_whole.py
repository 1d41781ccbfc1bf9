"""`referee verify --seed --log` checks the log as a whole, not only line by line: a removed roll,
an empty log or lines of another table fail and are named; hostile lines and files give a clear
bilingual error with exit status 2, never a traceback."""

from __future__ import annotations

import json
import os
from pathlib import Path

import pytest

from bot.__main__ import main
from bot.dice import FairRandomness, log_entry, roll, shuffle, shuffle_entry, verify_log

SEED = b"\x05" * 32


def _lines(table: FairRandomness, rolls: int) -> list[str]:
    lines = []
    for k in range(rolls):
        if k == 2:  # a shuffle among the rolls: it takes a number too
            number = table.next_number
            order = shuffle(list(range(10)), table)
            lines.append(json.dumps(shuffle_entry(table.table_id, number, list(range(10)), order)))
        else:
            lines.append(json.dumps(log_entry(roll("2d6+1", table), table.table_id)))
    return lines


def _verify(tmp_path: Path, capsys: pytest.CaptureFixture[str], lines: list[str], *extra: str) -> tuple[int, str]:
    log = tmp_path / "log.jsonl"
    log.write_text("".join(line + "\n" for line in lines), encoding="utf-8")
    code = main(["verify", "--seed", SEED.hex(), "--log", str(log), *extra])
    captured = capsys.readouterr()
    return code, captured.out + captured.err


def test_a_complete_log_still_verifies(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    table = FairRandomness(SEED, "t1")
    code, out = _verify(tmp_path, capsys, _lines(table, 8), "--commitment", table.commitment)
    assert code == 0, out
    assert "all 8 records" in out


def test_a_log_with_a_roll_removed_fails_naming_the_missing_draw(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    lines = _lines(FairRandomness(SEED, "t1"), 8)
    del lines[3]
    del lines[5]  # draws #3 and #6
    code, out = _verify(tmp_path, capsys, lines)
    assert code == 1
    assert "2 draw(s) of table t1 are missing: #3, #6" in out
    assert "ドロー 2 件がありません: #3, #6" in out


def test_an_empty_log_fails(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    for lines in ([], ["", "   "]):
        code, out = _verify(tmp_path, capsys, lines)
        assert code == 1
        assert "The log has no draws" in out and "ログにドローがありません" in out
    assert not verify_log(SEED, []).ok


def test_a_log_mixing_tables_fails(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    # Both halves are reproduced by the seed; together they are not one table's log.
    lines = _lines(FairRandomness(SEED, "t1"), 3) + _lines(FairRandomness(SEED, "t2"), 3)
    code, out = _verify(tmp_path, capsys, lines)
    assert code == 1
    assert "mixes tables (t1, t2)" in out


def test_the_first_draw_removed_is_caught_too(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    lines = _lines(FairRandomness(SEED, "t1"), 4)[1:]
    code, out = _verify(tmp_path, capsys, lines)
    assert code == 1 and "missing: #0" in out


def _refused(code: int, out: str) -> None:
    assert code == 2, out
    assert "Traceback" not in out
    assert " / " in out  # Japanese, then English


@pytest.mark.parametrize(
    ("line", "reason"),
    [
        (
            '{"table_id": "t1", "number": 1000000000000000000000000000000, "expression": "1d6", "faces": [1], '
            '"total": 1}',
            "number",
        ),
        ('{"table_id": "t1", "number": 0, "expression": "1d6", "faces": [1], "total": ' + "9" * 5000 + "}", "JSON"),
        ("[" * 100_000, "JSON"),
        (
            '{"table_id": "t1", "number": 0, "expression": "1d6", "faces": ' + "[" * 900 + "]" * 900 + ', "total": 1}',
            "faces",
        ),
        ('{"table_id": "\\ud800", "number": 0, "expression": "1d6", "faces": [1], "total": 1}', "table_id"),
        ('{"table_id": "t1", "number": 0, "shuffle": [[[1]]], "order": [[[1]]]}', "shuffle"),
    ],
)
def test_hostile_lines_are_refused_clearly(
    tmp_path: Path, capsys: pytest.CaptureFixture[str], line: str, reason: str
) -> None:
    code, out = _verify(tmp_path, capsys, [line])
    _refused(code, out)
    assert f"Line 1 of the log cannot be read ({reason})" in out


def test_dev_zero_as_the_log_is_refused(capsys: pytest.CaptureFixture[str]) -> None:
    code = main(["verify", "--seed", SEED.hex(), "--log", "/dev/zero"])
    _refused(code, capsys.readouterr().err)


def test_a_fifo_as_the_log_is_refused_without_waiting(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    fifo = tmp_path / "log.fifo"
    os.mkfifo(fifo)
    code = main(["verify", "--seed", SEED.hex(), "--log", str(fifo)])
    err = capsys.readouterr().err
    _refused(code, err)
    assert "not a regular file" in err


def test_one_line_with_a_far_draw_number_counts_the_gap_without_listing_it(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    """Draw #10**18 alone: 10**18 numbers are missing, counted, and only the first few named."""
    table = FairRandomness(SEED, "t1", next_number=10**18)
    code, out = _verify(tmp_path, capsys, [json.dumps(log_entry(roll("1d6", table), "t1"))])
    assert code == 1
    assert f"{10**18} draw(s) of table t1 are missing: #0, #1, #2" in out
    assert "#19 … (+999999999999999980)" in out
