"""Japanese segmentation shared by the index and the queries: NFKC, card symbols read as words, the
katakana middle dot dropped, look-alike characters read as the letters they stand for (工一テル, Arcaste1la),
SudachiPy split mode C, normalised forms of content words only."""

from __future__ import annotations

import re
import unicodedata
from collections.abc import Iterator, Mapping, Sequence
from functools import cache, lru_cache

from sudachipy import Dictionary, Morpheme, MorphemeList, SplitMode, Tokenizer

# Parts of speech that carry meaning; particles, auxiliaries, symbols and interjections do not.
_CONTENT_POS = frozenset({"名詞", "動詞", "形容詞", "形状詞", "副詞", "接尾辞"})
_FUNCTION_POS = frozenset({"助詞", "助動詞"})
# Sub-classes of content words that rarely carry a question's topic: nouns used as adverbs (最初, 前,
# 中), words that take a noun-adjective ending (具体的), noun-adjectives (単純),
# and adjectives that mostly serve another word (良く, 無い).
_GENERIC_SUBPOS = frozenset({"副詞可能", "形状詞可能"})
# Words whose synonym groups in the dictionary say what they mean (開始/スタート, 選ぶ/選択): nouns,
# verbs and adjectives of the dictionary, not names, numbers or words in Latin letters.
_SYNONYM_POS = frozenset({"名詞", "動詞", "形容詞", "形状詞"})
_NOT_A_SYNONYM = re.compile(r"[0-9A-Za-z]")
_DICE = re.compile(r"(?<![A-Za-z0-9])([0-9]+|[Xx])[dD]([0-9]+)(?![A-Za-z0-9])")
_KATAKANA_DOT = re.compile(r"(?<=[\u30a1-\u30fa\u30fc])[・･](?=[\u30a1-\u30fa\u30fc])")
_KATAKANA_WORD = re.compile(r"[\u30a1-\u30fa\u30fc]+")
_KANA = re.compile(r"[\u3041-\u3096\u30a1-\u30fa\u30fc]+")
# Kanji that look like katakana (工 エ, 力 カ, 口 ロ, 夕 タ, 卜 ト, 八 ハ, 二 ニ, and 一 for the long-vowel
# mark ー): phone OCR and a slip of the IME put them inside katakana words (工一テル, アル力ステラ).
_LOOKALIKE = str.maketrans("工力口夕卜八二一", "エカロタトハニー")
# A run of katakana and look-alikes holding a look-alike: the only runs worth a closer look.
_IN_RUN = "[\u30a1-\u30fa\u30fc工力口夕卜八二一]"
_LOOKALIKE_RUN = re.compile(f"{_IN_RUN}*[工力口夕卜八二一]{_IN_RUN}*")
_KANJI_OR_DIGIT = re.compile(r"[\u3400-\u9fff0-9]")
# And in a word of Latin letters, 1 and 0 for l and o (Arcaste1la, Vi11ain, p1ay): a word whose only
# digits are 1s and 0s between letters, a lower-case one after (not 3d6, 1st or a hash).
_LATIN_WORD = re.compile(r"[A-Za-z0-9]*[A-Za-z][01]+[a-z][A-Za-z0-9]*")  # a word holding such a 1 or 0
_LOOKALIKE_DIGITS = re.compile(r"(?<=[A-Za-z])[01]+(?=[a-z])")
_LATIN_LOOKALIKE = str.maketrans("10", "lo")
_LIST_MARK = re.compile(r"^\s*(?:[•・\-*]|\d{1,2}[.．])\s*", re.MULTILINE)
# Sudachi refuses very long inputs; questions are cut well before that.
MAX_SEGMENT_CHARS = 4000


@cache
def _tokenizer() -> Tokenizer:
    return Dictionary(dict="core").tokenizer(mode=SplitMode.C)


@lru_cache(maxsize=8)
def _morphemes(chunk: str) -> MorphemeList:
    """The text segmented once for all its readers (`tokens`, `boundaries`, `known_words`,
    `function_spans` all read one question)."""
    return _tokenizer().tokenize(chunk)


