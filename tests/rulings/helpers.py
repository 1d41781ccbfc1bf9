"""What the rulings tests share: the corpus's document ids and the ids a question's answer shows."""

from __future__ import annotations

from bot.rulings.search import Rulebook

HN = "horizonnotes-rules"
JUDGE = "lgi-rules-class-10"


def top_ids(rulebook: Rulebook, question: str, k: int = 3) -> list[str]:
    """The ids of the passages the answer shows, best first (none when it answers with none)."""
    return [h.id for h in rulebook.search(question, k=k).hits]
