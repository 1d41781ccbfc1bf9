"""Quality and speed of the rules search (bot/rulings/) against a plain FTS5 trigram baseline.

    /work/venv/bin/python bench/rulings.py [--repeat N] [--scale 100]

Latency: each question is run `--repeat` times (default 5) on one thread; a question's latency is the
median of its runs, and the table gives the median and the p95 over the questions.

On the evaluation set tests/rulings/eval.toml it prints recall@1, recall@3 and MRR (Japanese,
English, overall), the share of unanswerable questions reported as such, and query latency
(median, p95, one thread), for our search and for the baseline, in the same run; then the p95 of our
search on the corpus grown `--scale` times with synthetic passages.

- Unanswerable questions are reported overall and apart: "off-topic" (written as unanswerable, e.g.
  tournament fees) and "corpus silent" (in the games' own words, found unanswerable while labelling).
- A question counts as found at rank r when the r-th result, or a restatement grouped under it
  (`related`), is one of the labelled passages. An abstention counts as a miss.
- The baseline indexes the same passages with `tokenize='trigram'` and queries every trigram of the
  question, quoted and joined by OR, ranked by bm25; it has no abstention, so it "abstains" only when
  nothing matches at all.
- Synthetic passages draw their terms from the real corpus's term distribution, so every query
  term still matches a realistic share of rows.
"""

from __future__ import annotations

import argparse
import hashlib
import json
import random
import shutil
import sqlite3
import statistics
import sys
import tempfile
import time
import tomllib
import unicodedata
from collections import Counter
from collections.abc import Callable, Sequence
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from bot.rulings.index import Row, ensure_index, write_rows  # noqa: E402
from bot.rulings.models import Kind, Passage  # noqa: E402
from bot.rulings.search import Rulebook  # noqa: E402

EVAL_FILE = ROOT / "tests" / "rulings" / "eval.toml"
DEPTH = 10  # results asked for when ranking (MRR looks this deep)

Ranker = Callable[[str], tuple[bool, list[set[str]]]]  # question → (answered, ids per result)


def load_questions() -> list[dict[str, object]]:
    with EVAL_FILE.open("rb") as fh:
        return list(tomllib.load(fh)["question"])


def ours(rulebook: Rulebook) -> Ranker:
    def rank(question: str) -> tuple[bool, list[set[str]]]:
        answer = rulebook.search(question, k=DEPTH)
        return answer.answered, [{h.id, *h.related} for h in answer.hits]

    return rank


def trigram_baseline(rulebook: Rulebook) -> Ranker:
    db = sqlite3.connect(":memory:")
    db.execute("CREATE VIRTUAL TABLE t USING fts5(id UNINDEXED, text, tokenize = 'trigram')")
    for pid, payload in rulebook.db.execute("SELECT id, json FROM passages"):
        db.execute("INSERT INTO t VALUES (?, ?)", (pid, Passage.model_validate_json(payload).text))

    def rank(question: str) -> tuple[bool, list[set[str]]]:
        text = "".join(c for c in unicodedata.normalize("NFKC", question).lower() if not c.isspace())
        grams = list(dict.fromkeys(text[i : i + 3] for i in range(len(text) - 2)))[:200]
        if not grams:
            return False, []
        expr = " OR ".join('"' + g.replace('"', '""') + '"' for g in grams)
        rows = db.execute("SELECT id FROM t WHERE t MATCH ? ORDER BY bm25(t) LIMIT ?", (expr, DEPTH)).fetchall()
        return bool(rows), [{r[0]} for r in rows]

    return rank


def half(question: dict[str, object]) -> str:
    """A fixed split of the set by a hash of the question's text: thresholds are chosen on the
    "tuning" half only, and the "held-out" half shows whether they generalise."""
    return "tuning" if hashlib.sha256(str(question["text"]).encode()).digest()[0] % 2 == 0 else "held-out"


def evaluate(rank: Ranker, questions: Sequence[dict[str, object]], repeat: int) -> dict[str, dict[str, float]]:
    """Figures over the whole set ("all") and over each half."""
    outcomes: dict[str, tuple[str, int | bool | None]] = {}  # id → (group, rank or abstained)
    timings: dict[str, list[float]] = {}
    for n in range(repeat):
        for q in questions:
            start = time.perf_counter()
            answered, results = rank(str(q["text"]))
            timings.setdefault(str(q["id"]), []).append((time.perf_counter() - start) * 1000)
            if n > 0:
                continue
            labels = set(q["answers"])  # type: ignore[call-overload]
            if not labels:
                # Questions written as unanswerable are off-topic; those that turned out unanswerable
                # while labelling (they carry a `note`) use the corpus's own words.
                outcomes[str(q["id"])] = ("corpus silent" if "note" in q else "off-topic", not answered)
                continue
            found = next((i for i, ids in enumerate(results, 1) if ids & labels), None) if answered else None
            outcomes[str(q["id"])] = (str(q["lang"]), found)
    # Each question's latency is the median of its `repeat` runs, which keeps a load spike from
    # another process on this shared machine out of the figures; median and p95 are over questions.
    latency = {qid: statistics.median(runs) for qid, runs in timings.items()}
    subsets = {"all": list(questions)}
    for q in questions:
        subsets.setdefault(half(q), []).append(q)
    return {
        name: summarise([outcomes[str(q["id"])] for q in qs], [latency[str(q["id"])] for q in qs])
        for name, qs in subsets.items()
    }


