"""JSON Schemas for editors, generated from the models: cards/schema.json and cards/deck.schema.json.

A TOML file opts in with a first line such as `#:schema ./schema.json` (understood by Taplo / Even Better TOML).
"""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

from pydantic import BaseModel

from bot.catalog.loader import CardFile, DeckFile

SCHEMA_FILES: dict[str, type[BaseModel]] = {"schema.json": CardFile, "deck.schema.json": DeckFile}


def schema_of(model: type[BaseModel]) -> dict[str, Any]:
    """The JSON Schema of a file model, with the field names a file uses (aliases such as "def")."""
    schema = model.model_json_schema(by_alias=True, mode="validation")
    return {"$schema": "https://json-schema.org/draft/2020-12/schema", **schema}


def schema_text(model: type[BaseModel]) -> str:
    """The schema as the committed file holds it: stable key order, UTF-8, a final newline."""
    return json.dumps(schema_of(model), ensure_ascii=False, indent=2) + "\n"


def stale_schemas(folder: Path) -> list[Path]:
    """The schema files in `folder` that are missing or differ from the models."""
    stale = []
    for name, model in SCHEMA_FILES.items():
        path = folder / name
        if not path.is_file() or path.read_text(encoding="utf-8") != schema_text(model):
            stale.append(path)
    return stale


def write_schemas(folder: Path) -> list[Path]:
    """Write every schema file into `folder`; returns the paths."""
    paths = []
    for name, model in SCHEMA_FILES.items():
        path = folder / name
        path.write_text(schema_text(model), encoding="utf-8")
        paths.append(path)
    return paths
