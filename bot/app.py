"""The Discord bot: a `commands.Bot` that is handed everything it uses.

`referee run` builds the settings, the store, the service, the catalog and the rulebook, and gives
them to `RefereeBot`; the bot closes the service and the rulebook when it closes (the store is closed
by whoever opened it, after the bot). Nothing here is built at import time, so tests build a bot of
their own around a temporary database.

`setup_hook` loads the cogs of `COGS` one by one, in that order; a cog that fails to load stops the
start (a referee without its /roll is not a referee to run). Each cog module's `setup(bot)` adds its
cog and registers its persistent components (`bot.add_dynamic_items(...)`, `bot.add_view(...)`), so
buttons sent before a restart keep working after it. Commands are synced only to the development
guild, and only when one is configured; the global sync is `referee sync`.
"""

from __future__ import annotations

import logging
from collections.abc import Callable, Sequence
from typing import Any

import discord
import yarl
from discord.ext import commands

from bot.catalog import Catalog
from bot.errors import RefereeError
from bot.fixed_locales import FixedLocales
from bot.i18n import normalize_locale
from bot.rulings.search import Rulebook
from bot.service import TableService
from bot.settings import Settings
from bot.translator import CatalogTranslator
from bot.tree import RefereeTree

log = logging.getLogger(__name__)

# The cogs, in load order.
COGS: tuple[str, ...] = (
    "cogs.dice",
    "cogs.ruling",
    "cogs.cards",
    "cogs.help",
    "cogs.game",
    "cogs.play",
    "cogs.decks",
    "cogs.judge",
    "cogs.clock",
    "cogs.settings",
)
API_PATH = "/api/v10"


def intents() -> discord.Intents:
    """Servers and their channels only. Every command is an interaction, which Discord sends whatever the
    intents, so the bot asks for no messages, typing, reactions, members or presences: a busy server's chat
    never reaches it (each such event would cost a parse and a cache entry for nothing), and nothing is
    privileged."""
    return discord.Intents(guilds=True)


def point_at(api_url: str) -> None:
    """Send every REST call to `api_url`; `RefereeBot.connect` then asks it where its gateway is."""
    discord.http.Route.BASE = api_url.rstrip("/") + API_PATH


def point_gateway_at(url: str) -> None:
    """Open gateway sockets at `url` (what GET /gateway/bot named). discord.py connects a single client to
    DEFAULT_GATEWAY without asking, and goes back to it after an invalid session."""
    discord.gateway.DiscordWebSocket.DEFAULT_GATEWAY = yarl.URL(url)


def guarded_parser(parse: Callable[[Any], None]) -> Callable[[Any], None]:
    """`parse` that logs and drops a payload it cannot read. discord.py lets a parser's exception end the
    gateway loop (`Client.start` raises), so one broken INTERACTION_CREATE would stop the referee."""

    def guarded(data: Any) -> None:
        try:
            parse(data)
        except Exception as exc:
            # The type and the keys only: the payload carries the interaction's token.
            keys = sorted(data) if isinstance(data, dict) else type(data).__name__
            log.error("dropped an INTERACTION_CREATE that could not be read (%s; keys %s)", type(exc).__name__, keys)

    return guarded