def normalize(
    text: str, symbols: Mapping[str, str] | None = None, patterns: Sequence[tuple[re.Pattern[str], str]] = ()
) -> str:
    """NFKC, card symbols such as {S} read as their words, dice notation spelled out (2d6 → 2個の6面ダイス),
    the katakana middle dot removed, and the word of each matching pattern added (なければならない → 必須)."""
    for symbol, word in (symbols or {}).items():
        text = text.replace(symbol, f" {word} ")
    text = unicodedata.normalize("NFKC", text)
    text = _LOOKALIKE_RUN.sub(_katakana_lookalikes, text)
    text = _LATIN_WORD.sub(_latin_lookalikes, text)
    text = _DICE.sub(r"\1個の\2面ダイス", text)
    text = _KATAKANA_DOT.sub("", text)
    added = [word for pattern, word in patterns if pattern.search(text)]
    return f"{text} {' '.join(added)}" if added else text


def _is_katakana(c: str) -> bool:
    return "\u30a1" <= c <= "\u30fa" or c == "\u30fc"


def _katakana_lookalikes(match: re.Match[str]) -> str:
    """A katakana word's look-alike kanji as the katakana they stand for. Kept as typed: a run with
    fewer than two katakana, its leading numeral (一ターン, 二ターン) or 力, 口 ending a word of kanji
    (攻撃力マイナス), and its trailing ones but a long-vowel 一 (キャラクタ一を), which stays before a
    kanji, a digit or つ (カード一枚, デッキ一つ)."""
    run = match.group()
    if sum(map(_is_katakana, run)) < 2:
        return run
    text, start, end = match.string, 0, len(run)
    before = text[match.start() - 1] if match.start() else ""
    after = text[match.end()] if match.end() < len(text) else ""
    while start < end and not _is_katakana(run[start]):
        if not (run[start] in "一二八" or (run[start] in "力口" and _KANJI_OR_DIGIT.match(before))):
            break
        start += 1
    while end > start and not _is_katakana(run[end - 1]):
        if run[end - 1] == "一" and not (_KANJI_OR_DIGIT.match(after) or after == "つ"):
            break
        end -= 1
    return run[:start] + run[start:end].translate(_LOOKALIKE) + run[end:]


def _latin_lookalikes(match: re.Match[str]) -> str:
    word = match.group()
    letters = _LOOKALIKE_DIGITS.sub(lambda m: m.group().translate(_LATIN_LOOKALIKE), word)
    return word if any(c.isdigit() for c in letters) else letters


def to_katakana(text: str) -> str:
    return "".join(chr(ord(c) + 0x60) if "\u3041" <= c <= "\u3096" else c for c in text)


# Voiced and semi-voiced kana as their plain kana, small kana as large: the marks a typo drops or adds.
_PLAIN_KANA = str.maketrans(
    "ガギグゲゴザジズゼゾダヂヅデドバビブベボパピプペポヴァィゥェォッャュョヮ",
    "カキクケコサシスセソタチツテトハヒフヘホハヒフヘホウアイウエオツヤユヨワ",
)


def kana_skeleton(text: str) -> str:
    """A kana word without what a typo of it most often gets wrong: the long-vowel mark, voicing
    marks, small kana (ブロッグ, ブロック → フロツク)."""
    return to_katakana(text).replace("ー", "").translate(_PLAIN_KANA)


def kana_runs(text: str) -> Iterator[tuple[int, str]]:
    """Runs of hiragana and katakana, with their offsets: where a kana spelling of a word may hide."""
    return ((m.start(), m.group()) for m in _KANA.finditer(text))


def strip_list_marks(text: str) -> str:
    """Bullets and item numbers ("2. ", "• ") are layout; as terms they would match any "2" in a question."""
    return _LIST_MARK.sub("", text)


class Token:
    __slots__ = (
        "begin",
        "common",
        "compound",
        "end",
        "generic",
        "groups",
        "noun",
        "piece",
        "reading",
        "surface",
        "term",
    )

    def __init__(self, surface: str, term: str, reading: str, begin: int = 0, end: int = 0) -> None:
        self.surface, self.term, self.reading = surface, term, reading
        self.begin, self.end = begin, end  # character offsets in the segmented text
        self.noun = True  # nouns carry a question's topic; verbs and adjectives less so
        self.compound = False  # a split-mode-C word whose split-mode-A pieces follow it
        self.piece = False  # one of those pieces
        self.generic = False  # a word of everyday speech rather than of a topic (最初, 具体的, 良く)
        self.common = False  # a common word of the dictionary (not a name, not unknown to it): no typo
        # The dictionary's synonym groups of the word (開始 and スタート share one), for a noun, verb or
        # adjective the dictionary knows; none for names, numbers and Latin words.
        self.groups: tuple[int, ...] = ()


