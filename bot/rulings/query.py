"""From a player's question to search terms: Japanese segmentation, kana variants of corpus words,
synonyms, English words through the lexicon and the glossaries, quoted phrases.

Synonyms come from the lexicon (hand-written game words) and from the dictionary: SudachiDict files
words under synonym groups (費用 and コスト, 選ぶ and 選択), and the index keeps, for each group, the
corpus terms in it. A question's noun, verb or adjective gets the other corpus terms of its groups as
alternatives of its unit, at RELATED_SHARE of its weight; they are marked `related` in the plan, so
they never make a word a game word, never lead to a game keyword, and alone never make a direct match.

Retrieval reads each term's postings by the term itself; what reaches FTS5 (quoted phrases) is quoted
by `phrase_match`, so operators typed by a player (AND, NEAR, `"`, `*`, `:`) are only ever words.
"""

from __future__ import annotations

import difflib
import math
import re
from collections.abc import Mapping
from dataclasses import dataclass, field
from functools import lru_cache

from bot.rulings.classifier import Reading
from bot.rulings.errors import RulingsError
from bot.rulings.glossary import Lexicon
from bot.rulings.romaji import romaji_words
from bot.rulings.tokenize import Token, boundaries, function_spans, kana_runs, known_words, to_katakana, tokens

MAX_QUESTION_CHARS = 1000  # longer questions are cut: nobody types more, and it bounds the work
MAX_TERMS = 48
MAX_MATCH_TERMS = 8
MAX_ENGLISH_WORDS = (
    8  # the longest English phrase looked up (a card's full name)  # retrieval uses the rarest few; scoring uses all
)
_CONTROL = re.compile(r"[\x00-\x08\x0b\x0c\x0e-\x1f\x7f]")
_PHRASE = re.compile(r"「([^」]+)」|『([^』]+)』|\"([^\"]+)\"|“([^”]+)”")
_LATIN_WORD = re.compile(r"[a-z0-9]+(?:['’\-][a-z0-9]+)*")
_ASCII = re.compile(r"^[a-z0-9'’\-]+$")
_ASCII_PHRASE = re.compile(r"^[a-z0-9'’\-:. ]+$")
_SENTENCE_START = re.compile(r"(?:^|[.?!。？！「『\"“(（:：])\s*$")
_MIN_KANA_READING = 3
# A verb of two verbs (持ち越す, 取り消す, 振り直す): kanji, kana, kanji, then its ending.
_COMPOUND_VERB = re.compile(r"^[\u4e00-\u9fff々]+[\u3041-\u3093][\u4e00-\u9fff々]+[うくぐすつぬぶむる]$")
# Weights of a word in the question's share (the coverage that decides abstention): nouns carry the
# topic; verbs and adjectives ("決める", "正しい") are often worded differently in the rules.
NOUN_WEIGHT, OTHER_WEIGHT, VARIANT_WEIGHT = 1.0, 0.5, 0.8
_ENGLISH_UNKNOWN_WEIGHT = 0.4
_ENGLISH_PROSE_WEIGHT = 0.4
GENERIC_SHARE = 0.4  # a word of everyday speech (最初, 具体的, 良く): it seldom says what is asked
PIECE_SHARE = 0.3  # no part of speech for English words the lexicon does not know
# Everyday English the lexicon translates (search, example): it says what is asked less than a game
# word does, and a question made of it is no more about the games than one of unknown words.
GENERAL_WEIGHT = 0.5
# A word's synonyms of the dictionary (its synonym groups, bot/rulings/tokenize.py) that the corpus
# uses are alternatives of its unit, at this share of its weight: 費用 finds コスト, 選ぶ finds 選択.
# A group holding more corpus terms than MAX_GROUP_TERMS says little (it is left out when the
# rulebook opens), and a word gets at most MAX_RELATED of them.
RELATED_SHARE = 0.6
MAX_GROUP_TERMS = 3
MAX_RELATED = 3


@dataclass
class Vocabulary:
    """What the corpus knows: document frequencies, readings for kana look-ups, lexicon entries."""

    df: Mapping[str, int]
    passages: int
    by_reading: Mapping[str, frozenset[str]]
    english: Mapping[str, tuple[str, ...]]  # lower-case English word or phrase → corpus terms
    english_phrases: Mapping[str, tuple[str, ...]]  # the same → the Japanese wordings themselves
    synonyms: Mapping[str, tuple[str, ...]]  # Japanese word → corpus terms
    synonym_phrases: Mapping[str, tuple[str, ...]]  # Japanese word → the corpus wordings themselves
    lexicon: Lexicon
    # Sudachi's normalised form of a one-word synonym → the synonym, so conjugated forms find it too
    # (倒された → 倒す, 使える → 使う).
    synonym_lemmas: Mapping[str, str] = field(default_factory=dict)
    english_keys_words: frozenset[str] = frozenset()
    keyword_key_words: frozenset[str] = frozenset()  # the words of the English keys that name game keywords
    longest_reading: int = 0  # no kana spelling is looked up longer than this
    keyword_terms: frozenset[str] = frozenset()  # the lexicon's game keywords, whether the corpus has them
    english_weights: Mapping[str, float] = field(default_factory=dict)  # below 1: a card's character name alone
    card_names: Mapping[str, str] = field(default_factory=dict)  # a card's full English name → its Japanese name
    latin_terms: frozenset[str] = frozenset()  # terms the corpus writes in Latin letters somewhere
    # Each English key by the stems of its words (golden rules → golden rule, remove → removes): any
    # inflection of any word of a key finds it, whichever form the lexicon or the table wrote.
    english_stems: Mapping[str, str] = field(default_factory=dict)
    general_english: frozenset[str] = frozenset()  # keys of everyday English: they weigh GENERAL_WEIGHT
    name_words: frozenset[str] = frozenset()  # words of the names the corpus quotes in Latin letters (Forever Strong)
    # The dictionary's synonym group → the corpus terms in it (groups of at most MAX_GROUP_TERMS).
    synonym_groups: Mapping[int, tuple[str, ...]] = field(default_factory=dict)
    # Worked out once, read by every question: the synonyms by their first character (a question
    # looks up only those whose first character it holds), in the lexicon's order.
    synonyms_by_first: Mapping[str, tuple[tuple[int, str], ...]] = field(default_factory=dict)
    game_names: frozenset[str] = frozenset()  # every game's names as a question may type them
    alias_forms: Mapping[str, str] = field(default_factory=dict)  # a game's name → as a question is compared
    # The lexicon's opposite states as the corpus's terms (its レディ is the term レディー).
    opposites: Mapping[str, tuple[str, ...]] = field(default_factory=dict)
    # A word → the most words of an English key, a key's stems or a corpus term in Latin letters that
    # begins with it: a question's phrases longer than that are never looked up (`_english`).
    english_lengths: Mapping[str, int] = field(default_factory=dict)
    english_stopwords: frozenset[str] = frozenset()  # the lexicon's, as a set read by every English question

    def __post_init__(self) -> None:
        by_first: dict[str, list[tuple[int, str]]] = {}
        for n, word in enumerate(self.synonyms):
            if word:
                by_first.setdefault(word[0], []).append((n, word))
        self.synonyms_by_first = {c: tuple(words) for c, words in by_first.items()}
        aliases = [
            a
            for names in [*self.lexicon.games.values(), self.lexicon.other_games, self.lexicon.referee_names]
            for a in names
        ]
        self.alias_forms = {a: to_katakana(a.lower()) for a in aliases}
        self.game_names = frozenset(n for a in aliases for n in (a.lower(), self.alias_forms[a], *a.lower().split()))
        self.english_keys_words = frozenset(w for key in self.english for w in key.split())
        self.keyword_key_words = frozenset(
            w for key, terms in self.english.items() if set(terms) & self.keyword_terms for w in key.split()
        )
        self.longest_reading = max(map(len, self.by_reading), default=0)
        self.english_stopwords = frozenset(self.lexicon.english_stopwords)
        # A stem a stop word shares is no sign of the key (times, time → tim: no timing).
        stop = {stem_word(w) for w in self.lexicon.english_stopwords}
        stems: dict[str, str] = {}
        for key in self.english:
            if stem_phrase(key) not in stop:
                stems.setdefault(stem_phrase(key), key)
        self.english_stems = stems
        lengths: dict[str, int] = {}
        for phrase in [*self.english, *stems, *(t for t in self.df if " " in t)]:
            words = phrase.split()
            if words:
                lengths[words[0]] = max(lengths.get(words[0], 1), len(words))
        self.english_lengths = lengths
        self.other_keywords = frozenset(stem_word(w.lower()) for w in self.lexicon.other_keywords)
        self.opposites = {
            _as_term(state): tuple(_as_term(o) for o in others) for state, others in self.lexicon.opposites.items()
        }


