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
    def __init__(self, bot: PingFeatures) -> None:
        super().__init__(timeout=None)
        self.bot = bot

    @discord.ui.button(label="Again", custom_id="ping:again", style=discord.ButtonStyle.primary)
    async def again(self, interaction: discord.Interaction, button: discord.ui.Button[AgainButton]) -> None:
        self.bot.clicks.append((interaction.user.id, str(dict(interaction.data or {}).get("custom_id", ""))))
        await interaction.response.edit_message(content=f"pong again for {interaction.user.name}", view=self)

    @discord.ui.button(label="Later", custom_id="ping:later", style=discord.ButtonStyle.secondary)
    async def later(self, interaction: discord.Interaction, button: discord.ui.Button[AgainButton]) -> None:
        await interaction.response.defer()
        await interaction.edit_original_response(content="edited after a deferred update", view=None)


class FruitSelect(discord.ui.View):
    def __init__(self) -> None:
        super().__init__(timeout=60)

    @discord.ui.select(
        custom_id="pick:select",
        options=[discord.SelectOption(label=f, value=f) for f in ("apple", "apricot", "banana")],
        max_values=2,
    )
    async def chosen(self, interaction: discord.Interaction, select: discord.ui.Select[FruitSelect]) -> None:
        await interaction.response.send_message("selected " + ",".join(select.values), ephemeral=True)


class NoteModal(discord.ui.Modal, title="Note"):
    text: discord.ui.TextInput[NoteModal] = discord.ui.TextInput(label="Text", custom_id="note:text")

    def __init__(self) -> None:
        super().__init__(custom_id="note:modal")

    async def on_submit(self, interaction: discord.Interaction) -> None:
        await interaction.response.send_message(f"noted: {self.text.value}", ephemeral=True)


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

        async def fruit_names(interaction: discord.Interaction, current: str) -> list[app_commands.Choice[str]]:
            return [
                app_commands.Choice(name=f, value=f) for f in ("apple", "apricot", "banana") if f.startswith(current)
            ]

        @app_commands.command(name="pick", description="Picks a fruit, then offers a select menu")
        @app_commands.autocomplete(fruit=fruit_names)
        async def pick(interaction: discord.Interaction, fruit: str) -> None:
            await interaction.response.send_message(f"picked {fruit}", view=FruitSelect())

        @app_commands.command(name="whoami", description="Says whether the caller may manage messages")
        async def whoami(interaction: discord.Interaction) -> None:
            role = "moderator" if interaction.permissions.manage_messages else "player"
            await interaction.response.send_message(f"{role} ({interaction.locale.value})", ephemeral=True)

        @app_commands.command(name="long", description="Answers with more than Discord allows")
        async def long(interaction: discord.Interaction) -> None:
            await interaction.response.send_message("x" * 2001)

        @app_commands.command(name="note", description="Opens a modal")
        async def note(interaction: discord.Interaction) -> None:
            await interaction.response.send_modal(NoteModal())

        commands_: tuple[app_commands.Command[Any, Any, Any], ...] = (ping, slow, pick, whoami, long, note)
        for command in commands_:
            self.tree.add_command(command)
        self.errors: list[BaseException] = []

        @self.tree.error
        async def record(interaction: discord.Interaction, error: app_commands.AppCommandError) -> None:
            self.errors.append(error.original if isinstance(error, app_commands.CommandInvokeError) else error)

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
