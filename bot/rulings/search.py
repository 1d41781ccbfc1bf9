"""The rulebook: open (or build) the index, search it, group restatements, and label the answer.

The search never refuses a question the corpus may speak to: it shows the best passages and labels
them (a direct match, or the closest passages), says which typos it corrected, gives each part of a
question with several parts a passage, and, where the rulebook is silent, quotes the house rule. It
shows nothing only when nothing matches or the question is plainly about something else (another
game, a game keyword the corpus never names).
"""

from __future__ import annotations

import difflib
import heapq
import itertools
import json
import math
import re
import sqlite3
import statistics
from collections import Counter
from collections.abc import Mapping, Sequence
from collections.abc import Set as AbstractSet
from dataclasses import dataclass, field, replace
from pathlib import Path

from bot.rulings.chatter import ChatterModel
from bot.rulings.classifier import REMEMBERED, Remembered
from bot.rulings.classifier import scores as classifier_scores
from bot.rulings.dense import BELOW as DENSE_BELOW
from bot.rulings.dense import WEIGHT as DENSE_WEIGHT
from bot.rulings.dense import DenseIndex
from bot.rulings.dense import available as dense_available
from bot.rulings.glossary import Lexicon
from bot.rulings.index import (
    COLUMN_WEIGHTS,
    HOUSE_PREFIX,
    INDEX_VERSION,
    discard,
    ensure_index,
    length_norm,
    looks_whole,
    saturate,
)
from bot.rulings.models import Answer, CardNote, DocumentMeta, Hit, Kind, Label, Passage
from bot.rulings.packed import unpack
from bot.rulings.parts import asks, split_parts
from bot.rulings.query import (
    MAX_GROUP_TERMS,
    RELATED_SHARE,
    QueryPlan,
    Vocabulary,
    analyse,
    english_stems,
    letter_insertions,
    letter_swaps,
    misreadings,
    phrase_match,
    quoted,
    retrieval_terms,
    stem_word,
)
from bot.rulings.recent import Recent
from bot.rulings.romaji import as_kana, consonants, long_vowels, syllables, to_kana
from bot.rulings.tokenize import kana_skeleton, normalize, to_katakana, tokens

TOPIC_MAX_SHARE = 0.15  # a keyword found in more passages than this is game-generic (ダメージ, 効果)
CANDIDATES = 60
TYPO_CACHE = 4096  # words whose typo look-up is kept (`Rulebook._typo_of`)
ROWS_KEPT = 2048  # candidate passages kept parsed between searches (`Rulebook._rows`)
MMAP_BYTES = 1 << 30  # the most of the index file mapped (bench/rulings.py's 100x corpus is 300 MB)
MATCH_MAX_SHARE = 0.15  # retrieval only: terms in more passages than this still count when scoring
# The final order mixes bm25 (relative to the best hit) with the coverage of the question's words,
# so a passage that answers every part of the question beats one that repeats a single word.
COVERAGE_SHARE = 0.9
# How much the coverage of a passage's section (its retrieved passages together) adds to its rank.
SECTION_WEIGHT = 0.05
HEADING_TOPIC_PENALTY = 0.05  # a rule passage whose heading's topic (ブロック, DEF) the question never names
LENGTH_PENALTY = 0.05  # a passage longer than most carries more of any question's words by chance
# A judge's lesson (a document citing rule numbers) states a section's rule first, then restates it
# with examples and worked questions: a later passage costs this much per log of its place in the
# section. A rule page's sections are lists of rules or steps, each as much a rule as the first.
POSITION_PENALTY = 0.02
# The questions players ask that a passage answers (rules/asked.toml): the question's ASKED_NEAREST
# most similar asked questions (BM25) vote for their passages, each passage by its best one relative to
# the most similar of all, weighing ASKED_WEIGHT in the rank; their passages are candidates too.
ASKED_WEIGHT = 0.3
ASKED_NEAREST = 30
ASKED_MAX_SHARE = 0.1
ASKED_CANDIDATE_VOTE = 0.7  # a passage voted for this much is a candidate however its own words match
ASKED_HOLDS = 0.9  # of the question's words, one nearest asked question holding this many makes it ours
# How much the question classifier's opinion (bot/rulings/classifier.py, a passage's score less the
# best candidate's) counts beside the rank.
CLASSIFIER_WEIGHT = 0.4
ASKED_TERMS = 40  # the rarest of the question's terms: a long question reads this many terms' postings at most
CARD_WEIGHT = 0.3  # a named card's words, beside the question's own
CARD_NAME_BONUS = 0.15  # a passage naming the card the question names by its English name
# Asked whether something can be done, a passage saying what can, cannot or must be done answers it
# more often than one describing what happens (lexicon `asks_can`, `says_can`).
CAN_BONUS = 0.1
COUNT_BONUS = 0.2  # asked how often or in what order, a passage saying it (lexicon `asks_count`, `says_count`)
LITERAL_BONUS = 0.25  # a quoted 「phrase」 found word for word; doubled when the passage quotes it too
SOFT_LITERAL_BONUS = 0.1  # a corpus wording the lexicon translated an English word or synonym to
# Tooltip definitions and terminology rows are glosses: behind the rules unless the question names
# the defined term.
DEFINITION_PENALTY, DEFINITION_BONUS = 0.15, 0.3
DEFINITION_MAX_UNITS = 6
# A 要確認 passage (the translator's list of open points, or a note) is about the translation, not the
# rule: it comes after the rule it concerns (which quotes it as ⚠ 要確認) unless the question asks for it.
UNVERIFIED_PENALTY = 0.15
_ASKS_UNVERIFIED = ("要確認", "未確認", "unverified")
# A translator's note is about the wording of the translation: it comes after the rule it comments
# on, unless the question asks about the translation.
TRANSLATOR_NOTE_PENALTY = 0.1
# In a document that cites the rules it teaches (〔12〕), a passage citing none is about the class
# (what it teaches, what to read first, an introduction): it comes after the passages stating a rule.
UNCITED_PENALTY = 0.1
_ASKS_TRANSLATION = ("訳", "日本語", "英語", "原文", "translat", "japanese", "english", "wording")
# "exert って日本語で何て言う？", "what is Ward called in Japanese?": the word for a word.
_ASKS_TERM = re.compile(
    r"(何て|なんて|何と|なんと)(訳|言|い|呼)|呼び方|訳語|訳し方|日本語(版|訳)?(カード)?(で|だと|では|の)(何|なん|呼)"
    r"|(日本語|英語).{0,20}(何て|なんて|何と|なんと|どう)(書|表記)"
    r"|called in (the )?(japanese|english)|(japanese|english) (word|term|name) for|how do you say"
    r"|what(’s|'s| is) .{1,30} in japanese|(translated|written|rendered) (as|in|into) (japanese|english)"
    r"|japanese (version|translation|rules|card)s? (call|say|use)"
)
TERM_SECTION_BONUS = 0.3
MIN_SOFT_LITERAL = 3  # characters; shorter wordings (まで, 間) are everywhere
# Words the corpus does not know (a card's name, a word of everyday speech) and numbers weigh this
# share of a known word of the same rarity in the question's coverage: a long question full of them
# still finds its passage, and they never decide the label alone.
UNKNOWN_SHARE = 0.25
# An everyday word of the question found in a passage only inside a card's or ability's name (最大 in
# 《…オレの最大のファン…》) is no sign the passage is about it: it counts this share, unless the
# question names that card. Game words (<魔除>, a keyword, is bracketed as a name) count fully.
NAME_ONLY_SHARE = 0.3
ALT_POWER = 0.33
NUMBER_WEIGHT = 0.3
# A typo is corrected when it reads as the same word (返還 → 変換: one reading) or is this close in
# spelling to a rules term (アルカステレ → アルカステラ, arcastela → arcastella).
TYPO_CUTOFF = 0.75
MIN_TYPO_CHARS = 3
COMPOUND_PIECES = 4  # a katakana compound with a typo: up to four game words (セフィロト+コード+ブレイク+チェック)
BY_EAR_SYLLABLES = 4  # a word in romaji with a vowel heard wrong: only a long one is still itself
# A word this short one letter away from a term is as likely another word (ミッキー is no typo of
# ラッキー): it is corrected only to a term that begins as it does (ダメーズ → ダメージ).
SHORT_WORD = 4
TYPO_POOL = 200
LATIN_TYPO_CHARS = 5
MIN_DROP_CHARS = 4  # a shorter English word one letter from a keyword is often another word (hp, tip)
LATIN_CUTOFF, LATIN_NAME_CUTOFF = (
    0.87,
    0.9,
)  # the candidates compared with difflib: terms sharing a character pair with the word
# The label: a direct match carries this share of the question (of each part) in its best passage,
# and every game keyword of the question is in one of the passages shown.
DIRECT_COVERAGE = 0.6
# A game keyword the corpus never names puts the question outside it when the keyword carries this
# share of the question; a keyword mentioned in passing only keeps the answer from being direct.
MISSING_KEYWORD_SHARE = 0.35
# Plainly outside the corpus: no game word, and the best passage carries less than this share.
OUTSIDE_COVERAGE = 0.34
# A message written more like the channel's chatter than like a rules question by this much (the
# average log-likelihood ratio of its character n-grams and English words, bot/rulings/chatter.py)
# is no rules question. Both thresholds were read off writers the model was not trained on
# (bench/chatter.py): the lowest at which it refuses a new writer's rules questions no more often
# than the earlier model did (0.006; it catches 0.745 of their chatter, against 0.702), and as few of
# their chatter messages rules-like as before (0.04; 0.8 of their rules questions are).
CHATTER_ODDS = 0.25
RULES_LIKE_ODDS = -0.35  # a message leaning to the rules questions' way of writing by more than this
# Which game a question is about: the share of its (idf-weighted) words found mostly in one game.
GAME_SHARE = 0.7
# Beside a running table, a question's words must belong this much to the other game to be about it.
TABLE_GAME_SHARE = 0.9
# Where the rulebook is silent: a house rule carrying this share of the question, ahead of the best
# rule passage by HOUSE_MARGIN, turns the answer into "the rulebook does not state this".
HOUSE_COVERAGE = 0.4
HOUSE_MARGIN = 0.05
HOUSE_TIE_RATIO = 1.5
HOUSE_SETTLE_RATIO = 1.0  # carrying more of the question, it must match as strongly as the best rule passage
HOUSE_NEAR = 1.2  # the house rule's bm25 against the best rule passage's, at equal coverage
# Or this much more of the question than the best rule passage: a house rule glossed with the lexicon's
# words holds a little more of a short question than the rule answering it (untap beside a DEF rule).
HOUSE_NEAR_MARGIN = 0.1
# A house rule holding the question's nearest asked question of all is shown beside an answer that is
# no direct match: the question is worded most like one that house rule answers.
HOUSE_VOTE = 1.0
# Where a house rule settles the question, the closest rule passages shown before it: as many as any
# answer shows, since the rule passage answering it may be the third (a house rule on when the main
# phase ends holds more of "is there an order to the main phase's actions?" than the rule that they
# go in any order). Leave-one-batch-out, 2 -> 3: recall@3 0.914 -> 0.917, the rest unchanged.
SILENT_RULES = 3
OWN_WORDS = 2  # words one of our games coined that make a question naming another game ours
SCENE_SHARE = 0.5  # a word only the scene-setting sentences of a question use
PART_SHOWN = 1  # a part is answered by a passage shown when it is the part's best
PART_POOL = 60  # a part re-ranks the whole question's best candidates, not all of a large corpus's
HOUSE_GAME = "horizonnotes"  # the game the house rules are about
TABLE_GAME = "horizonnotes"  # the game the referee's tables play
_LATIN = re.compile(r"^[a-z0-9'’\-]+$")
_NUMBER = re.compile(r"^[0-9０-９]+$")
_ENDINGS = frozenset({"s", "es", "d", "ed", "n", "en", "r", "er", "ly"})  # of one English word inflected
_INFLECTS = re.compile(r"[\u4e00-\u9fff々][\u3041-\u309f]")  # kanji, then kana: 買う, 変える
_WORD = re.compile(r"[a-z0-9]+(?:['’\-][a-z0-9]+)*")
_KATAKANA_RUN = re.compile(r"[ァ-ヴー]{3,}")
_KATAKANA_WORD = re.compile(r"[ァ-ヴー]{6,}")
_KANA_WORD = re.compile(r"[ぁ-んァ-ヴー]+")
_KANJI = re.compile(r"[\u4e00-\u9fff々]+")


