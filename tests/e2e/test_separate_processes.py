"""The fake in its own process, driven over its control endpoint, with a bot process started through the launcher:
the set-up the end-to-end tests of the real bot and the benchmark use."""

from __future__ import annotations

import pytest

from tests.fake_discord.control import ControlClient, ControlError
from tests.fake_discord.processes import fake_process, start_bot_process, stop_process


async def test_a_bot_process_is_driven_and_restarted_through_the_control_endpoint() -> None:
    async with fake_process() as url, ControlClient(url) as fake:
        info = await fake.info()
        guild = await fake.create_guild("club")
        channel = await fake.create_channel(guild["id"], "table-1")
        alice = await fake.create_user("alice", locale="ja")
        await fake.add_member(guild["id"], alice["id"])
        env = {"DISCORD_TOKEN": info["token"], "PING_GUILD_ID": guild["id"]}

        bot = await start_bot_process(url, "tests.e2e.pingbot_main", env=env)
        try:
            [first] = await fake.wait_ready(timeout=30)
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
            assert (await fake.stats())["sessions"][0]["resumes"] == 1

            # A crash and a restart: the new process identifies anew and the old message's button still works.
            await stop_process(bot, kill=True)
            bot = await start_bot_process(url, "tests.e2e.pingbot_main", env=env)
            [second] = await fake.wait_ready(timeout=30, exclude=[first["session_id"]])
            assert second["session_id"] != first["session_id"]
            again = await fake.click(alice["id"], message_id, "ping:again", wait=10)
            assert again["callbacks"][0]["type"] == 7

            [table] = [m for m in await fake.messages(channel["id"]) if m["id"] == message_id]
            assert table["content"] == "pong again for alice"
            stats = await fake.stats()
            assert stats["unanswered"] == 0 and stats["rate_limited"] == 0

            with pytest.raises(ControlError) as refused:
                await fake.invoke(alice["id"], channel["id"], "nosuchcommand")
            assert refused.value.status == 400
        finally:
            await stop_process(bot)
