"""The rulebook: open (or build) the index, search it, group restatements, abstain when unsure."""

from __future__ import annotations

import difflib
import json
import math
import re
import sqlite3
from collections import Counter
from collections.abc import Sequence
from dataclasses import dataclass
from pathlib import Path

from bot.rulings.glossary import Lexicon
from bot.rulings.index import INDEX_VERSION, discard, ensure_index, looks_whole
from bot.rulings.models import Answer, CardNote, DocumentMeta, Hit, Kind, Passage
from bot.rulings.query import QueryPlan, Vocabulary, analyse, fts_match
from bot.rulings.tokenize import normalize, tokens

# A hit must carry this share of the question's weight (idf-weighted) to count as an answer.
MIN_COVERAGE = 0.38
# The game terms a question names (lexicon keywords and glossary terms, see `_topic_covered`) must
# all appear together in one of the best few passages; else the corpus does not speak to that
# combination and a hit on part of it would be a weak guess.
TOPIC_DEPTH = 1  # chosen on the tuning half of the evaluation set (bench/rulings.py)
TOPIC_MAX_SHARE = 0.15  # a keyword found in more passages than this is game-generic (ダメージ, 効果)
CANDIDATES = 40
MATCH_MAX_SHARE = 0.15  # retrieval only: terms in more passages than this still count when scoring
BM25_K1, BM25_B = 1.2, 0.75
# BM25F weights of the columns: passage body, section heading, names of cards and abilities.
COLUMN_WEIGHTS = (1.0, 2.0, 0.5)
# The final order mixes bm25 (relative to the best hit) with the coverage of the question's words,
# so a passage that answers every part of the question beats one that repeats a single word.
COVERAGE_SHARE = 0.9  # chosen on the tuning half of the evaluation set (0.85 to 0.95 score the same there)
CARD_WEIGHT = 0.3  # a named card's words, beside the question's own
LITERAL_BONUS = 0.25  # a quoted 「phrase」 found word for word; doubled when the passage quotes it too
SOFT_LITERAL_BONUS = 0.1  # a corpus wording the lexicon translated an English word or synonym to
# Tooltip definitions are glosses: behind the rules unless the question names the defined term.
DEFINITION_PENALTY, DEFINITION_BONUS = 0.15, 0.3
# A 要確認 passage (the translator's list of open points, or a note) is about the translation, not the
# rule: it comes after the rule it concerns (which quotes it as ⚠ 要確認) unless the question asks for it.
UNVERIFIED_PENALTY = 0.15
_ASKS_UNVERIFIED = ("要確認", "未確認", "unverified")
MIN_SOFT_LITERAL = 3  # characters; shorter wordings (まで, 間) are everywhere
# An unknown word is offered a corpus word only when it reads as a typo of it: one wrong letter in a
# four-letter word (drow → draw, ダメーズ → ダメージ) passes, a different word of shared letters
# (near → heart, rush → rules, table → dale) does not.
TYPO_CUTOFF = 0.75
MIN_TYPO_CHARS = 3
_LATIN = re.compile(r"^[a-z0-9'’\-]+$")


@dataclass(frozen=True)
class _Candidate:
    passage: Passage
    score: float
    coverage: float
    rank: float
    terms: frozenset[str]