def _glued(word: str, text: str, game_words: frozenset[str]) -> bool:
    """Whether a katakana word is typed glued to a game word, as one word with it (セフィロトコート;
    テニスコート is a court)."""
    for run in _KATAKANA_RUN.findall(text):
        at = run.find(word)
        if at < 0 or word == run:
            continue
        left, right = run[:at], run[at + len(word) :]
        if any(left[i:] in game_words for i in range(len(left) - 1)) or any(
            right[:j] in game_words for j in range(2, len(right) + 1)
        ):
            return True
    return False


@dataclass(frozen=True, slots=True)
class _Row:
    """A candidate passage as the index holds it, parsed once: the index does not change while open."""

    id: str
    game: str
    kind: Kind
    document: str
    section: int
    citations: frozenset[int]
    uncited: bool  # no citation number: commentary around the rules, where a document cites them
    name: str
    plain: str
    terms: frozenset[str]
    columns: tuple[list[str], ...]  # body, heading and names, as the index tokenised them

    @classmethod
    def of(cls, row: Sequence[str | int]) -> _Row:
        pid, game, kind, document, section, cites, name, terms, plain, *texts = (str(v) for v in row)
        return cls(
            pid,
            game,
            Kind(kind),
            document,
            int(section),
            frozenset(int(c) for c in cites.split()),
            not cites.strip(),
            name,
            plain,
            frozenset(terms.split()),
            tuple(text.split() for text in texts),
        )


@dataclass(frozen=True)
class _Candidate:
    rowid: int
    id: str
    game: str
    kind: Kind
    document: str
    section_index: int
    citations: frozenset[int]
    score: float
    coverage: float
    rank: float
    terms: frozenset[str]
    name_only: frozenset[str] = frozenset()  # the question's terms found only inside names here
    vote: float = 0.0  # how near its nearest asked question is to the question (1.0: the nearest of all)
    bm25_share: float = 0.0  # its bm25 relative to the best candidate's
    # Each of its terms' weighted frequency over body, heading and names, as BM25F counts it.
    shares: Mapping[str, float] = field(default_factory=dict, compare=False)
    taught: float = 0.0  # the classifier's score (relative to the best candidate's), as it weighs in rank
    aside: bool = False  # aside from what is asked (`_taught`): the classifier's middle score

    @property
    def house(self) -> bool:
        return self.kind is Kind.HOUSE_RULE


@dataclass(frozen=True)
class _Asks:
    """What a question asks about its own kind of answer, read once a search (not once a passage)."""

    literals: list[str]
    translation: bool  # about the translation or the original's words
    term: bool  # what a word is called in the other language
    unverified: bool  # about the passages the translator marked unverified
    can: bool  # whether something can be done (lexicon `asks_can`)
    count: bool  # how often or in what order (lexicon `asks_count`)

    @classmethod
    def of(cls, plan: QueryPlan, lexicon: Lexicon) -> _Asks:
        lowered = plan.text.lower()
        translation = any(w in lowered for w in _ASKS_TRANSLATION)
        literals = plan.literals
        if not translation:
            # English wording quoted from an English card ("this turn") is found in the Japanese text
            # only where the translator discusses the original's words: no sign of the rule asked.
            literals = [lit for lit in literals if not (lit.isascii() and " " in lit)]
        return cls(
            literals,
            translation,
            bool(_ASKS_TERM.search(lowered)),
            any(w in lowered for w in _ASKS_UNVERIFIED),
            lexicon.asks_whether_can(plan.text),
            lexicon.asks_how_often(plan.text),
        )


