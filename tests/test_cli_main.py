"""The `referee` entry point: argument errors are bilingual, bytes that are not UTF-8 are refused,
and a subcommand loads only its own modules."""

from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path

import pytest

from bot.__main__ import main


def _referee(*args: str | bytes, cwd: Path) -> subprocess.CompletedProcess[str]:
    env = {**os.environ, "PYTHONIOENCODING": "utf-8"}
    return subprocess.run(
        [sys.executable, "-m", "bot", *args], capture_output=True, text=True, cwd=cwd, env=env, check=False
    )


def test_an_expression_starting_with_a_dash_gets_a_bilingual_error_and_the_way_to_pass_it(
    capsys: pytest.CaptureFixture[str],
) -> None:
    assert main(["roll", "-1d6"]) == 2
    err = capsys.readouterr().err
    assert "コマンドラインが正しくありません" in err and "The command line is not right" in err
    assert "referee roll -- -1d6+3" in err
    assert "Traceback" not in err


def test_the_dash_hint_works(capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["roll", "--json", "--", "-1d6+10"]) == 0
    assert json.loads(capsys.readouterr().out)["total"] >= 4


def test_a_mistyped_command_is_a_bilingual_error(capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["rol", "3d6"]) == 2
    err = capsys.readouterr().err
    assert "invalid choice" in err and "使い方" in err
    assert "-- -1d6" not in err  # no dash in sight, so no dash hint


def test_arguments_that_are_not_utf8_are_refused_without_a_traceback(tmp_path: Path) -> None:
    proc = _referee("roll", b"3d6 \xff\xfe", cwd=tmp_path)
    assert proc.returncode == 2
    assert "UTF-8" in proc.stderr and "Traceback" not in proc.stderr


def test_a_roll_loads_neither_the_engine_nor_the_store(tmp_path: Path) -> None:
    code = (
        "import sys; from bot.__main__ import main; main(['roll', '3d6']); "
        "print(sorted(m for m in sys.modules if m.startswith(('bot.engine', 'bot.store', 'bot.service', "
        "'bot.rulings', 'sqlite_utils', 'discord'))))"
    )
    proc = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, cwd=tmp_path, check=True)
    assert proc.stdout.strip().splitlines()[-1] == "[]"
