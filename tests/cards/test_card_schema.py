"""The JSON Schemas in cards/ are generated from the models and describe the shipped files."""

from __future__ import annotations

import json
import shutil
from pathlib import Path

from bot.catalog.schema import SCHEMA_FILES, schema_text, stale_schemas, write_schemas


def test_the_committed_schemas_equal_the_generated_ones(cards_dir: Path) -> None:
    for name, model in SCHEMA_FILES.items():
        committed = (cards_dir / name).read_text(encoding="utf-8")
        assert committed == schema_text(model), f"{name} is stale: run `referee cards schema`"


def test_the_schema_uses_the_file_field_names(cards_dir: Path) -> None:
    schema = json.loads((cards_dir / "schema.json").read_text(encoding="utf-8"))
    arcastella = schema["$defs"]["Arcastella"]
    assert "def" in arcastella["properties"] and "defense" not in arcastella["properties"]
    assert arcastella["additionalProperties"] is False
    assert set(schema["$defs"]) >= {"Spell", "SephirotCode", "Follower", "AuraCompolta", "DamageEffect", "Skill"}
    deck = json.loads((cards_dir / "deck.schema.json").read_text(encoding="utf-8"))
    assert deck["properties"]["arcastella"]["minItems"] == 3


def test_every_shipped_file_points_at_its_schema(cards_dir: Path) -> None:
    for path in cards_dir.rglob("*.toml"):
        first = path.read_text(encoding="utf-8").splitlines()[0]
        target = (path.parent / first.removeprefix("#:schema ").strip()).resolve()
        assert first.startswith("#:schema ") and target.is_file(), path


def test_stale_schemas_are_detected_and_rewritten(cards_dir: Path, tmp_path: Path) -> None:
    for name in SCHEMA_FILES:
        shutil.copy(cards_dir / name, tmp_path / name)
    assert stale_schemas(tmp_path) == []
    (tmp_path / "schema.json").write_text("{}", encoding="utf-8")
    assert stale_schemas(tmp_path) == [tmp_path / "schema.json"]
    write_schemas(tmp_path)
    assert stale_schemas(tmp_path) == []
