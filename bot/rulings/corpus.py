"""The corpus folder: every `<stem>.txt` with its `<stem>.toml` metadata, plus `lexicon.toml` and
`asked.toml`, `written.toml` and `tuning.toml` (the questions players ask that each passage answers)
and `chatter.toml` (examples of rules questions and of chatter).

A new document needs no code: drop the text and a metadata file into rules/ and the index
rebuilds itself, because the index is keyed by a hash of every file here.
"""

from __future__ import annotations

import hashlib
import tomllib
from collections import Counter
from pathlib import Path
from typing import TypeVar

from pydantic import BaseModel, ValidationError

from bot.rulings.errors import RulingsError
from bot.rulings.glossary import Lexicon, load_lexicon
from bot.rulings.house import parse_house_rules
from bot.rulings.models import Asked, AskedFile, ChatterExample, ChatterFile, DocumentMeta, ParsedDocument
from bot.rulings.parse import parse_document

LEXICON_FILE = "lexicon.toml"
ASKED_FILE = "asked.toml"
CHATTER_FILE = "chatter.toml"
WRITTEN_FILE = "written.toml"
TUNING_FILE = "tuning.toml"  # the blind set's tuning questions (tests/rulings/tuning_file.py writes it)
_Model = TypeVar("_Model", bound=BaseModel)
DATA_FILES = (LEXICON_FILE, ASKED_FILE, CHATTER_FILE, WRITTEN_FILE, TUNING_FILE)


def document_files(rules_dir: Path) -> list[tuple[Path, Path]]:
    """(text, metadata) pairs, sorted by file name. A text without metadata is an error, not skipped.

    A metadata file without a text beside it names its document with `path` (docs/house-rules.md
    lives with the docs); such a document is left out where that file is not shipped (an installed
    copy without docs/)."""
    pairs: list[tuple[Path, Path]] = []
    for text in sorted(rules_dir.glob("*.txt")):
        meta = text.with_suffix(".toml")
        if not meta.is_file():
            raise RulingsError("rulings.meta_missing", file=text.name, meta=meta.name)
        pairs.append((text, meta))
    for meta in sorted(rules_dir.glob("*.toml")):
        if meta.name in DATA_FILES or meta.with_suffix(".txt").is_file():
            continue
        elsewhere = load_meta(meta).path
        if elsewhere and (rules_dir / elsewhere).is_file():
            pairs.append((rules_dir / elsewhere, meta))
    return pairs


def corpus_digest(rules_dir: Path, code_version: str) -> str:
    """A hash of every corpus file and the code version: the index is rebuilt when it changes."""
    digest = hashlib.sha256(code_version.encode())
    files = [p for pair in document_files(rules_dir) for p in pair] + [rules_dir / name for name in DATA_FILES]
    for path in files:
        if path.is_file():
            digest.update(path.name.encode() + b"\0" + path.read_bytes() + b"\0")
    return digest.hexdigest()


def load_meta(path: Path) -> DocumentMeta:
    try:
        with path.open("rb") as fh:
            return DocumentMeta.model_validate(tomllib.load(fh))
    except (tomllib.TOMLDecodeError, ValidationError) as exc:
        raise RulingsError("rulings.meta_invalid", file=path.name, detail=_first_line(exc)) from exc


def _first_line(exc: Exception) -> str:
    """What the admin sees of a TOML or validation error: where and what, on one line."""
    if isinstance(exc, ValidationError) and exc.errors():
        error = exc.errors()[0]  # pydantic's own first line only counts the errors
        return f"{'.'.join(map(str, error['loc'])) or '-'}: {error['msg']}"
    lines = str(exc).splitlines()
    return lines[0] if lines else type(exc).__name__


def _read_data(path: Path, model: type[_Model]) -> _Model:
    """A data file of rules/ read as its model; anything else is a RulingsError naming the file."""
    try:
        with path.open("rb") as fh:
            return model.model_validate(tomllib.load(fh))
    except UnicodeDecodeError as exc:
        raise RulingsError("rulings.not_utf8", file=path.name) from exc
    except (tomllib.TOMLDecodeError, ValidationError) as exc:
        raise RulingsError("rulings.meta_invalid", file=path.name, detail=_first_line(exc)) from exc


def load_asked(rules_dir: Path, documents: list[ParsedDocument], name: str = ASKED_FILE) -> dict[str, Asked]:
    """The questions players ask that each passage answers (`asked.toml`, `written.toml`, `tuning.toml`), by
    passage id: they bridge the gap between how the rules say a thing and how a player asks it. A
    passage id that its document does not have is an error, not skipped."""
    path = rules_dir / name
    if not path.is_file():
        return {}
    asked = _read_data(path, AskedFile).root
    known = {p.id for d in documents for p in d.passages}
    shipped = {d.meta.id for d in documents}
    for pid in asked:
        if pid not in known and pid.split("/")[0] in shipped:
            raise RulingsError("rulings.meta_invalid", file=name, detail=f"{pid}: no such passage")
    # A document that is not shipped (the house rules of an installed copy without docs/) has none.
    return {pid: questions for pid, questions in asked.items() if pid in known}


def load_chatter(rules_dir: Path) -> list[ChatterExample]:
    """Examples of rules questions and of chatter (`chatter.toml`), which teach the search to tell a
    message that asks the rules from one that only talks about the games. None at all without the file."""
    path = rules_dir / CHATTER_FILE
    if not path.is_file():
        return []
    messages = _read_data(path, ChatterFile).message
    repeated = sorted(i for i, n in Counter(m.id for m in messages).items() if n > 1)
    if repeated:
        raise RulingsError("rulings.meta_invalid", file=CHATTER_FILE, detail=f"{repeated[0]}: id given twice")
    return messages


def load_corpus(rules_dir: Path) -> tuple[list[ParsedDocument], Lexicon]:
    documents: list[ParsedDocument] = []
    seen: dict[str, str] = {}
    for text_path, meta_path in document_files(rules_dir):
        meta = load_meta(meta_path)
        if meta.id in seen:
            raise RulingsError("rulings.duplicate_id", id=meta.id, first=seen[meta.id], second=meta_path.name)
        seen[meta.id] = meta_path.name
        try:
            text = text_path.read_text(encoding="utf-8")
        except UnicodeDecodeError as exc:
            raise RulingsError("rulings.not_utf8", file=text_path.name) from exc
        reader = parse_house_rules if meta.format == "house-rules" else parse_document
        documents.append(reader(meta, text))
    try:
        lexicon = load_lexicon(rules_dir / LEXICON_FILE)
    except (tomllib.TOMLDecodeError, ValidationError) as exc:
        raise RulingsError("rulings.meta_invalid", file=LEXICON_FILE, detail=_first_line(exc)) from exc
    return documents, lexicon
