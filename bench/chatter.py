"""How well the chatter model (bot/rulings/chatter.py) tells chatter from rules questions written by
someone it never read.

    .venv/bin/python bench/chatter.py

rules/chatter.toml holds the messages of five writers (ids m…, n…, c…, d… and e…). Each writer in turn
is left out: the model is trained as the index trains it (rules/asked.toml and the other writers'
messages, the games' names blanked) and judges the left-out writer's messages at the search's
threshold (CHATTER_ODDS in bot/rulings/search.py). Printed per writer and pooled: the share of
chatter caught (refused as no rules question) and the share of rules messages refused with it; then
the same at other thresholds, and for the model's earlier settings (smoothing 1, English words and
word pairs weighing 4, threshold 0.3) as the baseline measured in the same run. A setting is only
worth what it does on a writer the model has not read: a new member of the channel.
"""

from __future__ import annotations

import sys
from collections.abc import Sequence
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from bot.rulings import chatter  # noqa: E402
from bot.rulings.search import CHATTER_ODDS  # noqa: E402
from tests.rulings.helpers import left_out_writers  # noqa: E402

BASELINE = {"SMOOTHING": 1.0, "WORD_WEIGHT": 4.0, "PAIR_WEIGHT": 4.0}
BASELINE_ODDS = 0.3
THRESHOLDS = (0.0, 0.1, 0.2, 0.25, 0.3)


def above(scores: Sequence[float], threshold: float) -> float:
    return sum(s > threshold for s in scores) / len(scores)


def report(name: str, threshold: float) -> None:
    chat, rules = left_out_writers(ROOT / "rules")
    print(f"{name}")
    for writer in chat:
        print(
            f"  writer {writer}: chatter caught {above(chat[writer], threshold):.3f} ({len(chat[writer])}), "
            f"rules refused {above(rules[writer], threshold):.3f} ({len(rules[writer])})"
        )
    pooled_chat = [s for scores in chat.values() for s in scores]
    pooled_rules = [s for scores in rules.values() for s in scores]
    for t in sorted({threshold, *THRESHOLDS}):
        mark = "  <- used" if t == threshold else ""
        print(
            f"  pooled at {t:+.2f}: chatter caught {above(pooled_chat, t):.3f}, "
            f"rules refused {above(pooled_rules, t):.3f}{mark}"
        )


def main() -> int:
    report(
        f"now (smoothing {chatter.SMOOTHING}, English word weight {chatter.WORD_WEIGHT}, "
        f"word pair weight {chatter.PAIR_WEIGHT})",
        CHATTER_ODDS,
    )
    now = {key: getattr(chatter, key) for key in BASELINE}
    for key, value in BASELINE.items():
        setattr(chatter, key, value)
    try:
        report("baseline (smoothing 1.0, English word and word pair weight 4.0)", BASELINE_ODDS)
    finally:
        for key, value in now.items():
            setattr(chatter, key, value)
    return 0


if __name__ == "__main__":
    sys.exit(main())
