"""/help [command]: every command with what it does, or one command with its options.

Read from the command tree itself, in the names the user's Discord shows (Japanese for a Japanese
client), so help never lists a command that is not there or misses one that is. Always ephemeral.
"""

from __future__ import annotations

import discord
from discord import app_commands
from discord.ext import commands

from bot.app import RefereeBot
from bot.embeds import reply
from bot.errors import RefereeError
from bot.i18n import catalog, t
from bot.render.message import Field, Message
from bot.translator import KEY, text

SlashCommand = app_commands.Command[commands.Cog, ..., None] | app_commands.Group


def shown(string: app_commands.locale_str | None, fallback: str, locale: str) -> str:
    """An option's name or description as the user's client shows it."""
    key = string.extras.get(KEY) if string is not None else None
    return t(key, locale) if key else fallback


def command_text(command: app_commands.Command[commands.Cog, ..., None], part: str, locale: str) -> str:
    """A command's name or description ("name", "description") as the user's client shows it."""
    key = f"discord.command.{command.qualified_name.replace(' ', '.')}.{part}"
    fallback = command.name if part == "name" else command.description
    return catalog(locale).get(key, fallback)


def option_name(parameter: app_commands.Parameter, locale: str) -> str:
    return shown(parameter.locale_name, parameter.display_name, locale)


def usage(command: app_commands.Command[commands.Cog, ..., None], locale: str) -> str:
    parts = [f"/{command_text(command, 'name', locale)}"]
    for parameter in command.parameters:
        name = option_name(parameter, locale)
        template = "discord.help.required" if parameter.required else "discord.help.optional"
        parts.append(t(template, locale, name=name))
    return " ".join(parts)


def command_help(command: app_commands.Command[commands.Cog, ..., None], locale: str) -> Message:
    description = command_text(command, "description", locale)
    lines = [description, "", t("discord.help.usage", locale, usage=usage(command, locale))]
    for parameter in command.parameters:
        about = shown(parameter.locale_description, parameter.description, locale)
        lines.append(t("discord.help.option_line", locale, name=option_name(parameter, locale), description=about))
    title = t("discord.help.command_title", locale, name=command_text(command, "name", locale))
    return Message(title=title, lines=lines)


def overview(commands_: list[app_commands.Command[commands.Cog, ..., None]], locale: str) -> Message:
    fields = [
        Field(
            name=usage(c, locale),
            value=command_text(c, "description", locale),
        )
        for c in commands_
    ]
    return Message(title=t("discord.help.title", locale), lines=[t("discord.help.intro", locale)], fields=fields)


class UnknownCommand(RefereeError):
    key = "discord.help.unknown_command"


class HelpCog(commands.Cog):
    def __init__(self, bot: RefereeBot) -> None:
        self.bot = bot

    def slash_commands(self) -> list[app_commands.Command[commands.Cog, ..., None]]:
        found = [c for c in self.bot.tree.get_commands() if isinstance(c, app_commands.Command)]
        return sorted(found, key=lambda c: c.name)

    def find(self, name: str) -> app_commands.Command[commands.Cog, ..., None] | None:
        """A command by its English name or its name in either language, with or without the slash."""
        wanted = name.strip().removeprefix("/").casefold()
        for command in self.slash_commands():
            names = {command.name, *(command_text(command, "name", loc) for loc in ("ja", "en"))}
            if wanted in {n.casefold() for n in names}:
                return command
        return None

    @app_commands.command(name=text("discord.command.help.name"), description=text("discord.command.help.description"))
    @app_commands.rename(command=text("discord.command.help.option.command.name"))
    @app_commands.describe(command=text("discord.command.help.option.command.description"))
    async def help(
        self, interaction: discord.Interaction[RefereeBot], command: app_commands.Range[str, 1, 100] | None = None
    ) -> None:
        locale = self.bot.locale_for(interaction)
        if command is None:
            await reply(interaction, overview(self.slash_commands(), locale), ephemeral=True)
            return
        found = self.find(command)
        if found is None:
            raise UnknownCommand(name=command)
        await reply(interaction, command_help(found, locale), ephemeral=True)

    @help.autocomplete("command")
    async def command_autocomplete(
        self, interaction: discord.Interaction[RefereeBot], current: str
    ) -> list[app_commands.Choice[str]]:
        locale = self.bot.locale_for(interaction)
        typed = current.strip().removeprefix("/").casefold()
        choices = []
        for command in self.slash_commands():
            label = command_text(command, "name", locale)
            if typed in label.casefold() or typed in command.name:
                choices.append(app_commands.Choice(name=f"/{label}", value=command.name))
        return choices[:25]


async def setup(bot: RefereeBot) -> None:
    await bot.add_cog(HelpCog(bot))
