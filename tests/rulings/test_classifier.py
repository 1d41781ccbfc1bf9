"""The question classifier (bot/rulings/classifier.py): a question worded like the questions a passage
answers ranks that passage higher, what rules/written.toml teaches it finds passages the rules' words
alone do not, and no question text breaks it."""

from __future__ import annotations

import math
import shutil
import sqlite3
import tempfile
import tomllib
from collections.abc import Iterator
from pathlib import Path

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from bot.rulings.classifier import MAX_SHARE, features, scores, write_classifier
from bot.rulings.corpus import TUNING_FILE, WRITTEN_FILE
from bot.rulings.index import SCHEMA
from bot.rulings.search import Rulebook

from .helpers import HN, top_ids

BLOCKING = ["ブロックって誰が宣言するの？", "壁になれるのはどのユニット？", "Who gets to block an attack?"]
DRAWING = ["ドローフェイズで何枚引く？", "手札は何枚まで補充する？", "How many cards do I draw each turn?"]
# Every question of both holds these: in more than MAX_SHARE of all questions, they tell none apart.
FILLER = ["ってどうなるの", "ってどうなるの？", "How does it work?"]
# Questions of other passages, as a real model has many: a word in one question in ten is common.
OTHERS = [(10 + n, f"{topic}の{n}番目") for n, topic in enumerate(["勝敗", "山札", "墓地", "得点"] * 8)]


def _model(rows: list[tuple[int, str]]) -> sqlite3.Connection:
    db = sqlite3.connect(":memory:")
    db.executescript(SCHEMA)
    write_classifier(db, rows)
    return db


@pytest.fixture
def model() -> Iterator[sqlite3.Connection]:
    db = _model([(1, q) for q in BLOCKING] + [(2, q) for q in DRAWING] + OTHERS)
    yield db
    db.close()


def _total(db: sqlite3.Connection) -> int:
    return int(db.execute("SELECT value FROM meta WHERE key = 'classifier_questions'").fetchone()[0])


def test_a_question_worded_like_a_passages_questions_ranks_it_first(model: sqlite3.Connection) -> None:
    blocking = scores(model, "ブロックを宣言できるのは誰？", [1, 2], _total(model))
    drawing = scores(model, "ドローは何枚引くの？", [1, 2], _total(model))
    assert blocking[1] > blocking[2]
    assert drawing[2] > drawing[1]


def test_only_the_candidates_asked_about_are_scored(model: sqlite3.Connection) -> None:
    assert set(scores(model, "ブロックを宣言できるのは誰？", [2, 99], _total(model))) == {2}


def test_words_every_question_holds_tell_no_passage_apart() -> None:
    db = _model([(1, q) for q in FILLER] + [(2, q) for q in FILLER])
    common = [f for f in features("ってどうなるの？") if f in features(FILLER[0])]
    (df,) = db.execute("SELECT df FROM classifier_vocab WHERE feature = ?", (common[0],)).fetchone()
    assert df > MAX_SHARE * _total(db)
    assert scores(db, "ってどうなるの？", [1, 2], _total(db)) == {}


def test_questions_added_later_count_beside_the_first_ones(model: sqlite3.Connection) -> None:
    """bench/rulings.py grows an index with more passages and their questions: the model takes them in."""
    write_classifier(model, [(3, "ループって何回まで回していい？"), (3, "無限ループは引き分け？")])
    assert _total(model) == len(BLOCKING) + len(DRAWING) + len(OTHERS) + 2
    found = scores(model, "ループは何回まで？", [1, 2, 3], _total(model))
    assert max(found, key=found.__getitem__) == 3


@settings(max_examples=150, deadline=None)
@given(text=st.text(max_size=400))
def test_any_question_text_gets_finite_scores_or_none(text: str) -> None:
    db = _model([(1, q) for q in BLOCKING] + [(2, q) for q in DRAWING] + OTHERS)
    try:
        found = scores(db, text, [1, 2], _total(db))
    finally:
        db.close()
    assert set(found) <= {1, 2} and all(math.isfinite(v) for v in found.values())


def test_what_the_written_questions_teach_finds_a_passage_the_rules_words_do_not(rules_dir: Path) -> None:
    """チャフェ is no word of the rules (the charge phase is チャージフェイズ); questions naming it under
    the charge phase teach the classifier, and a question using it gets that passage first."""
    question = "チャフェのフェイズって何するの？"
    with tempfile.TemporaryDirectory() as tmp:
        folder = Path(tmp) / "rules"
        shutil.copytree(rules_dir, folder)
        (folder / TUNING_FILE).unlink()  # the blind set's tuning questions use the word too
        (folder / WRITTEN_FILE).write_text(
            f'["{HN}/07/01"]\n'
            'ja = ["チャフェって何する時間？", "チャフェで手札のカード送るんだっけ", "チャフェにやること忘れた", '
            '"チャフェは何番目のフェイズ？"]\n',
            encoding="utf-8",
        )
        taught = Rulebook.open(Path(tmp) / "a", folder)
        (folder / WRITTEN_FILE).unlink()
        untaught = Rulebook.open(Path(tmp) / "b", folder)
        try:
            assert top_ids(taught, question)[0] == f"{HN}/07/01"
            assert f"{HN}/07/01" not in top_ids(untaught, question)
        finally:
            taught.close()
            untaught.close()


def test_the_tuning_questions_teach_the_classifier(rules_dir: Path) -> None:
    """rules/tuning.toml (the blind set's tuning questions) teaches the classifier: asked again, the
    questions it holds find their labelled passage first more often than an index without it does.
    (What it does on questions it was not taught is bench/taught.py's to measure.)"""
    answers: dict[str, set[str]] = {}  # a question is under each passage labelled as its answer
    with (rules_dir / TUNING_FILE).open("rb") as fh:
        for pid, entry in tomllib.load(fh).items():
            for q in [*entry["ja"], *entry["en"]]:
                answers.setdefault(q, set()).add(pid)
    sample = sorted(answers)[::5]
    with tempfile.TemporaryDirectory() as tmp:
        folder = Path(tmp) / "rules"
        shutil.copytree(rules_dir, folder)
        (folder / TUNING_FILE).unlink()
        taught = Rulebook.open(Path(tmp) / "a", rules_dir)
        untaught = Rulebook.open(Path(tmp) / "b", folder)
        try:
            firsts = [
                sum(bool(ids) and ids[0] in answers[q] for q in sample for ids in [top_ids(book, q)])
                for book in (taught, untaught)
            ]
        finally:
            taught.close()
            untaught.close()
    assert firsts[0] >= firsts[1] + 0.1 * len(sample)
