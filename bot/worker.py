"""One thread that runs a service's database calls, one after the other, for the event loop to await.

A ThreadPoolExecutor with one worker does the same, but hands each call over through a work item, a
concurrent future and a chained asyncio future, each with its own lock: about twice the time of this
queue and one callback (bench/store.py runs every action through it).
"""

from __future__ import annotations

import asyncio
import contextlib
import queue
import threading
from collections.abc import Callable
from typing import Any, TypeVar

T = TypeVar("T")
_Job = tuple[asyncio.AbstractEventLoop, "asyncio.Future[Any]", Callable[..., Any], tuple[Any, ...]]


class Worker:
    def __init__(self, name: str) -> None:
        self._name = name
        self._jobs: queue.SimpleQueue[_Job | None] = queue.SimpleQueue()
        self._thread: threading.Thread | None = None
        self._closed = False
        self._lock = threading.Lock()

    async def run(self, fn: Callable[..., T], *args: Any) -> T:
        """Run `fn(*args)` on the worker thread, after every call submitted before it."""
        loop = asyncio.get_running_loop()
        done: asyncio.Future[T] = loop.create_future()
        with self._lock:
            if self._closed:
                raise RuntimeError("the worker is closed")
            if self._thread is None:  # started on first use: a service that is never used costs no thread
                self._thread = threading.Thread(target=self._serve, name=self._name, daemon=True)
                self._thread.start()
            self._jobs.put((loop, done, fn, args))
        return await done

    def close(self) -> None:
        """Finish the calls already submitted, then stop the thread."""
        with self._lock:
            if self._closed:
                return
            self._closed = True
            thread = self._thread
        if thread is not None:
            self._jobs.put(None)
            thread.join()

    def _serve(self) -> None:
        while (job := self._jobs.get()) is not None:
            loop, done, fn, args = job
            try:
                outcome: tuple[Any, BaseException | None] = (fn(*args), None)
            except BaseException as exc:  # handed to the awaiting side, which re-raises it
                outcome = (None, exc)
            # A loop closed while the call ran has nobody waiting any more.
            with contextlib.suppress(RuntimeError):
                loop.call_soon_threadsafe(_settle, done, *outcome)


def _settle(done: asyncio.Future[Any], result: Any, error: BaseException | None) -> None:
    if done.cancelled():  # the caller stopped waiting; the call itself has run (as with an executor)
        return
    if error is not None:
        done.set_exception(error)
    else:
        done.set_result(result)
