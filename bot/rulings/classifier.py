"""Which passage is a question worded like the questions it answers? A classifier over the questions
players ask (rules/asked.toml and rules/written.toml), beside the search's own ranking.

The nearest asked question (bot/rulings/search.py, `_asked_votes`) matches a question's words one
asked question at a time; this weighs every question a passage answers together, by the character
pairs and triples and the English words they hold (naive Bayes), so a way of asking that no single
asked question has but several share (殴れる, "can my guy still…") still points at the passage.

Naive Bayes over the presence of features, with every feature of the question counted: a passage's
score is its log-likelihood of the question's features, relative to how often each occurs anywhere,
averaged over them. Only a passage's features that the question holds change it between passages,
so the index keeps, for each feature, the passages whose questions hold it most (POSTINGS), packed in
one row, and a question reads those rows and the number of questions of its candidate passages, never
the whole model.
Features found in more than MAX_SHARE of all questions tell none apart and are skipped.
"""

from __future__ import annotations

import json
import math
import sqlite3
from bisect import bisect_left
from collections import Counter
from collections.abc import Iterable, Sequence
from dataclasses import dataclass, field

from bot.rulings.chatter import WORD
from bot.rulings.chatter import features as message_features
from bot.rulings.packed import FirstPostings, pack, unpack
from bot.rulings.recent import Recent

# Chosen leave-one-batch-out (bench/taught.py) in the fourteenth round. SMOOTHING, WORD_WEIGHT: recall@1,
# recall@3, English recall@3, house rule shown: 0.1, 4 (before) 0.835 0.929 0.911 0.673; 0.1, 8 0.838
# 0.933 0.920 0.688; 0.07, 8 0.842 0.931 0.920 0.702; 0.05, 8 0.853 0.927 0.916 0.712; 0.03, 8 0.851 0.920
# 0.903 0.716; 0.05, 6 0.849 0.927 0.916 0.707. 0.07 and 8: no figure below the old one's, where 0.05
# lost recall@3 and the house rule on deck size (tests/rulings/test_generalise.py).
SMOOTHING = 0.07  # a feature a passage's questions never hold is this many of them
MAX_SHARE = 0.1
POSTINGS = 100  # of each feature, the passages whose questions hold it most
FEATURES = 250  # of a question's features, the rarest: a long question's cost stays bounded
REMEMBERED = 16384  # features (and passages) whose rows of the model a Rulebook keeps between searches
WORD_WEIGHT = 8.0  # an English word (or pair) against a character pair or triple

TrainingRow = tuple[int, str]  # passage rowid, a question it answers


def features(text: str) -> frozenset[str]:
    """The character pairs and triples of a question and its English words (bot/rulings/chatter.py),
    without single characters: a single kana is in every question."""
    return frozenset(f for f in message_features(text) if len(f) > 1)


def _weight(feature: str) -> float:
    return WORD_WEIGHT if feature.startswith(WORD) else 1.0


def write_classifier(db: sqlite3.Connection, rows: Iterable[TrainingRow]) -> None:
    """Add training questions to the index's model. Every question of a passage comes in one call:
    a passage's counts are written once, and are merged with the postings of earlier calls."""
    per_passage: dict[int, Counter[str]] = {}
    questions: Counter[int] = Counter()
    df: Counter[str] = Counter()
    for passage, text in rows:
        found = features(text)
        per_passage.setdefault(passage, Counter()).update(found)
        questions[passage] += 1
        df.update(found)
    first = FirstPostings(POSTINGS)
    for feature, data, counts in db.execute("SELECT feature, passages, counts FROM classifier_first"):
        first.add_row(feature, data, counts, "q")
    while per_passage:
        passage, counted = per_passage.popitem()
        for f, count in counted.items():
            first.add(f, count, passage)
    db.executemany(
        "INSERT OR REPLACE INTO classifier_first VALUES (?, ?, ?, ?)",
        (
            (
                f,
                pack("q", (p for _, p in kept)),
                pack("q", (c for c, _ in kept)),
                pack("d", (math.log1p(c / SMOOTHING) for c, _ in kept)),
            )
            # By passage: a search finds its candidates' postings by bisection (_read_postings).
            for f, kept in ((f, sorted(kept, key=lambda posting: posting[1])) for f, kept in first.first())
        ),
    )
    db.executemany(
        "INSERT INTO classifier_passages VALUES (?, ?) ON CONFLICT(passage) DO UPDATE SET n = n + excluded.n",
        questions.items(),
    )
    db.executemany(
        "INSERT INTO classifier_vocab VALUES (?, ?) ON CONFLICT(feature) DO UPDATE SET df = df + excluded.df",
        df.items(),
    )
    total = sum(questions.values())
    db.execute(
        "INSERT INTO meta VALUES ('classifier_questions', ?) "
        "ON CONFLICT(key) DO UPDATE SET value = CAST(value AS INTEGER) + CAST(excluded.value AS INTEGER)",
        (str(total),),
    )