class Rulebook:
    """Read-only access to one index file. Not thread-safe (one Sudachi tokenizer, one connection)."""

    def __init__(self, index_file: Path, dense: bool = False) -> None:
        """`dense`: use the dense second opinion when the optional extra is installed (bot/rulings/dense.py)."""
        self.path = index_file
        self.db = sqlite3.connect(f"file:{index_file}?mode=ro", uri=True)
        self.dense: DenseIndex | None = None
        try:
            # Pages read through a memory map, not copied in by a system call each: the index is
            # read-only and replaced whole (index.py); at 100x the corpus this took a twelfth off a search.
            self.db.execute(f"PRAGMA mmap_size = {MMAP_BYTES}")
            self._load()
            if dense:
                self.dense = DenseIndex.open(index_file, self.db)
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
        passages = int(self._meta("passages"))
        self.names = tuple(json.loads(self._meta("names") or "[]"))
        self.players_words = frozenset(json.loads(self._meta("players_words") or "[]"))
        # Each name and its character part (エルサ of エルサ – 冬の精霊) with its terms: a question typing
        # one names that card.
        heads = {part.strip() for name in self.names for part in (name, re.split(r"\s[-–—]\s", name)[0])}
        self.name_terms = {head: frozenset(t.term for t in tokens(head)) for head in sorted(heads) if len(head) >= 2}
        self._idf: dict[str, float] = {}
        df: dict[str, int] = {}
        self.term_games: dict[str, dict[str, int]] = {}
        # How many passages each game has (house rules apart, as in vocab.games): a term's share of a
        # game is its rate there, so a larger document does not claim every common word (場, 相手).
        self.game_sizes: dict[str, int] = json.loads(self._meta("game_sizes"))
        by_reading: dict[str, set[str]] = {}
        latin: set[str] = set()  # terms the corpus writes in Latin letters somewhere (Forever → フォーエバー)
        for term, count, readings, games in self.db.execute("SELECT term, df, readings, games FROM vocab"):
            df[term] = count
            self.term_games[term] = json.loads(games)
            for reading in json.loads(readings):
                if reading[:1].isascii() and reading[:1].isalpha():
                    latin.add(term)
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
        self.asked_count = int(self.db.execute("SELECT count(*) FROM asked").fetchone()[0])
        self.classifier_questions = int(self._meta("classifier_questions") or 0)
        rules, chatter = json.loads(self._meta("chatter_sizes") or "[0, 0]")
        self.chatter = ChatterModel({}, rules, chatter, lookup=self._chatter_counts)
        self.english_stopwords = frozenset(lexicon.english_stopwords)

        segmented: dict[str, tuple[str, ...]] = {}  # each lexicon word is segmented once, however often listed

        def corpus_terms(words: Sequence[str]) -> tuple[str, ...]:
            found: list[str] = []
            for w in words:
                if w not in segmented:
                    segmented[w] = tuple(t.term for t in tokens(lexicon.prepare(w), stop))
                found += segmented[w]
            return tuple(dict.fromkeys(found))

        english: dict[str, tuple[str, ...]] = {}
        phrases: dict[str, tuple[str, ...]] = {}
        # A translation or synonym of several words is one alternative: a passage holding only some
        # of its words (the ターン of ターンに1度) carries only their share of it.
        alternatives: dict[str, list[frozenset[str]]] = {}
        english_stop = frozenset(lexicon.english_stopwords)
        for term, meaning in self.db.execute("SELECT term, meaning FROM glossary WHERE language = 'en'"):
            english[term.lower()] = corpus_terms([meaning])
            phrases[term.lower()] = (lexicon.prepare(meaning),)
            alternatives[f"en:{term.lower()}"] = [frozenset(corpus_terms([meaning]))]
        cards = _card_keys(lexicon)
        general = [(key, values) for key, values in lexicon.english_general.items() if key not in lexicon.english]
        for key, values in [*lexicon.english.items(), *general, *((key, values) for key, values, _ in cards)]:
            english[key] = tuple(dict.fromkeys(english.get(key, ()) + corpus_terms(values)))
            phrases[key] = tuple(dict.fromkeys(phrases.get(key, ()) + tuple(lexicon.prepare(v) for v in values)))
            alternatives.setdefault(f"en:{key}", []).extend(frozenset(corpus_terms([v])) for v in values)
        for key in english:  # the English words themselves, as the English house rules write them
            own = frozenset(w for w in key.split() if w not in english_stop)
            if own:
                alternatives.setdefault(f"en:{key}", []).append(own)
        synonyms = {**lexicon.synonyms_general, **lexicon.synonyms}
        self.general_synonyms = frozenset(normalize(k) for k in lexicon.synonyms_general if k not in lexicon.synonyms)
        for word, values in synonyms.items():
            alternatives.setdefault(normalize(word), []).extend(frozenset(corpus_terms([v])) for v in values)
        self.alternatives = {
            unit: tuple(dict.fromkeys(alt for alt in alts if alt)) for unit, alts in alternatives.items()
        }
        glossary_terms = [row[0] for row in self.db.execute("SELECT term FROM glossary WHERE language = 'ja'")]
        # Keywords are whole terms: a keyword the segmenter cuts in two is kept only as one unit of
        # the question, never as its fragments (値 of ロア値 is no keyword).
        whole = [_whole_term(lexicon, word, stop) for word in [*lexicon.keywords, *glossary_terms]]
        keyword_terms = frozenset(t for t in whole if t)
        self.own_terms = frozenset(t for t in (_whole_term(lexicon, w, stop) for w in lexicon.own_words) if t)
        translated = {stem_word(k) for k in english}  # an English word the lexicon translates is a rules word
        outside = (w.lower() for w in lexicon.outside_words)
        self.outside_words = (
            frozenset(stem_word(w) if _LATIN.match(w) else _whole_term(lexicon, w, stop) for w in outside)
            - translated
            - set(df)
            - {""}
        )
        self.keywords = frozenset(t for t in keyword_terms if df.get(t, 0) <= TOPIC_MAX_SHARE * passages)
        self.vocab = Vocabulary(
            df=df,
            passages=passages,
            by_reading={k: frozenset(v) for k, v in by_reading.items()},
            english=english,
            english_phrases=phrases,
            synonyms={normalize(k): corpus_terms(v) for k, v in synonyms.items()},
            synonym_lemmas=_lemmas(lexicon, synonyms),
            synonym_phrases={normalize(k): tuple(lexicon.prepare(w) for w in v) for k, v in synonyms.items()},
            lexicon=lexicon,
            keyword_terms=keyword_terms,
            english_weights={
                key: weight
                for key, _, weight in cards
                if weight < 1.0 and key not in lexicon.english and key not in lexicon.english_general
            },
            card_names={key: lexicon.prepare(values[0]) for key, values, weight in cards if weight == 1.0},
            latin_terms=frozenset(latin),
            general_english=frozenset(key for key, _ in general),
            name_words=frozenset(w for name in self.names for w in _WORD.findall(name.lower())),
            synonym_groups={
                int(group): tuple(terms)
                for group, terms in json.loads(self._meta("synonym_groups") or "{}").items()
                if len(terms) <= MAX_GROUP_TERMS
            },
        )
        # The game of each card the lexicon names: the game of the passages that quote its name.
        self.card_games = {key: self._games_quoting(lexicon.prepare(values[0])) for key, values, _ in cards}
        # The sections holding a terminology table (its rows and the translator's words around them).
        self.term_sections = frozenset(
            self.db.execute("SELECT DISTINCT document, section_index FROM passages WHERE kind = ?", (Kind.TERM.value,))
        )
        # Documents that cite their sources (〔12〕): there, a passage citing nothing is commentary
        # around the rules (what the class teaches, an introduction, a closing word).
        self.citing = frozenset(
            row[0] for row in self.db.execute("SELECT DISTINCT document FROM passages WHERE citations != ''")
        )
        # Game words: what the lexicon, the glossaries and the keywords give, common ones (ターン,
        # カード) included. A question with none of them and little in common with any passage is
        # plainly about something else.
        self.game_words = (
            frozenset(t for key, ts in english.items() if key in lexicon.english for t in ts)
            | frozenset(t for key, ts in self.vocab.synonyms.items() if key not in self.general_synonyms for t in ts)
            | keyword_terms
        ) & frozenset(df)
        # What an unknown word may be a typo of: English words the lexicon translates, or corpus terms
        # of the same script (a Latin typo never suggests a Japanese term, nor the reverse). Words are
        # filed under each pair of characters they hold, so a typo is compared with few of them.
        # A word of a longer key that is a form of a one-word key is a form a typo may be near
        # (trigered → triggered, of "triggered ability", → trigger).
        forms = {
            word
            for key in english
            if " " in key
            for word in key.split()
            if " " not in self.vocab.english_stems.get(stem_word(word), " ")
        }
        single = [key for key in english if " " not in key]
        # A player's own word for a rules term (バニッシュ for 退場) may be misspelt too (バニシュ).
        player_words = sorted(
            key for key in self.vocab.synonyms if key not in self.general_synonyms and _KATAKANA_RUN.fullmatch(key)
        )
        words = [t for t in df if len(t) > 1] + single + sorted(forms) + player_words
        self._latin_words = (
            frozenset(single)
            | frozenset(forms)
            | frozenset(a.lower() for aliases in lexicon.games.values() for a in aliases if _LATIN.match(a.lower()))
        )
        self._pairs: dict[str, list[str]] = {}
        for word in sorted(set(words)):
            for pair in {word[i : i + 2] for i in range(len(word) - 1)}:
                self._pairs.setdefault(pair, []).append(word)
        self._topics: dict[tuple[str, int], frozenset[str]] = {}  # `_heading_topic`, by section
        # Game words by their kana skeleton (no voicing, long-vowel or small-kana marks): a typo of a
        # mark (ブロッグ, アルカステーラ) is one look-up.
        self._skeletons: dict[str, str] = {}
        # Spelled in romaji by ear, a word also loses its small ッ (buroku: ブロック, taapu: タップ).
        self._romaji_skeletons: dict[str, str] = {}
        for word in [*sorted(w for w in self.game_words if not _LATIN.match(w)), *player_words]:
            self._skeletons.setdefault(kana_skeleton(word), word)
            self._romaji_skeletons.setdefault(kana_skeleton(word.replace("ッ", "")), word)
        # And a long word by its consonants, a vowel heard wrong (arukasuteru: アルカステラ).
        self._romaji_consonants: dict[tuple[str, ...], list[tuple[str, tuple[str, ...]]]] = {}
        for word in sorted(w for w in self.game_words if _KANA_WORD.fullmatch(w)):
            if (spelled := syllables(word)) and len(spelled) >= BY_EAR_SYLLABLES:
                self._romaji_consonants.setdefault(consonants(spelled), []).append((word, spelled))
        # passage rowid → whether it says what can be done, and how often (`Lexicon.says_what_can`,
        # `says_how_often`): regular expressions over its text, run once per passage, not per question.
        self._says: dict[int, tuple[bool, bool]] = {}
        # (word, capitalised) → the game word it is a typo of (`_typo_of`), the last TYPO_CACHE looked
        # up: a question's parts look up its words again, and players misspell the same words.
        self._typos: Recent[tuple[str, bool], str | None] = Recent(TYPO_CACHE)
        self._model = Remembered()  # what earlier searches read of the question classifier's model
        self._rows: Recent[int, _Row] = Recent(ROWS_KEPT)  # candidate passages parsed, the most recent
        self._chatter: Recent[str, tuple[int, int] | None] = Recent(REMEMBERED)  # and of the chatter model

    def _passage_says(self, rowid: int, plain: str) -> tuple[bool, bool]:
        """Whether a passage says what can, cannot or must be done, and whether it says how often or
        in what order."""
        if rowid not in self._says:
            lexicon = self.vocab.lexicon
            self._says[rowid] = (lexicon.says_what_can(plain), lexicon.says_how_often(plain))
        return self._says[rowid]

    def _chatter_counts(self, grams: frozenset[str]) -> dict[str, tuple[int, int]]:
        """The chatter model's counts of a message's features: kept from earlier searches, or read from
        the index in one statement."""
        known: dict[str, tuple[int, int] | None] = {}
        ordered = sorted(grams)
        missing = self._chatter.recall(ordered, known)
        if missing:
            read: dict[str, tuple[int, int] | None] = dict.fromkeys(missing)  # None: the model never saw it
            for feature, rules, chatter in self.db.execute(
                "SELECT c.feature, c.rules, c.chatter FROM json_each(?) j JOIN chatter c ON c.feature = j.value",
                (json.dumps(missing),),  # ASCII JSON: any text binds, json_each reads it back
            ):
                read[feature] = (rules, chatter)
            known.update(read)
            self._chatter.keep(read.items())
        return {feature: counts for feature in ordered if (counts := known[feature]) is not None}

    def _games_quoting(self, name: str) -> frozenset[str]:
        if len(name) < 3:  # trigrams need three characters
            return frozenset()
        rows = self.db.execute(
            "SELECT DISTINCT p.game FROM literal_fts f JOIN passages p ON p.rowid = f.rowid "
            "WHERE literal_fts MATCH ? AND p.kind != ?",
            ('"' + name.replace('"', '""') + '"', Kind.HOUSE_RULE.value),
        )
        return frozenset(row[0] for row in rows)

    @classmethod
    def open(cls, cache_dir: Path, rules_dir: Path, dense: bool = False) -> Rulebook:
        """The rulebook of the corpus in `rules_dir`, its index cached in `cache_dir`; an index file
        that does not open is deleted and built again. `dense`: the dense second opinion where the
        optional extra is installed (off by default: on the tuning halves it did not pay everywhere,
        see bot/rulings/dense.py)."""
        use_dense = dense and dense_available()
        path = ensure_index(cache_dir, rules_dir)
        try:
            return cls(path, dense=use_dense)
        except sqlite3.DatabaseError:
            discard(path)
        return cls(ensure_index(cache_dir, rules_dir), dense=use_dense)

    def close(self) -> None:
        self.db.close()

    def _meta(self, key: str) -> str:
        row = self.db.execute("SELECT value FROM meta WHERE key = ?", (key,)).fetchone()
        return str(row[0]) if row else ""

    def idf(self, term: str) -> float:
        cached = self._idf.get(term)
        if cached is None:
            n, df = self.vocab.passages, self.vocab.df.get(term, 0)
            cached = self._idf[term] = math.log((n - df + 0.5) / (df + 0.5) + 1.0)
        return cached

    # --- the question -------------------------------------------------------------------------

    def plan(self, question: str) -> QueryPlan:
        """The question's search terms, with its typos corrected and the words only its scene-setting
        sentences use weighing less (`_scene`)."""
        plan = analyse(question, self.vocab)
        self._correct(plan)
        for name in self.names:  # a name the corpus quotes, typed without its brackets
            if name in plan.text and name not in plan.literals:
                plan.literals.append(name)
        folded = plan.text.lower()
        for head, terms in self.name_terms.items():
            if head.lower() in folded:
                plan.named |= terms
        for card in plan.cards:
            plan.named |= {t.term for t in tokens(card)}
        for unit, members in plan.units.items():
            key = unit.removeprefix("en:")
            if key in self.vocab.english_weights and key not in plan.other_versions:
                plan.named |= set(members)  # a character's English name alone (Elsa)
        for key in plan.other_versions:  # another version of the character is another card
            plan.named -= set(plan.units.get(f"en:{key}", ()))
        self._scene(plan, question)
        return plan

    def _scene(self, plan: QueryPlan, question: str) -> None:
        """A question that sets the scene before asking ("My Arcastella is tapped, DEF 4, HP 6. Can it
        block?"): the words only the scene uses weigh SCENE_SHARE of themselves, the asking part's in
        full. A question all of whose parts ask (or none) keeps its weights. Every part is planned
        here, once: the search counts their terms in the passages it scores (`_parts`)."""
        pieces = split_parts(question)
        if len(pieces) < 2:
            return
        planned = [self._piece(plan, piece) for piece in pieces]
        flags = [asks(p) for p in pieces]
        if all(flags) or not any(flags):
            return
        asked: set[str] = set()
        for part, flag in zip(planned, flags, strict=True):
            if flag:
                asked |= set(part.terms)
        for term in plan.terms:
            if term not in asked:
                plan.weights[term] *= SCENE_SHARE

    def _piece(self, plan: QueryPlan, piece: str) -> QueryPlan:
        """The plan of one part of the question, made once for the scene and the parts."""
        if piece not in plan.pieces:
            plan.pieces[piece] = self.plan(piece)
        return plan.pieces[piece]

    def _correct(self, plan: QueryPlan) -> None:
        """Search a word the corpus does not know as the rules term it is a typo of: the same reading
        (返還 → 変換), or a close spelling among the terms sharing a pair of characters with it."""
        for word in list(plan.unknown):
            if len(word) < (MIN_TYPO_CHARS if _LATIN.match(word) else 2) or _NUMBER.match(word):
                continue
            # A homophone the IME chose (返還 for 変換) or a term typed in kana (めいんふぇいず).
            meant = self._game_word_read(plan.readings.get(word, ""))
            if meant is None and word in plan.common:
                # A real word, only spelled like a rules term (シールド is no オールド), unless it is glued
                # to another katakana word and is one with a mark dropped (セフィロトコート: コード).
                if not _glued(word, plan.text, self.game_words):
                    continue
                meant = self._same_skeleton(word)
            elif meant is None:
                meant = self._romaji_word(word, plan.romaji is not None) or self._typo_of(
                    word, capitalised=word in plan.unknown_names
                )
            if meant is None and (compound := self._compound_typo(word)):
                del plan.unknown[word]
                shown, pieces = compound
                for typed, game_word in pieces:  # each word a unit of its own: a passage holds both or one
                    for term in self._corpus_words(game_word):
                        plan.add(term, self.vocab, weight=0.8, unit=typed)
                plan.corrections.append((plan.surfaces.get(word, word), shown))
                continue
            if meant is None:
                continue
            if _LATIN.match(meant):
                key = meant if meant in self.vocab.english else self.vocab.english_stems.get(stem_word(meant), meant)
                targets = self.vocab.english.get(key, (meant,))
            else:
                targets = self._corpus_words(meant)
            if not any(t in self.vocab.df for t in targets):
                continue
            del plan.unknown[word]
            if word in plan.unknown_names:
                plan.unknown_names.remove(word)
            for term in targets:
                plan.add(term, self.vocab, weight=0.8, unit=word)
            plan.corrections.append((plan.surfaces.get(word, word), meant))
        self._correct_split(plan)
        self._correct_homophones(plan)

    def _correct_homophones(self, plan: QueryPlan) -> None:
        """A kanji of a game word typed as another of the same reading, which the segmenter cut off as a
        word of its own (優先件 → 優先 + 件, 破損半定, 特性変更脳力): two neighbouring words that read as a
        game word together are that word."""
        if not _KANJI.search(plan.text):
            return
        # Not the pieces of a word the dictionary knows whole (高価 is no 効果 typed wrong).
        segmented = [t for t in plan.segmented if t.reading and not t.piece]
        for first, second in itertools.pairwise(segmented):
            if second.begin != first.end or not (len(first.surface) == 1 or len(second.surface) == 1):
                continue  # one of them is a lone kanji: the one typed wrong
            typed = first.surface + second.surface
            if not _KANJI.fullmatch(typed) or typed in self.vocab.df:
                continue
            meant = sorted(
                t
                for t in self.vocab.by_reading.get(first.reading + second.reading, ())
                if t in self.game_words and not _inflects(t) and len(t) >= 2 and t != typed
            )
            if not meant:
                continue
            for piece in (first.term, second.term):
                plan.unknown.pop(piece, None)
            self._searched_as(plan, typed, meant[0])

    def _correct_split(self, plan: QueryPlan) -> None:
        """A katakana word the segmenter cut into unknown pieces because of a typo (アルカステーラ →
        アルカス + テーラー) is searched as the rules term it is with a mark dropped or added."""
        for run in dict.fromkeys(_KATAKANA_RUN.findall(plan.text)):
            pieces = [w for w in plan.unknown if plan.surfaces.get(w, w) in run and w != run]
            if not pieces or run in self.vocab.df:
                continue
            # A mark dropped or added, or a letter typed wrong (ノックアイト: ノック + アイト, ノックアウト).
            meant = self._same_skeleton(run) or self._typo_of(run)
            if meant is None:
                continue
            for piece in pieces:
                del plan.unknown[piece]
            self._searched_as(plan, run, meant)

    def _romaji_word(self, word: str, message: bool = False) -> str | None:
        """The game word a word typed in romaji spells (henkan: 変換, eteru: エーテル), by its reading or
        with a long-vowel or voicing mark dropped, as a word spelled out in kana is found. In a message
        written in romaji (`message`), a verb too (erabu: 選ぶ): no IME chose a homophone there."""
        kana = to_kana(word) if _LATIN.match(word) else None
        if kana is None:
            return None
        readings = dict.fromkeys(map(to_katakana, (kana, long_vowels(kana))))  # doroo: ドロー
        for reading in readings:
            if meant := self._game_word_read(reading, inflecting=message) or self._same_skeleton(reading):
                return meant
        for reading in readings:
            if len(reading) >= MIN_TYPO_CHARS and (meant := self._romaji_skeletons.get(kana_skeleton(reading))):
                return meant
        spelled = syllables(kana)
        if spelled is None or len(spelled) < BY_EAR_SYLLABLES:
            return None
        heard = [
            word
            for word, its in self._romaji_consonants.get(consonants(spelled), ())
            if sum(a != b for a, b in zip(its, spelled, strict=True)) <= 1
        ]
        return heard[0] if len(heard) == 1 else None

    def _game_word_read(self, reading: str, inflecting: bool = False) -> str | None:
        """The game word of this reading, if one does not inflect: a homophone the IME chose (返還 for
        変換), a term typed in kana or romaji. Words that inflect share readings all the time (買える is
        no typo of 変える or 換える, all read かえる)."""
        if len(reading) < MIN_TYPO_CHARS:
            return None
        found = sorted(
            t
            for t in self.vocab.by_reading.get(reading, ())
            if t in self.game_words and (inflecting or not _inflects(t))
        )
        return found[0] if found else None

    def _corpus_words(self, meant: str) -> tuple[str, ...]:
        """The corpus's words for a term: itself, or the lexicon's synonyms of it (ノックアウト: 戦闘脱落)."""
        return tuple(self.vocab.synonyms.get(meant, (meant,))) if meant not in self.vocab.df else (meant,)

    def _same_skeleton(self, word: str) -> str | None:
        """The game word that is this kana word with its voicing, long-vowel or small-kana marks fixed."""
        if len(word) < MIN_TYPO_CHARS:
            return None
        meant = self._skeletons.get(kana_skeleton(word))
        return meant if meant != word else None

    def _searched_as(self, plan: QueryPlan, typed: str, meant: str) -> None:
        """Search `meant` (or the corpus's words for it: ノックアウト, 戦闘脱落) for what was typed, and say
        so once in the answer."""
        for term in self._corpus_words(meant):
            plan.add(term, self.vocab, weight=0.8, unit=typed)
        if (typed, meant) not in plan.corrections:
            plan.corrections.append((typed, meant))

    def _compound_typo(self, word: str) -> tuple[str, list[tuple[str, str]]] | None:
        """A katakana compound the segmenter kept whole because one of its game words has a mark
        wrong (チャーシフェイズ: チャージ + フェイズ; セフィロトコードブレイクチェク: セフィロト + コード +
        ブレイク + チェック): the compound as meant, and each word as typed with the corpus's term for
        it (チャーシ: チャージ, フェイズ: フェーズ). Up to COMPOUND_PIECES words, the fewest that do."""
        if not _KATAKANA_WORD.fullmatch(word):
            return None

        def piece_of(piece: str) -> tuple[str, str, bool] | None:
            """(as meant, term, mended) for a game word as typed, or one with a mark or a small ッ wrong."""
            if piece in self.game_words or self._skeletons.get(kana_skeleton(piece)) == piece:
                return piece, piece, False  # a game word, or a player's word for one (ブレイク), as typed
            read = tokens(piece)
            if len(read) == 1 and read[0].term in self.game_words:  # as typed (フェイズ: フェーズ)
                return piece, read[0].term, False
            meant = self._same_skeleton(piece) or self._romaji_skeletons.get(kana_skeleton(piece))
            return (meant, meant, True) if meant and meant != piece else None

        def split(rest: str, room: int, whole: bool) -> list[tuple[str, str, str, bool]] | None:
            """`rest` as at most `room` words (two or more unless `whole`)."""
            if whole and (one := piece_of(rest)):
                return [(rest, *one)]
            if room < 2:
                return None
            for cut in range(MIN_TYPO_CHARS, len(rest) - MIN_TYPO_CHARS + 1):
                if (first := piece_of(rest[:cut])) and (after := split(rest[cut:], room - 1, True)):
                    return [(rest[:cut], *first), *after]
            return None

        for room in range(2, COMPOUND_PIECES + 1):  # the fewest words first
            found = split(word, room, False)
            if found and any(mended for *_, mended in found):
                return "".join(shown for _, shown, _, _ in found), [(typed, term) for typed, _, term, _ in found]
        return None

    def _typo_of(self, word: str, capitalised: bool = False) -> str | None:
        """`_close_word`, looked up once while the word is among the last TYPO_CACHE looked up. A word
        players write (single, playing) is meant as written: only the word inflected (chose: chosen)
        is searched instead of it."""

        def look_up() -> str | None:
            meant = self._close_word(word, capitalised)
            return None if meant and word in self.players_words and not _inflection(word, meant) else meant

        return self._typos.get((word, capitalised), look_up)

    def _close_word(self, word: str, capitalised: bool = False) -> str | None:
        """The rules term a word is a typo of, among the terms sharing a pair of characters with it.
        An English word is compared with the lexicon's game words only, and must be nearer: English
        is full of real words one letter apart (discord, discard); a capitalised one nearer still."""
        latin = bool(_LATIN.match(word))
        if latin and len(word) < LATIN_TYPO_CHARS:
            return self._swapped_keyword(word)
        if not latin and (same := self._same_skeleton(word)):
            # A mark dropped or added (ブロッグ) is nearer than any letters difflib counts alike
            # (ブロッキング holds more of ブロッグ than ブロック does).
            return same
        if latin and (misread := next((w for w in misreadings(word) if w in self._latin_words), None)):
            return misread  # read by OCR (darnage): a game word, however many letters apart
        pool: dict[str, None] = {}
        for pair in {word[i : i + 2] for i in range(len(word) - 1)}:
            for candidate in self._pairs.get(pair, ()):
                if (candidate in self._latin_words if latin else not _LATIN.match(candidate)) and candidate != word:
                    pool[candidate] = None
                if len(pool) >= TYPO_POOL:
                    break
        cutoff = (LATIN_NAME_CUTOFF if capitalised else LATIN_CUTOFF) if latin else TYPO_CUTOFF
        if len(word) <= SHORT_WORD:
            pool = {candidate: None for candidate in pool if candidate[:1] == word[:1]}
        close = difflib.get_close_matches(word, list(pool), n=1, cutoff=cutoff if len(word) >= 4 else 0.8)
        if close:
            return close[0]
        # Two neighbouring letters swapped (ehter, shfit) are as far as one edit, though difflib scores
        # them low; swapping them back lands on a game word, and a real word rarely does.
        swapped = next((w for w in letter_swaps(word) if w != word and w in self._latin_words), None) if latin else None
        if swapped or not latin:
            return swapped
        # An inflected typo (bloking, chalenging) is compared without its ending (blok → block).
        stem = stem_word(word)
        return self._close_word(stem, capitalised) if stem != word and len(stem) >= MIN_DROP_CHARS else None

    def _unit_games(self, plan: QueryPlan, unit: str) -> dict[str, float]:
        """The games whose passages hold the word typed (not its synonyms), with its share of each
        (`_term_games`)."""
        shares: dict[str, float] = {}
        for t in plan.own(unit) or plan.units[unit]:
            for game, share in self._term_games(t).items():
                shares[game] = max(shares.get(game, 0.0), share)
        return shares

    def _term_games(self, term: str) -> dict[str, float]:
        """The games whose passages hold a term, with its share of each: how often their passages
        hold it, against how often all passages do."""
        rates = {game: n / max(self.game_sizes.get(game, 1), 1) for game, n in self.term_games.get(term, {}).items()}
        total = sum(rates.values())
        shares: dict[str, float] = {}
        if not total:
            return shares
        for game, rate in rates.items():
            # The house rules' prose says nothing of the game; a word the lexicon leads to there
            # (投了 → concede) is game vocabulary and counts for the house rules' game.
            if game.startswith(HOUSE_PREFIX):
                if term not in self.game_words:
                    continue
                game = game.removeprefix(HOUSE_PREFIX)
            shares[game] = max(shares.get(game, 0.0), rate / total)
        return shares

    def _own_words(self, plan: QueryPlan) -> Counter[str]:
        """By game, how many words of the question are words that game coined (エーテル, インクウェル,
        アルカステラ: the lexicon's `own_words`) and only its passages use; a word typed for several
        terms counts by its coined one ("ether area": エーテル, not エリア)."""
        out: Counter[str] = Counter()
        for unit in plan.units:
            terms = plan.own(unit)
            for term in terms:
                if term in self.own_terms and len(shares := self._term_games(term)) == 1:
                    # A word the lexicon reads as each game's own term ("sideways": タップ, エグザート)
                    # is coined by neither.
                    if not any(self._main_game(t) not in (None, *shares) for t in terms if t != term):
                        out.update(shares.keys())
                    break
        return out

    def _main_game(self, term: str) -> str | None:
        """The game whose passages hold a game word most (タップ: HorizonNotes's); None for another word."""
        shares = self._term_games(term) if term in self.game_words else {}
        return max(shares, key=shares.__getitem__) if shares else None

    def _swapped_keyword(self, word: str) -> str | None:
        """A short English word that is a game keyword with two neighbouring letters swapped (dfe → def),
        or with one letter dropped (blok → block) when it is four letters long: too short to compare by
        spelling, but such an edit of a keyword is rarely another word."""
        dropped = letter_insertions(word) if len(word) == MIN_DROP_CHARS else []
        for edited in [*letter_swaps(word), *dropped]:
            if edited != word and any(t in self.vocab.keyword_terms for t in self.vocab.english.get(edited, ())):
                return edited
        return None

    def _game_of(self, plan: QueryPlan, table_game: str | None = None) -> str | None:
        """The game the question is about: the one it names, or the one most of its words belong to;
        beside a running table (`table_game`), that game unless nearly all its words are the other's."""
        named = [g for g in plan.games if g in {d.game for d in self.documents.values()}]
        if len(named) > 1:
            named = self._games_asked(plan, named)
        if len(named) == 1:
            return named[0]
        # A card the corpus discusses belongs to one game: a question naming cards of one game only
        # is about that game, however its other words are shared.
        card_games = frozenset().union(*(self.card_games.get(key, frozenset()) for key in plan.card_keys))
        if not named and len(card_games) == 1:
            return next(iter(card_games))
        weight: dict[str, float] = {}
        own: set[str] = set()  # games one of the question's game words belongs to alone (インクウェル)
        total = 0.0
        games = {unit: self._unit_games(plan, unit) for unit in plan.units}
        for unit, members in plan.units.items():
            typed = plan.own(unit) or members
            w = max(self.idf(t) * plan.weights[t] for t in typed)
            shares = games[unit]
            if not shares:
                continue  # a word only the house rules' prose uses
            if len(shares) == 1 and any(t in self.game_words for t in plan.own(unit)):
                own.update(shares)
            total += w
            for game, share in shares.items():
                weight[game] = weight.get(game, 0.0) + w * share
        if not total or not weight:
            return table_game
        coined = self._own_words(plan)
        if table_game is None and len(coined) == 1:
            return next(iter(coined))  # a word one game coined (アルカステラ, インクウェル) says which
        # A card the corpus does not discuss, named in the way one of its games names cards.
        forms = self.vocab.lexicon.games_naming_cards(plan.text) if not named and not card_games else []
        if table_game is None and not coined and len(forms) == 1 and forms[0] in weight:
            return forms[0]
        game, best = max(weight.items(), key=lambda item: item[1])
        if table_game is not None and game != table_game:
            # Beside a table, only the other game's own words, or nearly all the words, say otherwise.
            if own - {table_game} and table_game not in own:
                return game if game in own else table_game
            return game if best / total >= TABLE_GAME_SHARE else table_game
        return game if best / total >= GAME_SHARE else table_game

    def _games_asked(self, plan: QueryPlan, named: list[str]) -> list[str]:
        """Of the corpus's games a question names, those it asks about: not one it only compares the
        other with (ロルカナで言うと), and the one its asking parts name if they name one ("In Lorcana
        there's no blocking. How does blocking work in HorizonNotes?")."""
        kept = [g for g in named if g not in plan.compared] or named
        asking = [sub for piece, sub in plan.pieces.items() if asks(piece)]
        asked = {g for sub in asking for g in sub.games if g in kept and g not in sub.compared}
        if not asked:  # an asking sentence compares with one game only: the other is asked about
            compared = {g for sub in asking for g in sub.compared if g in kept}
            asked = set(kept) - compared if len(compared) == 1 else set()
        return list(asked) if len(kept) > 1 and len(asked) == 1 else kept

    def _outside(self, plan: QueryPlan, best: float, game: str | None) -> bool:
        """Plainly outside the corpus: another game, a game keyword the corpus never names, chatter
        rather than a question, or no game word at all and little in common with any passage."""
        # A player coming from another game may name it ("in MTG it's lands") and ask in words one of
        # our games coined (ether, Arcastella), or about a card the corpus discusses: then it is that
        # game's question. Naming one of ours too, it is the other's when only the other is asked about.
        if (
            plan.other_games
            and not plan.cards
            and max(self._own_words(plan).values(), default=0) < OWN_WORDS
            and (not plan.games or self._asks_only_another_game(plan))
        ):
            return True
        if plan.missing_keywords and self._missing_share(plan) >= MISSING_KEYWORD_SHARE:
            return True
        # Written like the channel's chatter, not like a rules question: a game lost, the artwork, the
        # bot itself, however many game words and keywords it uses ("DEF高いやつばっかで疲れた").
        odds = self._chatter_odds(plan)
        if odds > CHATTER_ODDS and not self._quotes_game_word(plan) and not self._asks_as_rules_do(plan):
            return True
        # A question naming a game keyword (ブロック, DEF, exert) asks the rules, whatever else it says
        # ("blocking against the strongest deck", "at the tournament").
        keyword = any(t in self.keywords for unit in plan.units for t in plan.own(unit))
        if not keyword and (
            any(stem_word(w) in self.outside_words for w in plan.unknown if _LATIN.match(w))
            or plan.lemmas & self.outside_words
            or self.vocab.lexicon.asks_outside(plan.text)
        ):
            return True  # where to buy dice, what a deck costs, which deck is best: no rulebook says
        # Everyday words (pick, how long, 寝る) lead to game words, but say nothing of the games.
        # Words every card game and every question about one uses (カード, デッキ: in most passages) and
        # numbers say nothing of the rules being asked about.
        typed_game_words = [
            t
            for unit in plan.units
            if unit.removeprefix("en:") not in self.vocab.general_english and unit not in self.general_synonyms
            for t in plan.own(unit)
            if t in self.game_words and not _NUMBER.match(t)
        ]
        game_words = any(self._topical_game_word(t) for t in typed_game_words)
        numbers_only = bool(plan.units) and all(_NUMBER.match(u) for u in plan.units)  # 2+2: every passage has a 2
        # A question to the bot about itself (who runs it, is it accurate, where to report a mistake) uses
        # plenty of words the lexicon knows (公開, 英語, 間違い); only the games' own terms, or a word of
        # the rulebook of the game the bot referees (ダイス, 振る), make it a rules question.
        if plan.to_referee and not (
            keyword or plan.cards or plan.games or self._own_words(plan) or self._table_game_words(plan)
        ):
            return True
        # Naming a game is no rules question by itself (who publishes HorizonNotes, is there an app).
        if game_words or not (best < OUTSIDE_COVERAGE or numbers_only):
            return False
        # Few words in common with any passage, but written as a rules question is and in the games'
        # common words (効果, damage: a clumsy or misspelt question), it gets the closest passages.
        rules_like = odds <= RULES_LIKE_ODDS and bool(typed_game_words)
        return numbers_only or not (rules_like or self._asked_holds(plan))

    def _asks_only_another_game(self, plan: QueryPlan) -> bool:
        """Whether the parts that ask name another game and none of ours ("MTG: does ward trigger off a
        static ability? Just checking my Lorcana intuition doesn't transfer.")."""
        asking = [sub for piece, sub in plan.pieces.items() if asks(piece)]
        return any(sub.other_games for sub in asking) and not any(set(sub.games) - set(sub.compared) for sub in asking)

    def _chatter_odds(self, plan: QueryPlan) -> float:
        """How far the message as typed leans to chatter (bot/rulings/chatter.py), games' names aside."""
        typed = self.vocab.lexicon.without_game_names(plan.typed)
        # Romaji is read as the Japanese it is, its game words as the terms they were searched as;
        # words spelled out in hiragana as the words (てふだ: 手札): a message typed all in kana is
        # a question as often as chatter.
        return self.chatter.odds(_as_meant(plan, as_kana(typed, dict(plan.corrections)) or typed))

    def _topical_game_word(self, term: str) -> bool:
        """A game word that says what is asked: not a number, nor in most passages (カード, デッキ)."""
        return (
            term in self.game_words
            and not _NUMBER.match(term)
            and self.vocab.df.get(term, 0) <= TOPIC_MAX_SHARE * self.vocab.passages
        )

    def _asks_as_rules_do(self, plan: QueryPlan) -> bool:
        """Whether a chatty message holds a sentence that asks about a word of the rules as a rules
        question is written (子どもと初めて遊んでいます。最初の手札は何枚配ればいいですか？): the story
        around it is a parent's, the question is the rules'."""
        return any(
            asks(piece)
            and any(
                self._topical_game_word(t)
                for unit in part.units
                if unit not in self.general_synonyms
                for t in part.own(unit)
            )
            and self._chatter_odds(part) <= RULES_LIKE_ODDS
            for piece, part in plan.pieces.items()
        )

    def _quotes_game_word(self, plan: QueryPlan) -> bool:
        """Whether the message quotes a word of the rules (「ちゃーじふぇいず」というのは, "Ward" means): a
        question about the rules, however chatty the words around it."""
        return any(
            unit.removeprefix("en:") in literal.lower() and self._topical_game_word(t)
            for literal in quoted(plan.text)
            for unit in plan.units
            for t in plan.own(unit)
        )

    def _table_game_words(self, plan: QueryPlan) -> bool:
        """Whether the question names a game word of the rulebook of the game the referee's tables play
        (ダイス, 振る): one it asks about, not an everyday verb of it in passing (使える, 出る weigh less)."""
        return any(
            TABLE_GAME in self.term_games.get(t, {})
            for unit in plan.units
            for t in plan.own(unit)
            if t in self.game_words and plan.weights.get(t, 0.0) >= 1.0
        )

    def _missing_share(self, plan: QueryPlan) -> float:
        """The share of the question (unknown words counted fully) that game keywords the corpus
        never names carry: what it is about, or a detail of a question about something else."""
        _, known = self._unit_weights(plan)
        weight = self.idf("")
        total = known + weight * sum(plan.unknown.values())
        missing = {normalize(w) for w in plan.missing_keywords}
        # A missing keyword sits in `unknown` under its corpus spelling (Evasive → 回避): count the
        # unknown words that are keyword terms, or that the question typed as one.
        found = sum(w for word, w in plan.unknown.items() if word in missing or word in self.vocab.keyword_terms)
        return weight * found / total if total else 1.0

    # --- ranking ------------------------------------------------------------------------------

    def _coverage(
        self,
        plan: QueryPlan,
        passage_terms: frozenset[str],
        unknown_share: float = UNKNOWN_SHARE,
        name_only: frozenset[str] = frozenset(),
        everyday: float = 1.0,
        related: bool = True,
    ) -> float:
        """Share of the question's idf weight that the passage carries. Each unit of the question (a
        word as typed, with its synonyms or translations) counts once; unknown words and numbers
        count little (fully, when asking whether the question is about the corpus at all); a unit
        found only inside a name the question does not give counts NAME_ONLY_SHARE; a unit of
        everyday words (pick, 寝る) counts `everyday` of itself (none, when asking whether the
        question is about the corpus at all: sleeping is not about tapping)."""
        units, known = self._unit_weights(plan)
        total = known + unknown_share * self.idf("") * sum(plan.unknown.values())
        found = 0.0
        units_of = plan.units_of
        held = sorted({i for term in passage_terms.intersection(units_of) for i in units_of[term]})
        for i in held:  # in the question's order, as the sum always was
            (members, weight), alternatives, unit = units[i], plan.unit_alternatives[i], plan.unit_words[i]
            share = self._share(alternatives, passage_terms)
            synonyms = plan.related.get(unit)
            if synonyms and (members & passage_terms) <= synonyms:
                # Only a synonym of the dictionary: none for a direct match (the dictionary does not
                # know which sense the rules use: 了解 is no 許す). For ranking, part of a word the
                # corpus knows; a word the corpus does not know is its synonyms, at their lower weight.
                if not related:
                    continue
                if len(synonyms) < len(members):
                    share *= RELATED_SHARE
            if everyday != 1.0 and (
                unit in self.general_synonyms or unit.removeprefix("en:") in self.vocab.general_english
            ):
                share *= everyday
            if name_only and (members & passage_terms) <= name_only and members.isdisjoint(plan.named):
                share *= NAME_ONLY_SHARE
            found += share * weight
        return found / total if total else 0.0

    def _unit_weights(self, plan: QueryPlan) -> tuple[list[tuple[frozenset[str], float]], float]:
        """Each unit's terms and weight (its rarest term's idf times its weight; numbers count little),
        and their sum: worked out once per plan, used for every candidate."""
        key = (len(plan.units), len(plan.terms), sum(plan.weights.values()))
        if plan.unit_weights is None or plan.unit_weights[0] != key:
            units = []
            for unit, members in plan.units.items():
                # A unit weighs as the word typed: a rarer synonym of the dictionary adds no weight.
                own = plan.own(unit) or members
                weight = max(self.idf(t) for t in own) * max(plan.weights[t] for t in own)
                units.append((frozenset(members), weight * (NUMBER_WEIGHT if _NUMBER.match(unit) else 1.0)))
            plan.unit_weights = (key, units, sum(w for _, w in units))
            plan.unit_alternatives = [self._alternatives(unit, members) for unit, members in plan.units.items()]
            plan.unit_words = list(plan.units)
            units_of: dict[str, list[int]] = {}
            for i, (held, _) in enumerate(units):
                for term in held:
                    units_of.setdefault(term, []).append(i)
            plan.units_of = {term: tuple(found) for term, found in units_of.items()}
        return plan.unit_weights[1], plan.unit_weights[2]

    def _alternatives(self, unit: str, members: Sequence[str]) -> tuple[tuple[frozenset[str], float], ...]:
        """The ways a passage can carry a unit, each with its terms' summed idf: every translation or
        synonym of several words is one; a member no such alternative holds is one of its own."""
        alts = [alt for alt in self.alternatives.get(unit, ()) if len(alt) > 1]
        if not alts:
            return ()
        held = frozenset().union(*alts)
        alts += [frozenset({m}) for m in members if m not in held]
        return tuple((alt, sum(self.idf(t) for t in alt)) for alt in alts)

    def _share(self, alternatives: tuple[tuple[frozenset[str], float], ...], passage_terms: frozenset[str]) -> float:
        """How much of a unit a passage carries: the best alternative's idf-weighted share present."""
        if not alternatives:
            return 1.0
        return max(
            (sum(self.idf(t) for t in alt if t in passage_terms) / total if total else 0.0)
            for alt, total in alternatives
        )

    def _retrieve(self, plan: QueryPlan, limit: int) -> list[int]:
        """The `limit` passages of best BM25F on the question's rarer terms, read from the first `limit`
        passages of each term's postings: a passage below them in every list is left out although
        its weights could add up to more than a kept one's (bench/rulings.py measures recall on a
        corpus 100 times this one, where that can happen). Quoted phrases are matched by FTS5."""
        scores: dict[int, float] = {}
        for term in retrieval_terms(plan, self.vocab, MATCH_MAX_SHARE):
            weight = self._term_weight(plan, term)
            for passage, impact in self.db.execute(
                "SELECT passage, impact FROM postings WHERE term = ? ORDER BY impact DESC LIMIT ?", (term, limit)
            ):
                scores[passage] = scores.get(passage, 0.0) + weight * impact
        rowids = sorted(scores, key=lambda r: (-scores[r], r))[:limit]
        if plan.phrases:
            kept = set(rowids)  # a passage holding the phrase is a candidate, however it scored above
            rowids += [
                r[0]
                for r in self.db.execute(
                    "SELECT rowid FROM passages_fts WHERE passages_fts MATCH ? "
                    "ORDER BY bm25(passages_fts, ?, ?, ?) LIMIT ?",
                    (phrase_match(plan), *COLUMN_WEIGHTS, CANDIDATES),
                )
                if r[0] not in kept
            ]
        return rowids

    def _candidates(self, plan: QueryPlan, game: str | None, prefer: str | None = None) -> list[_Candidate]:
        """Retrieve on the question's rarer terms (`_retrieve`), then score every candidate in Python with
        all of them: BM25F over body, heading and names, mixed with the coverage of the question.
        Passages of the game the question is about (`prefer`) come first.

        Retrieval on rare terms keeps it from ranking most of a large corpus for words like
        ダメージ; the scoring still sees those words. Only the passages shown are parsed in full."""
        votes = self._asked_votes(plan)
        if plan.empty and not votes:
            return []
        limit = CANDIDATES * (4 if game else 1)
        rowids = self._retrieve(plan, limit) if not plan.empty else []
        rowids += [r for r, vote in votes.items() if vote >= ASKED_CANDIDATE_VOTE and r not in rowids]
        for literal in (lit for lit in plan.literals if len(lit) >= 3):  # trigrams need three characters
            rowids += [
                r[0]
                for r in self.db.execute(
                    "SELECT rowid FROM literal_fts WHERE literal_fts MATCH ? LIMIT ?",
                    ('"' + literal.replace('"', '""') + '"', CANDIDATES),
                )
                if r[0] not in rowids
            ]
        rows = self._read_rows(rowids)
        scored: list[tuple[int, _Row, float]] = []  # each candidate of the game with its bonus
        name_only: dict[int, frozenset[str]] = {}
        aside: set[int] = set()  # passages aside from what is asked: no classifier's opinion lifts them
        asks = _Asks.of(plan, self.vocab.lexicon)
        for rowid, row in rows.items():
            if game is not None and row.game != game:
                continue
            kind, document, section, plain = row.kind, row.document, row.section, row.plain
            bonus = self._bonus(plan, asks, kind, row.name, plain)
            if asks.can or asks.count:
                says_can, says_count = self._passage_says(rowid, plain)
                bonus += CAN_BONUS * (asks.can and says_can) + COUNT_BONUS * (asks.count and says_count)
            # Asked what a word is called: the terminology table's section, commentary or not.
            term_section = asks.term and (document, section) in self.term_sections
            if (kind is Kind.UNVERIFIED and not asks.unverified) or (
                kind is Kind.TRANSLATOR_NOTE and (asks.term or not asks.translation)
            ):
                aside.add(rowid)  # a translator's note, an open point: unless asked about (a word: its row)
            if kind is Kind.BODY and row.uncited and document in self.citing and not term_section:
                # Commentary around the rules; what is asked of it (what a class teaches) is no rule.
                bonus -= UNCITED_PENALTY
                if not asks.translation:  # the commentary is where the translation is spoken of
                    aside.add(rowid)
            else:
                bonus += ASKED_WEIGHT * votes.get(rowid, 0.0)
            if term_section:
                bonus += TERM_SECTION_BONUS
            scored.append((rowid, row, bonus))
            name_only[rowid] = _name_only(plan, row.columns) - self.game_words
        wanted = set(plan.weights).union(*(part.weights for part in plan.pieces.values()))
        shares = [self._shares(row, wanted) for _, row, _ in scored]
        bm25 = [self._bm25f(plan, s) for s in shares]
        best = max(bm25, default=0.0) or 1.0
        rules = [(rowid, row) for rowid, row, _ in scored if row.kind is not Kind.HOUSE_RULE]
        evidence = self._section_evidence(plan, [(row.document, row.section, row.terms) for _, row in rules])
        taught = self._taught(plan, [rowid for rowid, _, _ in scored], aside)
        topics = {rowid: self._heading_topic(row.document, row.section, row.columns[1]) for rowid, row in rules}
        named_topic = any(words & self.keywords & wanted for words in topics.values())
        out = []
        for (rowid, row, bonus), score, held in zip(scored, bm25, shares, strict=True):
            # The house rules' Japanese terms are the lexicon's glosses of English prose already: a
            # synonym of the dictionary of a gloss is a guess too far.
            house = row.kind is Kind.HOUSE_RULE
            coverage = self._coverage(plan, row.terms, name_only=name_only[rowid], related=not house)
            length = max(len(row.columns[0]), 1) / self.avg_lengths[0]
            rank = (1 - COVERAGE_SHARE) * score / best + COVERAGE_SHARE * coverage + bonus
            rank -= LENGTH_PENALTY * max(0.0, math.log(length))
            if row.document in self.citing:
                rank -= POSITION_PENALTY * math.log(_ordinal(row.id))
            rank += SECTION_WEIGHT * evidence.get((row.document, row.section), 0.0)
            # The heading names the section's topic (ブロック, DEF): a question naming another section's
            # topic and none of this heading's words is less likely about this section, however many of
            # the passage's other words it uses.
            topic = topics.get(rowid)
            if topic and named_topic and not topic & wanted:
                rank -= HEADING_TOPIC_PENALTY
            lift = CLASSIFIER_WEIGHT * taught.get(rowid, 0.0)
            rank += lift
            out.append(
                _Candidate(
                    rowid,
                    row.id,
                    row.game,
                    row.kind,
                    row.document,
                    row.section,
                    row.citations,
                    score,
                    coverage,
                    rank,
                    row.terms,
                    name_only[rowid],
                    votes.get(rowid, 0.0),
                    score / best,
                    held,
                    lift,
                    rowid in aside,
                )
            )
        out.sort(key=lambda c: (prefer is None or c.game == prefer, c.rank), reverse=True)
        if self.dense is not None and out and out[0].coverage < DENSE_BELOW:
            out = self._dense_rerank(plan, out, prefer)
        return out

    def _heading_topic(self, document: str, section: int, heading: Sequence[str]) -> frozenset[str]:
        """A section's heading words, when its heading names a keyword (戦闘時の[ブロック]); else none.
        Read once a section: every passage of it shares the heading, and the index does not change."""
        key = (document, section)
        if (topic := self._topics.get(key)) is None:
            words = frozenset(t for t in heading if self._topical_game_word(t))
            topic = self._topics[key] = words if words & self.keywords else frozenset()
        return topic

    def _taught(
        self, plan: QueryPlan, rowids: Sequence[int], aside: AbstractSet[int], whole: QueryPlan | None = None
    ) -> dict[int, float]:
        """Each candidate's classifier score (bot/rulings/classifier.py) less the best candidate's: 0
        for the passage whose questions the question is most like. A passage the classifier has no
        question of scores as the lowest. A passage `aside` from what is asked (commentary around the
        rules unless the translation is asked about, a translator's note or an open point not asked
        about) scores as the middle candidate: its questions' wording lifts it no more than the asked
        questions' votes do. `whole`: the question a part is of, whose reading of the model it shares."""
        wanted = [r for r in rowids if r not in aside]
        found = classifier_scores(
            self.db, _as_meant(plan), wanted, self.classifier_questions, (whole or plan).classified, self._model
        )
        if not found:
            return {}
        best, worst = max(found.values()), min(found.values())
        middle = statistics.median(found.values())
        return {rowid: (middle if rowid in aside else found.get(rowid, worst)) - best for rowid in rowids}

    def _asked_weights(self, plan: QueryPlan) -> dict[str, float]:
        """The question's words as the asked questions are searched: its terms, the words the corpus
        does not know and the stems of its English words, each with its weight in the question."""
        weights: dict[str, float] = dict(plan.unknown)
        for stem in english_stems(plan.text, self.english_stopwords):
            weights[stem] = 1.0
        for members in plan.units.values():
            for term in members:
                weights[term] = max(weights.get(term, 0.0), plan.weights.get(term, 1.0))
        return weights

    def _asked_holds(self, plan: QueryPlan) -> bool:
        """Whether one of the question's nearest asked questions holds nearly all of its words: a
        question in players' words only (スタフェって何するんだっけ？) is about the games all the same."""
        weights = {t: w for t, w in self._asked_weights(plan).items() if not _NUMBER.match(t)}
        total = sum(weights.values())
        if not total or not plan.asked_nearest:
            return False
        marks = ",".join("?" * len(plan.asked_nearest))
        return any(
            sum(w for t, w in weights.items() if t in held) >= ASKED_HOLDS * total
            for (terms,) in self.db.execute(f"SELECT terms FROM asked WHERE rowid IN ({marks})", plan.asked_nearest)
            for held in [frozenset(terms.split())]
        )

    def _asked_votes(self, plan: QueryPlan) -> dict[int, float]:
        """Passage → how near its nearest asked question is to the question (1.0 for the nearest of
        all), over the ASKED_NEAREST nearest by BM25. Words the corpus does not know count too: the
        asked questions are worded as players word theirs (寝かす, スタフェ)."""
        if not self.asked_count:
            return {}
        weights = self._asked_weights(plan)
        marks = ",".join("?" * len(weights))
        df = self.db.execute(f"SELECT term, df FROM asked_vocab WHERE term IN ({marks})", list(weights)).fetchall()
        # A term in a tenth of all asked questions tells none apart, at the cost of reading them all.
        kept = sorted((count, term) for term, count in df if count <= ASKED_MAX_SHARE * self.asked_count)
        if not kept:
            return {}
        scaled = {
            term: weights[term] * math.log((self.asked_count - count + 0.5) / (count + 0.5) + 1.0)
            for count, term in kept[:ASKED_TERMS]
        }
        # Each term's first postings, weighted, summed per asked question: the nearest are the highest.
        read = {
            term: (unpack("q", data), unpack("d", impacts))
            for term, data, impacts in self.db.execute(
                "SELECT term, asked, impacts FROM asked_first WHERE term IN (SELECT value FROM json_each(?))",
                (json.dumps(list(scaled), ensure_ascii=False),),
            )
        }
        sums: dict[int, float] = {}
        for term, w in scaled.items():  # in the question's order of terms, whatever order SQLite reads them in
            for asked, impact in zip(*read.get(term, ((), ())), strict=True):
                sums[asked] = sums.get(asked, 0.0) + impact * w
        # The ASKED_NEAREST highest, ties by the earlier question: the scores alone find the cut quickly.
        cut = min(heapq.nlargest(ASKED_NEAREST, sums.values()), default=0.0)
        above = ((a, v) for a, v in sums.items() if v >= cut)
        nearest = sorted(above, key=lambda item: (-item[1], item[0]))[:ASKED_NEAREST]
        marks = ",".join("?" * len(nearest))
        passage_of = dict(
            self.db.execute(f"SELECT rowid, passage FROM asked WHERE rowid IN ({marks})", [a for a, _ in nearest])
        )
        rows = [(passage_of[asked], score, asked) for asked, score in nearest]
        plan.asked_nearest = [asked for _, _, asked in rows]
        best = max((score for _, score, _ in rows), default=0.0)
        votes: dict[int, float] = {}
        for passage, score, _ in rows:
            votes[passage] = max(votes.get(passage, 0.0), score / best if best else 0.0)
        return votes

    def _section_evidence(
        self, plan: QueryPlan, passages: Sequence[tuple[str, int, frozenset[str]]]
    ) -> dict[tuple[str, int], float]:
        """How much of the question each section's retrieved rule passages (document, section, terms)
        carry together, which lifts each of them: a question walking through a procedure (roll, break
        check, DEF, HP) matches each step a little and the section of steps as a whole."""
        sections: dict[tuple[str, int], set[str]] = {}
        for document, section, terms in passages:
            sections.setdefault((document, section), set()).update(terms)
        return {key: self._coverage(plan, frozenset(terms)) for key, terms in sections.items()}

    def _dense_rerank(self, plan: QueryPlan, ranked: list[_Candidate], prefer: str | None) -> list[_Candidate]:
        """Where the lexical ranking is unsure, the passages of its best one's game re-ranked with the
        dense similarity as a second opinion (bot/rulings/dense.py)."""
        assert self.dense is not None
        head = [c for c in ranked if c.game == ranked[0].game]
        sims = self.dense.similarities(plan.text, [c.rowid for c in head])
        best = max(sims)
        fused = [replace(c, rank=c.rank + DENSE_WEIGHT * (s - best)) for c, s in zip(head, sims, strict=True)]
        fused.sort(key=lambda c: (prefer is None or c.game == prefer, c.rank), reverse=True)
        return fused + [c for c in ranked if c.game != ranked[0].game]

    def _shares(self, row: _Row, wanted: AbstractSet[str]) -> dict[str, float]:
        """The frequency in a passage of each term of the question or its parts (`wanted`), weighted
        by column and length as the index's impacts()."""
        tf: dict[str, float] = {}
        for weight, terms, average in zip(COLUMN_WEIGHTS, row.columns, self.avg_lengths, strict=True):
            share = weight / length_norm(len(terms), average)
            for term in filter(wanted.__contains__, terms):  # the test in C: a passage holds few of them
                tf[term] = tf.get(term, 0.0) + share
        return tf

    def _read_rows(self, rowids: Sequence[int]) -> dict[int, _Row]:
        """The candidate passages, by rowid in ascending order: those parsed by earlier searches kept
        (`_rows`), the rest read from the index."""
        found: dict[int, _Row] = {}
        wanted = sorted(set(rowids))
        missing = self._rows.recall(wanted, found)
        if missing:
            marks = ",".join("?" * len(missing))
            read = [
                (row[0], _Row.of(row[1:]))
                for row in self.db.execute(
                    "SELECT p.rowid, p.id, p.game, p.kind, p.document, p.section_index, p.citations, p.name, "
                    "p.terms, p.plain, f.body, f.heading, f.names FROM passages p "
                    f"JOIN passages_fts f ON f.rowid = p.rowid WHERE p.rowid IN ({marks})",
                    missing,
                )
            ]
            found.update(read)
            self._rows.keep(read)
        return {r: found[r] for r in wanted if r in found}

    def _bm25f(self, plan: QueryPlan, tf: Mapping[str, float]) -> float:
        """BM25F of the question's terms in a passage (its `_shares`), with the weights the index keeps
        for retrieval."""
        return sum(self._term_weight(plan, term) * saturate(tf[term]) for term in filter(tf.__contains__, plan.terms))

    def _term_weight(self, plan: QueryPlan, term: str) -> float:
        """How much a term of the question counts in BM25F: its weight in the question times its idf
        (numbers count little)."""
        return plan.weights.get(term, 1.0) * self.idf(term) * (NUMBER_WEIGHT if _NUMBER.match(term) else 1.0)

    def _bonus(self, plan: QueryPlan, asks: _Asks, kind: Kind, name: str, plain: str) -> float:
        bonus = 0.0
        if any(f"「{lit}」" in plain for lit in asks.literals):
            bonus += 2 * LITERAL_BONUS
        elif any(lit in plain for lit in asks.literals):
            bonus += LITERAL_BONUS
        if any(len(lit) >= MIN_SOFT_LITERAL and lit in plain for lit in plan.soft_literals):
            bonus += SOFT_LITERAL_BONUS
        if any(card in plain for card in plan.cards):
            bonus += CARD_NAME_BONUS  # the passage about the card the question names
        if kind is Kind.UNVERIFIED and not asks.unverified:
            bonus -= UNVERIFIED_PENALTY
        if kind is Kind.TRANSLATOR_NOTE and not asks.translation:
            bonus -= TRANSLATOR_NOTE_PENALTY
        if kind is Kind.DEFINITION:
            # Named in a short question, the definition may be what is asked ("共鳴値って？"); in a long
            # one the term is one word among many, and the rules about it come first.
            named = self.vocab.lexicon.prepare(name) in plan.text and len(plan.units) <= DEFINITION_MAX_UNITS
            bonus += DEFINITION_BONUS - DEFINITION_PENALTY if named else -DEFINITION_PENALTY
        return bonus

    # --- the answer ---------------------------------------------------------------------------

    def search(
        self,
        question: str,
        k: int = 3,
        game: str | None = None,
        cards: Sequence[CardNote] = (),
        options: Mapping[str, str] | None = None,
        table_game: str | None = None,
    ) -> Answer:
        """The k best passages for the question, labelled; house rules where the rulebook is silent;
        nothing only when the question is plainly outside the corpus. `table_game`: the game being
        played where the question is asked (a channel with a running table), which a question that
        names no game and whose words belong to no game in particular is taken to be about."""
        plan = self.plan(question)
        for card in cards:
            self._add_card(plan, card)
        # Asked of the bot itself ("why does the bot untap first?"), a question is about the game its
        # tables play, as if asked beside a running table.
        about = game or self._game_of(plan, table_game or (TABLE_GAME if plan.to_referee else None))
        ranked = self._candidates(plan, game, prefer=about)
        rules = [c for c in ranked if not c.house]
        house = [c for c in ranked if c.house and about in (None, HOUSE_GAME)]
        best = max((c.coverage for c in rules[:5]), default=0.0)
        common = {
            "question": question,
            "cards": list(cards),
            "searched_for": plan.corrections,
            "game": about,
            "options": dict(options or {}),
        }
        raw = max((self._coverage(plan, c.terms, 1.0, everyday=0.0) for c in [*rules[:5], *house[:1]]), default=0.0)
        if not rules and house and house[0].coverage >= HOUSE_COVERAGE and not self._outside(plan, raw, about):
            # Only the house rules speak of it (投了, concede): the rulebook does not state this.
            return Answer(answered=True, hits=[], label=Label.SILENT, house=[self._house_hit(house[0])], **common)
        if not rules or self._outside(plan, raw, about):
            return Answer(
                answered=False, hits=[], closest_terms=self.closest_terms(plan), label=Label.OUTSIDE, **common
            )
        parts, asking, matched = self._parts(plan, question, rules[:PART_POOL], about)
        # A part that only sets the scene ("Questions from the stream:", "I blocked with X.") asks
        # nothing of its own: it claims no passage.
        chosen = self._pick(rules, [r for r, ask, hit in zip(parts, asking, matched, strict=True) if ask and hit], k)
        label = self._label(plan, rules, chosen, parts, asking, about)
        house_hits: list[Hit] = []
        # A question of several parts is asked part by part: a house rule carrying more of the whole
        # than any one rule passage does is near it, not the answer to it.
        if house and sum(asking) < 2 and self._house_settles(house[0], rules[:5], best):
            label = Label.SILENT
            # The closest rule passages, then the house rule; the house rules are HorizonNotes's (only
            # a question about it or about no game gets one), so the closest of its rulebook.
            ours = [c for c in chosen if c.game == HOUSE_GAME]
            chosen = (ours or chosen)[:SILENT_RULES]
            house_hits = [self._house_hit(house[0])]
        elif house and self._house_near(house[0], rules[:5], best):
            # A house rule nearly as close as the rules: the rulebook may well leave this open.
            label = Label.CLOSEST
            house_hits = [self._house_hit(house[0])]
        elif house and label is Label.CLOSEST and (house[0].vote >= HOUSE_VOTE or house[0].rank > rules[0].rank):
            # Not a direct match, and the question is worded most like one a house rule answers, or
            # a house rule ranks above every rule passage (its words, its asked questions).
            house_hits = [self._house_hit(house[0])]
        groups = self._group(chosen, rules)
        return Answer(
            answered=True,
            hits=[self._hit(c, related) for c, related in groups],
            label=label,
            house=house_hits,
            **common,
        )

    def _house_settles(self, house: _Candidate, rules: Sequence[_Candidate], best: float) -> bool:
        """Whether a house rule speaks to the question better than any rule passage: it carries more
        of the question and matches it at least as strongly, or as much and much more strongly.

        Carrying more is not enough alone: a house rule is a long paragraph that quotes the rules and
        is glossed with the lexicon's words, so it holds some of almost any question's words (an
        English question's most of all, matched through the same lexicon). A weaker match only makes
        it a house rule near the question (`_house_near`)."""
        if house.coverage < HOUSE_COVERAGE:
            return False
        strongest = max((c.score for c in rules if c.coverage >= best - 0.01), default=0.0)
        if house.coverage >= best + HOUSE_MARGIN:
            return house.score >= HOUSE_SETTLE_RATIO * strongest
        return house.coverage >= best - 0.01 and house.score >= HOUSE_TIE_RATIO * strongest

    def _house_near(self, house: _Candidate, rules: Sequence[_Candidate], best: float) -> bool:
        """A house rule as close as the rules: clearly more of the question, or as much and as strong a match."""
        if house.coverage < HOUSE_COVERAGE:
            return False
        strongest = max((c.score for c in rules if c.coverage >= best - 0.01), default=0.0)
        return house.coverage > best + HOUSE_NEAR_MARGIN or (
            house.coverage >= best - 0.01 and house.score >= HOUSE_NEAR * strongest
        )

    def _parts(
        self, plan: QueryPlan, question: str, pool: list[_Candidate], about: str | None
    ) -> tuple[list[list[_Candidate]], list[bool], list[bool]]:
        """The ranking of each part of a question with several parts (none for a one-part question),
        whether each part asks something (or only sets the scene: "I blocked with X."), and whether
        its best passage holds any of it."""
        pieces = split_parts(question)
        if len(pieces) < 2:
            return [], [], []
        # Each part re-ranks the whole question's candidates by how much of that part they carry: the
        # whole question's retrieval already holds them, and a second search per part costs time.
        out, asking, matched = [], [], []
        for piece in pieces:
            sub = self._piece(plan, piece)
            if not any(sub.own(unit) for unit in sub.units):
                continue  # no word the corpus knows, only synonyms of the dictionary (質問 → 問う)
            asking.append(asks(piece))
            # The whole question's rank with the part's own match in place of the question's (its
            # coverage, and its bm25 relative to the part's best): the same asked-question votes and
            # the same kind of passage (a note, a passage citing nothing comes after).
            bm25 = [self._bm25f(sub, c.shares) for c in pool]
            top = max(bm25, default=0.0) or 1.0
            # The part's own classifier score in place of the whole question's: the whole question is
            # most like the questions of one part's passage, which would rank first for every part.
            own = self._taught(sub, [c.rowid for c in pool], {c.rowid for c in pool if c.aside}, plan)
            scored = []
            for c, score in zip(pool, bm25, strict=True):
                part = self._coverage(sub, c.terms, name_only=c.name_only)
                lexical = COVERAGE_SHARE * (part - c.coverage) + (1 - COVERAGE_SHARE) * (score / top - c.bm25_share)
                if own:
                    lexical += CLASSIFIER_WEIGHT * own.get(c.rowid, 0.0) - c.taught
                scored.append((c.rank + lexical, c.rank, c, part))
            scored.sort(key=lambda s: (s[2].game == about if about else True, s[0], s[1]), reverse=True)
            out.append([c for _, _, c, _ in scored])
            # A part whose best passage holds none of it ("Is there a stack in HorizonNotes?": no
            # passage of that game speaks of one) has no passage of its own to claim.
            matched.append(bool(scored) and scored[0][3] > 0.0)
        if len(out) < 2:
            return [], [], []
        # Parts that all read as statements ("DEFの計算。タップ状態のとき") are all asked about.
        return out, asking if any(asking) else [True] * len(asking), matched

    def _pick(self, rules: list[_Candidate], parts: list[list[_Candidate]], k: int) -> list[_Candidate]:
        """The best passage of the whole question, then the best of each part not yet answered, then
        the rest of the whole question's ranking: k passages, or one per part when there are more
        parts than k (the whole question's best gives way when it is no part's own)."""
        room = max(k, len(parts))
        chosen = [rules[0]]
        answered = False
        for ranking in parts:
            if any(c.id == cand.id or _same_rule(c, cand) for cand in ranking[:PART_SHOWN] for c in chosen):
                answered = answered or any(_same(rules[0], cand) for cand in ranking[:PART_SHOWN])
                continue  # this part is already answered by a passage shown
            chosen.append(ranking[0])
        if len(chosen) > room and not answered:
            chosen = chosen[1:]
        for cand in rules[1:]:
            if len(chosen) >= room:
                break
            if not any(_same(c, cand) for c in chosen):
                chosen.append(cand)
        return chosen[:room]

    def _label(
        self,
        plan: QueryPlan,
        rules: list[_Candidate],
        chosen: list[_Candidate],
        parts: list[list[_Candidate]],
        asking: Sequence[bool],
        about: str | None,
    ) -> Label:
        """A direct match when the best passage is of the game the question is `about` and carries most
        of the question (each asking part's best, most of that part), every game keyword of the
        question is in a passage shown, and, when it asks who, the passage answering it names someone.
        A part that only sets the scene ("I blocked with my Arcastella.") is the question's context,
        not something the rules must state."""
        if about is not None and rules[0].game != about:
            return Label.CLOSEST  # none of the game's own passages came near: another game's is no answer
        # A word the best passage carries only by a synonym of the dictionary is not matched directly:
        # the dictionary's groups do not know which sense the rules use.
        coverage = rules[0].coverage
        if any(plan.related.values()):
            coverage = self._coverage(plan, rules[0].terms, name_only=rules[0].name_only, related=False)
        asked = [ranking[0].coverage for ranking, ask in zip(parts, asking, strict=True) if ask]
        if coverage < DIRECT_COVERAGE or plan.unknown_names or plan.missing_keywords:
            return Label.CLOSEST  # an unknown name (a card, a keyword) the passages do not speak of
        if any(c < DIRECT_COVERAGE for c in asked):
            return Label.CLOSEST
        topic = [m for u, m in plan.units.items() if any(t in self.keywords for t in plan.own(u))]
        shown = chosen[0].terms if not parts else frozenset().union(*(c.terms for c in chosen))
        if not all(any(t in shown for t in members) for members in topic):
            return Label.CLOSEST
        if self._asks_who(plan) and not any(self._names_someone(c) for c in (chosen if parts else chosen[:1])):
            return Label.CLOSEST  # it asks who, and the passage answering it names no one
        return Label.DIRECT

    def _asks_who(self, plan: QueryPlan) -> bool:
        folded = plan.text.lower()
        return any(
            re.search(rf"(?<![a-z]){re.escape(w)}(?![a-z])", folded) if w.isascii() else w in folded
            for w in self.vocab.lexicon.asks_who
        )

    def _names_someone(self, candidate: _Candidate) -> bool:
        """Whether a passage names a player or a piece that acts (the answer to "who")."""
        text = self._passage_text(candidate.id).lower()
        return any(p.lower() in text for p in self.vocab.lexicon.persons)

    def _group(self, chosen: list[_Candidate], rules: list[_Candidate]) -> list[tuple[_Candidate, list[str]]]:
        """Each chosen passage with the restatements of its rule found among the candidates."""
        out = []
        for cand in chosen:
            related = [
                c.id for c in rules if c.id != cand.id and _same_rule(c, cand) and all(c.id != o.id for o in chosen)
            ]
            out.append((cand, related))
        return out

    def _hit(self, candidate: _Candidate, related: list[str]) -> Hit:
        p = self._passage(candidate.id)
        assert p is not None  # the id came from this index
        meta = self.documents[p.document]
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
            rule_text=self._key_rule(p) if p.kind is not Kind.KEY_RULE else "",
            house=p.kind is Kind.HOUSE_RULE,
            options=list(p.names) if p.kind is Kind.HOUSE_RULE else [],
            summary=p.summary,
        )

    def _house_hit(self, candidate: _Candidate) -> Hit:
        """A house rule is shown by its decision; when the reason matched better, the reason is named
        beside it (a player asks what the table does, then why)."""
        decision = f"{candidate.document}/{candidate.section_index:02d}/01"
        if candidate.id == decision or self._passage(decision) is None:
            return self._hit(candidate, [])
        row = self.db.execute("SELECT rowid FROM passages WHERE id = ?", (decision,)).fetchone()
        shown = _Candidate(
            row[0],
            decision,
            candidate.game,
            candidate.kind,
            candidate.document,
            candidate.section_index,
            candidate.citations,
            candidate.score,
            candidate.coverage,
            candidate.rank,
            candidate.terms,
        )
        return self._hit(shown, [candidate.id])

    def _key_rule(self, passage: Passage) -> str:
        """The key rule a passage restates (same section, a shared citation), to quote beside it."""
        if not passage.citations:
            return ""
        for payload, cites in self.db.execute(
            "SELECT json, citations FROM passages WHERE document = ? AND section_index = ? AND kind = ?",
            (passage.document, passage.section_index, Kind.KEY_RULE.value),
        ):
            if set(passage.citations) & {int(c) for c in cites.split()}:
                return Passage.model_validate_json(payload).text
        return ""

    def _passage(self, passage_id: str) -> Passage | None:
        row = self.db.execute("SELECT json FROM passages WHERE id = ?", (passage_id,)).fetchone()
        return Passage.model_validate_json(row[0]) if row else None

    def _passage_text(self, passage_id: str) -> str:
        p = self._passage(passage_id)
        return p.text if p else ""

    def _add_card(self, plan: QueryPlan, card: CardNote) -> None:
        """A card's words help find and rank passages at a lower weight; they are not part of the
        question's coverage, so the card's own name and flavour text never weigh on the label."""
        card_plan = analyse(f"{card.name}\n{card.text}", self.vocab)
        for term in card_plan.terms:
            if term not in plan.weights:
                plan.add(term, self.vocab, weight=CARD_WEIGHT * card_plan.weights[term], counted=False)
        for literal in card_plan.soft_literals:
            if literal not in plan.soft_literals:
                plan.soft_literals.append(literal)

    def closest_terms(self, plan: QueryPlan, limit: int = 8) -> list[str]:
        """Likely meant words for the question's unknown ones, then the question's own words the
        corpus knows, rarest first."""
        close: list[str] = []
        for word in list(plan.unknown)[:limit]:
            if len(word) >= MIN_TYPO_CHARS and (meant := self._typo_of(word)) and meant not in close:
                close.append(meant)
        own = dict.fromkeys(t for members in plan.units.values() for t in members if t not in close)
        terms = [*close, *sorted(own, key=lambda t: self.vocab.df.get(t, 0))]
        # Whole words only: not a piece of another word listed (幾 of 幾つ), nor a lone kana (つ).
        whole = [t for t in terms if not _LONE_KANA.fullmatch(t) and not any(t != o and t in o for o in terms)]
        return whole[:limit]