def tokens(text: str, stopwords: frozenset[str] = frozenset()) -> list[Token]:
    """Content-word tokens of already normalised text; `term` is Sudachi's normalised form, lower-cased.

    A compound (計算方法) is followed by its pieces (計算, 方法), so a question and a passage that
    cut the same words differently still share terms.
    """
    out: list[Token] = []
    for chunk_start in range(0, len(text), MAX_SEGMENT_CHARS):
        chunk = text[chunk_start : chunk_start + MAX_SEGMENT_CHARS]
        morphemes = _morphemes(chunk)
        for i, m in enumerate(morphemes):
            token = _token(m, chunk_start, stopwords)
            if token is None:
                continue
            if token.generic and token.noun and i + 1 < len(morphemes) and morphemes[i + 1].surface() == "の":
                token.generic = False  # 最初の手札: a noun that says which one, not an adverb (最初に)
            out.append(token)
            pieces = m.split(SplitMode.A)
            if len(pieces) > 1:
                token.compound = True
                for piece in (_token(p, chunk_start, stopwords) for p in pieces):
                    if piece is not None:
                        piece.piece = True
                        out.append(piece)
    return out


def _token(m: Morpheme, offset: int, stopwords: frozenset[str]) -> Token | None:
    speech = m.part_of_speech()
    pos = speech[0]
    if pos not in _CONTENT_POS:
        return None
    term = m.normalized_form().lower()
    if term == "従う" and m.surface().startswith("順"):
        term, pos = "順", "名詞"  # フェイズ順って: the order of the phases, not 順う (to obey)
    if not term.strip() or term in stopwords:
        return None
    token = Token(m.surface(), term, m.reading_form(), offset + m.begin(), offset + m.end())
    token.noun = pos in ("名詞", "接尾辞")
    token.common = not m.is_oov() and speech[1] != "固有名詞"
    if token.common and pos in _SYNONYM_POS and speech[1] != "数詞" and not _NOT_A_SYNONYM.search(term + m.surface()):
        token.groups = tuple(m.synonym_group_ids())
    token.generic = (
        pos in ("形状詞", "副詞") or (pos == "形容詞" and speech[1] == "非自立可能") or speech[2] in _GENERIC_SUBPOS
    )
    return token


@lru_cache(maxsize=32)
def function_spans(text: str) -> tuple[tuple[int, int], ...]:
    """Character spans of particles and auxiliaries (でしょう, から): kana inside one is grammar, not a
    word typed in kana (the しょう of でしょう is no 章)."""
    spans = []
    for chunk_start in range(0, len(text), MAX_SEGMENT_CHARS):
        for m in _morphemes(text[chunk_start : chunk_start + MAX_SEGMENT_CHARS]):
            if m.part_of_speech()[0] in _FUNCTION_POS:
                spans.append((chunk_start + m.begin(), chunk_start + m.end()))
    return tuple(spans)


def terms(text: str, symbols: Mapping[str, str] | None = None, stopwords: frozenset[str] = frozenset()) -> list[str]:
    return [t.term for t in tokens(normalize(text, symbols), stopwords)]


@lru_cache(maxsize=32)
def known_words(text: str) -> tuple[tuple[int, int, str], ...]:
    """The words of the text the dictionary knows (split mode C): begin, end, part of speech."""
    found = []
    for chunk_start in range(0, len(text), MAX_SEGMENT_CHARS):
        for m in _morphemes(text[chunk_start : chunk_start + MAX_SEGMENT_CHARS]):
            if not m.is_oov():
                found.append((chunk_start + m.begin(), chunk_start + m.end(), m.part_of_speech()[0]))
    return tuple(found)


@lru_cache(maxsize=32)
def boundaries(text: str) -> tuple[frozenset[int], frozenset[int]]:
    """Where the segmenter cuts the text (split modes C and A, every part of speech): the offsets at
    which a word may begin and end. A lexicon word counts only between two of them."""
    starts: set[int] = {0}
    ends: set[int] = {len(text)}
    for chunk_start in range(0, len(text), MAX_SEGMENT_CHARS):
        for m in _morphemes(text[chunk_start : chunk_start + MAX_SEGMENT_CHARS]):
            # A katakana loanword is one word even where split mode A cuts it (ダウン|ロード).
            pieces = (m,) if _KATAKANA_WORD.fullmatch(m.surface()) else (m, *m.split(SplitMode.A))
            for piece in pieces:
                starts.add(chunk_start + piece.begin())
                ends.add(chunk_start + piece.end())
    return frozenset(starts), frozenset(ends)