@dataclass
class QueryPlan:
    text: str = ""  # the question as prepared for segmentation
    typed: str = ""  # the question as typed (cut at MAX_QUESTION_CHARS): how it is written, not what it says
    terms: list[str] = field(default_factory=list)  # known to the corpus, in order, unique
    phrases: list[list[str]] = field(default_factory=list)
    literals: list[str] = field(default_factory=list)  # quoted text, matched literally as well
    soft_literals: list[str] = field(default_factory=list)  # corpus wordings the lexicon translated to
    unknown: dict[str, float] = field(default_factory=dict)  # words the corpus does not know → weight
    # Capitalised English words inside a sentence that neither the lexicon nor the corpus knows:
    # most likely a game term (a keyword, a card) the corpus never speaks of.
    unknown_names: list[str] = field(default_factory=list)
    weights: dict[str, float] = field(default_factory=dict)  # term → how much of the question it carries
    # Alternatives count once: a typed word and its synonyms, an English word and its translations.
    units: dict[str, list[str]] = field(default_factory=dict)  # unit (the word typed) → its corpus terms
    readings: dict[str, str] = field(default_factory=dict)  # unknown word → its katakana reading
    surfaces: dict[str, str] = field(default_factory=dict)  # unknown word → as typed (めいん, not 滅入る)
    lemmas: frozenset[str] = frozenset()  # every Japanese word as segmented, compounds (おすすめ) whole
    segmented: list[Token] = field(default_factory=list, repr=False)  # the content words, as segmented
    # Unknown words that are common words of the dictionary (シールド, 強い): a typo of a rules term
    # only if they read the same, never because they are spelled alike.
    common: set[str] = field(default_factory=set)
    corrections: list[tuple[str, str]] = field(default_factory=list)  # (typed, searched for) of typos
    spelled: dict[str, str] = field(default_factory=dict)  # a corpus word spelled out in hiragana → the word
    # A message written in romaji: its Latin words, each with the kana it spells (None for any other).
    romaji: list[tuple[str, str | None]] | None = None
    cards: list[str] = field(default_factory=list)  # Japanese names of the corpus's cards the question names
    card_keys: list[str] = field(default_factory=list)  # the lexicon's card keys it names (full or character)
    games: list[str] = field(default_factory=list)  # corpus games the question names
    compared: list[str] = field(default_factory=list)  # those only compared with (ロルカナで言うと)
    # Terms of the names the question gives (a card the corpus discusses, typed as it spells it or
    # by its English name): in a passage, a word inside a card's name counts only for these.
    named: set[str] = field(default_factory=set)
    # Characters the corpus has a card of, named by the question with another version name.
    other_versions: list[str] = field(default_factory=list)
    other_games: list[str] = field(default_factory=list)  # games it names that the corpus does not cover
    to_referee: bool = False  # it addresses the bot by name ("このbotって誰が作ったの？")
    missing_keywords: list[str] = field(default_factory=list)  # game keywords the corpus never names
    # Terms a unit holds only as the dictionary's synonyms of its word: they find and rank passages,
    # but never make the word a game word (アタック's 攻撃 says nothing of which game, or of any game).
    related: dict[str, set[str]] = field(default_factory=dict)
    # The search's weights of the units, worked out once (keyed by the plan's size, so an added term
    # recomputes them).
    unit_weights: tuple[tuple[int, int, float], list[tuple[frozenset[str], float]], float] | None = field(
        default=None, repr=False
    )
    asked_nearest: list[int] = field(default_factory=list)  # the nearest asked questions, found by the search
    pieces: dict[str, QueryPlan] = field(default_factory=dict)  # the plans of its parts, made once
    # What the search has read of the question classifier's model, which its parts read again.
    classified: Reading = field(default_factory=Reading, repr=False)
    # Beside each unit's weight: the alternatives a passage may carry it by, with their summed idf.
    unit_alternatives: list[tuple[tuple[frozenset[str], float], ...]] = field(default_factory=list, repr=False)
    # Each unit's word in order, and each term → the units holding it: a passage's coverage visits only
    # the units it holds a term of (a long question has dozens, a passage few of them).
    unit_words: list[str] = field(default_factory=list, repr=False)
    units_of: dict[str, tuple[int, ...]] = field(default_factory=dict, repr=False)

    def add(
        self,
        term: str,
        vocab: Vocabulary,
        weight: float = 1.0,
        unit: str | None = None,
        counted: bool = True,
        related: bool = False,
    ) -> None:
        """Add a term; `counted=False` helps find and rank passages without being part of the coverage;
        `related`: a synonym of the dictionary, not the word typed nor the lexicon's."""
        if term in vocab.df:
            if term not in self.weights:
                self.terms.append(term)
            self.weights[term] = max(self.weights.get(term, 0.0), weight)
            if not counted:
                return
            key = unit or term
            members = self.units.setdefault(key, [])
            if term not in members:
                members.append(term)
                if related:
                    self.related.setdefault(key, set()).add(term)
            elif not related and term in self.related.get(key, ()):
                self.related[key].discard(term)
        elif counted:  # a card's words the corpus lacks are no gap in the question
            self.unknown[term] = max(self.unknown.get(term, 0.0), weight)

    @property
    def empty(self) -> bool:
        return not self.terms

    def own(self, unit: str) -> list[str]:
        """A unit's terms but the dictionary's synonyms of its word."""
        related = self.related.get(unit)
        members = self.units[unit]
        return [t for t in members if t not in related] if related else members


