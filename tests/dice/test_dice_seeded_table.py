"""`referee console --seed N` derives the table's seed from N, so anyone who knows N knows every roll
and shuffle: such a table says plainly that its dice are reproducible, not fair, and shows no
commitment. Without --seed the seed is the OS's secret and the commitment is published."""

from __future__ import annotations

import re
import sqlite3
from contextlib import closing
from pathlib import Path

import pytest

from bot.__main__ import main
from bot.cli.console import seeded
from bot.dice import REPRODUCIBLE, FairRandomness, ReproducibleSeed

DEMO = Path(__file__).resolve().parents[2] / "docs" / "demo-game.txt"
HEX64 = re.compile(r"\b[0-9a-f]{64}\b")
START = "alice: /game start players:alice,bob decks:solar-vanguard,tidal-veil first:alice"


def _console(tmp_path: Path, capsys: pytest.CaptureFixture[str], *args: str) -> str:
    script = tmp_path / "opening.txt"
    script.write_text(f"{START}\n/game status\n", encoding="utf-8")
    db = tmp_path / "table.sqlite3"
    assert main(["console", "--locale", "en", "--db", str(db), "--script", str(script), *args]) == 0
    return capsys.readouterr().out


def _stored_commitment(tmp_path: Path) -> str:
    with closing(sqlite3.connect(tmp_path / "table.sqlite3")) as conn:
        (commitment,) = conn.execute("SELECT commitment FROM games").fetchone()
    assert isinstance(commitment, str)
    return commitment


def test_a_seeded_table_says_its_dice_are_reproducible_and_shows_no_commitment(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    out = _console(tmp_path, capsys, "--seed", "7")
    start, status = out.split("> /game status")
    for shown in (start, status):  # the start message and the board
        assert "Dice: reproducible, not fair" in shown
    assert "Fair dice" not in out and "commitment " not in out
    assert not HEX64.search(out), "no hash is shown as if it were a commitment"
    assert _stored_commitment(tmp_path) == REPRODUCIBLE


def test_a_seeded_table_still_replays_exactly(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    (tmp_path / "a").mkdir()
    (tmp_path / "b").mkdir()
    assert _console(tmp_path / "a", capsys, "--seed", "7") == _console(tmp_path / "b", capsys, "--seed", "7")


def test_a_fair_table_publishes_a_commitment_to_a_secret_seed_from_the_os(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    commitments = []
    for run in ("a", "b"):
        (tmp_path / run).mkdir()
        out = _console(tmp_path / run, capsys)
        shown = re.findall(r"Fair dice: commitment ([0-9a-f]{64})", out)
        assert len(shown) == 2 and shown[0] == shown[1] == _stored_commitment(tmp_path / run)
        assert "reproducible" not in out
        commitments.append(shown[0])
    assert commitments[0] != commitments[1], "two fair tables never share a seed"


def test_the_console_seed_factory_marks_its_seeds_reproducible() -> None:
    seed = seeded(7, 1, lambda: 0)()
    assert isinstance(seed, ReproducibleSeed)
    assert FairRandomness(seed, "t").commitment == REPRODUCIBLE
    # The same bytes as a secret: a fair table, with a real commitment.
    assert HEX64.fullmatch(FairRandomness(bytes(seed), "t").commitment)
