"""`referee console`: scripts, the transcript, --strict, --json, --seed and --db (resume after quitting)."""

from __future__ import annotations

import io
import json
from pathlib import Path

import pytest

from bot.__main__ import main
from bot.engine import events_from_json, replay

DEMO = Path(__file__).resolve().parents[2] / "docs" / "demo-game.txt"
START = "alice: /game start players:alice,bob decks:solar-vanguard,tidal-veil first:alice"
OPENING = [START, "alice: /pass", "bob: /pass"]  # both pass the charge phase: alice's main phase


def _script(tmp_path: Path, name: str, lines: list[str]) -> Path:
    path = tmp_path / name
    path.write_text("\n".join(lines) + "\n", encoding="utf-8")
    return path


def _console(capsys: pytest.CaptureFixture[str], *args: str | Path) -> tuple[int, str, str]:
    code = main(["console", "--locale", "en", *(str(a) for a in args)])
    captured = capsys.readouterr()
    return code, captured.out, captured.err


def test_the_demo_game_runs_strict_to_a_knock_out(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    head = DEMO.read_text(encoding="utf-8").splitlines()[:3]
    assert any("--seed 7 --strict" in line for line in head), "the demo says how to run it"
    code, out, err = _console(capsys, "--script", DEMO, "--seed", "7", "--strict", "--json")
    assert code == 0, err[-2000:]
    data = json.loads(out)
    assert data["finished"] is True
    assert data["state"]["winner"] is not None
    assert data["state"]["end_reason"] == "leader_knocked_out"
    assert "✗" not in err  # not one refused line
    assert "wins: the opposing leader was knocked out." in err


def test_json_events_replay_to_the_json_state(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    script = _script(tmp_path, "s.txt", [*OPENING, "alice: /skill unit:sola-lyne skill:light-bolt target:mizuha"])
    code, out, _ = _console(capsys, "--script", script, "--seed", "3", "--json")
    assert code == 0
    data = json.loads(out)
    assert data["finished"] is False and data["state"]["phase"] == "block"
    rebuilt = replay(events_from_json(json.dumps(data["events"])))
    assert rebuilt.model_dump(mode="json") == data["state"]


def test_the_transcript_echoes_each_line_then_the_table(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    script = _script(tmp_path, "s.txt", ["# opening", START, "bob: /hand"])
    code, out, _ = _console(capsys, "--script", script, "--seed", "1")
    assert code == 0
    lines = out.splitlines()
    assert lines[0] == "# opening"
    assert lines[1] == f"> {START}"
    assert lines[2] == "A game of HorizonNotes begins: alice vs bob."
    hand = lines.index("> bob: /hand")
    assert lines[hand + 1] == "🔒 only bob sees this"
    assert lines[hand + 2] == "┃ bob's hand (5)"


def test_same_seed_and_script_give_the_same_transcript(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    script = _script(tmp_path, "s.txt", [*OPENING, "alice: /skill unit:ハルト skill:紅蓮斬 target:ミズハ", "/roll 3d6"])
    first = _console(capsys, "--script", script, "--seed", "42")
    second = _console(capsys, "--script", script, "--seed", "42")
    other = _console(capsys, "--script", script, "--seed", "43")
    assert first == second
    assert first[1] != other[1]


def test_a_refused_line_is_explained_and_the_script_goes_on(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    script = _script(tmp_path, "s.txt", [START, "bob: /pass", "alice: /pass"])
    code, out, _ = _console(capsys, "--script", script, "--seed", "1")
    assert code == 0
    assert "✗ 拒否 / refused: 今はあなたの優先権ではありません。 / It is not your priority." in out
    assert "alice passes." in out


def test_strict_stops_at_the_first_refusal(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    script = _script(tmp_path, "s.txt", [START, "bob: /pass", "alice: /pass"])
    code, out, _ = _console(capsys, "--script", script, "--seed", "1", "--strict")
    assert code == 1
    assert "It is not your priority" in out
    assert "> alice: /pass" not in out


def test_a_game_in_db_resumes_where_it_stopped(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    db = tmp_path / "table.sqlite3"
    rest = ["alice: /skill unit:ハルト skill:紅蓮斬 target:ミズハ", "bob: /noblock", "alice: /pass"]
    code, _, _ = _console(capsys, "--db", db, "--script", _script(tmp_path, "a.txt", OPENING), "--seed", "9")
    assert code == 0
    # Quit, start again on the same file: the table is shown as it was and play goes on.
    code, out, _ = _console(capsys, "--db", db, "--script", _script(tmp_path, "b.txt", rest), "--seed", "9", "--json")
    assert code == 0
    resumed = json.loads(out)
    # The same moves in one sitting end at the same table.
    code, out, _ = _console(capsys, "--script", _script(tmp_path, "all.txt", OPENING + rest), "--seed", "9", "--json")
    assert code == 0
    assert json.loads(out)["state"] == resumed["state"]
    assert resumed["state"]["phase"] == "main" and resumed["state"]["active"] == 1


def test_resuming_prints_the_board_first(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    db = tmp_path / "table.sqlite3"
    _console(capsys, "--db", db, "--script", _script(tmp_path, "a.txt", OPENING), "--seed", "9")
    code, out, _ = _console(capsys, "--db", db, "--script", _script(tmp_path, "b.txt", ["alice: /pass"]))
    assert code == 0
    assert out.splitlines()[0] == "Turn 1 · alice's turn · Main phase"
    assert "alice passes." in out


def test_without_db_each_run_has_a_fresh_table(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    script = _script(tmp_path, "s.txt", [START])
    assert _console(capsys, "--script", script)[0] == 0
    code, out, _ = _console(capsys, "--script", script)
    assert code == 0 and "already running" not in out


def test_piped_stdin_is_played_like_a_script(
    capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setattr("sys.stdin", io.TextIOWrapper(io.BytesIO(f"{START}\n/game status\n".encode())))
    code, out, _ = _console(capsys, "--seed", "2")
    assert code == 0
    assert f"> {START}" in out and "Turn 1 · alice's turn · Charge phase" in out


def test_a_missing_or_non_utf8_script_is_refused_before_any_table_is_made(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    db = tmp_path / "table.sqlite3"
    code, _, err = _console(capsys, "--db", db, "--script", tmp_path / "nope.txt")
    assert code == 2 and "does not exist" in err and "nope.txt" in err and "ありません" in err
    latin = tmp_path / "latin.txt"
    latin.write_bytes(START.encode("utf-8").replace(b"alice", b"al\xefce"))
    code, _, err = _console(capsys, "--db", db, "--script", latin)
    assert code == 2 and "not UTF-8" in err
    assert not db.exists()


def test_ctrl_c_at_the_prompt_leaves_quietly_and_the_table_is_kept(tmp_path: Path) -> None:
    import signal
    import subprocess
    import sys

    db = tmp_path / "table.sqlite3"
    proc = subprocess.Popen(
        [sys.executable, "-m", "bot", "console", "--db", str(db), "--locale", "en"],
        stdin=subprocess.PIPE,
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
        text=True,
        cwd=tmp_path,
    )
    assert proc.stdin is not None and proc.stdout is not None
    proc.stdin.write(START + "\n")
    proc.stdin.flush()
    for line in proc.stdout:  # wait until the start was played and committed
        if "Fair dice: commitment" in line:
            break
    else:
        pytest.fail(f"the console ended early: {proc.communicate()[1]}")
    proc.send_signal(signal.SIGINT)
    # stdin stays open until the console has gone: closed at once, an end of input could end it first
    proc.wait(timeout=30)
    _, err = proc.communicate(timeout=30)
    assert proc.returncode == 130 and "Traceback" not in err
    again = subprocess.run(
        [sys.executable, "-m", "bot", "console", "--db", str(db), "--locale", "en"],
        input="",
        capture_output=True,
        text=True,
        cwd=tmp_path,
        check=False,
    )
    assert again.returncode == 0 and again.stdout.startswith("Turn 1 · alice's turn · Charge phase")


def test_each_line_of_stdin_that_is_not_utf8_is_named_not_played_and_the_run_ends_with_2(
    tmp_path: Path, capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch
) -> None:
    db = tmp_path / "table.sqlite3"
    piped = f"{START}\nalice: /pass\n".encode() + b"bob: /pa\xffss\n/game status\n\xc3(\n"
    monkeypatch.setattr("sys.stdin", io.TextIOWrapper(io.BytesIO(piped)))
    code, out, err = _console(capsys, "--db", db)
    assert code == 2 and "Traceback" not in err
    for line in (3, 5):
        assert f"Line {line} of standard input is not UTF-8 text; it was not played" in err
    assert "標準入力の 3 行目" in err
    assert "Turn 1 · alice's turn · Main phase" not in out.split("> /game status")[1]  # bob never passed


def test_an_endless_line_on_stdin_is_refused(
    tmp_path: Path, capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setattr("sys.stdin", io.TextIOWrapper(io.BytesIO(b"\0" * 200_000)))
    code, _, err = _console(capsys, "--db", tmp_path / "t.sqlite3")
    assert code == 2 and "is larger than 65536 bytes" in err


@pytest.mark.parametrize("kind", ["dev-zero", "fifo", "folder"])
def test_a_script_that_is_not_a_regular_file_is_refused_at_once(
    tmp_path: Path, capsys: pytest.CaptureFixture[str], kind: str
) -> None:
    import os

    if kind == "dev-zero":
        path = Path("/dev/zero")
    elif kind == "fifo":
        path = tmp_path / "pipe"
        os.mkfifo(path)  # nobody writes to it: reading it would hang for ever
    else:
        path = tmp_path
    db = tmp_path / "table.sqlite3"
    code, _, err = _console(capsys, "--db", db, "--script", path)
    assert code == 2 and "is not a regular file" in err and "Traceback" not in err
    assert not db.exists()
