"""The search index: one SQLite file with segmented passages, each term's postings by weight, and FTS5
tables for quoted phrases (and their trigrams).

The file is named by a hash of the corpus and of INDEX_VERSION, built once into a temporary file
and renamed into place, so a reader never sees half an index and a changed corpus gets a new file.
"""

from __future__ import annotations

import hashlib
import json
import os
import re
import sqlite3
from collections import Counter
from collections.abc import Iterable, Mapping, Sequence
from pathlib import Path

from bot.rulings.chatter import ChatterModel
from bot.rulings.classifier import write_classifier
from bot.rulings.corpus import TUNING_FILE, WRITTEN_FILE, corpus_digest, load_asked, load_chatter, load_corpus
from bot.rulings.errors import RulingsError
from bot.rulings.glossary import Lexicon
from bot.rulings.models import Asked, ChatterExample, Kind, ParsedDocument, Passage
from bot.rulings.packed import FirstPostings, pack
from bot.rulings.query import english_stems
from bot.rulings.tokenize import strip_list_marks, tokens

# Bump for changes the code hash below cannot see (a new SudachiPy dictionary, say).
INDEX_VERSION = "rulings-index-23"
HOUSE_PREFIX = "house:"  # the key of house-rule passages in vocab.games
ASKED_POSTINGS = 100  # of each term, the asked questions it weighs most in (kept in `asked_first`)

SCHEMA = """
CREATE TABLE meta(key TEXT PRIMARY KEY, value TEXT NOT NULL);
CREATE TABLE documents(id TEXT PRIMARY KEY, json TEXT NOT NULL);
CREATE TABLE passages(
    rowid INTEGER PRIMARY KEY, id TEXT UNIQUE NOT NULL, json TEXT NOT NULL,
    terms TEXT NOT NULL,  -- body, heading and name terms: what a hit is measured against
    plain TEXT NOT NULL,  -- normalised text, for quoted phrases matched literally
    -- What ranking needs, so only the passages shown are parsed from json.
    game TEXT NOT NULL, kind TEXT NOT NULL, document TEXT NOT NULL, section_index INTEGER NOT NULL,
    citations TEXT NOT NULL, name TEXT NOT NULL
);
CREATE INDEX passages_section ON passages(document, section_index);
-- games: {game: passages of that game holding the term}, to tell which game a question is about
-- (house rules under "house:<game>").
CREATE TABLE vocab(term TEXT PRIMARY KEY, df INTEGER NOT NULL, readings TEXT NOT NULL, games TEXT NOT NULL);
CREATE TABLE glossary(term TEXT NOT NULL, meaning TEXT NOT NULL, language TEXT NOT NULL, document TEXT NOT NULL);
CREATE TABLE unplaced(json TEXT NOT NULL);
-- The questions players ask that a passage answers (rules/asked.toml), each a small document of its
-- own: a question worded like one of them finds its passage though it shares few words with the rule.
CREATE TABLE asked(rowid INTEGER PRIMARY KEY, passage INTEGER NOT NULL, question TEXT NOT NULL, terms TEXT NOT NULL);
-- How many rules questions and how many chatter messages hold each feature (bot/rulings/chatter.py).
CREATE TABLE chatter(feature TEXT PRIMARY KEY, rules INTEGER NOT NULL, chatter INTEGER NOT NULL);
-- The question classifier (bot/rulings/classifier.py): for each feature, the passages whose
-- questions hold it most (little-endian arrays: passage rowids, how many of their questions hold it,
-- what that weighs), most first; how many questions each passage has; how many questions hold each
-- feature.
CREATE TABLE classifier_first(
    feature TEXT PRIMARY KEY, passages BLOB NOT NULL, counts BLOB NOT NULL, weights BLOB NOT NULL
);
CREATE TABLE classifier_passages(passage INTEGER PRIMARY KEY, n INTEGER NOT NULL);
CREATE TABLE classifier_vocab(feature TEXT PRIMARY KEY, df INTEGER NOT NULL);
-- The asked questions' terms: how many questions hold each; for each, the ASKED_POSTINGS questions it
-- weighs most in (little-endian arrays: asked rowids, BM25's term-frequency part), most first.
CREATE TABLE asked_vocab(term TEXT PRIMARY KEY, df INTEGER NOT NULL);
CREATE TABLE asked_first(term TEXT PRIMARY KEY, asked BLOB NOT NULL, impacts BLOB NOT NULL);
-- Segmented text, one term per space; unicode61 only splits at the spaces we put there.
-- Each term's passages by how much the term weighs in them (BM25F's term-frequency part, without
-- the idf): retrieval reads the first few of each rare term of a question, not every passage that
-- holds it, so its cost does not grow with the corpus.
CREATE TABLE postings(
    term TEXT NOT NULL, impact REAL NOT NULL, passage INTEGER NOT NULL, PRIMARY KEY (term, impact DESC, passage)
) WITHOUT ROWID;
CREATE VIRTUAL TABLE passages_fts USING fts5(body, heading, names, tokenize = 'unicode61 remove_diacritics 0');
-- Quoted phrases are found word for word through trigrams of the normalised text.
CREATE VIRTUAL TABLE literal_fts USING fts5(plain, content = 'passages', content_rowid = 'rowid', tokenize = 'trigram');
"""