def related_terms(token: Token, vocab: Vocabulary) -> list[str]:
    """The corpus terms sharing a synonym group of the dictionary with a word, but the word itself."""
    found: dict[str, None] = {}
    for group in token.groups:
        for term in vocab.synonym_groups.get(group, ()):
            # No everyday word turns into a game keyword (引き分け is no ドロー).
            if term != token.term and term not in vocab.keyword_terms:
                found[term] = None
    return list(found)[:MAX_RELATED]


# Numerals as the lexicon's keys write them ("below zero", "zero targets").
_NUMBER_WORDS = {"0": "zero"}

# A contraction typed without its apostrophe ("cant", "doesnt") is the contraction.
_CONTRACTIONS = {"cant": "can't", "dont": "don't", "doesnt": "doesn't", "wont": "won't", "isnt": "isn't"}


# Longest first; a suffix that would leave fewer than _MIN_STEM letters gives way to the next (using
# → us is too short, so using → use).
_STEM_SUFFIXES = (
    ("ies", "y"),
    ("ied", "y"),
    ("ing", ""),
    ("ing", "e"),
    ("ed", ""),
    ("ed", "e"),
    ("es", ""),
    ("s", ""),
)
_MIN_STEM = 3


def stem_word(word: str) -> str:
    """A crude English stem, the same for every inflection of a word (remove, removes, removed,
    removing → remov; abilities, ability → ability; tapped, tap → tap). It only ever compares a
    question's words with the lexicon's keys, so it needs to be consistent, not a real word."""
    word = _CONTRACTIONS.get(word, word).removesuffix("'s").removesuffix("’s")
    base = word
    for suffix, repl in _STEM_SUFFIXES:
        if not word.endswith(suffix) or len(word) - len(suffix) + len(repl) < _MIN_STEM:
            continue
        if suffix == "s" and word.endswith(("ss", "us", "is")):
            continue
        base = word[: -len(suffix)] + repl
        if suffix in ("ing", "ed") and len(base) > _MIN_STEM and base[-1] == base[-2] and base[-1] not in "lsz":
            base = base[:-1]  # stopped → stop, tapped → tap
        break
    if base.endswith("e") and len(base) > _MIN_STEM:
        base = base[:-1]  # remove → remov, as removes and removed
    return base


_LATIN_WORD = re.compile(r"[a-z0-9]+(?:['’][a-z]+)?")


def english_stems(text: str, stopwords: frozenset[str]) -> list[str]:
    """The stems of a text's English words but stop words, marked apart from Japanese terms: what an
    English asked question and an English question have in common, word for word."""
    return [f"en:{stem_word(w)}" for w in _LATIN_WORD.findall(text.lower()) if w not in stopwords and not w.isdigit()]


def quoted(text: str) -> list[str]:
    """What a question quotes: 「…」, 『…』, "…" and “…”."""
    return [next(g for g in match.groups() if g) for match in _PHRASE.finditer(text)]


def stem_phrase(phrase: str) -> str:
    return " ".join(stem_word(w) for w in phrase.split())


def _stem(word: str, known: frozenset[str], english: Mapping[str, object]) -> str:
    """A light English stemmer that only lands on words the lexicon knows: a key of its own first
    (triggered → trigger), then a word of a longer key (triggered, of "triggered ability")."""
    word = _CONTRACTIONS.get(word, word)
    if word in english:
        return word
    candidates = [word.removesuffix("'s").removesuffix("’s")]
    for suffix, repl in (
        ("ies", "y"),
        ("es", ""),
        ("s", ""),
        ("ed", ""),
        ("ed", "e"),
        ("d", ""),
        ("ing", ""),
        ("ing", "e"),
    ):
        if word.endswith(suffix) and len(word) - len(suffix) >= 3:
            candidates.append(word[: -len(suffix)] + repl)
    for candidate in candidates:
        if candidate in english:
            return candidate
    for candidate in [word, *candidates]:
        if candidate in known:
            return candidate
    return word


def _latin_spans(text: str, vocab: Vocabulary) -> list[tuple[int, int, str]]:
    """The Latin words of a (lower-case) text with their offsets. A hyphenated word nothing knows
    whole (damage-prevention, mid-challenge) is its parts."""
    out: list[tuple[int, int, str]] = []
    for m in _LATIN_WORD.finditer(text):
        word = m.group()
        known = word in vocab.english_keys_words or word in vocab.df or stem_word(word) in vocab.english_stems
        if "-" not in word or known:
            out.append((m.start(), m.end(), word))
            continue
        at = m.start()
        for part in word.split("-"):
            out.append((at, at + len(part), part))
            at += len(part) + 1
    return out


# A card's full name as players write it: a name, a dash, and a version name, each a run of
# capitalised words (small words between them): "Tinker Bell - Giant Fairy", "Hades – King of Olympus".
_TITLE_WORD = r"(?:[A-Z][\w'’.]*|(?:of|the|and|with|for|in|to|a|an|on|from|at|&|'n'|’n’)(?![\w'’]))"
_CARD_NAME = re.compile(
    rf"(?<![\w'’])[A-Z][\w'’.]*(?:\s+{_TITLE_WORD})*\s+[-–—]\s+(?P<version>[A-Z][\w'’.]*(?:\s+{_TITLE_WORD})*)"
)


