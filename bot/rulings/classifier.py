"""Which passage is a question worded like the questions it answers? A classifier over the questions
players ask (rules/asked.toml and rules/written.toml), beside the search's own ranking.

The nearest asked question (bot/rulings/search.py, `_asked_votes`) matches a question's words one
asked question at a time; this weighs every question a passage answers together, by the character
pairs and triples and the English words they hold (naive Bayes), so a way of asking that no single
asked question has but several share (殴れる, "can my guy still…") still points at the passage.

Naive Bayes over the presence of features, with every feature of the question counted: a passage's
score is its log-likelihood of the question's features, relative to how often each occurs anywhere,
averaged over them. Only a passage's features that the question holds change it between passages,
so the index keeps, for each feature, the passages whose questions hold it most (POSTINGS), and a
question reads those and the number of questions of its candidate passages, never the whole model.
Features found in more than MAX_SHARE of all questions tell none apart and are skipped.
"""

from __future__ import annotations

import json
import math
import sqlite3
from collections import Counter
from collections.abc import Iterable, Sequence

from bot.rulings.chatter import WORD
from bot.rulings.chatter import features as message_features

SMOOTHING = 0.1  # a feature a passage's questions never hold is this many of them
MAX_SHARE = 0.1
POSTINGS = 100  # of each feature, the passages whose questions hold it most
FEATURES = 250  # of a question's features, the rarest: a long question's cost stays bounded
WORD_WEIGHT = 4.0  # an English word (or pair) against a character pair or triple

TrainingRow = tuple[int, str]  # passage rowid, a question it answers


def features(text: str) -> frozenset[str]:
    """The character pairs and triples of a question and its English words (bot/rulings/chatter.py),
    without single characters: a single kana is in every question."""
    return frozenset(f for f in message_features(text) if len(f) > 1)


def _weight(feature: str) -> float:
    return WORD_WEIGHT if feature.startswith(WORD) else 1.0


def write_classifier(db: sqlite3.Connection, rows: Iterable[TrainingRow]) -> None:
    """Add training questions to the index's model. Every question of a passage comes in one call:
    a passage's counts are written once."""
    per_passage: dict[int, Counter[str]] = {}
    questions: Counter[int] = Counter()
    df: Counter[str] = Counter()
    for passage, text in rows:
        found = features(text)
        per_passage.setdefault(passage, Counter()).update(found)
        questions[passage] += 1
        df.update(found)
    db.executemany(
        "INSERT INTO classifier_postings VALUES (?, ?, ?, ?)",
        (
            (f, count, passage, math.log1p(count / SMOOTHING))
            for passage, counts in per_passage.items()
            for f, count in counts.items()
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


# Each feature's first postings, weighted, summed per candidate by SQLite: one statement of the same
# text for every question (FEATURES parts, the unused ones for no feature), so SQLite compiles it once.
_EACH = (
    "SELECT passage, weight * ? AS s FROM "
    "(SELECT passage, weight FROM classifier_postings WHERE feature = ? ORDER BY count DESC LIMIT ?)"
)
_SUMS = (
    f"SELECT passage, sum(s) FROM ({' UNION ALL '.join([_EACH] * FEATURES)}) "
    "WHERE passage IN (SELECT value FROM json_each(?)) GROUP BY passage"
)


def scores(db: sqlite3.Connection, question: str, passages: Sequence[int], total: int) -> dict[int, float]:
    """Each candidate passage's score for the question (higher: more like the questions it answers),
    up to a constant of the question; passages the model has no question of are left out. `total`:
    how many questions the model was trained on."""
    if not total or not passages:
        return {}
    counted = sorted(
        (df, f)
        for f, df in db.execute(
            "SELECT feature, df FROM classifier_vocab WHERE feature IN (SELECT value FROM json_each(?))",
            (json.dumps(sorted(features(question)), ensure_ascii=False),),
        )
        if df <= MAX_SHARE * total
    )
    kept = [f for _, f in counted[:FEATURES]]
    if not kept:
        return {}
    wanted = json.dumps(sorted(set(passages)))
    sizes = dict(
        db.execute(
            "SELECT passage, n FROM classifier_passages WHERE passage IN (SELECT value FROM json_each(?))", (wanted,)
        )
    )
    params: list[object] = [p for f in kept for p in (_weight(f), f, POSTINGS)]
    params += [0.0, "", 0] * (FEATURES - len(kept))
    held = dict(db.execute(_SUMS, [*params, wanted]))
    spread = sum(_weight(f) for f in kept)
    return {p: (held.get(p, 0.0) - spread * math.log(n + 2 * SMOOTHING)) / len(kept) for p, n in sizes.items()}
