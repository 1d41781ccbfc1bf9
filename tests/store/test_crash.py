"""Crash test: a player process is killed with SIGKILL at random moments, again and again.

After every kill: the database opens, its integrity check passes, the current game's stored state
equals the replay of its events, no game's log has a gap or a repeat, no acknowledged move is
missing, and the next player continues from the last committed move. Players concede now and then,
so games are also killed while being archived or started. At the end every game replays exactly.
On SQLite and on PostgreSQL (where a killed client's open transaction is rolled back by the server).
"""

from __future__ import annotations

import os
import random
import signal
import sqlite3
import subprocess
import sys
import time
from pathlib import Path
from typing import IO

from bot.service import TableService
from tests.store.conftest import open_target

ROOT = Path(__file__).resolve().parents[2]
CHANNEL = 8800
KILLS = 55


def _line(stream: IO[str], errors: Path | None = None) -> str:
    line = stream.readline()
    assert line, f"the crash player died on its own:\n{_said(errors)}"
    return line.strip()


def _said(errors: Path | None) -> str:
    """What the crash player wrote to stderr (a traceback when it died on its own)."""
    return errors.read_text(errors="replace")[-3000:] if errors is not None and errors.exists() else ""


def _settled(db: str) -> None:
    """Wait until the killed player's server process is gone. A client killed just after sending
    COMMIT leaves the server to finish that commit on its own: read meanwhile, the game row and its
    log could come from before and after it."""
    import psycopg

    with psycopg.connect(db, autocommit=True) as conn:
        for _ in range(200):
            busy = conn.execute(
                "SELECT count(*) FROM pg_stat_activity WHERE datname = current_database() "
                "AND pid <> pg_backend_pid() AND state IN ('active', 'idle in transaction')"
            ).fetchone()
            if busy is not None and busy[0] == 0:
                return
            time.sleep(0.025)
    raise AssertionError("the killed player's server process did not finish")


def _check(db: str) -> dict[int, tuple[int, bool]]:
    """Check the database as a restarted bot would find it; return each game's (version, running)."""
    if db.startswith("postgresql://"):
        _settled(db)
    else:
        with sqlite3.connect(db) as conn:
            assert conn.execute("PRAGMA integrity_check").fetchone()[0] == "ok"
    games: dict[int, tuple[int, bool]] = {}
    with open_target(db) as store:
        service = TableService(store)
        for game in store.history(CHANNEL):
            log = store.events(game.id)
            assert [e.seq for e in log] == list(range(1, game.last_seq + 1)), "a gap or a repeat in the log"
            assert sorted({e.version for e in log}) == list(range(1, game.version + 1)), "a commit went missing"
            if game.active or game.id == max(g.id for g in store.history(CHANNEL)):
                assert service.check_replay(game.id).matches, f"game {game.id}: stored state != replay"
            games[game.id] = (game.version, game.active)
    return games


def test_a_player_killed_at_random_moments_loses_nothing(store_target: str, tmp_path: Path) -> None:
    db = store_target
    rnd = random.Random(20261130)
    errors = tmp_path / "crash-player.stderr"
    err = errors.open("w")
    proc = subprocess.Popen(
        [sys.executable, "-m", "tests.store.crash_player", db, str(CHANNEL)],
        cwd=ROOT,
        stdin=subprocess.PIPE,
        stdout=subprocess.PIPE,
        stderr=err,
        text=True,
        bufsize=1,
    )
    assert proc.stdin is not None and proc.stdout is not None
    try:
        assert _line(proc.stdout) == "ready"
        before: dict[int, tuple[int, bool]] = {}
        total = 0
        for round_no in range(KILLS):
            proc.stdin.write(f"{round_no}\n")
            proc.stdin.flush()
            kind, pid = _line(proc.stdout).split()
            assert kind == "pid"
            commits: list[tuple[int, int]] = []
            if rnd.random() < 0.85:  # mostly mid-game; sometimes while it is still opening the file
                line = _line(proc.stdout, errors)
                assert line.startswith("commit"), f"the player died before its first move ({line}):\n{_said(errors)}"
                _, game_text, version_text = line.split()
                commits.append((int(game_text), int(version_text)))
                time.sleep(rnd.uniform(0, 0.1))
            os.kill(int(pid), signal.SIGKILL)
            while (line := _line(proc.stdout, errors)).startswith("commit"):
                _, game_text, version_text = line.split()
                commits.append((int(game_text), int(version_text)))
            status = int(line.split()[1])
            assert os.WIFSIGNALED(status) and os.WTERMSIG(status) == signal.SIGKILL
            after = _check(db)
            if commits:
                # It went on from the last committed move: the same game one version further, or a
                # new game once the last one was over.
                game, version = commits[0]
                running = [g for g, (_, active) in before.items() if active]
                if running:
                    assert (game, version) == (running[0], before[running[0]][0] + 1)
                else:
                    assert game not in before and version == 1
                # Every acknowledged commit is stored (the kill may also have landed just after a
                # commit and before its report).
                game, version = commits[-1]
                assert after[game][0] in (version, version + 1)
            total += len(commits)
            before = after
        assert total >= KILLS, f"the players made only {total} moves in {KILLS} rounds"
        assert len(before) > 1, "no game ended (and was archived) during the run"
        with open_target(db) as store:
            service = TableService(store)
            assert all(service.check_replay(game_id).matches for game_id in before)
    finally:
        proc.stdin.close()
        proc.wait(timeout=30)
        err.close()