_AND = re.compile(r"\s+(?:and|&)\s+([\w'’]+)")


def _name_end(name: str, start: int, vocab: Vocabulary) -> int:
    """Where a name that runs on with "and" ends: before "and Ward" (a rules word), not before
    "& Jetsam"."""
    for m in _AND.finditer(name):
        if m.group(1).lower() in vocab.english:
            return start + m.start()
    return start + len(name.rstrip("?.!,"))


def _version_spans(text: str, stop: frozenset[str], vocab: Vocabulary) -> list[tuple[int, int]]:
    """Where the question writes a card's version name ("Giant Fairy" of "Tinker Bell - Giant Fairy"):
    its words name a card, they are no rules words (Ready of "Ready for Adventure" asks nothing about
    readying). A dash before a question ("Lorcana - Does Ward …") is no card name."""
    out = []
    for m in _CARD_NAME.finditer(text):
        version = m.group("version")
        if version.split()[0].lower() in stop:
            continue
        out.append((m.start("version"), _name_end(version, m.start("version"), vocab)))
    return out


_TITLE_RUN = re.compile(rf"(?<![\w'’])[A-Z][\w'’]*(?:\s+{_TITLE_WORD})*")


def _title_name_spans(text: str, vocab: Vocabulary, stop: frozenset[str]) -> list[tuple[int, int]]:
    """Runs of capitalised words that hold a word nothing knows: a card's name written without its
    version ("Dragon Fire", "Be Prepared"), whose known words (Fire) are no rules words. A run the
    lexicon knows whole (a card of the corpus) or made only of known words (Does Ward) is no such name."""
    games = {w for aliases in vocab.lexicon.games.values() for a in aliases for w in a.lower().split()}
    out = []
    for m in _TITLE_RUN.finditer(text):
        words = [w.lower() for w in _LATIN_WORD.findall(m.group().lower())]
        capitals = [w for w in m.group().split() if w[:1].isupper()]
        if len(capitals) < 2 or " ".join(words) in vocab.english or stem_phrase(" ".join(words)) in vocab.english_stems:
            continue

        def known(word: str) -> bool:
            return (
                word in stop
                or word in games
                or word in vocab.english
                or word in vocab.df
                or word in vocab.english_keys_words
                or word in vocab.name_words
                or stem_word(word) in vocab.english_keys_words
                or stem_word(word) in vocab.english_stems
                or _CONTRACTIONS.get(word, word) in vocab.english
                or _typo_of_keyword(word, vocab)
            )

        if not all(known(w) for w in words):
            out.append((m.start(), _name_end(m.group(), m.start(), vocab)))
    return out


TITLE_TYPO_CHARS = 5  # shorter capitalised words one letter from a keyword are names often enough (Hades)
LETTERS = "abcdefghijklmnopqrstuvwxyz"  # what a typo of an English word adds or changes


def letter_swaps(word: str) -> list[str]:
    """The word with two neighbouring letters swapped, at each place in turn (ehter → ether)."""
    return [word[:i] + word[i + 1] + word[i] + word[i + 2 :] for i in range(len(word) - 1)]


# What OCR reads a letter or two as: m as rn (darnage), d as cl, w as vv.
_MISREAD = (("rn", "m"), ("cl", "d"), ("vv", "w"))


def misreadings(word: str) -> list[str]:
    """The word with each run of letters OCR reads one letter as put back, at each place in turn."""
    return [
        word[:i] + letter + word[i + len(read) :]
        for read, letter in _MISREAD
        for i in range(len(word))
        if word.startswith(read, i)
    ]


def letter_insertions(word: str) -> list[str]:
    """The word with one letter added, at each place in turn (blok → block)."""
    return [word[:i] + c + word[i:] for i in range(len(word) + 1) for c in LETTERS]


def _typo_of_keyword(word: str, vocab: Vocabulary) -> bool:
    """Whether a word is one letter (dropped, added, changed or swapped) from a word of a game
    keyword's English key: "Ether Efect" is a game word typed wrong, not a card's name."""
    if len(word) < TITLE_TYPO_CHARS:
        return False
    edits = {*letter_swaps(word), *letter_insertions(word)}
    edits |= {word[:i] + word[i + 1 :] for i in range(len(word))}
    edits |= {word[:i] + c + word[i + 1 :] for i in range(len(word)) for c in LETTERS}
    return bool(edits & vocab.keyword_key_words)