_LATIN_WORD = re.compile(r"[a-z0-9]+(?:['’\-][a-z0-9]+)*")


def english_glosses(text: str, lexicon: Lexicon) -> list[str]:
    """The Japanese words the lexicon gives for the English words and phrases of a text, so a
    passage written in English (the house rules) is found from a Japanese question too."""
    words = _LATIN_WORD.findall(text.lower())
    out: list[str] = []
    i = 0
    while i < len(words):
        for n in range(min(4, len(words) - i), 0, -1):
            key = " ".join(words[i : i + n])
            values = lexicon.english.get(key)
            for suffix in ("s", "es", "ed", "d", "ing") if n == 1 and values is None else ():
                if key.endswith(suffix):
                    values = lexicon.english.get(key.removesuffix(suffix)) or values
            if values:
                out.extend(values)
                i += n
                break
        else:
            i += 1
    return out


class Segmented:
    """A passage's terms per column, and the readings seen for each term (for kana look-ups)."""

    def __init__(self, passage: Passage, lexicon: Lexicon, english: bool = False) -> None:
        stop = frozenset(lexicon.stopwords)
        body = tokens(lexicon.prepare(strip_list_marks(passage.text)), stop)
        if english:
            glossed = " ".join(english_glosses(f"{passage.section} {passage.text}", lexicon))
            body += tokens(lexicon.prepare(glossed), stop)
        heading = tokens(lexicon.prepare(passage.section), stop)
        names = tokens(lexicon.prepare(" ".join(passage.names)), stop)
        self.body = [t.term for t in body]
        self.heading = [t.term for t in heading]
        self.names = [t.term for t in names]
        # The dictionary's synonym groups of each term (bot/rulings/tokenize.py), so a question's word
        # of the same group (費用 for コスト) finds this term.
        self.groups = {(g, t.term) for t in [*body, *heading, *names] for g in t.groups}
        # Surfaces too (a Latin one tells a name the document quotes in English), except in an English
        # document, whose every word is Latin.
        self.readings = {(t.term, t.reading) for t in body} | {(t.term, t.surface) for t in body if not english}


def code_version() -> str:
    """INDEX_VERSION plus a hash of the code that decides what goes into the index, so an edited
    parser or tokenizer never reads an index built by the old one."""
    digest = hashlib.sha256(INDEX_VERSION.encode())
    here = Path(__file__).resolve().parent
    for name in (
        "parse.py",
        "glossary.py",
        "tokenize.py",
        "index.py",
        "corpus.py",
        "models.py",
        "query.py",
        "classifier.py",
        "chatter.py",
        "packed.py",
    ):
        digest.update((here / name).read_bytes())
    return digest.hexdigest()


def index_path(cache_dir: Path, rules_dir: Path) -> Path:
    return cache_dir / "rulings" / f"index-{corpus_digest(rules_dir, code_version())[:20]}.sqlite3"


def cache_error(folder: Path, exc: BaseException) -> RulingsError:
    """A cache folder that cannot be made or written (read-only, a file in the way, a name too long)."""
    reason = getattr(exc, "strerror", None) or str(exc) or type(exc).__name__
    return RulingsError("rulings.cache_unusable", path=str(folder), reason=reason)


def discard(path: Path) -> None:
    """Remove an index file that does not open; it is a cache and is built again."""
    try:
        path.unlink(missing_ok=True)
    except OSError as exc:
        raise cache_error(path.parent, exc) from exc


def looks_whole(path: Path, db: sqlite3.Connection) -> bool:
    """A cheap check that no page of the file was cut off (a truncated copy, a full disk)."""
    pages = int(db.execute("PRAGMA page_count").fetchone()[0])
    size = int(db.execute("PRAGMA page_size").fetchone()[0])
    return pages > 0 and path.stat().st_size >= pages * size


