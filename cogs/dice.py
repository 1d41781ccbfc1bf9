"""/roll dice:[label][secret]: a roll the whole channel sees, with every die, filed with the channel.

A secret roll shows its result to the roller alone and tells the channel only that a roll was
made (neither the expression nor the label, which could say what it was for). Bad input is a
DiceError: the tree answers it ephemerally, and nothing is rolled or filed.
"""

from __future__ import annotations

import discord
from discord import app_commands
from discord.ext import commands

from bot.app import RefereeBot
from bot.dice import MAX_INPUT, RollResult, render, roll
from bot.embeds import send
from bot.i18n import t
from bot.translator import text

LABEL_LIMIT = 100
CONTENT_LIMIT = 2000  # a message's text; render() keeps a roll within it, the note must not push it over


class DiceCog(commands.Cog):
    def __init__(self, bot: RefereeBot) -> None:
        self.bot = bot

    @app_commands.command(name=text("discord.command.roll.name"), description=text("discord.command.roll.description"))
    @app_commands.rename(
        dice=text("discord.command.roll.option.dice.name"),
        label=text("discord.command.roll.option.label.name"),
        secret=text("discord.command.roll.option.secret.name"),
    )
    @app_commands.describe(
        dice=text("discord.command.roll.option.dice.description"),
        label=text("discord.command.roll.option.label.description"),
        secret=text("discord.command.roll.option.secret.description"),
    )
    async def roll_command(
        self,
        interaction: discord.Interaction[RefereeBot],
        dice: app_commands.Range[str, 1, MAX_INPUT],
        label: app_commands.Range[str, 1, LABEL_LIMIT] | None = None,
        secret: bool = False,
    ) -> None:
        result = roll(f"{dice} {label}" if label else dice)  # DiceError before anything is filed or shown
        await self._file(interaction, result)
        locale = self.bot.locale_for(interaction)
        shown = render(result, locale)
        if not secret:
            await send(interaction, content=shown, ephemeral=False)
            return
        noted = f"{shown}\n-# {t('discord.roll.secret_note', locale)}"
        await send(interaction, content=noted if len(noted) <= CONTENT_LIMIT else shown, ephemeral=True)
        # The channel's own language is not known; the notice is in the roller's.
        notice = t("discord.roll.secret_notice", locale, user=interaction.user.mention)
        await send(interaction, content=notice, ephemeral=False)

    async def _file(self, interaction: discord.Interaction[RefereeBot], result: RollResult) -> None:
        channel_id = interaction.channel_id if interaction.channel_id is not None else interaction.user.id
        faces = [list(term) for term in result.dice]
        await self.bot.service.record_roll(channel_id, interaction.user.id, result.normalized, faces, result.total)


async def setup(bot: RefereeBot) -> None:
    await bot.add_cog(DiceCog(bot))
