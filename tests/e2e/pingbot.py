"""The throwaway bot the e2e tests connect to the fake: /ping answers "pong" with a button."""

from __future__ import annotations

import asyncio
import logging
from typing import Any

import discord
from discord import app_commands
from discord.ext import commands

log = logging.getLogger(__name__)


class AgainButton(discord.ui.View):
    def __init__(self, bot: PingBot) -> None:
        super().__init__(timeout=None)
        self.bot = bot

    @discord.ui.button(label="Again", custom_id="ping:again", style=discord.ButtonStyle.primary)
    async def again(self, interaction: discord.Interaction, button: discord.ui.Button[AgainButton]) -> None:
        self.bot.clicks.append((interaction.user.id, (interaction.data or {}).get("custom_id", "")))
        await interaction.response.edit_message(content=f"pong again for {interaction.user.name}", view=self)


class PingFeatures(commands.Bot):
    def __init__(
        self,
        *,
        sync_guild_id: int | None = None,
        shard_count: int | None = None,
        shard_id: int | None = None,
        guard_parsers: bool = False,
    ) -> None:
        super().__init__(
            command_prefix=commands.when_mentioned,
            intents=discord.Intents.default(),
            shard_count=shard_count,
            shard_id=shard_id,
        )
        self.sync_guild_id = sync_guild_id
        self.guard_parsers = guard_parsers
        self.broken_payloads = 0
        self.run_task: asyncio.Task[None] | None = None  # set by the fixture that starts the bot
        self.clicks: list[tuple[int, str]] = []
        self.invocations: list[str] = []
        self.synced: list[app_commands.AppCommand] = []

        @app_commands.command(name="ping", description="Answers pong")
        @app_commands.describe(secret="Only you see the answer")
        async def ping(interaction: discord.Interaction, secret: bool = False) -> None:
            self.invocations.append(str(interaction.id))
            await interaction.response.send_message(
                "pong", ephemeral=secret, view=AgainButton(self), allowed_mentions=discord.AllowedMentions.none()
            )

        @app_commands.command(name="slow", description="Defers, then edits its answer and follows up")
        async def slow(interaction: discord.Interaction) -> None:
            await interaction.response.defer(ephemeral=True, thinking=True)
            await interaction.edit_original_response(content="done")
            await interaction.followup.send("extra", ephemeral=True)

        self.tree.add_command(ping)
        self.tree.add_command(slow)

    async def setup_hook(self) -> None:
        self.add_view(AgainButton(self))
        if self.guard_parsers:
            self._guard_interaction_parser()
        if self.sync_guild_id is not None:
            guild = discord.Object(self.sync_guild_id)
            self.tree.copy_global_to(guild=guild)
            self.synced = await self.tree.sync(guild=guild)

    def _guard_interaction_parser(self) -> None:
        """discord.py lets an exception from a gateway event parser end the connection loop (Client.start raises).
        The gateway socket reads the same dict, so wrapping the entry keeps the bot alive on a broken payload."""
        parsers = self._connection.parsers
        original = parsers["INTERACTION_CREATE"]

        def guarded(data: Any) -> None:
            try:
                original(data)
            except Exception:
                self.broken_payloads += 1
                log.exception("dropped a broken INTERACTION_CREATE payload")

        parsers["INTERACTION_CREATE"] = guarded


class PingBot(PingFeatures):
    """One connection (or one shard of several, with shard_id and shard_count)."""


class ShardedPingBot(PingFeatures, commands.AutoShardedBot):
    """All shards in one client; the shard count comes from GET /gateway/bot unless given."""
