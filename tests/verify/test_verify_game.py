"""A judge checks a finished console game's fair dice: `referee verify --db`, and `referee replay
--roll-log` followed by `referee verify --seed --log`. Tampering with one roll or shuffle is caught and
named; a running game's seed stays secret."""

from __future__ import annotations

import asyncio
import contextlib
import hashlib
import json
import re
import shutil
import sqlite3
from pathlib import Path
from typing import Any

import pytest

from bot.__main__ import main

DEMO = Path(__file__).resolve().parents[2] / "docs" / "demo-game.txt"
CHANNEL = "1"


def play_fair(db: Path, lines: list[str]) -> str:
    """Play `lines` at a fair table (a secret seed, its commitment published) and return the transcript.

    The demo's moves fit the deck orders of `--seed 7`, so the table gets that seed, but as a fair
    table's secret (plain bytes): `referee console --seed` itself runs a reproducible table instead,
    which has no commitment to check."""
    from bot.catalog import load_catalog
    from bot.cli.console import console_table_id, seeded
    from bot.console.session import ConsoleSession
    from bot.console.transcript import play_lines
    from bot.service import TableService
    from bot.store import Store

    out: list[str] = []

    async def play() -> int:
        with Store.open(db) as store:
            secret = seeded(7, int(CHANNEL), lambda: len(store.history(int(CHANNEL))))
            service = TableService(
                store, load_catalog, seed_factory=lambda: bytes(secret()), table_id_factory=console_table_id
            )
            try:
                return await play_lines(
                    ConsoleSession(service, channel_id=int(CHANNEL), locale="ja"), lines, out.append
                )
            finally:
                service.close()

    assert asyncio.run(play()) == 0
    return "\n".join(out)


@pytest.fixture(scope="module")
def played(tmp_path_factory: pytest.TempPathFactory) -> tuple[Path, str]:
    """The demo game played to its knock-out on a database file; the file and the console transcript."""
    db = tmp_path_factory.mktemp("played") / "game.sqlite3"
    transcript = play_fair(db, DEMO.read_text(encoding="utf-8").splitlines())
    assert "✗" not in transcript, "a line of the demo was refused"
    return db, transcript


@pytest.fixture
def db(played: tuple[Path, str], tmp_path: Path) -> Path:
    """A copy of the played game's database that a test may tamper with."""
    copy = tmp_path / "game.sqlite3"
    shutil.copy(played[0], copy)
    return copy


def _run(capsys: pytest.CaptureFixture[str], *args: str | Path) -> tuple[int, str, str]:
    code = main([str(a) for a in args])
    captured = capsys.readouterr()
    return code, captured.out, captured.err


def _sql(db: Path, query: str, *params: object) -> list[tuple[Any, ...]]:
    with contextlib.closing(sqlite3.connect(db)) as conn, conn:
        return conn.execute(query, params).fetchall()


def _forge(db: Path, table: str, set_sql: str, where_sql: str, *params: object) -> None:
    """Change a stored row the way someone holding the file could: past the append-only triggers."""
    with contextlib.closing(sqlite3.connect(db)) as conn, conn:
        triggers = conn.execute("SELECT name FROM sqlite_master WHERE type = 'trigger' AND tbl_name = ?", (table,))
        for (name,) in triggers.fetchall():
            conn.execute(f'DROP TRIGGER "{name}"')
        conn.execute(f"UPDATE {table} SET {set_sql} WHERE {where_sql}", params)


def _forge_event(db: Path, seq: int, event: dict[str, object]) -> None:
    """Replace event `seq` of the channel's game inside the log row of the action that holds it."""
    _forge(
        db,
        "actions",
        "events = json_set(events, '$[' || (? - first_seq) || ']', json(?))",
        "first_seq <= ? AND ? < first_seq + json_array_length(events)",
        seq,
        json.dumps(event),
        seq,
        seq,
    )


def _game(db: Path) -> tuple[str, str]:
    """The stored seed (hex) and commitment of the channel's game, read from the file itself."""
    seed, commitment = _sql(db, "SELECT seed, commitment FROM games WHERE channel_id = ?", int(CHANNEL))[0]
    assert isinstance(seed, bytes) and isinstance(commitment, str)
    return seed.hex(), commitment


def _flip(faces: list[int]) -> list[int]:
    return [faces[0] % 6 + 1, *faces[1:]]


def test_the_transcript_publishes_the_commitment_first_and_the_seed_at_the_end(played: tuple[Path, str]) -> None:
    db, transcript = played
    seed, commitment = _game(db)
    assert hashlib.sha256(bytes.fromhex(seed)).hexdigest() == commitment
    start = transcript.index("/game start")
    first_roll = transcript.index("（ダイス #")
    shown_commitment = transcript.index(commitment, start)
    assert shown_commitment < first_roll, "the commitment is shown as the game opens, before any roll"
    assert seed not in transcript[:first_roll]
    knock_out = transcript.index("🏆")
    assert transcript.index(seed) > knock_out, "the seed is revealed when the game ends"


