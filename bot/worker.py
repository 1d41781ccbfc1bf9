"""One thread that runs a service's database calls, one after the other, for the event loop to await.

A ThreadPoolExecutor with one worker does the same, but hands each call over through a work item, a
concurrent future and a chained asyncio future, each with its own lock: about twice the time of this
queue and one callback (bench/store.py runs every action through it).

Group commit: when several calls are waiting (many channels playing at once), they run inside one
transaction of the store (`group`), each in its own savepoint, and the results are handed back only
once that transaction is committed: one fsync for all of them instead of one each, and nobody hears of
a move before it is on the disk. If the shared commit fails, every call of the group gets the error
(none of them happened) and `on_group_failure` drops what the service holds in memory.
"""

from __future__ import annotations

import asyncio
import contextlib
import queue
import threading
from collections.abc import Callable
from contextlib import AbstractContextManager
from typing import Any, TypeVar

T = TypeVar("T")
_Job = tuple[asyncio.AbstractEventLoop, "asyncio.Future[Any]", Callable[..., Any], tuple[Any, ...]]
_Outcome = tuple[Any, BaseException | None]
# A transaction around several calls; it yields a check that the transaction is still open.
Group = Callable[[], AbstractContextManager[Callable[[], bool]]]

MAX_GROUP = 32  # a bound on how long the first caller of a group waits for the others


class Worker:
    """`on_start` and `on_stop` run on the worker thread itself, first and last (the service uses them
    to take its store's connection for this thread alone, and to give it back)."""

    def __init__(
        self,
        name: str,
        *,
        group: Group | None = None,
        on_group_failure: Callable[[], None] = lambda: None,
        on_start: Callable[[], None] = lambda: None,
        on_stop: Callable[[], None] = lambda: None,
    ):
        self._name = name
        self._group = group
        self._on_group_failure = on_group_failure
        self._on_start = on_start
        self._on_stop = on_stop
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
        try:
            self._on_start()
        except BaseException as exc:  # every call then hears why nothing can run
            self._refuse_all(exc)
            return
        try:
            self._serve_jobs()
        finally:
            self._on_stop()

    def _refuse_all(self, exc: BaseException) -> None:
        while (job := self._jobs.get()) is not None:
            with contextlib.suppress(RuntimeError):
                job[0].call_soon_threadsafe(_settle, job[1], None, exc)

    def _serve_jobs(self) -> None:
        stop = False
        while not stop:
            job = self._jobs.get()
            if job is None:
                return
            jobs = [job]
            while self._group is not None and len(jobs) < MAX_GROUP:
                try:
                    waiting = self._jobs.get_nowait()
                except queue.Empty:
                    break
                if waiting is None:  # closing: run what came before, then stop
                    stop = True
                    break
                jobs.append(waiting)
            outcomes = [_call(jobs[0])] if len(jobs) == 1 else self._run_group(jobs)
            for (loop, done, _, _), outcome in zip(jobs, outcomes, strict=True):
                # A loop closed while the call ran has nobody waiting any more.
                with contextlib.suppress(RuntimeError):
                    loop.call_soon_threadsafe(_settle, done, *outcome)

    def _run_group(self, jobs: list[_Job]) -> list[_Outcome]:
        assert self._group is not None
        outcomes: list[_Outcome] = []
        try:
            with self._group() as still_open:
                for job in jobs:
                    outcomes.append(_call(job))
                    if not still_open():  # an error undid the whole transaction: the group did not happen
                        raise outcomes[-1][1] or RuntimeError("the transaction was lost")
        except BaseException as exc:
            self._on_group_failure()
            return [(None, exc)] * len(jobs)
        return outcomes


def _call(job: _Job) -> _Outcome:
    _, _, fn, args = job
    try:
        return fn(*args), None
    except BaseException as exc:  # handed to the awaiting side, which re-raises it
        return None, exc


def _settle(done: asyncio.Future[Any], result: Any, error: BaseException | None) -> None:
    if done.cancelled():  # the caller stopped waiting; the call itself has run (as with an executor)
        return
    if error is not None:
        done.set_exception(error)
    else:
        done.set_result(result)
