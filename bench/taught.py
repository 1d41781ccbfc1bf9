"""What teaching the classifier the blind set's tuning questions (rules/tuning.toml) does on questions it
was not taught: leave one tuning batch out.

    .venv/bin/python bench/taught.py

Since the thirteenth round the tuning halves of tests/rulings/blind.toml teach the question classifier
(tests/rulings/tuning_file.py), so bench/rulings.py's tuning columns are no longer a measure of how
the search does on a new question (its held-out halves still are: they are never taught). This one
is: each tuning batch, written by its own writer, is judged by an index whose classifier was taught
every other batch's questions but not its own, against the index without rules/tuning.toml (the
baseline, built in the same run). Printed per batch, then pooled.
"""

from __future__ import annotations

import sys
import tempfile
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))
sys.path.insert(0, str(ROOT / "bench"))

from rulings import BLIND_FILE, TUNES, evaluate, load, summarise  # noqa: E402

from bot.rulings.corpus import WRITTEN_FILE, load_asked, load_chatter, load_corpus  # noqa: E402
from bot.rulings.index import build_index  # noqa: E402
from bot.rulings.search import Rulebook  # noqa: E402
from tests.rulings.tuning_file import UNTAUGHT, taught  # noqa: E402

METRICS = (
    "recall@1",
    "recall@3",
    "English recall@3",
    "off-topic abstention",
    "silent labelled",
    "house rule shown (silent)",
)


def main() -> int:
    rules = ROOT / "rules"
    documents, lexicon = load_corpus(rules)
    asked = load_asked(rules, documents)
    written = load_asked(rules, documents, WRITTEN_FILE)
    chatter = load_chatter(rules)
    passages = [p.id for d in documents for p in d.passages]
    tuning = [q for q in load(BLIND_FILE) if q["half"] in TUNES]
    pooled: dict[str, list[dict[str, object]]] = {"baseline": [], "taught the other batches": []}
    with tempfile.TemporaryDirectory() as tmp:
        base_file = Path(tmp) / "base.sqlite3"
        build_index(base_file, documents, lexicon, asked, chatter, written)
        base = Rulebook(base_file)
        base.search("warm-up")
        for batch in TUNES:
            questions = [q for q in tuning if q["half"] == batch]
            # The other batches the shipped classifier is taught (not UNTAUGHT: tests/rulings/tuning_file.py).
            others = taught([q for q in tuning if q["half"] != batch and q["half"] not in UNTAUGHT], passages)
            index_file = Path(tmp) / f"{batch}.sqlite3"
            build_index(index_file, documents, lexicon, asked, chatter, written, others)
            book = Rulebook(index_file)
            before, _ = evaluate(base, questions, 1)
            after, _ = evaluate(book, questions, 1)
            book.close()
            index_file.unlink()
            pooled["baseline"] += before
            pooled["taught the other batches"] += after
            b, a = summarise(before, [0.0]), summarise(after, [0.0])
            figures = "  ".join(f"{m} {b[m]:.3f} -> {a[m]:.3f}" for m in METRICS[:3])
            print(f"{batch:7s} ({len(questions):3d} questions)  {figures}", flush=True)
        base.close()
    print()
    for name, results in pooled.items():
        s = summarise(results, [0.0])
        print(f"{name:26s} " + "  ".join(f"{m} {s[m]:.3f}" for m in METRICS))
    return 0


if __name__ == "__main__":
    sys.exit(main())