def _english(text: str, vocab: Vocabulary, plan: QueryPlan) -> None:
    found = _latin_spans(text.lower(), vocab)
    words = [word for _, _, word in found]
    stems = [_stem(w, vocab.english_keys_words, vocab.english) for w in words]
    crude = [stem_word(w) for w in words]
    stop = vocab.english_stopwords
    names = _version_spans(text, stop, vocab) + _title_name_spans(text, vocab, stop)
    in_name = [any(b <= at < e for b, e in names) for at, _, _ in found]
    same: dict[tuple[str, ...], str] = {}  # the corpus terms of a key → the unit that holds them
    i = 0
    while i < len(words):
        if in_name[i]:  # a word of a card name no card key of the lexicon took (a version name, a title)
            if words[i] not in stop and not words[i].isdigit():
                plan.unknown[words[i]] = _ENGLISH_UNKNOWN_WEIGHT
                if words[i] not in plan.unknown_names:
                    plan.unknown_names.append(words[i])
            i += 1
            continue
        lengths = vocab.english_lengths
        first = (words[i], stems[i], crude[i], _NUMBER_WORDS.get(words[i], words[i]))
        longest = max(lengths.get(w, 1) for w in first)  # no longer key begins with the word, in any form
        for n in range(min(MAX_ENGLISH_WORDS, len(words) - i, longest), 0, -1):
            typed, stemmed = " ".join(words[i : i + n]), " ".join(stems[i : i + n])
            # A stop word is never a crude stem's match (time is no timing, apply no applied).
            loose = typed if n == 1 and words[i] in stop else vocab.english_stems.get(" ".join(crude[i : i + n]), typed)
            # A number typed as a numeral is the word of a longer key (below 0: below zero); alone it
            # stays a number, which weighs little.
            spelled = " ".join(_NUMBER_WORDS.get(w, w) for w in words[i : i + n]) if n > 1 else typed
            for key in (typed, stemmed, loose, spelled):
                if key in vocab.english:
                    plan.soft_literals.extend(vocab.english_phrases.get(key, ()))
                    weight = vocab.english_weights.get(key, 1.0)
                    if key in vocab.general_english:
                        weight *= GENERAL_WEIGHT
                    # Rapunzel - Gifted with Healing, Stitch - Rock Star: not the corpus's card of that character.
                    other = key in vocab.english_weights and i + n < len(words) and in_name[i + n]
                    if key in vocab.card_names and not other:
                        plan.cards.append(vocab.card_names[key])
                    if key in vocab.card_names or key in vocab.english_weights:
                        plan.card_keys.append(key)
                    if other:
                        plan.other_versions.append(key)
                    elif key in vocab.card_names:  # the card's own version name: what follows it is no name
                        j = i + n
                        while j < len(words) and in_name[j]:
                            in_name[j] = False
                            j += 1
                    # Two forms of one word (choose, chosen; ability, abilities) are one thing asked:
                    # the second joins the first's unit rather than counting the same terms again.
                    unit = same.setdefault(vocab.english[key], f"en:{key}") if vocab.english[key] else f"en:{key}"
                    for term in vocab.english[key]:
                        plan.add(term, vocab, weight=weight, unit=unit)
                    for word in key.split():  # the English words too: the house rules are in English
                        if word in vocab.df and word not in stop:
                            plan.add(word, vocab, weight=weight * OTHER_WEIGHT, unit=unit)
                    targets = vocab.english[key]
                    if targets and all(t not in vocab.df and t in vocab.keyword_terms for t in targets):
                        plan.missing_keywords.append(key)  # Evasive: a keyword the corpus never names
                    break
                if n > 1 and key in vocab.df:  # a name the corpus writes in English (Mickey Mouse)
                    plan.add(key, vocab)
                    break
            else:
                continue
            i += n
            break
        else:
            word = stems[i]
            if word in stop or words[i] in stop or word.isdigit():
                pass
            elif word in vocab.df:
                # An English word the lexicon does not translate is found only in English prose (the
                # house rules, a card's English name): an everyday word there ("says", "games") is no topic.
                plan.add(word, vocab, weight=_ENGLISH_PROSE_WEIGHT)
            elif any(c.isdigit() for c in word):  # "2d6", "1d6": the corpus has the pieces
                for piece in re.findall(r"[a-z]+|[0-9]+", word):
                    if piece in vocab.df:
                        plan.add(piece, vocab)
            elif text[found[i][0]].isupper() and (
                sudachi := [
                    t.term
                    for t in tokens(text[found[i][0] : found[i][1]])
                    if t.term in vocab.df and t.term in vocab.latin_terms
                ]
            ):
                # A capitalised name the corpus quotes in English, as Sudachi reads it (Forever → フォーエバー);
                # lower-case words stay English, or "start" would be read as the スタート of スタートフェイズ.
                # Only where the corpus writes it in Latin letters too: the Little of a card's English
                # name is not the リトル of a Japanese one.
                for term in sudachi:  # a guess at a name: it helps find the passage, weighs little
                    plan.add(term, vocab, weight=_ENGLISH_PROSE_WEIGHT)
            else:
                plan.unknown[word] = _ENGLISH_UNKNOWN_WEIGHT
                if _is_name(text, found[i][0]) and word not in plan.unknown_names:
                    plan.unknown_names.append(word)  # a card's name, most likely: weighs little, refuses nothing
            i += 1
    # A character the question names with another version name ("Stitch - Rock Star") is that card
    # wherever it is named again ("the Stitch cards"): not the corpus's card of the same character.
    others = {vocab.card_names[key] for key in plan.other_versions if key in vocab.card_names}
    plan.cards[:] = [card for card in plan.cards if card not in others]


def _is_name(text: str, at: int) -> bool:
    """A word written with a capital letter where a sentence does not begin (`Does Rush ...`)."""
    return at < len(text) and text[at].isupper() and not _SENTENCE_START.search(text[:at])


_NOT_NOUNS = ("動詞", "形容詞", "助動詞", "副詞", "接続詞", "連体詞", "感動詞")


def _kana_variants(text: str, vocab: Vocabulary, plan: QueryPlan, covered: dict[int, str]) -> None:
    """Kana typed for a corpus word (まよけ → 魔除け, えーてる → エーテル, ダメーじ → ダメージ):
    the longest katakana reading or spelling of a corpus term inside each kana run, outside what a
    synonym already read and outside any one particle or auxiliary."""
    grammar = function_spans(text)
    words = known_words(text)
    # Words of the dictionary that are no noun: verbs, adjectives, adverbs, conjunctions (ただ, もう).
    not_nouns = frozenset((b, e) for b, e, pos in words if pos in _NOT_NOUNS)
    starts, ends = boundaries(text)
    for start, run in kana_runs(text):
        kata = to_katakana(run)
        i = 0
        while i < len(kata):
            if start + i in covered:
                i += 1
                continue
            # Longest first, but never longer than a known reading: a long kana run costs linear time.
            for j in range(min(len(kata), i + vocab.longest_reading), i + _MIN_KANA_READING - 1, -1):
                found = vocab.by_reading.get(kata[i:j])
                if not found:
                    continue
                # Katakana as typed is a word only between cuts (no ダウン inside ダウンロード);
                # hiragana is how a player spells a word out, wherever the segmenter cut it.
                typed_katakana = run[i:j] == kata[i:j]
                whole = not typed_katakana or (start + i in starts and start + j in ends)
                # Never inside one particle or auxiliary (the しょう of でしょう), nor across one (the
                # してい of していない is a verb and its ending, not 指定).
                # A long-vowel mark is no grammar: hiragana holding one is a loanword spelled out (すたーと).
                # Nor beginning with one after a word (the は of 俺はそんな is no 破損); at the start of a
                # sentence it is the segmenter's guess at a word spelled out (the たい of たいきゅう).
                # (After hiragana, it may be a word spelled out: てふだ of のてふだの is 手札, not a particle.)
                after_word = start + i > 0 and text[start + i - 1].isalpha() and not _hiragana(text[start + i - 1])
                in_grammar = "ー" not in run[i:j] and any(
                    (b <= start + i and start + j <= e)
                    or (start + i < b and e < start + j)
                    or (b == start + i and after_word)
                    for b, e in grammar
                )
                # A verb or an adverb the dictionary knows, spelled as typed (しよう of どうしよう, ただ), is
                # no noun in kana (使用, 唯).
                no_noun = (start + i, start + j) in not_nouns and not typed_katakana
                # Nor inside a longer word the dictionary knows (the ようご of おはようございます), nor
                # beginning halfway through one (the きどう of ときどうする is no 起動).
                inside = any(
                    (b <= start + i and start + j <= e and e - b > j - i) or b < start + i < e for b, e, _ in words
                )
                if whole and not in_grammar and not no_noun and not inside:
                    for term in sorted(found):
                        plan.add(term, vocab, weight=VARIANT_WEIGHT, unit=run[i:j])
                    if not typed_katakana:
                        plan.spelled.setdefault(run[i:j], min(found, key=lambda w: (-len(w), w)))
                    for position in range(start + i, start + j):
                        covered.setdefault(position, run[i:j])
                    i = j
                    break
            else:
                i += 1


