"""Bad input: malformed rows, a newer schema, an unusable file or folder. Clear errors, nothing lost."""

from __future__ import annotations

import ctypes
import hashlib
import sqlite3
import subprocess
import sys
import textwrap
from pathlib import Path

import pytest

from bot.store import CorruptRow, DatabaseBusy, DatabaseUnusable, SchemaTooNew, Store
from bot.store.migrations import MIGRATIONS

CHANNEL = 55


def _game(path: Path) -> int:
    with Store.open(path) as store:
        game = store.start(CHANNEL, {"hp": 20}, [{"type": "GameStarted"}])
        store.commit(CHANNEL, {"hp": 18}, [{"type": "Damage", "amount": 2}], 1)
        return game.id


def _raw(path: Path, sql: str, *params: object) -> None:
    with sqlite3.connect(path) as conn:
        conn.execute("DROP TRIGGER IF EXISTS actions_no_update")  # only to plant damage for the test
        conn.execute(sql, params)


def test_a_malformed_state_is_reported_with_its_game_and_left_untouched(db_path: Path) -> None:
    game_id = _game(db_path)
    _raw(db_path, "UPDATE games SET state = '{\"hp\": 18' WHERE id = ?", game_id)
    with Store.open(db_path) as store:
        game = store.load(CHANNEL)
        with pytest.raises(CorruptRow) as info:
            game.state_dict()
        assert f"game {game_id}" in info.value.bilingual()
        assert store.load(CHANNEL).state == '{"hp": 18'


def test_a_malformed_version_is_reported_not_guessed(db_path: Path) -> None:
    _game(db_path)
    _raw(db_path, "UPDATE games SET version = 'two' WHERE channel_id = ?", CHANNEL)
    with Store.open(db_path) as store, pytest.raises(CorruptRow) as info:
        store.load(CHANNEL)
    assert "channel_id=55" in info.value.bilingual()


def test_a_malformed_event_is_reported_with_its_sequence_number(db_path: Path) -> None:
    game_id = _game(db_path)
    _raw(db_path, "UPDATE actions SET events = 'not json' WHERE game_id = ? AND first_seq = 2", game_id)
    with Store.open(db_path) as store:
        with pytest.raises(CorruptRow) as info:
            store.events(game_id)
        assert "seq 2" in info.value.bilingual()
        assert store.load(CHANNEL).version == 2  # the game itself is left as it was


def test_an_event_that_is_json_but_not_an_event_is_reported_with_its_sequence_number(db_path: Path) -> None:
    game_id = _game(db_path)
    _raw(db_path, "UPDATE actions SET events = '[[1, 2]]' WHERE game_id = ? AND first_seq = 2", game_id)
    with Store.open(db_path) as store:
        events = store.events(game_id)
        with pytest.raises(CorruptRow) as info:
            [e.data_dict() for e in events]
        assert "seq 2" in info.value.bilingual()


def test_a_database_from_a_newer_schema_is_refused_and_not_touched(db_path: Path) -> None:
    _game(db_path)
    with sqlite3.connect(db_path) as conn:
        conn.execute(
            "INSERT INTO _sqlite_migrations (migration_set, name, applied_at) VALUES (?, 'm999_future', 'later')",
            (MIGRATIONS.name,),
        )
    before = hashlib.sha256(db_path.read_bytes()).hexdigest()
    with pytest.raises(SchemaTooNew) as info:
        Store.open(db_path)
    assert "m999_future" in info.value.bilingual()
    assert hashlib.sha256(db_path.read_bytes()).hexdigest() == before


def test_a_file_that_is_not_sqlite_is_refused_and_not_touched(tmp_path: Path) -> None:
    path = tmp_path / "referee.sqlite3"
    path.write_bytes(b"these are my notes, not a database" * 200)
    before = path.read_bytes()
    with pytest.raises(DatabaseUnusable) as info:
        Store.open(path)
    assert str(path) in info.value.bilingual()
    assert path.read_bytes() == before


def test_a_data_folder_that_cannot_exist_is_a_clear_error(tmp_path: Path) -> None:
    blocker = tmp_path / "data"
    blocker.write_text("a file where the data folder should be")
    with pytest.raises(DatabaseUnusable) as info:
        Store.open(blocker / "referee.sqlite3")
    assert "REFEREE_DATA_DIR" in info.value.bilingual()
    assert blocker.read_text() == "a file where the data folder should be"


# A read-only folder means nothing to root, so the child that tries it drops the two capabilities that
# let root ignore file permissions (or simply runs as the ordinary user it already is).
_CHILD = textwrap.dedent(
    """
    import sys
    from bot.store import Store, StoreError
    try:
        with Store.open(sys.argv[1]) as store:
            store.commit(55, {"hp": 0}, [{"type": "Lost"}], store.load(55).version)
    except StoreError as exc:
        print(exc.bilingual())
        sys.exit(2)
    """
)


def _without_root_powers() -> None:
    libc = ctypes.CDLL(None, use_errno=True)
    for capability in (1, 2):  # CAP_DAC_OVERRIDE, CAP_DAC_READ_SEARCH
        libc.prctl(24, capability, 0, 0, 0)  # PR_CAPBSET_DROP: gone for the program exec'd next


@pytest.mark.parametrize("existing", [True, False])
def test_a_read_only_data_folder_is_a_clear_error_and_loses_nothing(tmp_path: Path, existing: bool) -> None:
    folder = tmp_path / "ro"
    folder.mkdir()
    path = folder / "referee.sqlite3"
    if existing:
        _game(path)
    folder.chmod(0o555)
    try:
        proc = subprocess.run(
            [sys.executable, "-c", _CHILD, str(path)],
            capture_output=True,
            text=True,
            preexec_fn=_without_root_powers,
            check=False,
        )
    finally:
        folder.chmod(0o755)
    assert proc.returncode == 2, proc.stderr
    assert "ro/referee.sqlite3" in proc.stdout and "writable" in proc.stdout
    if existing:
        with Store.open(path) as store:
            assert store.load(CHANNEL).state_dict() == {"hp": 18}
    else:
        assert not path.exists()


def test_a_file_held_by_another_process_is_busy_not_lost(db_path: Path) -> None:
    _game(db_path)
    holder = sqlite3.connect(db_path, isolation_level=None)
    holder.execute("BEGIN IMMEDIATE")  # another process in the middle of a long write
    try:
        with Store.open(db_path, busy_timeout_ms=50) as store:
            with pytest.raises(DatabaseBusy) as info:
                store.commit(CHANNEL, {"hp": 1}, [{"type": "Damage", "amount": 17}], 2)
            assert "referee.sqlite3" in info.value.bilingual()
    finally:
        holder.execute("ROLLBACK")
        holder.close()
    with Store.open(db_path) as store:
        assert (store.load(CHANNEL).version, store.load(CHANNEL).state_dict()) == (2, {"hp": 18})
        store.commit(CHANNEL, {"hp": 1}, [{"type": "Damage", "amount": 17}], 2)  # and it goes through now
