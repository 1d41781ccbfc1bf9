"""Files a user names are read only when they are regular files of a sane size, as UTF-8."""

from __future__ import annotations

import os
import threading
from pathlib import Path

import pytest

from bot.files import InputFileError, read_text


def test_a_regular_utf8_file_is_read(tmp_path: Path) -> None:
    path = tmp_path / "script.txt"
    path.write_bytes("\ufeffalice: /pass\n".encode())
    assert read_text(path) == "alice: /pass\n"


def test_dev_zero_is_refused_without_reading_it() -> None:
    with pytest.raises(InputFileError) as info:
        read_text("/dev/zero")
    assert info.value.message_key == "common.file.not_regular"
    assert "/dev/zero" in info.value.bilingual()


def test_a_fifo_is_refused_at_once(tmp_path: Path) -> None:
    fifo = tmp_path / "pipe"
    os.mkfifo(fifo)
    result: list[str] = []
    worker = threading.Thread(target=lambda: result.append(_key(fifo)), daemon=True)
    worker.start()
    worker.join(timeout=5)
    assert result == ["common.file.not_regular"]  # and it did not hang waiting for a writer


def test_a_folder_a_missing_file_an_oversized_file_and_non_utf8_are_refused(tmp_path: Path) -> None:
    big = tmp_path / "big.txt"
    big.write_bytes(b"x" * 2048)
    latin = tmp_path / "latin.txt"
    latin.write_bytes(b"caf\xe9")
    assert _key(tmp_path) == "common.file.not_regular"
    assert _key(tmp_path / "nope.txt") == "common.file.missing"
    with pytest.raises(InputFileError) as info:
        read_text(big, limit=1024)
    assert info.value.message_key == "common.file.too_large"
    assert _key(latin) == "common.file.not_utf8"


def _key(path: Path | str) -> str:
    try:
        read_text(path)
    except InputFileError as exc:
        return exc.message_key
    return "read"
