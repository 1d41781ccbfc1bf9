"""What the rulings tests share: the corpus's document ids, the ids a question's answer shows, and
whether a text is an evaluation question in other clothes."""

from __future__ import annotations

import math
import tomllib
from collections import Counter
from collections.abc import Iterable
from pathlib import Path

from bot.rulings.chatter import ChatterModel
from bot.rulings.corpus import load_asked, load_chatter, load_corpus
from bot.rulings.models import Label
from bot.rulings.search import Rulebook

TESTS = Path(__file__).resolve().parent

HN = "horizonnotes-rules"
JUDGE = "lgi-rules-class-10"


def top_ids(rulebook: Rulebook, question: str, k: int = 3) -> list[str]:
    """The ids of the passages the answer shows, best first (none when it answers with none)."""
    return [h.id for h in rulebook.search(question, k=k).hits]


def shown_ids(rulebook: Rulebook, question: str, k: int = 3) -> list[str]:
    """The ids of the passages the answer shows, each followed by the restatements grouped under it
    (a key rule shown with the rule it restates)."""
    return [i for h in rulebook.search(question, k=k).hits for i in (h.id, *h.related)]


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


NEAR = 0.5  # the share of character pairs (Jaccard) that makes two texts one question reworded


def close_to_evaluation(texts: Iterable[str], held_only: bool = False) -> list[str]:
    """The texts sharing half their character pairs with a question of tests/rulings/blind.toml,
    or eval.toml (a shorter, reworded or typo-fixed copy included): the evaluation is
    blind to them. `held_only`: of blind.toml, its held-out halves only."""
    evaluation = []
    for name in ("blind.toml", "eval.toml"):
        with (TESTS / name).open("rb") as fh:
            questions = tomllib.load(fh)["question"]
        held = [q for q in questions if not held_only or name != "blind.toml" or q["half"].startswith("held")]
        evaluation += [_bigrams(q["text"]) for q in held]
    # Two sets sharing half their union share one of the rarest pairs of each (prefix filtering): only
    # the questions holding one of a text's rarest pairs are compared with it.
    rarity: Counter[str] = Counter(g for grams in evaluation for g in grams)

    def prefix(grams: set[str]) -> list[str]:
        ordered = sorted(grams, key=lambda g: (rarity[g], g))
        return ordered[: len(grams) - math.ceil(NEAR * len(grams)) + 1]

    holding: dict[str, list[int]] = {}
    for n, grams in enumerate(evaluation):
        for g in prefix(grams):
            holding.setdefault(g, []).append(n)
    near = []
    for text in texts:
        grams = _bigrams(text)
        # and their sizes are within a factor of two of each other
        low, high = NEAR * len(grams), len(grams) / NEAR
        candidates = {n for g in prefix(grams) for n in holding.get(g, ()) if low <= len(evaluation[n]) <= high}
        if any(len(grams & evaluation[n]) / len(grams | evaluation[n]) >= NEAR for n in candidates):
            near.append(text)
    return near


def left_out_writers(rules_dir: Path) -> tuple[dict[str, list[float]], dict[str, list[float]]]:
    """Each writer of rules/chatter.toml (the first letter of its messages' ids) left out in turn: the
    chatter model trained as the index trains it (asked questions and the other writers' messages, the
    games' names blanked) scores that writer's chatter and rules messages. By writer: (chatter odds,
    rules odds). The model's settings are read when called (bench/chatter.py changes them)."""
    documents, lexicon = load_corpus(rules_dir)
    plain = lexicon.without_game_names
    asked = [plain(q) for qs in load_asked(rules_dir, documents).values() for q in (*qs.ja, *qs.en)]
    examples = load_chatter(rules_dir)
    chatter: dict[str, list[float]] = {}
    rules: dict[str, list[float]] = {}
    for writer in sorted({m.id[0] for m in examples}):
        train = [m for m in examples if m.id[0] != writer]
        model = ChatterModel.train(
            [*asked, *(plain(m.text) for m in train if m.kind == "rules")],
            [plain(m.text) for m in train if m.kind == "chatter"],
        )
        test = [m for m in examples if m.id[0] == writer]
        chatter[writer] = [model.odds(plain(m.text)) for m in test if m.kind == "chatter"]
        rules[writer] = [model.odds(plain(m.text)) for m in test if m.kind == "rules"]
    return chatter, rules
