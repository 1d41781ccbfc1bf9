"""How many cards of the top of their deck a manual effect lets its controller look at.

The card vocabulary has no "look" effect, so the number is read from the manual effect's printed text
(house rule "Looking at one's deck"): Japanese 「デッキの上からN枚を見て」, or the English
"look at the top N cards of your deck". A text that names no such look allows none.
"""

from __future__ import annotations

import re
import unicodedata

_KANJI = {"一": 1, "二": 2, "三": 3, "四": 4, "五": 5, "六": 6, "七": 7, "八": 8, "九": 9, "十": 10}
_WORDS = {"one": 1, "two": 2, "three": 3, "four": 4, "five": 5, "six": 6, "seven": 7, "eight": 8, "nine": 9, "ten": 10}
_JA = re.compile(r"(?:デッキ|山札)の上から([0-9]+|[一二三四五六七八九十])枚を?見")
_EN = re.compile(r"look at the top ([0-9]+|[a-z]+) cards? of (?:your|their) deck")
MAX_LOOK = 10  # no sample card looks at more; a larger number in a text is read as this many


def look_count(text: str, text_en: str | None = None) -> int:
    """The number of cards the text says to look at, 0 when it names no look at one's own deck."""
    ja = _JA.search(unicodedata.normalize("NFKC", text))
    if ja is not None:
        return _number(ja.group(1), _KANJI)
    en = _EN.search(unicodedata.normalize("NFKC", text_en or "").casefold())
    return _number(en.group(1), _WORDS) if en is not None else 0


def _number(word: str, names: dict[str, int]) -> int:
    if not word.isdigit():
        return min(names.get(word, 0), MAX_LOOK)
    return min(int(word), MAX_LOOK) if len(word) <= 3 else MAX_LOOK
