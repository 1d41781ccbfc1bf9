"""Front ends reach the store only through the service: no module of bot/ or cogs/ outside bot/store/ and
bot/service/ imports bot.store (docs/interfaces.md). The engine, dice, rulings and cards never import discord."""

from __future__ import annotations

import ast
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent


def _imports(path: Path) -> set[str]:
    found: set[str] = set()
    for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
        if isinstance(node, ast.Import):
            found.update(alias.name for alias in node.names)
        elif isinstance(node, ast.ImportFrom) and node.module:
            found.add(node.module)
    return found


def _modules(*folders: str) -> list[Path]:
    return [p for folder in folders for p in (ROOT / folder).rglob("*.py")]


def test_only_the_store_and_the_service_import_the_store() -> None:
    allowed = (ROOT / "bot" / "store", ROOT / "bot" / "service")
    offenders = [
        str(path.relative_to(ROOT))
        for path in _modules("bot", "cogs")
        if not path.is_relative_to(allowed[0]) and not path.is_relative_to(allowed[1])
        and any(name == "bot.store" or name.startswith("bot.store.") for name in _imports(path))
    ]  # fmt: skip
    assert offenders == []


def test_the_referee_core_never_imports_discord() -> None:
    core = _modules("bot/engine", "bot/dice", "bot/rulings", "bot/catalog", "bot/table", "bot/render")
    offenders = [str(p.relative_to(ROOT)) for p in core if any(n.split(".")[0] == "discord" for n in _imports(p))]
    assert offenders == []
