"""Japanese typed in Latin letters (romaji: "eteru henkan", "tefuda"), read as kana.

A player without a Japanese keyboard writes the game's Japanese words as they sound. Read as kana,
such a word is found by its reading as a word spelled out in kana is (bot/rulings/search.py,
`_correct`). Hepburn and the kunrei spellings (si, ti, tu, hu, zi) both read; a word with any
letter sequence that is no syllable ("times", "hello") is no romaji and reads as nothing.
"""

from __future__ import annotations

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