def test_a_finished_game_verifies_from_the_database(db: Path, capsys: pytest.CaptureFixture[str]) -> None:
    rolls = _sql(db, "SELECT count(*) FROM events WHERE type = 'dice_rolled'")[0][0]
    shuffles = _sql(db, "SELECT count(*) FROM events WHERE type IN ('deck_shuffled', 'deck_rebuilt')")[0][0]
    code, out, err = _run(capsys, "verify", "--db", db, "--channel", CHANNEL)
    assert code == 0, err
    assert f"{rolls} rolls and {shuffles} shuffles" in out
    assert f"ダイス {rolls} 回・シャッフル {shuffles} 回" in out
    assert _game(db)[1] in out and "ok" in out


def test_the_exported_log_verifies_with_the_revealed_seed(db: Path, capsys: pytest.CaptureFixture[str]) -> None:
    seed, commitment = _game(db)
    log = db.parent / "rolls.jsonl"
    code, out, _ = _run(capsys, "replay", CHANNEL, "--db", db, "--roll-log", log, "--locale", "en")
    assert code == 0
    assert f"referee verify --seed {seed} --log {log} --commitment {commitment}" in out
    entries = [json.loads(line) for line in log.read_text(encoding="utf-8").splitlines()]
    assert sorted(e["number"] for e in entries) == list(range(len(entries))), "every draw, none twice"
    assert any("shuffle" in e for e in entries) and any("expression" in e for e in entries)
    code, out, err = _run(capsys, "verify", "--seed", seed, "--log", log, "--commitment", commitment)
    assert code == 0, err
    assert f"all {len(entries)} records" in out


def test_a_tampered_stored_roll_fails_and_is_named(db: Path, capsys: pytest.CaptureFixture[str]) -> None:
    seq, data = _sql(db, "SELECT seq, data FROM events WHERE type = 'dice_rolled' ORDER BY seq DESC LIMIT 1")[0]
    event = json.loads(str(data))
    event["faces"] = _flip(event["faces"])
    _forge_event(db, int(seq), event)
    code, _, err = _run(capsys, "verify", "--db", db, "--channel", CHANNEL)
    assert code == 1
    assert f"roll #{event['number']} ({event['purpose']}, {event['expression']}, event {seq})" in err
    assert "FAILED" in err and "1 problem" in err


def test_a_tampered_filed_roll_fails_and_is_named(db: Path, capsys: pytest.CaptureFixture[str]) -> None:
    row, number, faces = _sql(db, "SELECT id, number, faces FROM rolls WHERE number IS NOT NULL LIMIT 1")[0]
    stored = json.loads(str(faces))
    _forge(db, "rolls", "faces = ?", "id = ?", json.dumps([_flip(stored[0])]), row)
    code, _, err = _run(capsys, "verify", "--db", db, "--channel", CHANNEL)
    assert code == 1
    assert f"filed roll {row} in the rolls table (#{number}" in err


