"""Running the service's async calls from a synchronous command."""

from __future__ import annotations

import asyncio
from collections.abc import Coroutine
from concurrent.futures import ThreadPoolExecutor
from typing import Any, TypeVar

T = TypeVar("T")


def run_async(work: Coroutine[Any, Any, T]) -> T:
    """Run a service call from a command. A command is synchronous; when it is itself called from code
    that already runs an event loop (a test, a notebook), the call gets a loop of its own on a helper
    thread instead of failing."""
    try:
        asyncio.get_running_loop()
    except RuntimeError:
        return asyncio.run(work)
    with ThreadPoolExecutor(1) as pool:
        return pool.submit(asyncio.run, work).result()
