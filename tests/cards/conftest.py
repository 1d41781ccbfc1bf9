"""Fixtures for the card tests: the shipped folder, and writable copies of it to break."""

from __future__ import annotations

import shutil
from pathlib import Path

import pytest

from bot.catalog import Catalog, load_catalog
from bot.paths import data_folder


@pytest.fixture(scope="session")
def cards_dir() -> Path:
    return data_folder("cards")


@pytest.fixture(scope="session")
def shipped(cards_dir: Path) -> Catalog:
    return load_catalog(cards_dir)


@pytest.fixture
def copy_dir(cards_dir: Path, tmp_path: Path) -> Path:
    """A private copy of the shipped cards folder that a test may break."""
    target = tmp_path / "cards"
    shutil.copytree(cards_dir, target)
    return target


def edit(path: Path, old: str, new: str) -> None:
    """Replace `old` (which must occur) with `new` once in a data file."""
    text = path.read_text(encoding="utf-8")
    assert old in text, f"{old!r} not in {path}"
    path.write_text(text.replace(old, new, 1), encoding="utf-8")
