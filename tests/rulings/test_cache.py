"""The rulings index is a cache: kept in the cache folder, rebuilt when it does not open, and a
folder it cannot be written to is a message, not a traceback."""

from __future__ import annotations

import os
import shutil
import sqlite3
from pathlib import Path

import pytest

from bot.__main__ import main
from bot.rulings.errors import RulingsError
from bot.rulings.index import ensure_index, index_path
from bot.rulings.search import Rulebook
from bot.settings import Settings


def _break(path: Path, how: str) -> None:
    if how == "garbage":
        path.write_bytes(b"\x00\xffnot a database at all" * 100)
    elif how == "truncated":
        data = path.read_bytes()
        path.write_bytes(data[: len(data) // 3])
    elif how == "empty":
        path.write_bytes(b"")
    else:  # a real SQLite file with some other schema
        path.unlink()
        db = sqlite3.connect(path)
        db.execute("CREATE TABLE other(x)")
        db.commit()
        db.close()


@pytest.mark.parametrize("how", ["garbage", "truncated", "empty", "wrong schema"])
def test_a_broken_index_file_is_rebuilt(tmp_path: Path, rules_dir: Path, how: str) -> None:
    path = ensure_index(tmp_path / "cache", rules_dir)
    _break(path, how)
    book = Rulebook.open(tmp_path / "cache", rules_dir, dense=False)
    try:
        assert book.search("DEF タップ状態").hits
    finally:
        book.close()


@pytest.mark.parametrize("how", ["garbage", "truncated", "wrong schema"])
def test_the_command_answers_again_after_the_index_is_damaged(
    tmp_path: Path, rules_dir: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str], how: str
) -> None:
    monkeypatch.setenv("REFEREE_CACHE_DIR", str(tmp_path / "cache"))
    assert main(["ruling", "DEF"]) == 0
    (index,) = (tmp_path / "cache").rglob("index-*.sqlite3")
    _break(index, how)
    capsys.readouterr()
    assert main(["ruling", "DEF"]) == 0
    out, err = capsys.readouterr()
    assert "[1]" in out and err == ""


def test_a_read_only_cache_folder_is_a_message(
    tmp_path: Path, rules_dir: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    cache = tmp_path / "cache"
    cache.mkdir()
    cache.chmod(0o500)
    if os.geteuid() == 0:  # root writes into any folder by mode bits; sysfs refuses even root
        if not os.path.isdir("/sys/kernel"):
            pytest.skip("no read-only folder for root here")
        cache = Path("/sys/kernel/horizonnotes-referee-cache")
    try:
        monkeypatch.setenv("REFEREE_CACHE_DIR", str(cache))
        assert main(["ruling", "DEF"]) == 2
        out, err = capsys.readouterr()
        assert out == "" and str(cache) in err and "キャッシュ" in err and "cache folder" in err
    finally:
        (tmp_path / "cache").chmod(0o700)


def test_an_over_long_cache_folder_is_a_message(tmp_path: Path, rules_dir: Path) -> None:
    with pytest.raises(RulingsError) as caught:
        Rulebook.open(tmp_path / ("x" * 300) / "cache", rules_dir)
    assert caught.value.message_key == "rulings.cache_unusable"


def test_a_cache_path_that_is_a_file_is_a_message(tmp_path: Path, rules_dir: Path) -> None:
    (tmp_path / "cache").write_text("a file, not a folder", encoding="utf-8")
    with pytest.raises(RulingsError) as caught:
        Rulebook.open(tmp_path / "cache", rules_dir)
    assert caught.value.message_key == "rulings.cache_unusable"


def test_the_cache_is_the_users_cache_folder_not_the_working_directory(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.delenv("REFEREE_CACHE_DIR", raising=False)
    monkeypatch.setenv("XDG_CACHE_HOME", str(tmp_path / "xdg"))
    monkeypatch.chdir(tmp_path)
    assert Settings().cache_dir == tmp_path / "xdg" / "horizonnotes-referee"
    monkeypatch.delenv("XDG_CACHE_HOME")
    monkeypatch.setenv("HOME", str(tmp_path / "home"))
    assert Settings().cache_dir == tmp_path / "home" / ".cache" / "horizonnotes-referee"
    monkeypatch.setenv("REFEREE_CACHE_DIR", str(tmp_path / "mine"))
    assert Settings().cache_dir == tmp_path / "mine"


def test_ruling_writes_nothing_in_the_folder_it_runs_from(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    work = tmp_path / "work"
    work.mkdir()
    monkeypatch.chdir(work)
    monkeypatch.delenv("REFEREE_DATA_DIR", raising=False)
    monkeypatch.setenv("REFEREE_CACHE_DIR", str(tmp_path / "cache"))
    assert main(["ruling", "DEF"]) == 0
    assert list(work.iterdir()) == []
    assert list((tmp_path / "cache").rglob("index-*.sqlite3"))


def test_index_path_lives_under_the_cache_folder(tmp_path: Path, rules_dir: Path) -> None:
    assert index_path(tmp_path, rules_dir).is_relative_to(tmp_path)
    shutil.rmtree(tmp_path, ignore_errors=True)


QUESTIONS = [
    "ブロックってアンタップのアルカステラしかできない？",
    "Can I do ether conversion during my opponent's turn?",
    "2d6のダメージって、DEFを引く前に振るの？",
    "タップしたアルカステラのDEFはいくつになる？",
    "Does 'during their next turn' mean the chosen character's player?",
    "えーてるへんかんって1ターンに何回できる？",
    "who publishes horizonnotes",
    "Elsa's ability: when is the character chosen, when it's played or when it resolves?",
    "負けた…DEF高いやつばっかで疲れた",
    "ドローフェイズで何枚引く？スタートフェイズって何するの？",
]


def test_what_a_rulebook_keeps_between_searches_never_changes_an_answer(rulebook: Rulebook) -> None:
    """A Rulebook keeps what its searches read (typo look-ups, the models' rows): after many other
    questions, each question gets the answer a Rulebook opened for it alone gives."""
    for question in QUESTIONS * 2:
        rulebook.search(question)
    for question in QUESTIONS:
        fresh = Rulebook(rulebook.path)
        try:
            assert rulebook.search(question) == fresh.search(question), question
        finally:
            fresh.close()
