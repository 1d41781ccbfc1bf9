"""`referee run` serves on uvloop where it is installed (bot/loop.py), and still on asyncio without it."""

from __future__ import annotations

import asyncio
import builtins
import sys
from typing import Any

import pytest

from bot import loop


async def _loop_module() -> str:
    return type(asyncio.get_running_loop()).__module__


@pytest.mark.skipif(sys.platform == "win32", reason="uvloop is not installed on Windows")
def test_the_bot_runs_on_uvloop_where_it_is_installed() -> None:
    assert loop.run(_loop_module()).startswith("uvloop")


def test_without_uvloop_the_bot_runs_on_asyncio(monkeypatch: pytest.MonkeyPatch) -> None:
    real_import = builtins.__import__

    def no_uvloop(name: str, *args: Any, **kwargs: Any) -> Any:
        if name == "uvloop":
            raise ImportError(name)
        return real_import(name, *args, **kwargs)

    monkeypatch.setattr(builtins, "__import__", no_uvloop)
    assert loop.run(_loop_module()).startswith("asyncio")
