"""Glossaries: tooltips inlined by a web page, terminology tables, and the curated game lexicon.

A copied web page repeats a term, then gives its tooltip: `エーテル変換エーテル変換：定義。`.
We keep one occurrence of the term in the text and turn the definition into a glossary entry.
"""

from __future__ import annotations

import re
import tomllib
from collections.abc import Iterable
from pathlib import Path

from pydantic import BaseModel, ConfigDict, Field, PrivateAttr, field_validator

from bot.rulings.tokenize import normalize

_TERM = r"[^\s\[\]【】≪≫《》（）()「」：:。、，,]{2,24}?"
_OPEN_TO_CLOSE = {"[": "]", "【": "】", "≪": "≫", "（": "）", "(": ")"}
# Inside brackets the definition runs to the closing bracket (it may hold several sentences).
_BRACKETED = re.compile(r"(?P<open>[\[【≪（(])(?P<term>" + _TERM + r")(?P=term)[：:](?P<meaning>[^\]】≫）)]*)")
# Outside brackets it runs to the first 。 after which the sentence resumes (a kana or the line end):
# `コード：装備カード。攻撃スキルを受けると破損判定あり。を装備` has a two-sentence definition.
_BARE = re.compile(r"(?P<term>" + _TERM + r")(?P=term)[：:](?P<meaning>.*?。)(?=[\u3041-\u309f]|\s|$)")


def clean_tooltips(line: str) -> tuple[str, list[tuple[str, str]]]:
    """Remove inlined tooltips from one line; return the cleaned line and the (term, meaning) pairs."""
    found: list[tuple[str, str]] = []

    def bracketed(m: re.Match[str]) -> str:
        found.append((m["term"], m["meaning"].strip()))
        return m["open"] + m["term"]

    def bare(m: re.Match[str]) -> str:
        found.append((m["term"], m["meaning"].strip()))
        return m["term"]

    line = _BRACKETED.sub(bracketed, line)
    line = _BARE.sub(bare, line)
    return line, found


_PAREN = re.compile(r"[（(][^）)]*[）)]")
_QUOTED = re.compile(r"「([^」]+)」")
_QUOTES = re.compile(r"「[^」]*」|“[^”]*”|《[^》]*》")  # card text and names a passage quotes


def table_row_entries(english: str, japanese: str) -> list[tuple[str, str]]:
    """Pairs from one terminology row: `Ward / Support` + `魔除／支援` gives two entries.

    Parenthesised remarks are dropped; a quoted 「term」 stands for the whole cell.
    """
    en_parts = [p.strip() for p in _PAREN.sub("", english).split("/") if p.strip()]
    ja_cell = _PAREN.sub("", japanese)
    quoted = _QUOTED.findall(ja_cell)
    ja_parts = quoted or [p.strip() for p in re.split(r"[／/]", ja_cell) if p.strip()]
    if len(ja_parts) == len(en_parts):
        return list(zip(en_parts, ja_parts, strict=True))
    if len(ja_parts) == 1:
        return [(en, ja_parts[0]) for en in en_parts]
    return []