def _synonyms(text: str, vocab: Vocabulary, plan: QueryPlan, covered: dict[int, str]) -> None:
    """Lexicon synonyms, found in the text as typed or with its hiragana read as katakana (でふ → デフ),
    as whole words only: a match must begin and end where the segmenter cuts the text, so ダウン is
    not found inside ダウンロード."""
    starts, ends = boundaries(text)
    for haystack in dict.fromkeys((text, to_katakana(text))):
        for _, word in sorted(nw for c in set(haystack) for nw in vocab.synonyms_by_first.get(c, ())):
            targets = vocab.synonyms[word]
            spans = [
                (at, at + len(word))
                for at in _find_all(haystack, word)
                if _whole(text, haystack, at, word, starts, ends)
            ]
            if not spans and _COMPOUND_VERB.match(word):
                # A compound verb in another form (持ち越せる, 取り消して of 持ち越す, 取り消す): its stem,
                # from a cut, then the kana of the ending, which the segmenter may cut anywhere.
                stem = word[:-1]
                spans = [
                    (at, at + len(stem))
                    for at in _find_all(haystack, stem)
                    if at in starts and at + len(stem) < len(text) and "\u3041" <= text[at + len(stem)] <= "\u3093"
                ]
            if not spans:
                continue
            for term in targets:
                plan.add(term, vocab, weight=VARIANT_WEIGHT, unit=word)
                if term not in vocab.df and term in vocab.keyword_terms:
                    plan.missing_keywords.append(word)
            plan.soft_literals.extend(vocab.synonym_phrases.get(word, ()))
            for begin, end in spans:
                for position in range(begin, end):
                    covered.setdefault(position, word)


def _whole(text: str, haystack: str, at: int, word: str, starts: frozenset[int], ends: frozenset[int]) -> bool:
    """Whether `word` at `at` is a whole word: it begins and ends where the segmenter cuts. Kana a
    player typed in hiragana for a katakana term (でふって) is cut oddly, so there it is enough that
    no katakana word goes on before or after it."""
    end = at + len(word)
    typed = text[at:end]
    spelled = haystack is not text and any(map(_hiragana, typed))
    if spelled and any((b, e) == (at, end) and pos in _NOT_NOUNS for b, e, pos in known_words(text)):
        return False  # a word of the dictionary, spelled as it is spelled (ただ "just" is no タダ "free")
    if at in starts and end in ends:
        return True
    if not spelled:
        return False
    before = text[at - 1] if at else ""
    after = text[end] if end < len(text) else ""
    return not _is_katakana(before) and not _is_katakana(after) and not _hiragana(before)


def _hiragana(c: str) -> bool:
    return bool(c) and "\u3041" <= c <= "\u3096"


def _is_katakana(c: str) -> bool:
    return bool(c) and ("\u30a1" <= c <= "\u30fa" or c == "\u30fc")


def _find_all(haystack: str, word: str) -> list[int]:
    found, at = [], haystack.find(word)
    while at >= 0:
        found.append(at)
        at = haystack.find(word, at + 1)
    return found


_BEFORE_TAIL = re.compile(r"(?:\s+(?:in|with|on))?\s*$")
# What may stand between the name and its comparison word in the same clause: the thing of that game
# compared ("MTGのX呪文みたいに", "遊戯王のチェーンと違って"; "like damage prevention in MTG", up to five
# words, none of them "to": "I like to block in MTG" asks about MTG).
_OF_GAME = re.compile(r"^の[^\s、。，．,.!?！？「」]{1,12}")
_COMPARED_THING = [re.compile(rf"(?:\s+(?!to\b)[a-z][a-z'’\-]*){{{n}}}$") for n in range(1, 6)]


def _comparison(text: str, start: int, end: int, lexicon: Lexicon) -> bool:
    """Whether the name at text[start:end] is compared with: a comparison word right after it
    (ポケカみたいな, ポケカと違って) or after the thing of it compared (MTGのX呪文みたいに), or an English
    one right before it (like in MTG, unlike Yu-Gi-Oh) or before the thing compared (like damage
    prevention in MTG)."""
    after = text[end:].lstrip()
    of_game = _OF_GAME.match(after)
    tails = [after] + ([after[i:] for i in range(2, of_game.end() + 1)] if of_game else [])
    if any(tail.startswith(w) for w in lexicon.compare_after for tail in tails):
        return True
    tail = _BEFORE_TAIL.sub("", text[:start])
    before = {text[:start].rstrip(), tail}
    if tail != text[:start].rstrip():  # "… in MTG": the thing of that game compared comes before "in"
        before |= {words.sub("", tail) for words in _COMPARED_THING}
    return any(re.search(r"(?<![a-z])" + re.escape(w) + r"$", b) for w in lexicon.compare_before for b in before)


@lru_cache(maxsize=4096)
def _near_one_of(word: str, names: tuple[str, ...]) -> bool:
    """Whether a word is a typo of one of a game's names in Latin letters (Lorcna): remembered, as
    every English question's words are compared with every game's names."""
    return bool(difflib.get_close_matches(word, names, n=1, cutoff=0.8))


_WORD_BEFORE = re.compile(r"([A-Za-z][\w'’]*)[ -]$")
_WORD_AFTER = re.compile(r"[ -]([A-Za-z][\w'’]*)")


