"""The service's worker thread: calls run one after the other, off the event loop, and errors come back."""

from __future__ import annotations

import asyncio
import threading

import pytest

from bot.worker import Worker


async def test_calls_run_in_order_on_one_thread_that_is_not_the_loops() -> None:
    worker = Worker("test-worker")
    seen: list[tuple[int, str]] = []

    def job(n: int) -> int:
        seen.append((n, threading.current_thread().name))
        return n * n

    results = await asyncio.gather(*(worker.run(job, n) for n in range(50)))
    worker.close()
    assert results == [n * n for n in range(50)]
    assert [n for n, _ in seen] == list(range(50))
    assert {name for _, name in seen} == {"test-worker"} != {threading.current_thread().name}


async def test_an_error_comes_back_to_the_caller_and_the_worker_goes_on() -> None:
    worker = Worker("test-worker")

    def fail() -> None:
        raise ValueError("bad move")

    with pytest.raises(ValueError, match="bad move"):
        await worker.run(fail)
    assert await worker.run(lambda: "still here") == "still here"
    worker.close()


async def test_close_finishes_what_was_submitted_and_refuses_more() -> None:
    worker = Worker("test-worker")
    release = threading.Event()
    pending = asyncio.ensure_future(worker.run(release.wait, 5))
    await asyncio.sleep(0)
    release.set()
    assert await pending is True
    worker.close()
    with pytest.raises(RuntimeError):
        await worker.run(lambda: None)


def test_a_worker_never_used_starts_no_thread_and_closes_at_once() -> None:
    before = threading.active_count()
    worker = Worker("test-worker")
    assert threading.active_count() == before
    worker.close()
