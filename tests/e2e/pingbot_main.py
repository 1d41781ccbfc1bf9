"""`python -m tests.e2e.pingbot_main`: PingBot as a process (token from DISCORD_TOKEN, synced to PING_GUILD_ID)."""

from __future__ import annotations

import logging
import os

from .pingbot import PingBot

if __name__ == "__main__":
    logging.basicConfig(level=logging.INFO)
    guild = os.environ.get("PING_GUILD_ID")
    PingBot(sync_guild_id=int(guild) if guild else None).run(os.environ["DISCORD_TOKEN"], log_handler=None)
