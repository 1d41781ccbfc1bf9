"""The event loop a long-running command runs on: uvloop where it is installed (a dependency on Linux and
macOS), else asyncio's own. The bot spends most of its time in the loop (the gateway, every REST reply),
and uvloop does that work with less CPU: more tables a core (bench/scale.py)."""

from __future__ import annotations

import asyncio
from collections.abc import Coroutine
from typing import Any, TypeVar

T = TypeVar("T")


def run(main: Coroutine[Any, Any, T]) -> T:
    """`asyncio.run(main)`, on uvloop when it can be imported."""
    try:
        import uvloop
    except ImportError:
        return asyncio.run(main)
    with asyncio.Runner(loop_factory=uvloop.new_event_loop) as runner:
        return runner.run(main)
