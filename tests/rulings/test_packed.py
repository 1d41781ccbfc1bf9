"""The index keeps each term's (and each classifier feature's) first postings packed in one row
(bot/rulings/packed.py): what is packed reads back the same, and asked questions added later (as
bench/rulings.py grows an index) are ranked among the earlier ones as if they had come at once."""

from __future__ import annotations

import sqlite3

from hypothesis import given
from hypothesis import strategies as st

from bot.rulings.index import ASKED_POSTINGS, SCHEMA, length_norm, saturate, write_asked
from bot.rulings.packed import pack, unpack


@given(st.lists(st.integers(min_value=-(2**63), max_value=2**63 - 1)), st.lists(st.floats(allow_nan=False)))
def test_packed_numbers_read_back_the_same(ints: list[int], floats: list[float]) -> None:
    assert list(unpack("q", pack("q", ints))) == ints
    assert list(unpack("d", pack("d", floats))) == floats


# Questions of different lengths, so their terms weigh differently (BM25's length normalisation), all
# holding the term ドロー: five times as many as a term keeps.
ROWS = [(n % 7 + 1, f"q{n}", ["ドロー", *(f"語{n}_{k}" for k in range(n % 9))]) for n in range(5 * ASKED_POSTINGS)]


def _first(db: sqlite3.Connection, term: str) -> list[tuple[int, float]]:
    (asked, impacts) = db.execute("SELECT asked, impacts FROM asked_first WHERE term = ?", (term,)).fetchone()
    return list(zip(unpack("q", asked), unpack("d", impacts), strict=True))


def test_a_term_keeps_the_asked_questions_it_weighs_most_in_whether_written_at_once_or_later() -> None:
    at_once, later = sqlite3.connect(":memory:"), sqlite3.connect(":memory:")
    for db in (at_once, later):
        db.executescript(SCHEMA)
    average = write_asked(at_once, ROWS)
    write_asked(later, ROWS[:50], average=average)
    write_asked(later, ROWS[50:], average=average)
    first = _first(at_once, "ドロー")
    assert first == _first(later, "ドロー")
    assert len(first) == ASKED_POSTINGS
    # Most first, ties by the earlier question; none left out weighs more than the last kept.
    assert first == sorted(first, key=lambda posting: (-posting[1], posting[0]))
    kept = {asked for asked, _ in first}
    left_out = [
        saturate(1.0 / length_norm(len(set(terms)), average))
        for n, (_, _, terms) in enumerate(ROWS, start=1)
        if n not in kept
    ]
    assert left_out and max(left_out) <= first[-1][1]
    (df,) = at_once.execute("SELECT df FROM asked_vocab WHERE term = 'ドロー'").fetchone()
    assert df == len(ROWS) and len({impact for _, impact in first}) > 1
    at_once.close()
    later.close()
