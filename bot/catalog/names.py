"""Name normalisation, so a player finds a card however they type its name."""

from __future__ import annotations

import unicodedata

# Separators players type or omit at will: middle dots of every width, spaces, hyphens of names.
_IGNORED = str.maketrans("", "", "・･·‧ 　-‐=＝_")
_HIRAGANA_TO_KATAKANA = {code: code + 0x60 for code in range(ord("ぁ"), ord("ゖ") + 1)}


def normalize_name(text: str) -> str:
    """NFKC, case-folded, hiragana folded to katakana, separators and middle dots removed."""
    folded = unicodedata.normalize("NFKC", text).casefold().translate(_HIRAGANA_TO_KATAKANA)
    return folded.translate(_IGNORED)