def _games(text: str, vocab: Vocabulary, plan: QueryPlan) -> None:
    """Which games the question names: a corpus game ("ロルカナ", "Lorcana", a typo of it) or a game the
    corpus does not cover ("遊戯王", "Hearthstone"), as whole words."""
    folded = text.lower()
    plain = folded if len(folded) == len(text) else text  # offsets must stay those of `text`
    for thing in vocab.lexicon.game_things:  # a chess clock is no game of chess: blanked, offsets kept
        plain = plain.replace(thing, " " * len(thing))
    lower = to_katakana(plain)
    words = set(_LATIN_WORD.findall(lower))
    starts, _ = boundaries(text)
    # A name typed in romaji (rorukana): the message's romaji words read as katakana, each whole.
    romaji = {to_katakana(kana) for _, kana in plan.romaji or () if kana}
    stop = vocab.english_stopwords

    def in_a_name(begin: int, end: int) -> bool:
        """Whether a game's name sits inside a longer name: a capitalised word on each side, neither
        a function word and one of them a word the lexicon does not know ('Lumen Vanguard Ryssa', a
        card; not "In Pokemon TCG"): the card is named, not the game."""
        before, after = _WORD_BEFORE.search(text, 0, begin), _WORD_AFTER.match(text, end)  # no copy of the text
        sides = [w for m in (before, after) if m and (w := m.group(1).lower()) not in stop and m.group(1)[0].isupper()]
        return len(sides) == 2 and any(w not in vocab.english for w in sides)

    def named(alias: str) -> bool:
        alias = vocab.alias_forms[alias]  # every name of the lexicon's games, prepared once
        if alias in romaji:
            return True
        if alias not in lower:  # most questions name no game: the cheap test first
            return False
        if _ASCII_PHRASE.match(alias):
            pattern = r"(?<![a-z0-9])" + re.escape(alias) + r"(?![a-z0-9])"
            return any(not in_a_name(m.start(), m.end()) for m in re.finditer(pattern, lower))
        # Glued to katakana before it, it is the end of a longer word (マイクロボット is no ボット).
        return any(at in starts and not (at and _is_katakana(text[at - 1])) for at in _find_all(lower, alias))

    def _compared(name: str) -> bool:
        """Whether every mention of a game compares another with it ("ポケカみたいな", "like in MTG")."""
        alias = vocab.alias_forms[name]
        found = _find_all(lower, alias)
        return bool(found) and all(_comparison(plain, at, at + len(alias), vocab.lexicon) for at in found)

    for game, aliases in vocab.lexicon.games.items():
        latin = tuple(a.lower() for a in aliases if _ASCII.match(a.lower()))
        typo = any(_near_one_of(w, latin) for w in words if len(w) >= 5)
        if any(named(a) for a in aliases) or typo:
            plan.games.append(game)
            if all(_compared(a) for a in aliases if named(a)):
                plan.compared.append(game)
    plan.other_games.extend(name for name in vocab.lexicon.other_games if named(name) and not _compared(name))
    plan.to_referee = any(named(name) for name in vocab.lexicon.referee_names)


def _drop_game_names(vocab: Vocabulary, plan: QueryPlan) -> None:
    """A game's name says which game is meant (`plan.games`), not what is asked: it is neither a search
    word (HorizonNotes is in the house rules' prose) nor an unknown word weighing on the coverage."""
    names = vocab.game_names
    for word in [w for w in plan.unknown if w in names]:
        del plan.unknown[word]
    for unit in [u for u in plan.units if u in names or u.removeprefix("en:") in names]:
        del plan.units[unit]


def _compounds(text: str, segmented: list[Token], plan: QueryPlan, keywords: frozenset[str]) -> None:
    """Nouns typed one after the other around a game keyword (支援スキル) are one term of the question:
    a passage writing them together speaks of that term, not only of its words (支援 alone is
    Lorcana's <支援>, 支援スキル a HorizonNotes skill). Numbers (2体) and Latin words take no part."""

    def joins(token: Token) -> bool:
        return (
            token.noun
            and not token.generic
            and not any(c.isdigit() for c in token.surface)
            and not _ASCII_PHRASE.match(token.surface.lower())
        )

    runs: list[list[Token]] = []
    for token in (t for t in segmented if not t.piece):
        if not joins(token):
            runs.append([])
        elif runs and runs[-1] and runs[-1][-1].end == token.begin:
            runs[-1].append(token)
        else:
            runs.append([token])
    for run in runs:
        if len(run) > 1 and any(t.term in keywords for t in run):
            wording = text[run[0].begin : run[-1].end]
            if wording not in plan.soft_literals:
                plan.soft_literals.append(wording)


def check_readable(question: str) -> None:
    """Refuse text that is not Unicode a user typed: lone surrogates, which is what argv holds for
    bytes that are not UTF-8 ($'\\xff'), even under a UTF-8 locale."""
    try:
        question.encode("utf-8")
    except UnicodeEncodeError:
        raise RulingsError("rulings.bad_text") from None


