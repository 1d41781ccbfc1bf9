"""Turn one corpus document into passages that keep their structure.

The parser knows the conventions of judge-style material (numbered sections, 要となるルール,
先に考えてください/答え, 訳注, 要確認, 〔n〕 citations, tab-separated terminology tables) and of
copied rule pages (inlined tooltips, `+` expand buttons, bullets with indented continuations).
Anything it cannot place is reported in `ParsedDocument.unplaced`, never dropped silently.
"""

from __future__ import annotations

import re
from dataclasses import dataclass, field

from bot.rulings.glossary import clean_tooltips, table_row_entries
from bot.rulings.models import DocumentMeta, GlossaryEntry, Kind, ParsedDocument, Passage, Unplaced

_NUMBERED = re.compile(r"^\d{1,2}[.．]?\s+")
_ITEM = re.compile(r"^(?:[•・\-*]|\d{1,2}[.．])\s*")
_CITATION = re.compile(r"〔([\d,，、\s]+)〕")
_KIND_PREFIX: tuple[tuple[str, Kind], ...] = (
    ("要となるルール", Kind.KEY_RULE),
    ("先に考えてください", Kind.QUESTION),
    ("訳注", Kind.TRANSLATOR_NOTE),
    ("要確認", Kind.UNVERIFIED),
)
_ANSWER = re.compile(r"^答え\s*[:：]")
_NAMES = (
    re.compile(r"《([^》]+)》"),  # card names
    re.compile(r"“([^”]+)”"),  # ability names
    re.compile(r"[<＜]([^>＞]+)[>＞]"),  # keywords such as <魔除>
    re.compile(r"[【≪\[]([^】≫\]]+)[】≫\]]"),  # bracketed game terms of the rule page
    # Untranslated English card and ability names ("Elisa Maza – Transformed Gargoyle", "Boost").
    re.compile(r"(?<![A-Za-z])([A-Z][A-Za-z’']*(?:(?: | – | ‘n’ | of | for )[A-Z][A-Za-z’']*)*)(?![A-Za-z0-9])"),
)
_DOUBLED = re.compile(r"([\u30a1-\u30fa\u30fc\u4e00-\u9fff]{3,})\1")


def _is_heading(text: str, indent: int) -> bool:
    """Short unindented lines that are not sentences, list items, table rows or labelled notes."""
    if indent or not text or len(text) > 32 or (_ITEM.match(text) and not _NUMBERED.match(text)):
        return False
    if any(mark in text for mark in ("。", "\t", "=", "〔")) or text.endswith((":", "：")):
        return False
    if re.match(r"^(要となるルール|訳注|要確認|答え)\s*[:：]", text):
        return False
    return len(_NUMBERED.sub("", text).split()) <= 2


def _kind_of(text: str, section: str) -> Kind:
    for prefix, kind in _KIND_PREFIX:
        if text.startswith(prefix) and not text.startswith(prefix + "（"):
            return kind
    return Kind.UNVERIFIED if section.startswith("要確認") else Kind.BODY


def citations_of(text: str) -> tuple[int, ...]:
    numbers: list[int] = []
    for group in _CITATION.findall(text):
        numbers.extend(int(n) for n in re.split(r"[,，、\s]+", group) if n)
    return tuple(dict.fromkeys(numbers))


def _is_name(candidate: str) -> bool:
    """Drop what the patterns catch but is no name: roman numerals, emphasis marks such as 【重要】."""
    return (
        len(candidate) > 1 and candidate not in {"重要", "注意"} and not re.fullmatch(r"[IVX]+|[A-Z]{1,2}", candidate)
    )


def names_of(text: str) -> tuple[str, ...]:
    found: list[str] = []
    for pattern in _NAMES:
        found.extend(m.strip() for m in pattern.findall(text) if _is_name(m.strip()))
    return tuple(dict.fromkeys(found))


@dataclass
class _Draft:
    section_index: int
    section: str
    line: int
    lines: list[str]
    indent: int = 0
    is_item: bool = False
    kind: Kind = Kind.BODY

    @property
    def text(self) -> str:
        return "\n".join(self.lines)


@dataclass
class _State:
    meta: DocumentMeta
    drafts: list[_Draft] = field(default_factory=list)
    glossary: list[GlossaryEntry] = field(default_factory=list)
    definitions: list[_Draft] = field(default_factory=list)
    terms: list[_Draft] = field(default_factory=list)
    unplaced: list[Unplaced] = field(default_factory=list)
    section_index: int = 0
    section: str = ""
    blank_since_last: bool = True

    def current(self) -> _Draft | None:
        if self.drafts and self.drafts[-1].section_index == self.section_index:
            return self.drafts[-1]
        return None

    def new(self, line_no: int, text: str, indent: int = 0, is_item: bool = False) -> None:
        kind = _kind_of(text, self.section)
        self.drafts.append(_Draft(self.section_index, self.section, line_no, [text], indent, is_item, kind))

    def report(self, line_no: int, text: str, reason: str) -> None:
        self.unplaced.append(Unplaced(document=self.meta.id, line=line_no, text=text, reason=reason))


def _opens_list(draft: _Draft) -> bool:
    """A paragraph that announces the list below it ("以下の手順で…", "…:")."""
    first = draft.lines[0]
    return not _ITEM.match(first) and ("以下" in first or first.rstrip().endswith((":", "：")))