def summarise(outcomes: Sequence[tuple[str, int | bool | None]], latencies: Sequence[float]) -> dict[str, float]:
    ranks: dict[str, list[int | None]] = {"ja": [], "en": []}
    abstained: dict[str, list[bool]] = {"off-topic": [], "corpus silent": []}
    for group, value in outcomes:
        if group in abstained:
            abstained[group].append(bool(value))
        else:
            ranks[group].append(None if value is None else int(value))
    out: dict[str, float] = {}
    for lang, rs in (*ranks.items(), ("all", ranks["ja"] + ranks["en"])):
        out[f"recall@1 {lang}"] = sum(1 for r in rs if r == 1) / len(rs)
        out[f"recall@3 {lang}"] = sum(1 for r in rs if r is not None and r <= 3) / len(rs)
        out[f"MRR {lang}"] = sum(1 / r for r in rs if r is not None) / len(rs)
    both = abstained["off-topic"] + abstained["corpus silent"]
    out["unanswerable reported"] = sum(both) / len(both)
    for kind, flags in abstained.items():
        out[f"  of which {kind}"] = sum(flags) / len(flags)
    out["latency median ms"] = statistics.median(latencies)
    out["latency p95 ms"] = statistics.quantiles(latencies, n=20)[-1]
    return out


def grow(index_file: Path, target: Path, scale: int, seed: int = 5) -> None:
    """Copy the index and add (scale - 1) synthetic passages per real one."""
    shutil.copy(index_file, target)
    db = sqlite3.connect(target)
    real = db.execute("SELECT terms FROM passages").fetchall()
    bag = [t for (terms,) in real for t in terms.split()]
    lengths = [len(terms.split()) for (terms,) in real]
    rng = random.Random(seed)
    df: Counter[str] = Counter()
    rows: list[Row] = []
    for n in range(len(real) * (scale - 1)):
        body = [rng.choice(bag) for _ in range(rng.choice(lengths) or 1)]
        df.update(set(body))
        pid = f"synthetic/{n // 100:04d}/{n % 100:02d}"
        passage = Passage(
            id=pid,
            document="synthetic",
            game="synthetic",
            section_index=0,
            section="synthetic",
            kind=Kind.BODY,
            text=" ".join(body),
            line=0,
        )
        rows.append((pid, passage.model_dump_json(), passage.text, body, [], []))
    start = int(db.execute("SELECT max(rowid) FROM passages").fetchone()[0]) + 1
    write_rows(db, rows, start=start)
    for term, count in df.items():
        db.execute("UPDATE vocab SET df = df + ? WHERE term = ?", (count, term))
    db.execute("UPDATE meta SET value = ? WHERE key = 'passages'", (str(len(real) * scale),))
    db.execute(
        "INSERT INTO documents VALUES ('synthetic', ?)",
        (
            json.dumps(
                {
                    "id": "synthetic",
                    "title": "synthetic",
                    "game": "synthetic",
                    "language": "ja",
                    "source": "bench",
                    "version": "0",
                }
            ),
        ),
    )
    db.execute("INSERT INTO passages_fts(passages_fts) VALUES ('optimize')")
    db.execute("INSERT INTO literal_fts(literal_fts) VALUES ('optimize')")
    db.commit()
    db.close()


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--repeat", type=int, default=5, help="timing passes over the question set")
    parser.add_argument("--scale", type=int, default=100, help="growth factor of the synthetic corpus")
    args = parser.parse_args()
    questions = load_questions()
    with tempfile.TemporaryDirectory() as tmp:
        started = time.perf_counter()
        index_file = ensure_index(Path(tmp), ROOT / "rules")
        build_s = time.perf_counter() - started
        rulebook = Rulebook(index_file)
        answerable = [q for q in questions if q["answers"]]
        print(f"corpus: {rulebook.vocab.passages} passages, index built in {build_s:.1f} s")
        print(
            f"questions: {len(questions)} ({len(answerable)} answerable: "
            f"{sum(q['lang'] == 'ja' for q in answerable)} ja, {sum(q['lang'] == 'en' for q in answerable)} en; "
            f"{len(questions) - len(answerable)} unanswerable)\n"
        )
        ours(rulebook)("warm-up")  # the first call loads the Sudachi dictionary
        mine = evaluate(ours(rulebook), questions, args.repeat)
        baseline = evaluate(trigram_baseline(rulebook), questions, args.repeat)
        columns = {
            "ours all": mine["all"],
            "ours tuning": mine["tuning"],
            "ours held-out": mine["held-out"],
            "trigram all": baseline["all"],
        }
        sizes = {name: sum(half(q) == name for q in questions) for name in ("tuning", "held-out")}
        print(f"halves (sha256 of the question text): tuning {sizes['tuning']}, held-out {sizes['held-out']}\n")
        grown = Path(tmp) / "grown.sqlite3"
        grow(index_file, grown, args.scale)
        big = Rulebook(grown)
        scaled = evaluate(ours(big), questions, args.repeat)["all"]
        print(f"{'metric':<26}" + "".join(f"{n:>15}" for n in columns))
        for metric in mine["all"]:
            print(f"{metric:<26}" + "".join(f"{c[metric]:>15.3f}" for c in columns.values()))
        print(
            f"\n{args.scale}x corpus ({big.vocab.passages} passages): p95 {scaled['latency p95 ms']:.2f} ms, "
            f"median {scaled['latency median ms']:.2f} ms, recall@3 {scaled['recall@3 all']:.3f}"
        )
        big.close()
        rulebook.close()
    return 0


if __name__ == "__main__":
    sys.exit(main())