def analyse(question: str, vocab: Vocabulary) -> QueryPlan:
    check_readable(question)
    # Control characters are no part of a question; a NUL would end the full-text query SQLite reads.
    question = _CONTROL.sub(" ", question)
    lexicon = vocab.lexicon
    stop = frozenset(lexicon.stopwords)
    text = lexicon.prepare(question[:MAX_QUESTION_CHARS])
    plan = QueryPlan(text=text, typed=question[:MAX_QUESTION_CHARS])
    for wording in quoted(text):
        wording = wording.strip("〜～~…・ ")  # 「〜してもよい」: the wording itself
        # A quote of several sentences (「〜してもよい。そうしたなら〜」) is matched sentence by sentence too.
        sentences = [p.strip("〜～~…・ 、,") for p in re.split(r"[。．.！!？?]", wording)]
        for literal in dict.fromkeys([wording.strip(), *(p for p in sentences if p != wording.strip())]):
            if len(literal) > 1 and literal not in plan.literals:
                plan.literals.append(literal)
        phrase = [t.term for t in tokens(wording, stop) if t.term in vocab.df]
        if len(phrase) > 1 and phrase not in plan.phrases:
            plan.phrases.append(phrase)
    # Characters already read as a synonym or a kana variant: Sudachi's pieces of them are not
    # "unknown words" (えーてる segments as えー + てる, which the corpus does not know).
    covered: dict[int, str] = {}  # character → the synonym or kana variant it belongs to
    _synonyms(text, vocab, plan, covered)
    _kana_variants(text, vocab, plan, covered)
    compound_known = False
    segmented = tokens(text, stop)
    plan.lemmas = frozenset(t.term for t in segmented)
    plan.segmented = segmented
    _compounds(text, segmented, plan, vocab.keyword_terms)
    for token in segmented:
        latin = _ASCII.match(token.surface.lower()) or _ASCII_PHRASE.match(token.surface.lower())
        if latin and not token.surface.isdigit():
            continue  # Latin words go through the English path below
        if token.compound:
            compound_known = token.term in vocab.df
            if not compound_known:
                continue  # its pieces follow and speak for it
        weight = (NOUN_WEIGHT if token.noun else OTHER_WEIGHT) * (GENERIC_SHARE if token.generic else 1.0)
        if token.piece and compound_known:
            weight *= PIECE_SHARE  # the known compound already carries the meaning
        owners = {covered.get(i) for i in range(token.begin, token.end)}
        unit = owners.pop() if len(owners) == 1 else None  # inside one synonym: an alternative of it
        synonym = vocab.synonym_lemmas.get(token.term) if unit is None else None
        # A game keyword is no everyday word to paraphrase: only the word typed stands for it.
        expand = unit is None and synonym is None and not token.generic and token.term not in vocab.keyword_terms
        related = related_terms(token, vocab) if expand else []
        if synonym is not None:  # a conjugated synonym: its corpus words, and the word itself if known
            for term in vocab.synonyms[synonym]:
                plan.add(term, vocab, weight=VARIANT_WEIGHT, unit=synonym)
            plan.soft_literals.extend(vocab.synonym_phrases.get(synonym, ()))
            if token.term in vocab.df:
                plan.add(token.term, vocab, weight=weight, unit=synonym)
        elif token.term in vocab.df or unit is None:
            if token.term in vocab.df or not related:  # a word the corpus lacks is its synonyms, if any
                plan.add(token.term, vocab, weight=weight, unit=unit)
            if token.term not in vocab.df and unit is None and not related:
                plan.readings.setdefault(token.term, token.reading)
                plan.surfaces.setdefault(token.term, token.surface)
                if token.common:
                    plan.common.add(token.term)
                if token.term in vocab.keyword_terms and not token.piece:
                    plan.missing_keywords.append(token.surface)
            for term in related:
                plan.add(term, vocab, weight=weight * RELATED_SHARE, unit=token.term, related=True)
    _english(text, vocab, plan)
    plan.romaji = romaji_words(text)
    _romaji_grammar(plan)
    _games(text, vocab, plan)
    _drop_game_names(vocab, plan)
    if vocab.opposites and lexicon.asks_whether_can(text):
        _opposites(vocab, plan)
    if len(plan.terms) > MAX_TERMS and plan.related:
        # A long question keeps the words it typed before the dictionary's synonyms of them.
        typed = {t for unit in plan.units for t in plan.own(unit)}
        plan.terms.sort(key=lambda t: t not in typed and any(t in r for r in plan.related.values()))
    del plan.terms[MAX_TERMS:]
    del plan.literals[4:]
    # A keyword of a game the corpus does not cover (trample): like one of ours the corpus never names,
    # what the question hangs on, or a detail of a question about something else (search.py weighs
    # it). It weighs as a keyword, not as the English word a card's name may be.
    for word in [w for w in plan.unknown if stem_word(w) in vocab.other_keywords]:
        plan.unknown[word] = 1.0
        if word not in plan.missing_keywords:
            plan.missing_keywords.append(word)
    return plan


def _romaji_grammar(plan: QueryPlan) -> None:
    """In a message written in romaji, the particles and auxiliaries (no, ga, tte, kara, desu) are its
    grammar, as their kana are in a Japanese question (read in the sentence: から alone is 空): no
    unknown words weighing in its coverage."""
    if plan.romaji is None:
        return
    spans, kana, at = [], [], 0
    for word, read in plan.romaji:  # the message's words in kana, one after another, each at its offset
        piece = read or word
        spans.append((word, at, at + len(piece)))
        kana.append(piece)
        at += len(piece) + 1
    grammar = set(function_spans(" ".join(kana)))
    for word, begin, end in spans:
        if (begin, end) in grammar and _ASCII.match(word):
            plan.unknown.pop(word, None)


def _opposites(vocab: Vocabulary, plan: QueryPlan) -> None:
    """Asked whether a piece in one state can act, a rule about what pieces in the opposite state may
    do answers it (untapped ones may block: a tapped one may not). Each state's opposite (lexicon
    `opposites`) joins its unit as a related term: it finds and ranks such a rule, never makes a direct
    match."""
    for unit, members in list(plan.units.items()):
        for term in list(members):
            for other in vocab.opposites.get(term, ()):
                if other not in members:
                    plan.add(other, vocab, weight=plan.weights[term] * RELATED_SHARE, unit=unit, related=True)


def _as_term(word: str) -> str:
    """A word of the lexicon as the corpus's term for it, when it is one word (レディ: レディー)."""
    read = tokens(word)
    return read[0].term if len(read) == 1 else word


def _quote(term: str) -> str:
    return '"' + term.replace('"', '""') + '"'


def _idf(vocab: Vocabulary, term: str) -> float:
    n, df = vocab.passages, vocab.df.get(term, 0)
    return math.log((n - df + 0.5) / (df + 0.5) + 1.0)


def retrieval_terms(plan: QueryPlan, vocab: Vocabulary, max_share: float) -> list[str]:
    """The terms a passage is retrieved by: those found in more than `max_share` of the passages are
    left out (they would pull in most of the corpus; scoring still sees them), the question's own
    terms come first and the rarest are kept, and a named card's terms fill what room is left."""
    own = {t for members in plan.units.values() for t in members}

    def rarest(pool: list[str], room: int) -> list[str]:
        common = max_share * vocab.passages
        kept = [t for t in pool if vocab.df.get(t, 0) <= common] or sorted(pool, key=lambda t: vocab.df.get(t, 0))[:2]
        # The rarest that carry the question: a word weighing little (English prose, a guess at a
        # name) is kept after the weighty ones, or it fills the room with passages of the wrong game.
        return sorted(kept, key=lambda t: -plan.weights.get(t, 1.0) * _idf(vocab, t))[:room]

    asked = rarest([t for t in plan.terms if t in own], MAX_MATCH_TERMS)
    room = MAX_MATCH_TERMS - len(asked)
    return asked + (rarest([t for t in plan.terms if t not in own], room) if room > 0 else [])


def phrase_match(plan: QueryPlan) -> str:
    """The question's quoted phrases as an FTS5 expression, each a quoted string joined by OR."""
    return " OR ".join(_quote(" ".join(p)) for p in plan.phrases)
