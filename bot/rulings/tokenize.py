"""Japanese segmentation shared by the index and the queries: NFKC, card symbols read as words, the
katakana middle dot dropped, SudachiPy split mode C, normalised forms of content words only."""

from __future__ import annotations

import re
import unicodedata
from collections.abc import Iterator, Mapping
from functools import cache

from sudachipy import Dictionary, SplitMode, Tokenizer

# Parts of speech that carry meaning; particles, auxiliaries, symbols and interjections do not.
_CONTENT_POS = frozenset({"名詞", "動詞", "形容詞", "形状詞", "副詞", "接尾辞"})
_KATAKANA_DOT = re.compile(r"(?<=[\u30a1-\u30fa\u30fc])[・･](?=[\u30a1-\u30fa\u30fc])")
_HIRAGANA = re.compile(r"[\u3041-\u3096\u30fc]+")
# Sudachi refuses very long inputs; questions are cut well before that.
MAX_SEGMENT_CHARS = 4000


@cache
def _tokenizer() -> Tokenizer:
    return Dictionary(dict="core").create(SplitMode.C)


def normalize(text: str, symbols: Mapping[str, str] | None = None) -> str:
    """NFKC, card symbols such as {S} read as their words, the katakana middle dot removed."""
    for symbol, word in (symbols or {}).items():
        text = text.replace(symbol, f" {word} ")
    text = unicodedata.normalize("NFKC", text)
    return _KATAKANA_DOT.sub("", text)


def to_katakana(text: str) -> str:
    return "".join(chr(ord(c) + 0x60) if "\u3041" <= c <= "\u3096" else c for c in text)


def hiragana_runs(text: str) -> Iterator[tuple[int, str]]:
    return ((m.start(), m.group()) for m in _HIRAGANA.finditer(text))


class Token:
    __slots__ = ("begin", "end", "reading", "surface", "term")

    def __init__(self, surface: str, term: str, reading: str, begin: int = 0, end: int = 0) -> None:
        self.surface, self.term, self.reading = surface, term, reading
        self.begin, self.end = begin, end  # character offsets in the segmented text


def tokens(text: str, stopwords: frozenset[str] = frozenset()) -> list[Token]:
    """Content-word tokens of already normalised text; `term` is Sudachi's normalised form, lower-cased."""
    out: list[Token] = []
    for chunk_start in range(0, len(text), MAX_SEGMENT_CHARS):
        chunk = text[chunk_start : chunk_start + MAX_SEGMENT_CHARS]
        for m in _tokenizer().tokenize(chunk):
            if m.part_of_speech()[0] not in _CONTENT_POS:
                continue
            term = m.normalized_form().lower()
            if not term.strip() or term in stopwords:
                continue
            begin = chunk_start + m.begin()
            out.append(Token(m.surface(), term, m.reading_form(), begin, chunk_start + m.end()))
    return out


def terms(text: str, symbols: Mapping[str, str] | None = None, stopwords: frozenset[str] = frozenset()) -> list[str]:
    return [t.term for t in tokens(normalize(text, symbols), stopwords)]