_LONE_KANA = re.compile(r"[\u3041-\u30ff]")


def _name_only(plan: QueryPlan, columns: Sequence[Sequence[str]]) -> frozenset[str]:
    """The question's terms that a passage holds only inside names: no more often in its body than in
    its names column, and not in its heading."""
    body, heading, names = columns
    if not names:
        return frozenset()
    in_names = Counter(t for t in names if t in plan.weights)
    if not in_names:
        return frozenset()
    in_body = Counter(t for t in body if t in in_names)
    return frozenset(t for t, n in in_names.items() if in_body[t] <= n and t not in heading)


def _as_meant(plan: QueryPlan, text: str | None = None) -> str:
    """The question as typed (or `text`, a form of it) with each word in place of what it was searched
    as (ブロッグ: ブロック, eeteru: エーテル) and each corpus word spelled out in hiragana as the word
    (てふだ: 手札): what the classifier and the chatter model read, whose features are the character
    pairs of the words written right."""
    text = plan.typed if text is None else text
    for typed, meant in plan.corrections:
        text = re.sub(re.escape(typed), meant, text, flags=re.IGNORECASE)
    for spelled, word in sorted(plan.spelled.items(), key=lambda s: -len(s[0])):
        text = text.replace(spelled, word)
    return text


def _ordinal(passage_id: str) -> int:
    """A passage's place in its section (a definition or a glossary row counts as the first)."""
    last = passage_id.rsplit("/", 1)[-1]
    return max(int(last), 1) if last.isdigit() else 1