Row = tuple[Passage, str, Sequence[str], Sequence[str], Sequence[str]]

# BM25F's constants and column weights (body, heading, names): the search scores with the same ones.
BM25_K1, BM25_B = 1.2, 0.75


def length_norm(length: int, average: float) -> float:
    """BM25's length normalisation: a column this many terms long against the average."""
    return 1 - BM25_B + BM25_B * length / average


def saturate(tf: float) -> float:
    """BM25's saturation of a (weighted, normalised) term frequency."""
    return tf * (BM25_K1 + 1) / (tf + BM25_K1)


COLUMN_WEIGHTS = (1.0, 2.0, 0.5)


def impacts(columns: Sequence[Sequence[str]], averages: Sequence[float]) -> dict[str, float]:
    """Each term's BM25F weight in one passage without its idf: term frequencies of the columns,
    weighted and length-normalised, then saturated (the search's _bm25f weighs a question's terms
    the same way)."""
    tf: dict[str, float] = {}
    for weight, terms, average in zip(COLUMN_WEIGHTS, columns, averages, strict=True):
        length = len(" ".join(terms).split())  # as the search counts a column: by its spaces
        norm = length_norm(length, average)
        for term, count in Counter(terms).items():
            tf[term] = tf.get(term, 0.0) + weight * count / norm
    return {term: saturate(f) for term, f in tf.items()}


def column_averages(rows: Sequence[Row]) -> tuple[float, float, float]:
    sums = [0.0, 0.0, 0.0]
    for _, _, *columns in rows:
        for n, terms in enumerate(columns):
            sums[n] += sum(len(t.split()) for t in terms)
    a, b, c = (max(total / max(len(rows), 1), 1.0) for total in sums)
    return a, b, c


def write_rows(db: sqlite3.Connection, rows: Iterable[Row], start: int = 1) -> int:
    """Insert (passage, plain text, body terms, heading terms, name terms); returns the next free rowid."""
    rows = list(rows)
    averages = column_averages(rows)
    rowid = start
    for passage, plain, body, heading, names in rows:
        terms = " ".join(dict.fromkeys([*body, *heading, *names]))
        db.execute(
            "INSERT INTO passages(rowid, id, json, terms, plain, game, kind, document, section_index, citations, name)"
            " VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)",
            (
                rowid,
                passage.id,
                passage.model_dump_json(),
                terms,
                plain,
                passage.game,
                passage.kind.value,
                passage.document,
                passage.section_index,
                " ".join(map(str, passage.citations)),
                passage.names[0] if passage.names else "",
            ),
        )
        db.execute(
            "INSERT INTO passages_fts(rowid, body, heading, names) VALUES (?, ?, ?, ?)",
            (rowid, " ".join(body), " ".join(heading), " ".join(names)),
        )
        db.execute("INSERT INTO literal_fts(rowid, plain) VALUES (?, ?)", (rowid, plain))
        db.executemany(
            "INSERT INTO postings VALUES (?, ?, ?)",
            ((term, impact, rowid) for term, impact in impacts((body, heading, names), averages).items()),
        )
        rowid += 1
    return rowid


AskedRow = tuple[int, str, Sequence[str]]  # passage rowid, the question, its terms


def asked_rows(
    passages: Mapping[str, tuple[int, Passage]], asked: Mapping[str, Asked], lexicon: Lexicon
) -> list[AskedRow]:
    """Each asked question segmented as a passage is (an English one with the lexicon's glosses)."""
    rows: list[AskedRow] = []
    stop = frozenset(lexicon.english_stopwords)
    for pid, questions in asked.items():
        rowid, passage = passages[pid]
        for language, texts in (("ja", questions.ja), ("en", questions.en)):
            for text in texts:
                alone = passage.model_copy(update={"text": text, "section": "", "names": ()})
                terms = Segmented(alone, lexicon, english=language == "en").body + english_stems(text, stop)
                rows.append((rowid, text, terms))
    return rows


