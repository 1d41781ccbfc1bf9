"""Japanese typed in Latin letters (romaji: "eteru henkan", "tefuda"), read as kana.

A player without a Japanese keyboard writes the game's Japanese words as they sound. Read as kana,
such a word is found by its reading as a word spelled out in kana is (bot/rulings/search.py,
`_correct`). Hepburn and the kunrei spellings (si, ti, tu, hu, zi) both read; a word with any
letter sequence that is no syllable ("times", "hello") is no romaji and reads as nothing.
"""

from __future__ import annotations

import re
from collections.abc import Mapping

_VOWELS = {"a": "あ", "i": "い", "u": "う", "e": "え", "o": "お"}
_ROWS = {
    "k": "かきくけこ",
    "g": "がぎぐげご",
    "s": "さしすせそ",
    "z": "ざじずぜぞ",
    "t": "たちつてと",
    "d": "だぢづでど",
    "n": "なにぬねの",
    "h": "はひふへほ",
    "b": "ばびぶべぼ",
    "p": "ぱぴぷぺぽ",
    "m": "まみむめも",
    "r": "らりるれろ",
}
_SMALL = {"a": "ゃ", "u": "ゅ", "o": "ょ"}
_ORDER = "aiueo"


def _syllables() -> dict[str, str]:
    table: dict[str, str] = dict(_VOWELS)
    for consonant, kana in _ROWS.items():
        for vowel, char in zip(_ORDER, kana, strict=True):
            table[consonant + vowel] = char
        for vowel, small in _SMALL.items():  # kya, ryo: the i-column kana and a small ya, yu, yo
            table[consonant + "y" + vowel] = kana[1] + small
    table.update({"ya": "や", "yu": "ゆ", "yo": "よ", "wa": "わ", "wo": "を"})
    # Hepburn's spellings beside the kunrei ones above.
    table.update({"shi": "し", "chi": "ち", "tsu": "つ", "fu": "ふ", "ji": "じ"})
    for vowel, small in _SMALL.items():
        table["sh" + vowel] = "し" + small
        table["ch" + vowel] = "ち" + small
        table["j" + vowel] = "じ" + small
    table.update({"she": "しぇ", "che": "ちぇ", "je": "じぇ", "fa": "ふぁ", "fi": "ふぃ", "fe": "ふぇ", "fo": "ふぉ"})
    table.update({"ti": "ち", "tu": "つ", "hu": "ふ", "si": "し", "zi": "じ", "di": "ぢ", "du": "づ"})
    table.update({"thi": "てぃ", "dhi": "でぃ", "vu": "ゔ"})
    return table


_SYLLABLES = _syllables()
_LONGEST = max(map(len, _SYLLABLES))


def to_kana(word: str) -> str | None:
    """The hiragana a romaji word spells ("henkan" → へんかん, "tappu" → たっぷ, "suta-to" → すたーと),
    or None when some of its letters spell no syllable."""
    text = word.lower()
    out: list[str] = []
    i = 0
    while i < len(text):
        char = text[i]
        if char == "-" and out:  # a long vowel written with a dash (suta-to)
            out.append("ー")
            i += 1
            continue
        nxt = text[i + 1] if i + 1 < len(text) else ""
        if char == "n" and (not nxt or nxt in "'’" or (nxt not in _ORDER and nxt != "y")):
            out.append("ん")  # n before a consonant, at the end, or before an apostrophe (kan'i)
            i += 2 if nxt and nxt in "'’" else 1
            continue
        if char == nxt and char not in _ORDER and char != "n":
            out.append("っ")  # a doubled consonant is a small tsu (tappu, rokku)
            i += 1
            continue
        if char == "t" and text.startswith("ch", i + 1):
            out.append("っ")  # matchi
            i += 1
            continue
        for size in range(min(_LONGEST, len(text) - i), 0, -1):
            kana = _SYLLABLES.get(text[i : i + size])
            if kana is not None:
                out.append(kana)
                i += size
                break
        else:
            return None
    return "".join(out) or None