def test_a_deleted_filed_roll_fails_and_is_named(db: Path, capsys: pytest.CaptureFixture[str]) -> None:
    """Each roll of the game is filed as it is made: a row taken out of the rolls table is missed."""
    rows = _sql(db, "SELECT id, number, expression FROM rolls WHERE number IS NOT NULL ORDER BY number")
    row, number, expression = rows[len(rows) // 2]
    with contextlib.closing(sqlite3.connect(db)) as conn, conn:
        for (name,) in conn.execute("SELECT name FROM sqlite_master WHERE type = 'trigger' AND tbl_name = 'rolls'"):
            conn.execute(f'DROP TRIGGER "{name}"')
        conn.execute("DELETE FROM rolls WHERE id = ?", (row,))
    code, _, err = _run(capsys, "verify", "--db", db, "--channel", CHANNEL)
    assert code == 1
    assert f"roll #{number} ({expression}, event " in err and "not in the rolls table" in err
    assert "FAILED" in err


def test_a_tampered_deck_order_fails_and_is_named(db: Path, capsys: pytest.CaptureFixture[str]) -> None:
    seq, data = _sql(db, "SELECT seq, data FROM events WHERE type = 'deck_shuffled' ORDER BY seq LIMIT 1")[0]
    event = json.loads(str(data))
    order = event["order"]
    swap = next(i for i in range(1, len(order)) if order[i] != order[0])
    order[0], order[swap] = order[swap], order[0]
    _forge_event(db, int(seq), event)
    code, _, err = _run(capsys, "verify", "--db", db, "--channel", CHANNEL)
    assert code == 1
    assert f"shuffle #{event['number']} (seat {event['seat']}'s deck, event {seq}): at card 1 " in err


def test_a_hidden_draw_is_reported_missing(db: Path, capsys: pytest.CaptureFixture[str]) -> None:
    """A roll whose number is moved on leaves a gap: someone drew from the table and hid it."""
    seq, data = _sql(db, "SELECT seq, data FROM events WHERE type = 'dice_rolled' ORDER BY seq LIMIT 1")[0]
    event = json.loads(str(data))
    hidden = event["number"]
    event["number"] = 10_000
    _forge_event(db, int(seq), event)
    _forge(db, "rolls", "number = NULL", "number = ?", hidden)
    code, _, err = _run(capsys, "verify", "--db", db, "--channel", CHANNEL)
    assert code == 1
    assert f"draw #{hidden} is missing" in err


def test_a_tampered_exported_face_fails_and_is_named(db: Path, capsys: pytest.CaptureFixture[str]) -> None:
    seed, _ = _game(db)
    log = db.parent / "rolls.jsonl"
    assert _run(capsys, "replay", CHANNEL, "--db", db, "--roll-log", log)[0] == 0
    lines = log.read_text(encoding="utf-8").splitlines()
    index = next(i for i, line in enumerate(lines) if "expression" in line)
    entry = json.loads(lines[index])
    entry["faces"] = _flip(entry["faces"])
    lines[index] = json.dumps(entry)
    log.write_text("\n".join(lines) + "\n", encoding="utf-8")
    code, _, err = _run(capsys, "verify", "--seed", seed, "--log", log)
    assert code == 1
    assert f"line {index + 1} (table {entry['table_id']}, #{entry['number']}, {entry['expression']})" in err


def test_a_running_game_keeps_its_seed_secret(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    db = tmp_path / "running.sqlite3"
    play_fair(db, DEMO.read_text(encoding="utf-8").splitlines()[:40])
    seed, commitment = _game(db)
    assert _sql(db, "SELECT status FROM games")[0][0] == "active"
    assert _sql(db, "SELECT count(*) FROM events WHERE type = 'dice_rolled'")[0][0] > 0, "it has rolls to check"

    code, out, err = _run(capsys, "verify", "--db", db, "--channel", CHANNEL)
    assert code == 2
    assert "まだ進行中" in err and "still running" in err and commitment in err
    assert seed not in out + err

    log = tmp_path / "rolls.jsonl"
    code, out, err = _run(capsys, "replay", CHANNEL, "--db", db, "--roll-log", log, "--locale", "en")
    assert code == 0
    exported = log.read_text(encoding="utf-8")
    entries = [json.loads(line) for line in exported.splitlines()]
    assert entries and all("shuffle" not in e for e in entries), "a running game's deck orders stay hidden"
    assert seed not in exported and seed not in out + err
    assert re.search(r"still running", out)


def test_the_commitment_seen_at_the_start_is_checked_against_the_file(
    db: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    """A file whose seed, commitment and rolls were all replaced together is consistent with itself;
    the commitment the players saw at the start is what gives it away."""
    _, commitment = _game(db)
    assert _run(capsys, "verify", "--db", db, "--channel", CHANNEL, "--commitment", commitment)[0] == 0
    other = hashlib.sha256(b"another seed").hexdigest()
    code, _, err = _run(capsys, "verify", "--db", db, "--channel", CHANNEL, "--commitment", other)
    assert code == 1
    assert f"the published value is {other}" in err


def test_every_roll_of_the_game_is_filed_including_the_one_that_ended_it(played: tuple[Path, str]) -> None:
    # The demo ends on a damage roll: that last action's rolls must reach the rolls table too.
    db, _ = played
    logged = sorted(
        json.loads(data)["number"]
        for (data,) in _sql(db, "SELECT data FROM events WHERE type = 'dice_rolled'")
        if json.loads(data).get("number") is not None
    )
    filed = sorted(n for (n,) in _sql(db, "SELECT number FROM rolls WHERE number IS NOT NULL"))
    assert logged and filed == logged
    (next_roll,) = _sql(db, "SELECT next_roll FROM games WHERE channel_id = ?", int(CHANNEL))[0]
    assert next_roll == max(logged) + 1


def test_a_seeded_game_is_checked_but_called_reproducible_not_fair(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    """`referee console --seed 7` plays a reproducible table: no commitment to check, and verify says
    the draws agree with the seed without calling the dice fair."""
    db = tmp_path / "seeded.sqlite3"
    assert _run(capsys, "console", "--db", db, "--script", DEMO, "--seed", "7", "--strict")[0] == 0
    code, out, err = _run(capsys, "verify", "--db", db, "--channel", CHANNEL)
    assert code == 0, err
    assert "reproducible, not fair" in out and "再現用" in out
    assert "Its dice were reproducible, not fair." in out and "commitment reproducible" not in out
    log = tmp_path / "rolls.jsonl"
    code, out, _ = _run(capsys, "replay", CHANNEL, "--db", db, "--roll-log", log, "--locale", "en")
    assert code == 0
    command = next(line for line in out.splitlines() if "referee verify --seed" in line).split()
    code, out, err = _run(capsys, *command[command.index("verify") :])
    assert code == 0, err
    assert "reproducible, not fair" in out and "Commitment" not in out + err