class RefereeBot(commands.Bot):
    """The referee on Discord. `service`, `catalog` and `rulebook` are what the cogs call.

    The rulebook is searched on the event loop's thread (a search takes about 2 ms; a `Rulebook`
    holds one SQLite connection and is not thread-safe).
    """

    tree: RefereeTree  # the subclass passed as tree_cls below

    def __init__(
        self,
        settings: Settings,
        service: TableService,
        catalog: Catalog,
        rulebook: Rulebook,
        *,
        cogs: Sequence[str] = COGS,
        sync_dev_guild: bool = True,
    ) -> None:
        # The referee never joins a voice channel: no warning about the voice libraries it lacks.
        discord.VoiceClient.warn_nacl = discord.VoiceClient.warn_dave = False
        super().__init__(
            **self._shard_options(),
            command_prefix=commands.when_mentioned,  # no prefix commands: every command is a slash command
            intents=intents(),
            tree_cls=RefereeTree,
            help_command=None,
            allowed_mentions=discord.AllowedMentions.none(),
        )
        self.settings = settings
        self.service = service
        self.catalog = catalog
        self.rulebook = rulebook
        self.cog_names = tuple(cogs)
        self.sync_dev_guild = sync_dev_guild
        self.fixed_locales = FixedLocales()
        point_at(settings.discord_api_url)
        parsers = self._connection.parsers
        parsers["INTERACTION_CREATE"] = guarded_parser(parsers["INTERACTION_CREATE"])

    def _shard_options(self) -> dict[str, Any]:
        """Keyword arguments of the sharded client (none for the one connection of the default)."""
        return {}

    async def connect(self, *, reconnect: bool = True) -> None:
        # The gateway is wherever the REST API says it is (Discord's own, or a fake one in the tests).
        _shards, url, _limits = await self.http.get_bot_gateway()
        point_gateway_at(url)
        await super().connect(reconnect=reconnect)

    async def setup_hook(self) -> None:
        await self.tree.set_translator(CatalogTranslator())
        for name in self.cog_names:
            try:
                await self.load_extension(name)
            except commands.ExtensionError:
                log.exception("the cog %s failed to load; the bot does not start without it", name)
                raise
        if self.sync_dev_guild and self.settings.dev_guild_id is not None:
            synced = await self.sync_commands(self.settings.dev_guild_id)
            log.info("synced %d commands to the development guild %s", synced, self.settings.dev_guild_id)

    async def sync_commands(self, guild_id: int | None = None) -> int:
        """Register the commands with Discord: in one guild (at once), or globally when `guild_id` is None."""
        if guild_id is None:
            return len(await self.tree.sync())
        guild = discord.Object(id=guild_id)
        self.tree.copy_global_to(guild=guild)
        return len(await self.tree.sync(guild=guild))

    def first_delivery(self, interaction: discord.Interaction) -> bool:
        """False for an interaction already handled (a gateway replay): it must act only once."""
        return self.tree.seen.first_time(interaction.id)

    def locale_for(self, interaction: discord.Interaction) -> str:
        """The catalog locale to answer `interaction` in: the one its channel or guild fixed (`/settings
        locale`, read by `load_locale`), else the user's Discord language (ja, else en)."""
        fixed = self.fixed_locales.get(interaction.channel_id)
        if fixed is not None:
            return fixed
        return normalize_locale(interaction.locale.value if interaction.locale else self.settings.default_locale)

    async def load_locale(self, interaction: discord.Interaction) -> str:
        """`locale_for`, after reading the fixed locale of the interaction's channel if it is not known
        yet (once per channel; the tree calls this before every command). A database that cannot be
        read leaves the user's own language: a reply in the wrong language beats no reply."""
        channel_id = interaction.channel_id
        if channel_id is not None and not self.fixed_locales.knows(channel_id):
            try:
                fixed, _ = await self.service.table_settings(channel_id, interaction.guild_id)
            except RefereeError as exc:
                log.warning("could not read the channel's locale: %s", exc.message_key, extra={"channel": channel_id})
            else:
                self.fixed_locales.put(channel_id, fixed)
        return self.locale_for(interaction)

    def shard_label(self, guild_id: int | None) -> str | None:
        """ "shard 1/4" for a guild when this process runs some shards of several, else None (one connection)."""
        count = self.shard_count
        if count is None or guild_id is None:
            return None
        return f"{shard_of(guild_id, count)}/{count}"

    async def close(self) -> None:
        try:
            await super().close()
        finally:
            self.service.close()
            self.rulebook.close()


def shard_of(guild_id: int, shard_count: int) -> int:
    """The shard Discord sends a guild's events to."""
    return (guild_id >> 22) % shard_count


class ShardedRefereeBot(RefereeBot, commands.AutoShardedBot):
    """The referee for some of the gateway's shards (`referee run --shards 0,1 --shard-count 4`).

    Discord routes each guild to one shard, `(guild_id >> 22) % shard_count`, so processes that run
    disjoint shards of one count never see the same guild (the store's per-channel lock covers the
    moments of a reshard or a rolling restart when two might). Without `shard_ids` the process runs every
    shard of `shard_count`, and without a count it takes the one Discord recommends on GET /gateway/bot.
    """

    def __init__(
        self,
        settings: Settings,
        service: TableService,
        catalog: Catalog,
        rulebook: Rulebook,
        *,
        shard_ids: Sequence[int] | None = None,
        shard_count: int | None = None,
        cogs: Sequence[str] = COGS,
        sync_dev_guild: bool = True,
    ) -> None:
        self._wanted_shards = (None if shard_ids is None else list(shard_ids), shard_count)
        super().__init__(settings, service, catalog, rulebook, cogs=cogs, sync_dev_guild=sync_dev_guild)

    def _shard_options(self) -> dict[str, Any]:
        shard_ids, shard_count = self._wanted_shards
        return {"shard_ids": shard_ids, "shard_count": shard_count}

    async def connect(self, *, reconnect: bool = True) -> None:
        # Discord's recommended count when none was given; the gateway's address in every case.
        recommended, url, _limits = await self.http.get_bot_gateway()
        point_gateway_at(url)
        if self.shard_count is None:
            self.shard_count = recommended
        log.info("connecting shards %s of %d", self.shard_ids or "all", self.shard_count)
        await commands.AutoShardedBot.connect(self, reconnect=reconnect)

    async def on_shard_ready(self, shard_id: int) -> None:
        servers = sum(1 for g in self.guilds if g.shard_id == shard_id)
        count = self.shard_count or 0
        log.info("shard %d of %d ready (%d servers)", shard_id, count, servers, extra={"shard": f"{shard_id}/{count}"})
