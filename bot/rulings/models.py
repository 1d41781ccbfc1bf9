"""Data of the rulebook: documents, passages, glossary entries, search hits and answers."""

from __future__ import annotations

from enum import StrEnum
from typing import Literal

from pydantic import BaseModel, ConfigDict, Field, RootModel


class Kind(StrEnum):
    """What a passage is inside its document."""

    BODY = "body"
    KEY_RULE = "key_rule"  # 要となるルール
    QUESTION = "question"  # 先に考えてください + 答え, kept together
    TRANSLATOR_NOTE = "translator_note"  # 訳注
    UNVERIFIED = "unverified"  # 要確認
    DEFINITION = "definition"  # a tooltip definition the copied page had inlined
    TERM = "term"  # a row of a terminology table (English → Japanese)
    HOUSE_RULE = "house_rule"  # a decision of docs/house-rules.md: the table's rule, not the rulebook's


class DocumentMeta(BaseModel):
    """The metadata file beside each corpus document (rules/<stem>.toml)."""

    model_config = ConfigDict(frozen=True, extra="forbid")

    id: str = Field(pattern=r"^[a-z0-9][a-z0-9-]*$")
    title: str = Field(min_length=1)
    title_en: str = ""
    game: str = Field(pattern=r"^[a-z0-9][a-z0-9-]*$")
    language: str = Field(pattern=r"^(ja|en)$")
    source: str = Field(min_length=1)
    version: str = Field(min_length=1)
    authority: str = ""  # shown with every quote of this document, e.g. "the English original prevails"
    authority_en: str = ""
    # A document kept outside rules/ (relative to it) and how it is read: "text" (the judge-style
    # parser) or "house-rules" (docs/house-rules.md: the table's decisions, not the rulebook's).
    path: str = ""
    format: str = Field(default="text", pattern=r"^(text|house-rules)$")


class Passage(BaseModel):
    """One quotable piece of a document, with where it sits and what it cites."""

    model_config = ConfigDict(frozen=True)

    id: str  # "<document id>/<section index>/<ordinal>", stable while the document is unchanged
    document: str
    game: str
    section_index: int
    section: str  # the heading as printed, e.g. "03 効果のためにカードを選ぶ"
    kind: Kind
    text: str  # exactly as quoted (tooltips cleaned, page artefacts removed)
    citations: tuple[int, ...] = ()
    names: tuple[str, ...] = ()  # cards, abilities and keywords the passage speaks of
    unverified: bool = False
    unverified_notes: tuple[str, ...] = ()  # ids of the 要確認 passages that concern this one
    line: int  # first line in the source file, for people checking a quote
    summary: str = ""  # a house rule's decision in Japanese (its section's 要点), what Japanese readers see


class GlossaryEntry(BaseModel):
    """A term and what it means: a tooltip definition (ja → ja) or a terminology row (en → ja)."""

    model_config = ConfigDict(frozen=True)

    term: str
    meaning: str
    language: str  # language of `term`
    document: str


class Unplaced(BaseModel):
    """A line the parser could not place; reported by `referee ruling --check` and the tests."""

    model_config = ConfigDict(frozen=True)

    document: str
    line: int
    text: str
    reason: str


class Asked(BaseModel):
    """The questions players ask that one passage answers, in Japanese and in English (rules/asked.toml)."""

    model_config = ConfigDict(frozen=True, extra="forbid")

    ja: list[str] = Field(default_factory=list)
    en: list[str] = Field(default_factory=list)


class AskedFile(RootModel[dict[str, Asked]]):
    """rules/asked.toml: passage id → the questions it answers."""


class ChatterExample(BaseModel):
    """One message a channel sends (rules/chatter.toml): a rules question, or chatter beside the rules."""

    model_config = ConfigDict(frozen=True, extra="forbid")

    id: str = Field(pattern=r"^[a-z0-9]+$")
    kind: Literal["rules", "chatter"]
    lang: Literal["ja", "en"]
    text: str = Field(min_length=1, max_length=2000)


class ChatterFile(BaseModel):
    """rules/chatter.toml: examples of what a rules question is and what chatter is."""

    model_config = ConfigDict(frozen=True, extra="forbid")

    message: list[ChatterExample] = Field(default_factory=list)


class ParsedDocument(BaseModel):
    model_config = ConfigDict(frozen=True)

    meta: DocumentMeta
    passages: tuple[Passage, ...]
    glossary: tuple[GlossaryEntry, ...]
    unplaced: tuple[Unplaced, ...]


class Hit(BaseModel):
    """One answer passage as shown to a player; `related` are restatements of the same rule."""

    model_config = ConfigDict(frozen=True)

    id: str
    text: str
    game: str
    source: str
    source_en: str
    section: str
    kind: Kind
    citations: list[int]
    unverified: bool
    unverified_notes: list[str]
    authority: str
    authority_en: str
    score: float
    related: list[str] = []
    rule_text: str = ""  # the key rule this passage restates (a worked question, an example), quoted
    house: bool = False  # a house rule: the table's decision, not a rule of the game
    options: list[str] = []  # the table options that house rule is about
    summary: str = ""  # a house rule's decision in Japanese, quoted instead of `text` to Japanese readers


class CardNote(BaseModel):
    """A card added to the question in card-interaction mode."""

    model_config = ConfigDict(frozen=True)

    name: str
    type: str
    text: str


class Label(StrEnum):
    """How an answer stands to the question."""

    DIRECT = "direct"  # the passages speak to what was asked
    CLOSEST = "closest"  # the closest passages; the rules may not state this
    SILENT = "silent"  # the rulebook does not state this; the closest rule and the house rule
    OUTSIDE = "outside"  # nothing matches, or the question is about something the corpus does not cover


class Answer(BaseModel):
    question: str
    answered: bool
    hits: list[Hit]
    closest_terms: list[str] = []  # when not answered: corpus words the question may mean, then its known ones
    cards: list[CardNote] = []
    label: Label = Label.DIRECT
    searched_for: list[tuple[str, str]] = []  # (typed, the rules term searched instead): typo corrections
    game: str | None = None  # the game the question is about, when it could tell
    house: list[Hit] = []  # house rules, shown with a SILENT label
    options: dict[str, str] = {}  # the table's current option values, when asked at a table
