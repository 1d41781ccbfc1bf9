"""/settings locale|judge: what a server's admins fix for the referee (manage_guild needed).

- `/settings locale value:ja|en|user [scope:server|channel]`: the language of every reply in the
  server or in this channel; `user` lets each user's Discord language decide again. A channel's
  own setting wins over its server's. The bot remembers a channel's fixed language
  (bot/fixed_locales.py) and forgets it here, so the next command reads the new one.
- `/settings judge role:`: the role `/judge` calls.
- `/settings clock seconds: [auto_pass]`: this channel's turn clock (off by default; 0 turns it off).

Discord hides the group from members without Manage Server (`default_permissions`); a server may
change that default, so every command checks the permission again.
"""

from __future__ import annotations

import asyncio
from typing import Literal

import discord
from discord import app_commands
from discord.ext import commands

from bot.app import RefereeBot
from bot.embeds import reply
from bot.errors import RefereeError
from bot.i18n import t
from bot.render.message import Message
from bot.service.clock import MAX_SECONDS
from bot.translator import text


class SettingsError(RefereeError):
    key = "discord.settings.not_in_guild"


LOCALE_CHOICES = [
    app_commands.Choice(name=text(f"discord.choice.locale.{value}"), value=value) for value in ("ja", "en", "user")
]
SCOPE_CHOICES = [
    app_commands.Choice(name=text(f"discord.choice.scope.{value}"), value=value) for value in ("server", "channel")
]


def locale_reply(value: str, scope: str, locale: str) -> str:
    if value == "user":
        return t(f"discord.settings.locale_user_{scope}", locale)
    language = t(f"discord.choice.locale.{value}", locale)
    return t(f"discord.settings.locale_{scope}", locale, value=language)


@app_commands.default_permissions(manage_guild=True)
@app_commands.guild_only()
class SettingsCog(
    commands.GroupCog,
    group_name=text("discord.command.settings.name"),
    group_description=text("discord.command.settings.description"),
):
    def __init__(self, bot: RefereeBot) -> None:
        self.bot = bot
        super().__init__()

    @app_commands.command(
        name=text("discord.command.settings.locale.name"),
        description=text("discord.command.settings.locale.description"),
    )
    @app_commands.rename(
        value=text("discord.command.settings.locale.option.value.name"),
        scope=text("discord.command.settings.locale.option.scope.name"),
    )
    @app_commands.describe(
        value=text("discord.command.settings.locale.option.value.description"),
        scope=text("discord.command.settings.locale.option.scope.description"),
    )
    @app_commands.choices(value=LOCALE_CHOICES, scope=SCOPE_CHOICES)
    @app_commands.checks.has_permissions(manage_guild=True)
    async def locale(
        self,
        interaction: discord.Interaction[RefereeBot],
        value: Literal["ja", "en", "user"],
        scope: Literal["server", "channel"] = "server",
    ) -> None:
        guild_id, channel_id = interaction.guild_id, interaction.channel_id
        if guild_id is None or channel_id is None:
            raise SettingsError()
        fixed = None if value == "user" else value
        if scope == "channel":
            await self.bot.service.set_channel_settings(channel_id, guild_id=guild_id, locale=fixed)
        else:
            await self.bot.service.set_guild_settings(guild_id, locale=fixed)
        self.bot.fixed_locales.forget()
        locale = await self.bot.load_locale(interaction)  # the reply already in the new language
        await reply(interaction, Message(lines=[locale_reply(value, scope, locale)]), ephemeral=True)

    @app_commands.command(
        name=text("discord.command.settings.judge.name"), description=text("discord.command.settings.judge.description")
    )
    @app_commands.rename(role=text("discord.command.settings.judge.option.role.name"))
    @app_commands.describe(role=text("discord.command.settings.judge.option.role.description"))
    @app_commands.checks.has_permissions(manage_guild=True)
    async def judge(self, interaction: discord.Interaction[RefereeBot], role: discord.Role) -> None:
        if interaction.guild_id is None:
            raise SettingsError()
        await self.bot.service.set_guild_settings(interaction.guild_id, judge_role_id=role.id)
        locale = self.bot.locale_for(interaction)
        await reply(
            interaction, Message(lines=[t("discord.settings.judge_role", locale, role=role.mention)]), ephemeral=True
        )

    @app_commands.command(
        name=text("discord.command.settings.clock.name"),
        description=text("discord.command.settings.clock.description"),
    )
    @app_commands.rename(
        seconds=text("discord.command.settings.clock.option.seconds.name"),
        auto_pass=text("discord.command.settings.clock.option.auto_pass.name"),
    )
    @app_commands.describe(
        seconds=text("discord.command.settings.clock.option.seconds.description"),
        auto_pass=text("discord.command.settings.clock.option.auto_pass.description"),
    )
    @app_commands.checks.has_permissions(manage_guild=True)
    async def clock(
        self,
        interaction: discord.Interaction[RefereeBot],
        seconds: app_commands.Range[int, 0, MAX_SECONDS],
        auto_pass: bool = False,
    ) -> None:
        if interaction.channel_id is None:
            raise SettingsError()
        setting = await self.bot.service.set_clock(interaction.channel_id, seconds, auto_pass=auto_pass)
        # The dispatcher looks at the new deadline now. (An extension's module is loaded apart from an
        # `import cogs.clock`, so the cog is found by name and its event by what it is.)
        wake = getattr(self.bot.get_cog("ClockCog"), "wake", None)
        if isinstance(wake, asyncio.Event):
            wake.set()
        locale = self.bot.locale_for(interaction)
        if setting is None:
            said = t("discord.settings.clock_off", locale)
        else:
            key = "discord.settings.clock_auto_pass" if setting.auto_pass else "discord.settings.clock_on"
            said = t(key, locale, seconds=setting.seconds)
        await reply(interaction, Message(lines=[said]), ephemeral=True)


async def setup(bot: RefereeBot) -> None:
    await bot.add_cog(SettingsCog(bot))
