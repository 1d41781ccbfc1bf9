"""`referee sync`: register the slash commands with Discord, globally (or in one guild with --guild).

Discord limits how often commands may be registered, so the bot never does it globally on start;
an admin runs this once after installing or updating the referee. It logs in over REST only (no
gateway connection), syncs, and leaves.
"""

from __future__ import annotations

import argparse
import asyncio
from typing import Any

from bot.cli.run import built_bot, connected, discord_logs, token_of
from bot.i18n import bilingual
from bot.settings import Settings


def register(sub: Any) -> None:
    parser: argparse.ArgumentParser = sub.add_parser(
        "sync",
        help="スラッシュコマンドを Discord に登録する / register the slash commands with Discord",
        description="コマンドを全サーバーに同期します（--guild で一つのサーバーだけ） / "
        "syncs the commands globally (or to one server with --guild)",
    )
    parser.add_argument(
        "--guild", type=int, default=None, metavar="ID", help="このサーバーだけに同期 / only this guild"
    )
    parser.set_defaults(func=sync)


def sync(args: argparse.Namespace, settings: Settings) -> int:
    token = token_of(settings)
    if token is None:
        return 3
    discord_logs()
    return asyncio.run(_sync(settings, token, args.guild))


async def _sync(settings: Settings, token: str, guild: int | None) -> int:
    async with built_bot(settings, sync_dev_guild=False) as bot:
        code = await connected(settings, bot.login(token))  # login runs setup_hook: the cogs are loaded
        if code != 0:
            return code
        count = await bot.sync_commands(guild)
    if guild is None:
        print(bilingual("discord.sync.global_done", count=count))
    else:
        print(bilingual("discord.sync.guild_done", count=count, guild=guild))
    return 0
