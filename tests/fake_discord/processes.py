"""Starting the fake and a bot as child processes, for tests and the benchmark that run the real bot process.

async with fake_process(shards=2) as url, ControlClient(url) as fake:
    bot = await start_bot_process(url, "bot", ["run"], env={"DISCORD_TOKEN": (await fake.info())["token"]})
    ...
    await stop_process(bot)
"""

from __future__ import annotations

import asyncio
import contextlib
import os
import sys
from collections.abc import AsyncIterator, Sequence
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]


@contextlib.asynccontextmanager
async def fake_process(
    *, shards: int = 1, extra_args: Sequence[str] = (), startup_timeout: float = 20.0
) -> AsyncIterator[str]:
    """Runs `python -m tests.fake_discord` and yields its root URL once it printed READY."""
    proc = await asyncio.create_subprocess_exec(
        sys.executable,
        "-m",
        "tests.fake_discord",
        "--port",
        "0",
        "--shards",
        str(shards),
        *extra_args,
        cwd=ROOT,
        stdout=asyncio.subprocess.PIPE,
    )
    try:
        assert proc.stdout is not None
        words = (await asyncio.wait_for(proc.stdout.readline(), startup_timeout)).decode().split()
        if len(words) != 2 or words[0] != "READY":
            raise RuntimeError(f"the fake did not start: {words}")
        yield f"http://127.0.0.1:{int(words[1])}"
    finally:
        await stop_process(proc)


async def start_bot_process(
    url: str, module: str, args: Sequence[str] = (), *, env: dict[str, str] | None = None
) -> asyncio.subprocess.Process:
    """Runs `python -m <module> <args>` pointed at the fake through the launcher; stderr goes to ours."""
    return await asyncio.create_subprocess_exec(
        sys.executable,
        "-m",
        "tests.fake_discord.launch",
        url,
        "-m",
        module,
        *args,
        cwd=ROOT,
        env={**os.environ, **(env or {})},
    )


async def stop_process(proc: asyncio.subprocess.Process, *, kill: bool = False, timeout: float = 10.0) -> int:
    """SIGTERM (or SIGKILL with kill=True, a crash), then wait; returns the exit code."""
    if proc.returncode is None:
        with contextlib.suppress(ProcessLookupError):
            proc.kill() if kill else proc.terminate()
        try:
            await asyncio.wait_for(proc.wait(), timeout)
        except TimeoutError:
            with contextlib.suppress(ProcessLookupError):
                proc.kill()
            await proc.wait()
    return proc.returncode if proc.returncode is not None else -1
