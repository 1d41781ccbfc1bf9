"""Data of the rulebook: documents, passages, glossary entries, search hits and answers."""

from __future__ import annotations

from enum import StrEnum

from pydantic import BaseModel, ConfigDict, Field


class Kind(StrEnum):
    """What a passage is inside its document."""

    BODY = "body"
    KEY_RULE = "key_rule"  # 要となるルール
    QUESTION = "question"  # 先に考えてください + 答え, kept together
    TRANSLATOR_NOTE = "translator_note"  # 訳注
    UNVERIFIED = "unverified"  # 要確認
    DEFINITION = "definition"  # a tooltip definition the copied page had inlined


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


class CardNote(BaseModel):
    """A card added to the question in card-interaction mode."""

    model_config = ConfigDict(frozen=True)

    name: str
    type: str
    text: str


class Answer(BaseModel):
    question: str
    answered: bool
    hits: list[Hit]
    closest_terms: list[str] = []  # when not answered: corpus words the question may mean, then its known ones
    cards: list[CardNote] = []
