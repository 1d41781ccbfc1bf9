"""The rulebook is built once per test session from the real corpus in rules/."""

from __future__ import annotations

import tomllib
from collections.abc import Iterator
from pathlib import Path

import pytest

from bot.rulings.corpus import load_corpus
from bot.rulings.models import ParsedDocument
from bot.rulings.search import Rulebook

RULES = Path(__file__).resolve().parents[2] / "rules"
EVAL = Path(__file__).resolve().parent / "eval.toml"


@pytest.fixture(scope="session")
def rules_dir() -> Path:
    return RULES


@pytest.fixture(scope="session")
def documents() -> dict[str, ParsedDocument]:
    docs, _ = load_corpus(RULES)
    return {d.meta.id: d for d in docs}


@pytest.fixture(scope="session")
def index_dir(tmp_path_factory: pytest.TempPathFactory) -> Path:
    return tmp_path_factory.mktemp("rulings-data")


@pytest.fixture(scope="session")
def rulebook(index_dir: Path) -> Iterator[Rulebook]:
    book = Rulebook.open(index_dir, RULES, dense=False)  # the lexical ranking, whether the extra is installed or not
    yield book
    book.close()


@pytest.fixture(scope="session")
def eval_questions() -> list[dict[str, object]]:
    with EVAL.open("rb") as fh:
        return list(tomllib.load(fh)["question"])


@pytest.fixture
def cli_data_dir(index_dir: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    """Point `referee` at the session's cache folder, so CLI tests reuse the index built once."""
    monkeypatch.setenv("REFEREE_CACHE_DIR", str(index_dir))
    return index_dir
