"""`referee replay --roll-log FILE` never overwrites a file unless told to, and never the database."""

from __future__ import annotations

import hashlib
from pathlib import Path

import pytest

from bot.__main__ import main
from bot.files import OutputFileError, write_new_text
from bot.service import TableService
from bot.store import Store
from tests.store.tables import AKI, catalog, start

CH = 7300


async def _game(db_path: Path) -> None:
    with Store.open(db_path) as store:
        service = TableService(store, catalog)
        await service.start_game(CH, AKI, start())
        service.close()


def _digest(path: Path) -> str:
    return hashlib.sha256(path.read_bytes()).hexdigest()


async def test_the_roll_log_never_replaces_the_database_it_reads(
    db_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    await _game(db_path)
    before = _digest(db_path)
    for extra in ([], ["--force"]):
        code = main(["replay", str(CH), "--db", str(db_path), "--roll-log", str(db_path), *extra])
        assert code == 2
        err = capsys.readouterr().err
        assert str(db_path) in err and "database" in err
    assert _digest(db_path) == before
    with Store.open(db_path) as store:
        assert store.find(CH) is not None


async def test_the_database_is_protected_through_another_name_too(
    db_path: Path, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    await _game(db_path)
    link = tmp_path / "link.sqlite3"
    link.symlink_to(db_path)
    hard = tmp_path / "hard.sqlite3"
    hard.hardlink_to(db_path)
    before = _digest(db_path)
    for other in (link, hard, db_path.parent / ".." / "data" / db_path.name):
        assert main(["replay", str(CH), "--db", str(db_path), "--roll-log", str(other), "--force"]) == 2
    assert _digest(db_path) == before
    assert "--force" not in capsys.readouterr().out


async def test_an_existing_file_is_kept_unless_force_is_given(
    db_path: Path, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    await _game(db_path)
    out = tmp_path / "rolls.jsonl"
    out.write_text("keep me\n", encoding="utf-8")
    assert main(["replay", str(CH), "--db", str(db_path), "--roll-log", str(out)]) == 2
    err = capsys.readouterr().err
    assert "--force" in err and str(out) in err
    assert out.read_text(encoding="utf-8") == "keep me\n"
    assert main(["replay", str(CH), "--db", str(db_path), "--roll-log", str(out), "--force"]) == 0
    assert out.read_text(encoding="utf-8") != "keep me\n"


def test_a_new_file_is_written_and_a_folder_or_missing_parent_is_a_message(tmp_path: Path) -> None:
    target = tmp_path / "new.txt"
    write_new_text(target, "one\n", force=False)
    assert target.read_text(encoding="utf-8") == "one\n"
    with pytest.raises(OutputFileError) as info:
        write_new_text(target, "two\n", force=False)
    assert info.value.message_key == "common.file.exists"
    for bad in (tmp_path, tmp_path / "no" / "such" / "folder.txt"):
        with pytest.raises(OutputFileError):
            write_new_text(bad, "x", force=True)
    assert tmp_path.is_dir()


def test_the_sidecar_files_of_a_protected_database_are_protected(tmp_path: Path) -> None:
    db = tmp_path / "x.sqlite3"
    db.write_bytes(b"")
    for name in ("x.sqlite3-wal", "x.sqlite3-shm", "x.sqlite3-journal"):
        with pytest.raises(OutputFileError) as info:
            write_new_text(tmp_path / name, "x", force=True, protect=(db,))
        assert info.value.message_key == "common.file.protected"
