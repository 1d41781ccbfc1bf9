"""docs/house-rules.md as a source of its own: the table's decisions where the rulebook is silent.

Each `## N. Title` section becomes a section numbered N (unnumbered ones follow the last number);
each top-level `- ` item of it (the decision, the reason) is one passage of kind HOUSE_RULE, and its
`要点` item (the decision in Japanese) is what those passages show a Japanese reader. The
options table at the top ties section numbers to table options, so an answer can show the value a
table has chosen.
"""

from __future__ import annotations

import re

from bot.rulings.models import DocumentMeta, Kind, ParsedDocument, Passage

_SECTION = re.compile(r"^##\s+(?:(\d+)\.\s*)?(.+?)\s*$")
_ROW = re.compile(r"^\|\s*([\d,\s]+?)\s*\|[^|]*\|(.*)\|\s*$")
_OPTION = re.compile(r"`([a-z_]+)`\s*:")
_MARKUP = re.compile(r"\*\*|`")
_SUMMARY = "要点."


def options_by_section(text: str) -> dict[int, tuple[str, ...]]:
    """`| 4, 20 | empty deck | `deck_out`: ... |` → {4: ("deck_out",), 20: ("deck_out",)}."""
    out: dict[int, tuple[str, ...]] = {}
    for line in text.splitlines():
        row = _ROW.match(line.strip())
        if row is None:
            continue
        names = tuple(_OPTION.findall(row.group(2)))
        for number in re.findall(r"\d+", row.group(1)):
            out[int(number)] = tuple(dict.fromkeys(out.get(int(number), ()) + names))
    return out


def parse_house_rules(meta: DocumentMeta, text: str) -> ParsedDocument:
    options = options_by_section(text)
    passages: list[Passage] = []
    index, section, last = 0, "", 0
    items: list[tuple[int, list[str]]] = []  # (first line, lines) of the current section's items

    def flush() -> None:
        bodies = [
            (line, _MARKUP.sub("", " ".join(part.strip() for part in lines)).removeprefix("- ").strip())
            for line, lines in items
        ]
        # The section's 要点 is its decision in Japanese: shown to Japanese readers, not searched (the
        # rules are found by the English items and the lexicon's glosses, which it only repeats).
        summary = next((b.removeprefix(_SUMMARY).strip() for _, b in bodies if b.startswith(_SUMMARY)), "")
        for ordinal, (line, body) in enumerate([(n, b) for n, b in bodies if not b.startswith(_SUMMARY)], start=1):
            passages.append(
                Passage(
                    id=f"{meta.id}/{index:02d}/{ordinal:02d}",
                    document=meta.id,
                    game=meta.game,
                    section_index=index,
                    section=section,
                    kind=Kind.HOUSE_RULE,
                    text=body,
                    names=options.get(index, ()),
                    line=line,
                    summary=summary,
                )
            )
        items.clear()

    for line_no, raw in enumerate(text.splitlines(), start=1):
        heading = _SECTION.match(raw)
        if heading:
            flush()
            last = index = int(heading.group(1)) if heading.group(1) else last + 1
            section = heading.group(0).lstrip("#").strip()
            continue
        if not index:
            continue  # the introduction and the options table
        if raw.startswith("- "):
            items.append((line_no, [raw]))
        elif raw.startswith(" ") and raw.strip() and items:
            items[-1][1].append(raw)
    flush()
    return ParsedDocument(meta=meta, passages=tuple(passages), glossary=(), unplaced=())