class Lexicon(BaseModel):
    """rules/lexicon.toml: English game words → Japanese corpus words, Japanese synonyms, card symbols."""

    model_config = ConfigDict(frozen=True, extra="forbid")

    english: dict[str, list[str]] = Field(default_factory=dict)
    # Everyday English a rules question uses (search, again, example) → the corpus's words: it
    # translates a question, but is no game vocabulary (no sign a question is about the games) and
    # does not gloss the English house rules.
    english_general: dict[str, list[str]] = Field(default_factory=dict)
    synonyms: dict[str, list[str]] = Field(default_factory=dict)
    # Everyday Japanese (寝る, 消える, 半分) → the corpus's words for what a card player means by it:
    # a synonym, but no sign that a question is about the games.
    synonyms_general: dict[str, list[str]] = Field(default_factory=dict)
    symbols: dict[str, str] = Field(default_factory=dict)
    patterns: dict[str, str] = Field(default_factory=dict)
    stopwords: list[str] = Field(default_factory=list)
    keywords: list[str] = Field(default_factory=list)  # game terms a question's topic hangs on
    # Words one game coined (エーテル, インクウェル): no other card game uses them, so a question naming
    # them is about that game, even when it names another (tap and block are every game's words).
    own_words: list[str] = Field(default_factory=list)
    english_stopwords: list[str] = Field(default_factory=list)
    # The corpus's games and the names players call them by; games the corpus does not cover.
    games: dict[str, list[str]] = Field(default_factory=dict)
    other_games: list[str] = Field(default_factory=list)
    # Things named after a game (a chess clock, poker chips): naming one names no game.
    game_things: list[str] = Field(default_factory=list)
    # A game named only to compare ours with (ポケカみたいに, "like in MTG"): the words right after its
    # name (`compare_after`) or right before it (`compare_before`). Such a question is still about the
    # game it asks of, not about the game it names.
    compare_after: list[str] = Field(default_factory=list)
    compare_before: list[str] = Field(default_factory=list)
    # Keywords of games the corpus does not cover, which no player of ours uses for ours (trample):
    # a question hanging on one is about that game, named or not.
    other_keywords: list[str] = Field(default_factory=list)
    # The bot, as players address it: a question to it in no game's words is about it, not the rules.
    referee_names: list[str] = Field(default_factory=list)
    # What no rulebook settles (buying, prices, the weather, favourites): a question asking about one
    # is no rules question. A word the corpus itself uses is ignored.
    outside_words: list[str] = Field(default_factory=list)
    # English card names → the Japanese names the corpus uses (the English original's examples).
    cards: dict[str, str] = Field(default_factory=dict)
    # A question asking who (誰, who) wants a passage that names someone: a player or a piece that acts.
    asks_who: list[str] = Field(default_factory=list)
    persons: list[str] = Field(default_factory=list)
    # A game's way of naming its cards (a regular expression): a question naming a card the corpus
    # does not know in that form is about that game ("Hiram Flaversham - Toymaker" is Lorcana's).
    card_name_forms: dict[str, str] = Field(default_factory=dict)
    # What a channel asks beside the rules (when the next tournament is, which deck is best): regular
    # expressions; a question matching one and naming no game keyword is no rules question.
    outside_asks: list[str] = Field(default_factory=list)
    # A question asking whether something can be done (regular expressions), and a passage saying in
    # its own words what can, cannot or must be done: the kind of passage that answers such a question.
    asks_can: list[str] = Field(default_factory=list)
    says_can: list[str] = Field(default_factory=list)
    # A question asking how often or in what order something is done (何回, any order), and a passage
    # saying how often or in what order (何度でも, 1ターンに1回, 任意の順序): the passage that answers it.
    asks_count: list[str] = Field(default_factory=list)
    says_count: list[str] = Field(default_factory=list)
    # A state → its opposite (タップ → アンタップ). Asked whether a piece in one state can act, the rule
    # saying what pieces in the other state may do answers it ("untapped ones may block").
    opposites: dict[str, list[str]] = Field(default_factory=dict)
    _compiled: tuple[tuple[re.Pattern[str], str], ...] = PrivateAttr(default=())
    _name_forms: tuple[tuple[str, re.Pattern[str]], ...] = PrivateAttr(default=())
    _outside_asks: tuple[re.Pattern[str], ...] = PrivateAttr(default=())
    _asks_can: tuple[re.Pattern[str], ...] = PrivateAttr(default=())
    _says_can: tuple[re.Pattern[str], ...] = PrivateAttr(default=())
    _asks_count: tuple[re.Pattern[str], ...] = PrivateAttr(default=())
    _says_count: tuple[re.Pattern[str], ...] = PrivateAttr(default=())
    _game_names: re.Pattern[str] | None = PrivateAttr(default=None)

    @field_validator("card_name_forms")
    @classmethod
    def _valid_forms(cls, forms: dict[str, str]) -> dict[str, str]:
        _check_regexes(forms.values())
        return forms

    @field_validator("outside_asks", "asks_can", "says_can", "asks_count", "says_count")
    @classmethod
    def _valid_regex_lists(cls, patterns: list[str]) -> list[str]:
        _check_regexes(patterns)
        return patterns

    @field_validator("patterns")
    @classmethod
    def _valid_regexes(cls, patterns: dict[str, str]) -> dict[str, str]:
        _check_regexes(patterns)
        return patterns

    def model_post_init(self, __context: object) -> None:
        self._compiled = tuple((re.compile(p), word) for p, word in self.patterns.items())
        self._name_forms = tuple((game, re.compile(form)) for game, form in self.card_name_forms.items())
        self._outside_asks = tuple(re.compile(p) for p in self.outside_asks)
        self._asks_can = tuple(re.compile(p) for p in self.asks_can)
        self._says_can = tuple(re.compile(p) for p in self.says_can)
        self._asks_count = tuple(re.compile(p) for p in self.asks_count)
        self._says_count = tuple(re.compile(p) for p in self.says_count)
        names = sorted({n for ns in self.games.values() for n in ns}, key=len, reverse=True)
        self._game_names = re.compile("|".join(map(re.escape, names)), re.IGNORECASE) if names else None

    def games_naming_cards(self, text: str) -> list[str]:
        """The games whose way of naming cards a text uses."""
        return [game for game, form in self._name_forms if form.search(text)]

    def asks_outside(self, text: str) -> bool:
        """Whether a text asks what a channel asks beside the rules (`outside_asks`)."""
        return any(p.search(text) for p in self._outside_asks)

    def without_game_names(self, text: str) -> str:
        """The text with the names of the corpus's games blanked: a channel names them as often when it
        chats as when it asks the rules, so the chatter model (bot/rulings/chatter.py) reads neither
        side into them."""
        return self._game_names.sub(" ", text) if self._game_names else text

    def asks_whether_can(self, question: str) -> bool:
        """Whether a question asks if something can be done (`asks_can`)."""
        return any(p.search(question) for p in self._asks_can)

    def says_what_can(self, plain: str) -> bool:
        """Whether a passage says in its own words, not in the card text it quotes, what can, cannot
        or must be done (`says_can`)."""
        return _in_own_words(self._says_can, plain)

    def asks_how_often(self, question: str) -> bool:
        """Whether a question asks how often or in what order something is done (`asks_count`)."""
        return any(p.search(question) for p in self._asks_count)

    def says_how_often(self, plain: str) -> bool:
        """Whether a passage says in its own words how often or in what order (`says_count`)."""
        return _in_own_words(self._says_count, plain)

    def prepare(self, text: str) -> str:
        """Text as both the index and the queries see it before segmentation (see tokenize.normalize)."""
        return normalize(text, self.symbols, self._compiled)


def _in_own_words(patterns: Iterable[re.Pattern[str]], plain: str) -> bool:
    """Whether a passage's own words, not the card text it quotes, match one of the patterns."""
    own = _QUOTES.sub("", plain)
    return any(p.search(own) for p in patterns)


def _check_regexes(patterns: Iterable[str]) -> None:
    for pattern in patterns:
        try:
            re.compile(pattern)
        except re.error as exc:
            raise ValueError(f"bad pattern {pattern!r}: {exc}") from exc


def load_lexicon(path: Path) -> Lexicon:
    if not path.is_file():
        return Lexicon()
    with path.open("rb") as fh:
        raw = tomllib.load(fh)
    lexicon = Lexicon.model_validate(raw)
    # English keys are matched lower-case; keep the file readable with any case.
    return lexicon.model_copy(
        update={
            "english": {k.lower(): v for k, v in lexicon.english.items()},
            "english_general": {k.lower(): v for k, v in lexicon.english_general.items()},
        }
    )