def write_asked(db: sqlite3.Connection, rows: Sequence[AskedRow], average: float | None = None) -> float:
    """Insert asked questions with their postings (BM25's term-frequency part, each term once) and
    document frequencies; returns the average length the impacts were normalised by (kept in meta)."""
    if average is None:
        average = max(sum(len(set(terms)) for _, _, terms in rows) / max(len(rows), 1), 1.0)
    start = int(db.execute("SELECT coalesce(max(rowid), 0) FROM asked").fetchone()[0]) + 1
    df: Counter[str] = Counter()
    first = FirstPostings(ASKED_POSTINGS)
    for term, asked, impacts in db.execute("SELECT term, asked, impacts FROM asked_first"):
        first.add_row(term, asked, impacts, "d")
    for n, (passage, text, terms) in enumerate(rows, start=start):
        unique = set(terms)
        db.execute("INSERT INTO asked VALUES (?, ?, ?, ?)", (n, passage, text, " ".join(sorted(unique))))
        impact = saturate(1.0 / length_norm(len(unique), average))
        for t in unique:
            first.add(t, impact, n)
        df.update(unique)
    db.executemany(
        "INSERT OR REPLACE INTO asked_first VALUES (?, ?, ?)",
        ((t, pack("q", (a for _, a in kept)), pack("d", (i for i, _ in kept))) for t, kept in first.first()),
    )
    db.executemany(
        "INSERT INTO asked_vocab VALUES (?, ?) ON CONFLICT(term) DO UPDATE SET df = df + excluded.df", df.items()
    )
    return average


def write_chatter(
    db: sqlite3.Connection, asked: Mapping[str, Asked], examples: Sequence[ChatterExample], lexicon: Lexicon
) -> None:
    """The chatter model, trained on the asked questions and the rules messages against the chatter
    (the games' names blanked: `Lexicon.without_game_names`)."""
    rules = [q for questions in asked.values() for q in (*questions.ja, *questions.en)]
    rules += [m.text for m in examples if m.kind == "rules"]
    chatter = [m.text for m in examples if m.kind == "chatter"]
    model = ChatterModel.train(map(lexicon.without_game_names, rules), map(lexicon.without_game_names, chatter))
    db.executemany("INSERT INTO chatter VALUES (?, ?, ?)", ((f, r, c) for f, (r, c) in model.counts.items()))
    db.execute("INSERT INTO meta VALUES ('chatter_sizes', ?)", (json.dumps([model.rules, model.chatter]),))


PLAYERS_WORD_TEXTS = 3  # an English word this many players' messages use is a word, not a typo


def players_words(texts: Iterable[str]) -> set[str]:
    """The English words of at least PLAYERS_WORD_TEXTS of the messages players wrote (the asked and
    written questions, the chatter): real words, which a typo search should not take for a rules term
    typed wrong (single is no sing, playing no paying)."""
    counts = Counter(word for text in texts for word in set(_LATIN_WORD.findall(text.lower())))
    return {word for word, n in counts.items() if n >= PLAYERS_WORD_TEXTS}


