"""The throwaway bot the e2e tests connect to the fake: /ping answers "pong" with a button."""

from __future__ import annotations

import discord
from discord import app_commands
from discord.ext import commands


class AgainButton(discord.ui.View):
    def __init__(self, bot: PingBot) -> None:
        super().__init__(timeout=None)
        self.bot = bot

    @discord.ui.button(label="Again", custom_id="ping:again", style=discord.ButtonStyle.primary)
    async def again(self, interaction: discord.Interaction, button: discord.ui.Button[AgainButton]) -> None:
        self.bot.clicks.append((interaction.user.id, (interaction.data or {}).get("custom_id", "")))
        await interaction.response.edit_message(content=f"pong again for {interaction.user.name}", view=self)


class PingBot(commands.Bot):
    def __init__(self, *, sync_guild_id: int | None = None, shard_count: int | None = None, shard_id: int | None = None) -> None:
        super().__init__(
            command_prefix=commands.when_mentioned,
            intents=discord.Intents.default(),
            shard_count=shard_count,
            shard_id=shard_id,
        )
        self.sync_guild_id = sync_guild_id
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

        self.tree.add_command(ping)

    async def setup_hook(self) -> None:
        self.add_view(AgainButton(self))
        if self.sync_guild_id is not None:
            guild = discord.Object(self.sync_guild_id)
            self.tree.copy_global_to(guild=guild)
            self.synced = await self.tree.sync(guild=guild)