def _table_row(state: _State, line_no: int, text: str) -> None:
    cells = [c.strip() for c in text.split("\t")]
    if not re.search(r"[A-Za-z]", cells[0]):
        return  # the header row of a terminology table ("英語 この訳 出典")
    entries = table_row_entries(cells[0], cells[1]) if len(cells) > 1 else []
    if not entries:
        state.report(line_no, text, "terminology row not understood")
    for english, japanese in entries:
        state.glossary.append(GlossaryEntry(term=english, meaning=japanese, language="en", document=state.meta.id))
    if entries:  # the row itself is quotable: "what is Ward called in this translation?"
        row = " ／ ".join(c for c in cells if c)
        state.terms.append(_Draft(state.section_index, state.section, line_no, [row], kind=Kind.TERM))


def _place_line(state: _State, line_no: int, raw: str) -> None:
    cleaned, tips = clean_tooltips(raw.rstrip())
    text = cleaned.strip()
    indent = len(cleaned) - len(cleaned.lstrip())
    if not text or text == "---":
        state.blank_since_last = True
        return
    if text == "+":  # the expand button of the copied page, not content
        return
    if _DOUBLED.search(text):
        state.report(line_no, text, "possible inlined tooltip left in the text")
    current = state.current()
    if "\t" in text:
        _table_row(state, line_no, text)
    elif _is_heading(text, indent):
        state.section_index += 1
        state.section = text
    elif (item := _ITEM.match(text)) and item.end() < len(text):
        if current is not None and current.is_item and indent > current.indent:
            current.lines.append(raw.rstrip())  # a sub-item stays with its parent
        elif current is not None and _opens_list(current) and (not current.is_item or indent == current.indent):
            current.lines.append(raw.rstrip())  # items of a list that a lead paragraph announced
            current.is_item, current.indent = True, indent
        else:
            state.new(line_no, text, indent, is_item=True)
    elif indent and current is not None and current.is_item:
        current.lines.append(raw.rstrip())  # continuation of a list item
    elif _ANSWER.match(text):
        if current is not None and current.kind is Kind.QUESTION:
            current.lines.append(text)
        else:
            state.report(line_no, text, "answer without its question; kept as a body passage")
            state.new(line_no, text)
    elif (
        current is not None
        and not state.blank_since_last
        and not current.is_item
        and not current.text.endswith("。")
        and not text.endswith("。")
    ):
        current.lines.append(text)  # rows of a table without tabs stay together
    else:
        state.new(line_no, text, indent)
    state.blank_since_last = False
    _add_definitions(state, line_no, tips)


def _add_definitions(state: _State, line_no: int, tips: list[tuple[str, str]]) -> None:
    """Tooltip definitions become glossary entries and stay quotable ("what is エーテル変換?").
    Added after the line is placed, so a tooltip inside a heading belongs to that heading's section."""
    for term, meaning in tips:
        state.glossary.append(GlossaryEntry(term=term, meaning=meaning, language="ja", document=state.meta.id))
        text = f"{term}：{meaning}"
        state.definitions.append(_Draft(state.section_index, state.section, line_no, [text], kind=Kind.DEFINITION))


def _flag_unverified(passages: list[Passage]) -> list[Passage]:
    """A 要確認 note concerns the passages that speak of the same cards, abilities or keywords;
    a note naming nothing concerns the passage just before it."""
    concerns: dict[str, list[str]] = {}
    for index, note in enumerate(passages):
        if note.kind is not Kind.UNVERIFIED and "要確認" not in note.text:
            continue
        targets = {note.id}
        if note.names:
            targets |= {p.id for p in passages if set(p.names) & set(note.names)}
        elif index > 0:
            targets.add(passages[index - 1].id)
        for target in targets:
            concerns.setdefault(target, []).append(note.id)
    return [
        p.model_copy(update={"unverified": True, "unverified_notes": tuple(concerns[p.id])}) if p.id in concerns else p
        for p in passages
    ]


def parse_document(meta: DocumentMeta, text: str) -> ParsedDocument:
    state = _State(meta=meta, section=meta.title)
    for line_no, raw in enumerate(text.splitlines(), start=1):
        _place_line(state, line_no, raw)
    passages: list[Passage] = []
    ordinals: dict[tuple[int, str], int] = {}
    for draft in state.drafts + state.definitions + state.terms:
        # Definitions and terminology rows count apart ("d01", "t01") so adding one never renumbers
        # the quoted passages.
        prefix = {Kind.DEFINITION: "d", Kind.TERM: "t"}.get(draft.kind, "")
        key = (draft.section_index, prefix)
        ordinals[key] = ordinal = ordinals.get(key, 0) + 1
        body = "\n".join(line.strip() for line in draft.lines)
        passages.append(
            Passage(
                id=f"{meta.id}/{draft.section_index:02d}/{prefix}{ordinal:02d}",
                document=meta.id,
                game=meta.game,
                section_index=draft.section_index,
                section=draft.section,
                kind=draft.kind,
                text=body,
                citations=citations_of(body),
                # A definition names its term first, so "what is X" can find the definition of X.
                names=(body.split("：", 1)[0], *names_of(body)) if draft.kind is Kind.DEFINITION else names_of(body),
                line=draft.line,
            )
        )
    return ParsedDocument(
        meta=meta,
        passages=tuple(_flag_unverified(passages)),
        glossary=tuple(dict.fromkeys(state.glossary)),
        unplaced=tuple(state.unplaced),
    )