def _inflection(word: str, meant: str) -> bool:
    """Whether two English words are one word inflected (chose, chosen; power, powers; separately)."""
    short, long = sorted((word, meant), key=len)
    return long.startswith(short) and long[len(short) :] in _ENDINGS


def _inflects(word: str) -> bool:
    """A verb or adjective: a kanji stem with a kana ending."""
    return bool(_INFLECTS.search(word))


def _whole_term(lexicon: Lexicon, word: str, stop: frozenset[str]) -> str:
    """A keyword's normalised form when the segmenter reads it as one word, else nothing."""
    whole = [t for t in tokens(lexicon.prepare(word), stop) if not t.piece]
    return whole[0].term if len(whole) == 1 else ""


def _card_keys(lexicon: Lexicon) -> list[tuple[str, list[str], float]]:
    """English card names as lexicon keys with their weight: the full name, and the character's
    name alone at a lower weight ("Elsa - Spirit of Winter" → エルサ – 冬の精霊, "Elsa" → エルサ)."""
    out: list[tuple[str, list[str], float]] = []
    for english, japanese in lexicon.cards.items():
        out.append((" ".join(_WORD.findall(english.lower())), [japanese], 1.0))
        head = re.split(r"\s+[-–—]\s+", english, maxsplit=1)[0]
        if head != english:
            out.append(
                (" ".join(_WORD.findall(head.lower())), [re.split(r"\s+[-–—]\s+", japanese, maxsplit=1)[0]], 0.5)
            )
    return out


def _lemmas(lexicon: Lexicon, synonyms: Mapping[str, object]) -> dict[str, str]:
    """Sudachi's normalised form of each one-word synonym (使う, 倒す, 決める) → the synonym."""
    out: dict[str, str] = {}
    for key in synonyms:
        words = [t for t in tokens(lexicon.prepare(key)) if not t.piece]
        if len(words) == 1:
            out.setdefault(words[0].term, normalize(key))
    return out


def _same(a: _Candidate, b: _Candidate) -> bool:
    return a.id == b.id or _same_rule(a, b)


def _same_rule(a: _Candidate, b: _Candidate) -> bool:
    """Body, key rule and worked question of one rule share a section and a citation number."""
    return a.document == b.document and a.section_index == b.section_index and bool(a.citations & b.citations)