class Rulebook:
    """Read-only access to one index file. Not thread-safe (one Sudachi tokenizer, one connection)."""

    def __init__(self, index_file: Path) -> None:
        self.path = index_file
        self.db = sqlite3.connect(f"file:{index_file}?mode=ro", uri=True)
        try:
            self._load()
        except BaseException:
            self.db.close()
            raise

    def _load(self) -> None:
        """Read what every search needs; a file that is no whole index of this version raises
        sqlite3.DatabaseError (garbage, a cut-off copy, another schema), so `open` rebuilds it."""
        if not looks_whole(self.path, self.db) or self._meta("version") != INDEX_VERSION:
            raise sqlite3.DatabaseError("not a whole rulings index of this version")
        lexicon = Lexicon.model_validate_json(self._meta("lexicon"))
        self.documents = {
            row[0]: DocumentMeta.model_validate_json(row[1])
            for row in self.db.execute("SELECT id, json FROM documents")
        }
        df: dict[str, int] = {}
        by_reading: dict[str, set[str]] = {}
        for term, count, readings in self.db.execute("SELECT term, df, readings FROM vocab"):
            df[term] = count
            for reading in json.loads(readings):
                if len(reading) >= 3 and all("\u30a1" <= c <= "\u30fc" for c in reading):
                    by_reading.setdefault(reading, set()).add(term)
        stop = frozenset(lexicon.stopwords)
        # Average column lengths in terms, for BM25F's length normalisation.
        averages = self.db.execute(
            "SELECT avg(length(body) - length(replace(body, ' ', '')) + (body != '')), "
            "avg(length(heading) - length(replace(heading, ' ', '')) + (heading != '')), "
            "avg(length(names) - length(replace(names, ' ', '')) + (names != '')) FROM passages_fts"
        ).fetchone()
        self.avg_lengths = tuple(max(float(a or 0.0), 1.0) for a in averages)

        def corpus_terms(words: Sequence[str]) -> tuple[str, ...]:
            found = [t.term for w in words for t in tokens(lexicon.prepare(w), stop)]
            return tuple(dict.fromkeys(found))

        english: dict[str, tuple[str, ...]] = {}
        phrases: dict[str, tuple[str, ...]] = {}
        for term, meaning in self.db.execute("SELECT term, meaning FROM glossary WHERE language = 'en'"):
            english[term.lower()] = corpus_terms([meaning])
            phrases[term.lower()] = (lexicon.prepare(meaning),)
        for key, values in lexicon.english.items():
            english[key] = tuple(dict.fromkeys(english.get(key, ()) + corpus_terms(values)))
            phrases[key] = tuple(dict.fromkeys(phrases.get(key, ()) + tuple(lexicon.prepare(v) for v in values)))
        glossary_terms = [row[0] for row in self.db.execute("SELECT term FROM glossary WHERE language = 'ja'")]
        self.keywords = frozenset(
            t.term
            for word in [*lexicon.keywords, *glossary_terms]
            for t in tokens(lexicon.prepare(word), stop)
            if not t.piece and df.get(t.term, 0) <= TOPIC_MAX_SHARE * int(self._meta("passages"))
        )
        self.vocab = Vocabulary(
            df=df,
            passages=int(self._meta("passages")),
            by_reading={k: frozenset(v) for k, v in by_reading.items()},
            english=english,
            english_phrases=phrases,
            synonyms={normalize(k): corpus_terms(v) for k, v in lexicon.synonyms.items()},
            synonym_lemmas=_lemmas(lexicon),
            synonym_phrases={normalize(k): tuple(lexicon.prepare(w) for w in v) for k, v in lexicon.synonyms.items()},
            lexicon=lexicon,
        )
        # What an unknown word may be a typo of: English words the lexicon translates, or corpus terms
        # of the same script (a Latin typo never suggests a Japanese term, nor the reverse).
        words = [t for t in df if len(t) > 1] + [key for key in english if " " not in key]
        self._latin_pool = sorted({w for w in words if _LATIN.match(w)})
        self._other_pool = sorted({w for w in words if not _LATIN.match(w)})

    @classmethod
    def open(cls, cache_dir: Path, rules_dir: Path) -> Rulebook:
        """The rulebook of the corpus in `rules_dir`, its index cached in `cache_dir`; an index file
        that does not open is deleted and built again."""
        path = ensure_index(cache_dir, rules_dir)
        try:
            return cls(path)
        except sqlite3.DatabaseError:
            discard(path)
        return cls(ensure_index(cache_dir, rules_dir))

    def close(self) -> None:
        self.db.close()

    def _meta(self, key: str) -> str:
        row = self.db.execute("SELECT value FROM meta WHERE key = ?", (key,)).fetchone()
        return str(row[0]) if row else ""

    def idf(self, term: str) -> float:
        n, df = self.vocab.passages, self.vocab.df.get(term, 0)
        return math.log((n - df + 0.5) / (df + 0.5) + 1.0)

    def plan(self, question: str) -> QueryPlan:
        return analyse(question, self.vocab)

    def _coverage(self, plan: QueryPlan, passage_terms: frozenset[str]) -> float:
        """Share of the question's idf weight that the passage carries; unknown words count as missing.
        Each unit of the question (a word as typed, with its synonyms or translations) counts once."""
        unknown = self.idf("") * sum(plan.unknown.values())
        total = found = 0.0
        for members in plan.units.values():
            weight = max(self.idf(t) for t in members) * max(plan.weights[t] for t in members)
            total += weight
            if any(t in passage_terms for t in members):
                found += weight
        total += unknown
        return found / total if total else 0.0

    def _candidates(self, plan: QueryPlan, game: str | None) -> list[_Candidate]:
        """Retrieve with FTS5 on the question's rarer terms, then score every candidate in Python with
        all of them: BM25F over body, heading and names, mixed with the coverage of the question.

        Retrieval on rare terms keeps FTS5 from ranking most of a large corpus for words like
        ダメージ; the scoring still sees those words."""
        if plan.empty:
            return []
        limit = CANDIDATES * (4 if game else 1)
        match = fts_match(plan, self.vocab, MATCH_MAX_SHARE)
        rowids = [
            r[0]
            for r in self.db.execute(
                "SELECT rowid FROM passages_fts WHERE passages_fts MATCH ? "
                "ORDER BY bm25(passages_fts, ?, ?, ?) LIMIT ?",
                (match, *COLUMN_WEIGHTS, limit),
            )
        ]
        for literal in (lit for lit in plan.literals if len(lit) >= 3):  # trigrams need three characters
            rowids += [
                r[0]
                for r in self.db.execute(
                    "SELECT rowid FROM literal_fts WHERE literal_fts MATCH ? LIMIT ?",
                    ('"' + literal.replace('"', '""') + '"', CANDIDATES),
                )
                if r[0] not in rowids
            ]
        marks = ",".join("?" * len(rowids))
        rows = self.db.execute(
            "SELECT p.json, p.terms, p.plain, f.body, f.heading, f.names FROM passages p "
            f"JOIN passages_fts f ON f.rowid = p.rowid WHERE p.rowid IN ({marks})",
            rowids,
        ).fetchall()
        scored = []
        for payload, terms, plain, *columns in rows:
            passage = Passage.model_validate_json(payload)
            if game is not None and passage.game != game:
                continue
            present = frozenset(terms.split())
            scored.append((passage, self._bm25f(plan, columns), self._coverage(plan, present), plain, present))
        best = max((s[1] for s in scored), default=0.0) or 1.0
        out = [
            _Candidate(
                passage,
                score,
                coverage,
                (1 - COVERAGE_SHARE) * score / best + COVERAGE_SHARE * coverage + self._bonus(plan, passage, plain),
                present,
            )
            for passage, score, coverage, plain, present in scored
        ]
        out.sort(key=lambda c: c.rank, reverse=True)
        return out

    def _bm25f(self, plan: QueryPlan, columns: Sequence[str]) -> float:
        """BM25F: term frequencies of the columns, each weighted and length-normalised, then saturated."""
        counts = [Counter(column.split()) for column in columns]
        lengths = [sum(c.values()) for c in counts]
        score = 0.0
        for term in plan.terms:
            tf = sum(
                weight * c[term] / (1 - BM25_B + BM25_B * length / avg)
                for weight, c, length, avg in zip(COLUMN_WEIGHTS, counts, lengths, self.avg_lengths, strict=True)
                if c[term]
            )
            if tf:
                score += plan.weights[term] * self.idf(term) * tf * (BM25_K1 + 1) / (tf + BM25_K1)
        return score

    def _bonus(self, plan: QueryPlan, passage: Passage, plain: str) -> float:
        bonus = 0.0
        if any(f"「{lit}」" in plain for lit in plan.literals):
            bonus += 2 * LITERAL_BONUS
        elif any(lit in plain for lit in plan.literals):
            bonus += LITERAL_BONUS
        if any(len(lit) >= MIN_SOFT_LITERAL and lit in plain for lit in plan.soft_literals):
            bonus += SOFT_LITERAL_BONUS
        if passage.kind is Kind.UNVERIFIED and not any(word in plan.text.lower() for word in _ASKS_UNVERIFIED):
            bonus -= UNVERIFIED_PENALTY
        if passage.kind is Kind.DEFINITION:
            named = self.vocab.lexicon.prepare(passage.names[0]) in plan.text
            bonus += DEFINITION_BONUS - DEFINITION_PENALTY if named else -DEFINITION_PENALTY
        return bonus

    def _hit(self, candidate: _Candidate, related: list[str]) -> Hit:
        p, meta = candidate.passage, self.documents[candidate.passage.document]
        notes = [self._passage_text(note) for note in p.unverified_notes if note != p.id]
        return Hit(
            id=p.id,
            text=p.text,
            game=p.game,
            source=meta.title,
            source_en=meta.title_en or meta.title,
            section=p.section,
            kind=p.kind,
            citations=list(p.citations),
            unverified=p.unverified,
            unverified_notes=[n for n in notes if n],
            authority=meta.authority,
            authority_en=meta.authority_en,
            score=round(candidate.score, 3),
            related=related,
        )

    def _passage_text(self, passage_id: str) -> str:
        row = self.db.execute("SELECT json FROM passages WHERE id = ?", (passage_id,)).fetchone()
        return Passage.model_validate_json(row[0]).text if row else ""

    def search(self, question: str, k: int = 3, game: str | None = None, cards: Sequence[CardNote] = ()) -> Answer:
        """The k best groups of passages for the question, or an abstention with the closest known terms."""
        plan = self.plan(question)
        for card in cards:
            self._add_card(plan, card)
        candidates = self._candidates(plan, game)
        if (
            not candidates
            or max(c.coverage for c in candidates[:5]) < MIN_COVERAGE
            or not self._topic_covered(plan, candidates[:TOPIC_DEPTH])
        ):
            return Answer(
                question=question, answered=False, hits=[], closest_terms=self.closest_terms(plan), cards=list(cards)
            )
        groups: list[tuple[_Candidate, list[str]]] = []
        for cand in candidates:
            for rep, related in groups:
                if _same_rule(rep.passage, cand.passage):
                    related.append(cand.passage.id)
                    break
            else:
                if len(groups) < k:
                    groups.append((cand, []))
        return Answer(question=question, answered=True, hits=[self._hit(c, r) for c, r in groups], cards=list(cards))

    def _topic_covered(self, plan: QueryPlan, candidates: Sequence[_Candidate]) -> bool:
        """Whether one passage names every game term of the question (as typed, or a synonym or
        translation of it). A capitalised English word nobody knows is a game term no passage names."""
        if plan.unknown_names or any(t in self.keywords for t in plan.unknown):
            return False  # a game term the corpus never names
        topic = [members for members in plan.units.values() if any(t in self.keywords for t in members)]
        if not topic:
            return True
        return any(all(any(t in c.terms for t in members) for members in topic) for c in candidates)

    def _add_card(self, plan: QueryPlan, card: CardNote) -> None:
        """A card's words help find and rank passages at a lower weight; they are not part of the
        question's coverage, so the card's own name and flavour text never make the search abstain."""
        card_plan = analyse(f"{card.name}\n{card.text}", self.vocab)
        for term in card_plan.terms:
            if term not in plan.weights:
                plan.add(term, self.vocab, weight=CARD_WEIGHT * card_plan.weights[term], counted=False)
        for literal in card_plan.soft_literals:
            if literal not in plan.soft_literals:
                plan.soft_literals.append(literal)

    def closest_terms(self, plan: QueryPlan, limit: int = 8) -> list[str]:
        """Likely meant words for the question's unknown ones (typos: ダメーズ → ダメージ, drow → draw),
        then the question's own words the corpus knows, rarest first."""
        close: list[str] = []
        for word in list(plan.unknown)[:limit]:
            if len(word) < MIN_TYPO_CHARS:
                continue
            pool = self._latin_pool if _LATIN.match(word) else self._other_pool
            close.extend(
                m
                for m in difflib.get_close_matches(word, pool, n=2, cutoff=TYPO_CUTOFF)
                if m != word and m not in close
            )
        own = dict.fromkeys(t for members in plan.units.values() for t in members if t not in close)
        return [*close, *sorted(own, key=lambda t: self.vocab.df.get(t, 0))][:limit]


def _lemmas(lexicon: Lexicon) -> dict[str, str]:
    """Sudachi's normalised form of each one-word synonym (使う, 倒す, 決める) → the synonym."""
    out: dict[str, str] = {}
    for key in lexicon.synonyms:
        words = [t for t in tokens(lexicon.prepare(key)) if not t.piece]
        if len(words) == 1:
            out.setdefault(words[0].term, normalize(key))
    return out


def _same_rule(a: Passage, b: Passage) -> bool:
    """Body, key rule and worked question of one rule share a section and a citation number."""
    return a.document == b.document and a.section_index == b.section_index and bool(set(a.citations) & set(b.citations))
