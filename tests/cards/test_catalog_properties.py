"""Properties: any bytes or text as a card file or a deck file, put beside the shipped cards, gives a
catalog or the catalog's own error (CatalogError listing the problems), never anything else."""

from __future__ import annotations

import json
import shutil
from pathlib import Path
from typing import Any

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from bot.catalog import CatalogError, load_catalog
from bot.catalog.loader import Loader
from bot.paths import data_folder

CARD_KEYS = ["id", "name", "name_en", "type", "cost", "hp", "def", "skills", "effects", "kind", "amount", "dice",
             "target", "timing", "text", "ether_effect", "count", "duration", "resonance_max", "keywords"]  # fmt: skip
DECK_KEYS = ["id", "name", "name_en", "leader", "arcastella", "equipment", "cards", "code", "count", "notice"]
SLUGS = ["spark-arrow", "ignis-hart", "mizuha", "tera-mina", "garde-volk", "keter-circlet", "x", "Bad Id", ""]

scalars = (
    st.sampled_from(SLUGS)
    | st.text(max_size=12)
    | st.integers(min_value=-(10**20), max_value=10**20)
    | st.booleans()
    | st.floats(allow_nan=True)
)


def values(keys: list[str]) -> st.SearchStrategy[Any]:
    return st.recursive(
        scalars,
        lambda inner: st.lists(inner, max_size=4) | st.dictionaries(st.sampled_from(keys), inner, max_size=5),
        max_leaves=12,
    )


def toml_value(value: Any) -> str:
    """A small TOML writer: inline tables and arrays; strings as JSON strings (TOML accepts those escapes
    except a few, which then make a TOML problem: also a case worth feeding the loader)."""
    if isinstance(value, bool):
        return "true" if value else "false"
    if isinstance(value, int | float):
        return repr(value) if value == value else "nan"
    if isinstance(value, str):
        return json.dumps(value, ensure_ascii=False)
    if isinstance(value, list):
        return "[" + ", ".join(toml_value(v) for v in value) + "]"
    return "{" + ", ".join(f"{json.dumps(k)} = {toml_value(v)}" for k, v in value.items()) + "}"


@st.composite
def card_files(draw: st.DrawFn) -> bytes:
    choice = draw(st.integers(0, 2))
    if choice == 0:
        return draw(st.binary(max_size=300))
    if choice == 1:
        return draw(st.text(alphabet="[]{}=\",.\n abc123#'-_:\u200b", max_size=200)).encode()
    cards = draw(st.lists(st.dictionaries(st.sampled_from(CARD_KEYS), values(CARD_KEYS), max_size=8), max_size=3))
    head = draw(st.sampled_from(["", 'notice = "x"\n', "bogus = 1\n"]))
    return (head + "".join(f"[[cards]]\n{_table(c)}" for c in cards)).encode()


@st.composite
def deck_files(draw: st.DrawFn) -> bytes:
    if draw(st.booleans()):
        return draw(st.binary(max_size=300))
    deck = draw(st.dictionaries(st.sampled_from(DECK_KEYS), values(DECK_KEYS), max_size=9))
    return _table(deck).encode()


def _table(table: dict[str, Any]) -> str:
    return "".join(f"{json.dumps(k)} = {toml_value(v)}\n" for k, v in table.items())


@pytest.fixture(scope="module")
def folder(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """One copy of the shipped cards per module: each example overwrites its one generated file."""
    target = tmp_path_factory.mktemp("props") / "cards"
    shutil.copytree(data_folder("cards"), target, ignore=shutil.ignore_patterns("*.json", "*.md"))
    return target


def _load(folder: Path) -> None:
    """A catalog, or CatalogError listing its problems; any other exception fails the test."""
    try:
        catalog = load_catalog(folder)
    except CatalogError as exc:
        assert exc.problems and exc.bilingual()
        return
    assert catalog.cards and catalog.decks


@settings(max_examples=100, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture])
@given(data=card_files())
def test_any_card_file_gives_a_catalog_or_the_catalogs_own_error(folder: Path, data: bytes) -> None:
    path = folder / "generated.toml"
    path.write_bytes(data)
    try:
        _load(folder)
        loader = Loader(folder)  # the single-file check of `referee cards check FILE`
        loader.add_card_file(path)
        assert all(p.bilingual() for p in loader.check())
    finally:
        path.unlink()


@settings(max_examples=100, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture])
@given(data=deck_files())
def test_any_deck_file_gives_a_catalog_or_the_catalogs_own_error(folder: Path, data: bytes) -> None:
    path = folder / "decks" / "generated.toml"
    path.write_bytes(data)
    try:
        _load(folder)
    finally:
        path.unlink()
