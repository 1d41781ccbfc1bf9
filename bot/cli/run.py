"""`referee run`: start the Discord bot.

main() owns every part the bot uses: it opens the store, builds the service, loads the catalog and
the rulebook, hands them to the bot, and closes the store once the bot has closed the rest. Commands
are synced to REFEREE_DEV_GUILD_ID on start when it is set; the global sync is `referee sync`.
"""

from __future__ import annotations

import argparse
import asyncio
import contextlib
import logging
import sys
from collections.abc import AsyncIterator
from typing import TYPE_CHECKING, Any

from bot import loop
from bot.i18n import bilingual
from bot.settings import Settings

if TYPE_CHECKING:
    from bot.app import RefereeBot

log = logging.getLogger(__name__)


def register(sub: Any) -> None:
    parser: argparse.ArgumentParser = sub.add_parser("run", help="Discord に接続して審判を始める / run the Discord bot")
    parser.add_argument(
        "--shards",
        help="この処理が受け持つシャード（例 0,1）/ the shards this process runs, e.g. 0,1 (REFEREE_SHARDS)",
    )
    parser.add_argument(
        "--shard-count",
        type=int,
        help="シャードの総数 / how many shards there are in all (REFEREE_SHARD_COUNT)",
    )
    parser.set_defaults(func=run)


def with_shards(args: argparse.Namespace, settings: Settings) -> Settings:
    """The settings with the command line's shards over REFEREE_SHARDS and REFEREE_SHARD_COUNT (checked alike)."""
    options = {
        "REFEREE_SHARDS": getattr(args, "shards", None),
        "REFEREE_SHARD_COUNT": getattr(args, "shard_count", None),
    }
    given = {name: value for name, value in options.items() if value is not None}
    if not given:
        return settings
    from bot.settings import settings_with

    return settings_with(settings, given)


def token_of(settings: Settings) -> str | None:
    """The bot token, or None after telling the user how to get one."""
    token = settings.discord_token.get_secret_value().strip() if settings.discord_token is not None else ""
    if not token:
        print(bilingual("common.no_token"), file=sys.stderr)
        return None
    return token


def run(args: argparse.Namespace, settings: Settings) -> int:
    settings = with_shards(args, settings)
    token = token_of(settings)
    if token is None:
        return 3
    discord_logs()
    return loop.run(serve(settings, token))


def discord_logs() -> None:
    """discord.py's own log lines through the referee's handler, never below INFO: its DEBUG lines
    print request URLs, and an interaction's URL carries that interaction's token."""
    ours, theirs = logging.getLogger("bot"), logging.getLogger("discord")
    theirs.handlers[:] = ours.handlers
    theirs.setLevel(max(ours.level, logging.INFO))
    theirs.propagate = False


@contextlib.asynccontextmanager
async def built_bot(settings: Settings, *, sync_dev_guild: bool = True) -> AsyncIterator[RefereeBot]:
    """The bot with its store, service, catalog and rulebook; everything is closed on the way out."""
    from bot.catalog import load_catalog
    from bot.paths import data_folder
    from bot.rulings.search import Rulebook
    from bot.service.opening import open_service

    catalog = load_catalog(settings.cards_dir)
    with open_service(
        settings.database_file,
        catalog=catalog,
        synchronous=settings.synchronous,
        database_url=settings.database_url_text,  # PostgreSQL when REFEREE_DATABASE_URL is set
    ) as service:
        # Opened here, on the event loop's thread, where the cogs search it.
        rulebook = Rulebook.open(settings.cache_dir, data_folder("rules", settings.rules_dir))
        bot = make_bot(settings, service, catalog, rulebook, sync_dev_guild=sync_dev_guild)
        async with bot:  # closes the bot, then the service and the rulebook
            yield bot


def make_bot(settings: Settings, *parts: Any, sync_dev_guild: bool) -> RefereeBot:
    """One connection for everything by default; some shards of a count when the settings name them."""
    from bot.app import RefereeBot, ShardedRefereeBot

    if settings.shard_count is None:
        return RefereeBot(settings, *parts, sync_dev_guild=sync_dev_guild)
    return ShardedRefereeBot(
        settings, *parts, shard_ids=settings.shards, shard_count=settings.shard_count, sync_dev_guild=sync_dev_guild
    )


async def serve(settings: Settings, token: str) -> int:
    async with built_bot(settings) as bot:
        stop_on_signals(bot)
        return await connected(settings, bot.start(token))


def stop_on_signals(bot: RefereeBot) -> None:
    """SIGTERM (a service manager stopping the bot) and SIGINT close the bot like its own close(): the
    gateway is left, the store's worker finishes what it holds, and the process exits 0."""
    import signal

    loop = asyncio.get_running_loop()
    for sig in (signal.SIGTERM, signal.SIGINT):
        with contextlib.suppress(NotImplementedError, RuntimeError):  # no signal handlers on this platform
            loop.add_signal_handler(sig, lambda: asyncio.ensure_future(bot.close()))


async def connected(settings: Settings, work: Any) -> int:
    """Await `work` (a login, a start); Discord's usual refusals become a bilingual sentence and an exit code."""
    import aiohttp
    import discord
    from discord.ext import commands

    try:
        await work
    except discord.LoginFailure:
        print(bilingual("discord.run.login_failed"), file=sys.stderr)
        return 3
    except discord.PrivilegedIntentsRequired:
        print(bilingual("discord.run.intents"), file=sys.stderr)
        return 3
    except commands.ExtensionError as exc:
        print(bilingual("discord.run.extension_failed", name=exc.name, reason=exc.__cause__ or exc), file=sys.stderr)
        return 1
    except (aiohttp.ClientError, OSError, discord.GatewayNotFound) as exc:
        reason = type(exc).__name__  # never the request: an interaction's URL would carry its token
        print(bilingual("discord.run.unreachable", url=settings.discord_api_url, reason=reason), file=sys.stderr)
        return 5
    return 0
