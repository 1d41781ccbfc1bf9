"""The fake in its own process, driven over its control endpoint, with a bot process started through the launcher:
the set-up the end-to-end tests of the real bot and the benchmark use."""

from __future__ import annotations

import asyncio
import contextlib
import os
import sys
from collections.abc import AsyncIterator
from pathlib import Path

import pytest

from tests.fake_discord.control import ControlClient, ControlError

ROOT = Path(__file__).resolve().parents[2]


async def _spawn(*args: str, env: dict[str, str] | None = None) -> asyncio.subprocess.Process:
    return await asyncio.create_subprocess_exec(
        sys.executable, *args, cwd=ROOT, env=env, stdout=asyncio.subprocess.PIPE, stderr=None
    )


async def _stop(proc: asyncio.subprocess.Process) -> None:
    if proc.returncode is None:
        proc.terminate()
        try:
            await asyncio.wait_for(proc.wait(), 10)
        except TimeoutError:
            proc.kill()
            await proc.wait()


@pytest.fixture
async def fake_process() -> AsyncIterator[str]:
    proc = await _spawn("-m", "tests.fake_discord", "--port", "0", "--shards", "1")
    assert proc.stdout is not None
    line = (await asyncio.wait_for(proc.stdout.readline(), 20)).decode().split()
    assert line[0] == "READY"
    try:
        yield f"http://127.0.0.1:{int(line[1])}"
    finally:
        await _stop(proc)


async def test_a_bot_process_is_driven_through_the_control_endpoint(fake_process: str) -> None:
    async with ControlClient(fake_process) as fake:
        info = await fake.info()
        guild = await fake.create_guild("club")
        channel = await fake.create_channel(guild["id"], "table-1")
        alice = await fake.create_user("alice", locale="ja")
        await fake.add_member(guild["id"], alice["id"])

        env = {**os.environ, "DISCORD_TOKEN": info["token"], "PING_GUILD_ID": guild["id"]}
        bot = await _spawn("-m", "tests.fake_discord.launch", fake_process, "-m", "tests.e2e.pingbot_main", env=env)
        try:
            await fake.wait_ready(timeout=30)
            commands = await fake.wait_commands(guild["id"], timeout=30)
            assert sorted(c["name"] for c in commands) == ["long", "note", "pick", "ping", "slow", "whoami"]

            ping = await fake.invoke(alice["id"], channel["id"], "ping", wait=5)
            [answer] = ping["callbacks"]
            assert answer["type"] == 4 and answer["data"]["content"] == "pong" and not answer["ephemeral"]
            message_id = ping["original"]["id"]

            await fake.hold_resumes()
            await fake.drop_connection(0)
            click = await fake.click(alice["id"], message_id, "ping:again")
            await fake.release_resumes()
            click = await fake.interaction(click["id"], wait=10)
            assert click["callbacks"][0]["data"]["content"] == "pong again for alice"

            [table] = [m for m in await fake.messages(channel["id"]) if m["id"] == message_id]
            assert table["content"] == "pong again for alice"
            stats = await fake.stats()
            assert stats["unanswered"] == 0 and stats["rate_limited"] == 0
            assert stats["sessions"][0]["resumes"] == 1

            with pytest.raises(ControlError) as refused:
                await fake.invoke(alice["id"], channel["id"], "nosuchcommand")
            assert refused.value.status == 400
        finally:
            with contextlib.suppress(ProcessLookupError):
                await _stop(bot)
