"""Retrieval reads each rare term's postings best first (bot/rulings/index.py): the weights kept in the
index must be the ones the ranking gives, or the first few of a term would not be its best passages."""

from __future__ import annotations

import math

import pytest

from bot.rulings.query import QueryPlan
from bot.rulings.search import Rulebook


def test_every_term_has_one_posting_per_passage_holding_it(rulebook: Rulebook) -> None:
    df = dict(rulebook.db.execute("SELECT term, df FROM vocab"))
    postings = dict(rulebook.db.execute("SELECT term, count(*) FROM postings GROUP BY term"))
    assert postings == {term: n for term, n in df.items() if n}


@pytest.mark.parametrize("term", ["ダメージ", "タップ", "攻撃力", "エーテル", "持続"])
def test_a_terms_postings_are_ordered_by_the_rankings_own_weight(rulebook: Rulebook, term: str) -> None:
    rows = rulebook.db.execute(
        "SELECT impact, passage FROM postings WHERE term = ? ORDER BY impact DESC", (term,)
    ).fetchall()
    assert len(rows) >= 3
    plan = QueryPlan(terms=[term], weights={term: 1.0})
    parsed = rulebook._read_rows([passage for _, passage in rows])  # as a search reads its candidates
    for impact, passage in rows:
        shares = rulebook._shares(parsed[passage], {term})
        assert math.isclose(rulebook.idf(term) * impact, rulebook._bm25f(plan, shares), rel_tol=1e-6)
    impacts = [impact for impact, _ in rows]
    assert impacts == sorted(impacts, reverse=True)