def build_index(
    path: Path,
    documents: Sequence[ParsedDocument],
    lexicon: Lexicon,
    asked: Mapping[str, Asked] | None = None,
    chatter: Sequence[ChatterExample] = (),
    written: Mapping[str, Asked] | None = None,
    tuning: Mapping[str, Asked] | None = None,
) -> None:
    """Build the index file at `path`. `asked`: the questions each passage answers, searched and
    taught to the classifier; `written` and `tuning` (the blind set's tuning questions): more of
    them, taught to the classifier only."""
    path.parent.mkdir(parents=True, exist_ok=True)
    tmp = path.with_suffix(f".tmp{os.getpid()}")
    tmp.unlink(missing_ok=True)
    db = sqlite3.connect(tmp)
    try:
        db.executescript(SCHEMA)
        df: Counter[str] = Counter()
        by_game: dict[str, Counter[str]] = {}
        readings: dict[str, set[str]] = {}
        groups: dict[int, set[str]] = {}
        rows: list[Row] = []
        sizes: Counter[str] = Counter()  # passages per game (house rules apart, as in vocab.games)
        for document in documents:
            db.execute("INSERT INTO documents VALUES (?, ?)", (document.meta.id, document.meta.model_dump_json()))
            for passage in document.passages:
                seg = Segmented(passage, lexicon, english=document.meta.language == "en")
                present = set(seg.body) | set(seg.heading) | set(seg.names)
                df.update(present)
                # House rules are counted apart: the table's English prose says nothing of which game
                # a question is about (its everyday words would all point at one game).
                game = HOUSE_PREFIX + passage.game if passage.kind is Kind.HOUSE_RULE else passage.game
                by_game.setdefault(game, Counter()).update(present)
                sizes[game] += 1
                for term, reading in seg.readings:
                    readings.setdefault(term, set()).add(reading)
                for group, term in seg.groups:
                    groups.setdefault(group, set()).add(term)
                plain = lexicon.prepare(f"{passage.section}\n{passage.text}")
                rows.append((passage, plain, seg.body, seg.heading, seg.names))
            for entry in document.glossary:
                db.execute(
                    "INSERT INTO glossary VALUES (?, ?, ?, ?)",
                    (entry.term, entry.meaning, entry.language, entry.document),
                )
            for item in document.unplaced:
                db.execute("INSERT INTO unplaced VALUES (?)", (item.model_dump_json(),))
        write_rows(db, rows)
        by_id = {passage.id: (n, passage) for n, (passage, *_) in enumerate(rows, start=1)}
        average = write_asked(db, asked_rows(by_id, asked or {}, lexicon))
        db.execute("INSERT INTO meta VALUES ('asked_average', ?)", (str(average),))
        write_chatter(db, asked or {}, chatter, lexicon)
        taught = [*(asked or {}).items(), *(written or {}).items(), *(tuning or {}).items()]
        write_classifier(db, [(by_id[pid][0], q) for pid, qs in taught for q in (*qs.ja, *qs.en)])
        db.executemany(
            "INSERT INTO vocab VALUES (?, ?, ?, ?)",
            (
                (
                    term,
                    count,
                    json.dumps(sorted(readings.get(term, ())), ensure_ascii=False),
                    json.dumps({g: c[term] for g, c in sorted(by_game.items()) if c[term]}),
                )
                for term, count in df.items()
            ),
        )
        db.execute("INSERT INTO meta VALUES ('version', ?)", (INDEX_VERSION,))
        db.execute("INSERT INTO meta VALUES ('passages', ?)", (str(len(rows)),))
        db.execute("INSERT INTO meta VALUES ('game_sizes', ?)", (json.dumps(dict(sorted(sizes.items()))),))
        db.execute("INSERT INTO meta VALUES ('lexicon', ?)", (lexicon.model_dump_json(),))
        # The names the rule documents quote (cards, abilities, keywords), as a question would type them:
        # a question naming one finds it word for word, however the segmenter cuts it (直しましょ).
        names = sorted(
            {lexicon.prepare(n) for p, *_ in rows if p.kind is not Kind.HOUSE_RULE for n in p.names if len(n) >= 3}
        )
        db.execute("INSERT INTO meta VALUES ('names', ?)", (json.dumps(names, ensure_ascii=False),))
        # Synonym group of the dictionary → the corpus terms in it: the dictionary's synonyms that
        # matter here, read once when the rulebook opens.
        synonym_groups = {str(g): sorted(ts) for g, ts in sorted(groups.items())}
        db.execute("INSERT INTO meta VALUES ('synonym_groups', ?)", (json.dumps(synonym_groups, ensure_ascii=False),))
        texts = [q for qs in [*(asked or {}).values(), *(written or {}).values()] for q in (*qs.ja, *qs.en)]
        words = sorted(players_words([*texts, *(m.text for m in chatter)]))
        db.execute("INSERT INTO meta VALUES ('players_words', ?)", (json.dumps(words),))
        db.execute("INSERT INTO passages_fts(passages_fts) VALUES ('optimize')")
        db.commit()
    except BaseException:
        db.close()
        tmp.unlink(missing_ok=True)  # a failed build (disk full, interrupted) leaves no stray file
        raise
    db.close()
    os.replace(tmp, path)


def ensure_index(cache_dir: Path, rules_dir: Path) -> Path:
    """The index file for the corpus as it is now; built when missing, older ones removed.

    A folder that cannot hold it is a RulingsError naming the folder, never an OSError."""
    path = index_path(cache_dir, rules_dir)
    try:
        if path.is_file():
            return path
    except OSError as exc:  # a name too long, a folder we may not look into
        raise cache_error(cache_dir, exc) from exc
    documents, lexicon = load_corpus(rules_dir)
    asked = load_asked(rules_dir, documents)
    written = load_asked(rules_dir, documents, WRITTEN_FILE)
    tuning = load_asked(rules_dir, documents, TUNING_FILE)
    chatter = load_chatter(rules_dir)
    try:
        build_index(path, documents, lexicon, asked, chatter, written, tuning)
        for old in path.parent.glob("index-*.sqlite3"):
            if old != path:
                old.unlink(missing_ok=True)
    except (OSError, sqlite3.OperationalError) as exc:
        raise cache_error(cache_dir, exc) from exc
    return path