@dataclass
class Reading:
    """What one search has read of the model so far: each feature's df, each passage's number of
    questions, and each feature's first postings among the candidates they were read for. The parts
    of a question hold mostly the whole question's features and rank a subset of its candidates, so
    a part reads little that the whole question did not already."""

    df: dict[str, int | None] = field(default_factory=dict)  # None: no question holds it
    sizes: dict[int, int | None] = field(default_factory=dict)  # None: the model has no question of it
    postings: dict[str, dict[int, float]] = field(default_factory=dict)
    among: frozenset[int] = frozenset()  # the candidates `postings` were read for


class Remembered:
    """What earlier searches read of the model, kept for later ones (bot/rulings/recent.py): each
    feature's df and packed first postings, each passage's number of questions, the `limit` most
    recently used of each."""

    def __init__(self, limit: int = REMEMBERED) -> None:
        self.df: Recent[str, int | None] = Recent(limit)
        self.first: Recent[str, tuple[bytes, bytes] | None] = Recent(limit)  # None: no row
        self.sizes: Recent[int, int | None] = Recent(limit)


# Features' first postings, each feature's packed in one row: read a posting a row, they were a third
# of a long question's search at 100x the corpus (and the index file two and a half times as large).
_FIRST = "SELECT feature, passages, weights FROM classifier_first WHERE feature IN (SELECT value FROM json_each(?))"


def _read_df(db: sqlite3.Connection, reading: Reading, found: Iterable[str], remembered: Remembered) -> None:
    missing = remembered.df.recall(sorted(f for f in found if f not in reading.df), reading.df)
    if not missing:
        return
    rows = dict(
        db.execute(
            "SELECT feature, df FROM classifier_vocab WHERE feature IN (SELECT value FROM json_each(?))",
            (json.dumps(missing, ensure_ascii=False),),
        )
    )
    read = [(f, rows.get(f)) for f in missing]
    reading.df.update(read)
    remembered.df.keep(read)


def _read_postings(
    db: sqlite3.Connection, reading: Reading, kept: Sequence[str], among: frozenset[int], remembered: Remembered
) -> None:
    if not among <= reading.among:  # other candidates than those read for: read afresh
        reading.postings, reading.among = {}, among
    among = reading.among
    packed: dict[str, tuple[bytes, bytes] | None] = {}
    missing = remembered.first.recall([f for f in kept if f not in reading.postings], packed)
    if missing:
        read: dict[str, tuple[bytes, bytes] | None] = dict.fromkeys(missing)  # no row: holding no candidate
        for f, data, weights in db.execute(_FIRST, (json.dumps(missing, ensure_ascii=False),)):
            read[f] = (data, weights)
        packed.update(read)
        remembered.first.keep(read.items())
    for f, row in packed.items():
        # Intersected in C: a feature's postings are many, the candidates among them few; each found
        # one's weight is then looked up by bisection in the postings, which are sorted by passage.
        passages = unpack("q", row[0]) if row else ()
        held = among.intersection(passages)
        weights = unpack("d", row[1]) if held and row else ()
        reading.postings[f] = {p: weights[bisect_left(passages, p)] for p in held}
    unread = remembered.sizes.recall(sorted(p for p in reading.among if p not in reading.sizes), reading.sizes)
    if unread:
        sizes: dict[int, int | None] = dict.fromkeys(unread)
        sizes.update(
            db.execute(
                "SELECT passage, n FROM classifier_passages WHERE passage IN (SELECT value FROM json_each(?))",
                (json.dumps(unread),),
            )
        )
        reading.sizes.update(sizes)
        remembered.sizes.keep(sizes.items())


def scores(
    db: sqlite3.Connection,
    question: str,
    passages: Sequence[int],
    total: int,
    reading: Reading | None = None,
    remembered: Remembered | None = None,
) -> dict[int, float]:
    """Each candidate passage's score for the question (higher: more like the questions it answers),
    up to a constant of the question; passages the model has no question of are left out. `total`:
    how many questions the model was trained on; `reading`: what this search has read already;
    `remembered`: what earlier searches read."""
    if not total or not passages:
        return {}
    reading = reading if reading is not None else Reading()
    remembered = remembered if remembered is not None else Remembered(0)
    found = features(question)
    _read_df(db, reading, found, remembered)
    counted = sorted((df, f) for f in found if (df := reading.df[f]) is not None and df <= MAX_SHARE * total)
    kept = [f for _, f in counted[:FEATURES]]
    if not kept:
        return {}
    candidates = frozenset(passages)
    _read_postings(db, reading, kept, candidates, remembered)
    held: dict[int, float] = {}
    weights = [_weight(f) for f in kept]
    whole = candidates == reading.among  # every posting read is a candidate's (a part's are fewer)
    for f, weight in zip(kept, weights, strict=True):
        postings = reading.postings[f]
        for passage in postings if whole else candidates.intersection(postings):
            held[passage] = held.get(passage, 0.0) + weight * postings[passage]
    spread = sum(weights)
    return {
        p: (held.get(p, 0.0) - spread * math.log(n + 2 * SMOOTHING)) / len(kept)
        for p in candidates
        if (n := reading.sizes.get(p)) is not None
    }
