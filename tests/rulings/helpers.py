"""What the rulings tests share: the corpus's document ids, the ids a question's answer shows, and
whether a text is an evaluation question in other clothes."""

from __future__ import annotations

import tomllib
from collections.abc import Iterable
from pathlib import Path

from bot.rulings.models import Label
from bot.rulings.search import Rulebook

TESTS = Path(__file__).resolve().parent

HN = "horizonnotes-rules"
JUDGE = "lgi-rules-class-10"


def top_ids(rulebook: Rulebook, question: str, k: int = 3) -> list[str]:
    """The ids of the passages the answer shows, best first (none when it answers with none)."""
    return [h.id for h in rulebook.search(question, k=k).hits]


def is_outside(rulebook: Rulebook, question: str) -> bool:
    """No passage, labelled outside the corpus: what the search says of a message asking no rules."""
    answer = rulebook.search(question)
    return not answer.hits and answer.label is Label.OUTSIDE


def is_answered(rulebook: Rulebook, question: str) -> bool:
    """Passages shown, whatever their label: the search took it for a rules question."""
    answer = rulebook.search(question)
    return bool(answer.hits) and answer.label is not Label.OUTSIDE


def _bigrams(text: str) -> set[str]:
    text = "".join(text.lower().split())
    return {text[i : i + 2] for i in range(len(text) - 1)} or {text}


def close_to_evaluation(texts: Iterable[str]) -> list[str]:
    """The texts sharing half their character pairs with a question of tests/rulings/blind.toml or
    eval.toml (a shorter, reworded or typo-fixed copy included): the evaluation is blind to them."""
    evaluation = []
    for name in ("blind.toml", "eval.toml"):
        with (TESTS / name).open("rb") as fh:
            evaluation += [_bigrams(q["text"]) for q in tomllib.load(fh)["question"]]
    near = [
        t for t in texts for grams in [_bigrams(t)] if any(len(grams & e) / len(grams | e) >= 0.5 for e in evaluation)
    ]
    return near
