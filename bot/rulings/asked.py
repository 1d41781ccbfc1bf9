"""rules/asked.toml: the questions players ask, filed under the passage that answers them.

Written from each passage's text alone (never from an evaluation question), they are the words
players use for what a passage states (寝てるアルカステラ, "does the buff stick around"), where the
rules use their own. The ranking lifts a passage by how much more of a question it carries with its
questions than without (bot/rulings/search.py); what it carries itself still decides the label. They
are data: a question that finds the wrong passage is fixed by filing it, or one like it, here.
"""

from __future__ import annotations

import tomllib
from collections.abc import Mapping, Sequence
from pathlib import Path

from pydantic import BaseModel, ConfigDict, Field, ValidationError

from bot.rulings.errors import RulingsError, first_line
from bot.rulings.models import ParsedDocument, Unplaced

ASKED_FILE = "asked.toml"
MAX_QUESTION_CHARS = 500


class Asked(BaseModel):
    """The questions one passage answers, as players write them."""

    model_config = ConfigDict(extra="forbid", frozen=True)

    ja: tuple[str, ...] = Field(default=(), max_length=20)
    en: tuple[str, ...] = Field(default=(), max_length=20)

    def questions(self) -> tuple[str, ...]:
        return tuple(q[:MAX_QUESTION_CHARS] for q in (*self.ja, *self.en))


def load_asked(rules_dir: Path) -> dict[str, Asked]:
    """The file's entries by passage id; none when the corpus has no such file."""
    path = rules_dir / ASKED_FILE
    if not path.is_file():
        return {}
    try:
        with path.open("rb") as fh:
            raw = tomllib.load(fh)
        return {str(pid): Asked.model_validate(entry) for pid, entry in raw.items()}
    except (tomllib.TOMLDecodeError, ValidationError, UnicodeDecodeError) as exc:
        raise RulingsError("rulings.meta_invalid", file=ASKED_FILE, detail=first_line(exc)) from exc


def attach(documents: Sequence[ParsedDocument], asked: Mapping[str, Asked]) -> list[ParsedDocument]:
    """The documents with each passage's questions; an id naming no passage is reported as a line
    `referee ruling --check` shows (a document edited since the questions were filed)."""
    known = {p.id for d in documents for p in d.passages}
    names = {d.meta.id for d in documents}
    stale = [pid for pid in asked if pid not in known]
    out = []
    for n, document in enumerate(documents):
        passages = tuple(
            p.model_copy(update={"asked": asked[p.id].questions()}) if p.id in asked else p for p in document.passages
        )
        # A stale id is reported with its document, or with the first one when no document has its name.
        mine = [
            pid
            for pid in stale
            if pid.split("/", 1)[0] == document.meta.id or (n == 0 and pid.split("/", 1)[0] not in names)
        ]
        unplaced = document.unplaced + tuple(
            Unplaced(document=document.meta.id, line=0, text=pid, reason=f"{ASKED_FILE} names no such passage")
            for pid in mine
        )
        out.append(document.model_copy(update={"passages": passages, "unplaced": unplaced}))
    return out
