"""Names people and files give: players, cards, decks. One rule for all of them.

A name is NFKC-normalised (full-width letters and half-width kana become their usual forms), and a
name holding a character that cannot be seen or that turns the text around (zero-width characters,
bidi controls, other control or format characters, variation selectors) is refused: such a name can
look exactly like another one. `normalize_name` is the look-up key of a name (case, kana and
separators forgiven) and refuses the same characters, so a look-up cannot be fooled either.
"""

from __future__ import annotations

import functools
import unicodedata

from bot.errors import Named, RefereeError
from bot.i18n import t

# General categories refused: control, format (zero-width, bidi marks and embeddings, BOM, soft
# hyphen), surrogate, private use, unassigned, line and paragraph separators.
_REFUSED_CATEGORIES = frozenset({"Cc", "Cf", "Cs", "Co", "Cn", "Zl", "Zp"})
# Invisible characters of other categories (Unicode's default-ignorable code points that are not Cf).
_INVISIBLE = frozenset(
    {0x034F, 0x115F, 0x1160, 0x17B4, 0x17B5, 0x3164, 0xFFA0, *range(0x180B, 0x1810), *range(0xFE00, 0xFE10)}
    | set(range(0xE0100, 0xE01F0))
)
MAX_NAME = 100  # a name longer than this is a paste gone wrong, not a name

# Separators players type or omit at will: middle dots of every width, spaces, hyphens of names.
_IGNORED = str.maketrans("", "", "・･·‧ 　-‐=＝_")
_HIRAGANA_TO_KATAKANA = {code: code + 0x60 for code in range(ord("ぁ"), ord("ゖ") + 1)}


class BadName(RefereeError):
    """A name refused: `what` says whose name (a message key under cards.name.what), `char` the
    offending character as U+XXXX, `name` the name with that character spelled out."""

    key = "cards.name.invisible"


def hidden_char(text: str) -> str | None:
    """The first character of `text` that a name may not hold, as `U+XXXX`; None when there is none."""
    for char in text:
        code = ord(char)
        if code in _INVISIBLE or unicodedata.category(char) in _REFUSED_CATEGORIES:
            return f"U+{code:04X}"
    return None


def shown(text: str) -> str:
    """The text with every refused character spelled out as <U+XXXX>, safe to quote in a message."""
    return "".join(f"<{code}>" if (code := hidden_char(c)) else c for c in text[: MAX_NAME + 20])


def check_name(text: str, what: str = "name") -> str:
    """The name as kept (NFKC, surrounding space removed, inner runs of space made one); refuses an
    empty or over-long name and one with an invisible or direction-changing character.
    `what`: player, card, deck or name (the word the message uses)."""
    normal = " ".join(unicodedata.normalize("NFKC", text).split())
    char = hidden_char(normal)
    if char is not None:
        raise BadName("cards.name.invisible", what=_what(what), name=shown(text), char=char)
    if not normal:
        raise BadName("cards.name.empty", what=_what(what))
    if len(normal) > MAX_NAME:
        raise BadName("cards.name.too_long", what=_what(what), limit=MAX_NAME)
    return normal


def normalize_name(text: str) -> str:
    """The look-up key: NFKC, case-folded, hiragana folded to katakana, separators and middle dots
    removed. Refuses a name with an invisible or direction-changing character (BadName)."""
    # Every reply looks up the same few card and skill names again: short ones are remembered.
    return _remembered_key(text) if len(text) <= _REMEMBERED_LENGTH else _key(text)


_REMEMBERED_LENGTH = 80


@functools.lru_cache(maxsize=8192)
def _remembered_key(text: str) -> str:
    return _key(text)


def _key(text: str) -> str:
    normal = unicodedata.normalize("NFKC", text)
    char = hidden_char(normal)
    if char is not None:
        raise BadName("cards.name.invisible", what=_what("name"), name=shown(text), char=char)
    return normal.casefold().translate(_HIRAGANA_TO_KATAKANA).translate(_IGNORED)


def _what(what: str) -> Named:
    """The word for whose name it is, in each language (a Named fills one template field in both)."""
    return Named(t(f"cards.name.what.{what}", "ja"), t(f"cards.name.what.{what}", "en"))