def _vowels() -> dict[str, str]:
    """Each hiragana's vowel (か: a, しゃ's ゃ: a), read off the syllable table."""
    out = {kana[-1]: spelled[-1] for spelled, kana in _SYLLABLES.items() if spelled[-1] in _ORDER}
    out.update({"ぁ": "a", "ぃ": "i", "ぅ": "u", "ぇ": "e", "ぉ": "o"})
    return out


_VOWEL_OF = _vowels()


def long_vowels(kana: str) -> str:
    """A vowel written twice as a long one (どろお → どろー, りいだあ → りーだー): how a loanword's long
    mark is typed in romaji (doroo, riidaa, sutaato). A word of Chinese reading keeps its vowels
    (こうげき: ou is no doubled vowel)."""
    out: list[str] = []
    for char in kana:
        before = out[-1] if out else ""
        if out and _VOWELS.get(_VOWEL_OF.get(before, "")) == char:
            out.append("ー")
        else:
            out.append(char)
    return "".join(out)


_HIRAGANA = str.maketrans({chr(k): chr(k - 0x60) for k in range(0x30A1, 0x30F7)})
_SPELLING = {kana: spelled for spelled, kana in sorted(_SYLLABLES.items(), key=lambda item: -len(item[0]))}


def syllables(kana: str) -> tuple[str, ...] | None:
    """A kana word as the syllables it is spelled in (アルカステラ: a, ru, ka, su, te, ra), long marks and
    small ッ dropped; None for a word with a kana the syllable table does not spell."""
    text = kana.translate(_HIRAGANA).replace("ー", "").replace("っ", "")
    out: list[str] = []
    i = 0
    while i < len(text):
        two, one = text[i : i + 2], text[i]
        if len(two) == 2 and two in _SPELLING:
            out.append(_SPELLING[two])
            i += 2
        elif one == "ん" or one in _SPELLING:
            out.append("n'" if one == "ん" else _SPELLING[one])
            i += 1
        else:
            return None
    return tuple(out)


def consonants(spelled: tuple[str, ...]) -> tuple[str, ...]:
    """The syllables without their vowels (a, ru, ka, su, te, ra → '', r, k, s, t, r): a word as one hears
    it who gets its consonants right and a vowel wrong (arukasuteru)."""
    return tuple(s.rstrip(_ORDER) for s in spelled)


_LATIN_WORD = re.compile(r"[A-Za-z][A-Za-z'’-]*")
ROMAJI_MIN_WORDS = 3
ROMAJI_SHARE = 0.8  # English has words no syllables spell (the, what, is) in nearly every sentence


def romaji_words(message: str) -> list[tuple[str, str | None]] | None:
    """The Latin words of a message written in romaji (ROMAJI_SHARE of them, at least ROMAJI_MIN_WORDS,
    spell kana), each with its kana or None; None for any other message."""
    words = _LATIN_WORD.findall(message)
    read = [(w, "は" if w.lower() == "wa" else to_kana(w)) for w in words]  # wa alone: the particle は
    if len(words) < ROMAJI_MIN_WORDS or sum(k is not None for _, k in read) < ROMAJI_SHARE * len(words):
        return None
    return read


def as_kana(message: str, meant: Mapping[str, str] | None = None) -> str | None:
    """A message written in romaji with its words in kana (or as `meant`: the game words they were
    searched as, エーテル for eeteru) and the rest as typed; None for any other message. So read, it is
    Japanese to what tells a question from chatter ("kyou wa tsukareta ne" is chatter as きょうは
    つかれたね is; "doroo no toki kaado wa nanmai" is a question)."""
    words = romaji_words(message)
    if words is None:
        return None
    meant = meant or {}
    kana = dict(words)

    def read(match: re.Match[str]) -> str:
        word = match.group()
        return meant.get(word.lower()) or long_vowels(kana.get(word) or "") or word

    return _LATIN_WORD.sub(read, message)
