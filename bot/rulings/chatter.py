"""Is a message a rules question at all? A channel that hosts the bot also chats: about a game just
lost, deck advice, prices, the characters' films. Such chatter uses the games' words too, so the
words alone cannot tell it from a rules question; how it is written can.

The model is naive Bayes over the character n-grams a message holds (each counted once), trained on
two kinds of examples: rules questions (rules/asked.toml and the rules messages of rules/chatter.toml)
and chatter (the chatter messages of rules/chatter.toml). Character n-grams need no segmenter and
read Japanese, English and typos alike. English is told apart by its words more than by its letters
(lol, gg, price), so its words and word pairs are features too, weighing WORD_WEIGHT and PAIR_WEIGHT
n-grams each.
Its verdict is the average log-likelihood ratio over the features it has seen, so a long message is
not more certain than a short one for its length alone.
"""

from __future__ import annotations

import math
import re
import unicodedata
from collections.abc import Callable, Iterable, Mapping
from dataclasses import dataclass
from itertools import pairwise

NGRAMS = (1, 2, 3)
# Both measured on a writer the model never read (bench/chatter.py): less smoothing and more weight on
# English words catch more of a new writer's chatter at fewer refused rules questions.
SMOOTHING = 0.1
_DIGITS = re.compile(r"[0-9]+")
_SPACES = re.compile(r"\s+")
_LATIN_WORD = re.compile(r"[a-z0-9']+")
WORD = "w::"  # the prefix of a word feature: four characters at least, so never one of the n-grams
WORD_WEIGHT = 8.0
# A pair of words is rare: seen once on one side, at this little smoothing, it would outweigh the rest
# of a short message ("play one" in one chatter message refused "can six people play one game?").
PAIR_WEIGHT = 2.0


def features(text: str) -> frozenset[str]:
    """The character n-grams of a message, folded (width, case) and with every number one digit, and
    its words and pairs of words in Latin letters."""
    folded = _SPACES.sub(" ", _DIGITS.sub("0", unicodedata.normalize("NFKC", text).lower())).strip()
    padded = f" {folded} "
    grams = {padded[i : i + n] for n in NGRAMS for i in range(len(padded) - n + 1) if padded[i : i + n] != " "}
    words = _LATIN_WORD.findall(folded)
    grams.update(f"{WORD}{w}" for w in words)
    grams.update(f"{WORD}{a} {b}" for a, b in pairwise(words))
    return frozenset(grams)


def _weight(feature: str) -> float:
    if not feature.startswith(WORD):
        return 1.0
    return PAIR_WEIGHT if " " in feature else WORD_WEIGHT


Counts = Mapping[str, tuple[int, int]]  # feature → (rules questions, chatter messages) holding it


@dataclass(frozen=True)
class ChatterModel:
    """How many rules questions and how many chatter messages hold each feature, and how many of each
    the model was trained on. `lookup` reads the counts of a message's features from elsewhere (the
    index, so opening the rulebook reads none of them); without it they are `counts`."""

    counts: Counts
    rules: int
    chatter: int
    lookup: Callable[[frozenset[str]], Counts] | None = None

    @classmethod
    def train(cls, rules: Iterable[str], chatter: Iterable[str]) -> ChatterModel:
        seen: dict[str, list[int]] = {}
        totals = [0, 0]
        for side, texts in enumerate((rules, chatter)):
            for text in texts:
                totals[side] += 1
                for feature in features(text):
                    seen.setdefault(feature, [0, 0])[side] += 1
        return cls({f: (r, c) for f, (r, c) in seen.items()}, totals[0], totals[1])

    def odds(self, text: str) -> float:
        """The average log-likelihood ratio, chatter against rules, of the features the message holds
        that the model has seen: above 0 leans to chatter. 0.0 when it has seen none of them."""
        if not self.rules or not self.chatter:
            return 0.0
        grams = features(text)
        found = self.lookup(grams) if self.lookup else {g: self.counts[g] for g in grams if g in self.counts}
        total, n = 0.0, 0.0
        for feature, (rules, chatter) in found.items():
            weight = _weight(feature)
            chatter_share = (chatter + SMOOTHING) / (self.chatter + 2 * SMOOTHING)
            total += weight * math.log(chatter_share / ((rules + SMOOTHING) / (self.rules + 2 * SMOOTHING)))
            n += weight
        return total / n if n else 0.0
