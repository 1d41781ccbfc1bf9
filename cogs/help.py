"""/help [command]: every command with what it does, or one command with its options.

Read from the command tree itself, in the names the user's Discord shows (Japanese for a Japanese
client), so help never lists a command that is not there or misses one that is. Always ephemeral.
Groups (`/game`, `/deck`) list their subcommands; `/help command:adjust` (or `game start`) adds what
each option value means (bot/render/help.py: the words the console's /help shows).
"""

from __future__ import annotations

import discord
from discord import app_commands
from discord.ext import commands

from bot.app import RefereeBot
from bot.embeds import reply
from bot.errors import RefereeError
from bot.i18n import catalog, t
from bot.render.help import help_topics, render_help
from bot.render.message import Field, Message
from bot.translator import KEY, text

SlashCommand = app_commands.Command[commands.Cog, ..., None]
Entry = SlashCommand | app_commands.Group


def shown(string: app_commands.locale_str | None, fallback: str, locale: str) -> str:
    """An option's name or description as the user's client shows it."""
    key = string.extras.get(KEY) if string is not None else None
    return t(key, locale) if key else fallback


def command_text(command: Entry, part: str, locale: str) -> str:
    """A command's or group's own name or description ("name", "description") as the user's client shows it."""
    key = f"discord.command.{command.qualified_name.replace(' ', '.')}.{part}"
    fallback = command.name if part == "name" else command.description
    return catalog(locale).get(key, fallback)


def full_name(command: Entry, locale: str) -> str:
    """`game start` as typed in the user's client (`ゲーム 開始`): each word of the path localised."""
    path: list[Entry] = []
    current: Entry | None = command
    while current is not None:
        path.append(current)
        current = current.parent
    return " ".join(command_text(c, "name", locale) for c in reversed(path))


def option_name(parameter: app_commands.Parameter, locale: str) -> str:
    return shown(parameter.locale_name, parameter.display_name, locale)


def usage(command: SlashCommand, locale: str) -> str:
    parts = [f"/{full_name(command, locale)}"]
    for parameter in command.parameters:
        name = option_name(parameter, locale)
        template = "discord.help.required" if parameter.required else "discord.help.optional"
        parts.append(t(template, locale, name=name))
    return " ".join(parts)


def leaves(entry: Entry) -> list[SlashCommand]:
    """A command itself, or every subcommand of a group (and of its groups), in the tree's order."""
    if isinstance(entry, app_commands.Group):
        return [leaf for child in entry.commands for leaf in leaves(child)]
    return [entry]


# The console seats players by name (`players:alice,bob decks:…`); on Discord the opponent is invited by a
# mention and the table options are set by /game options, so that topic's details would mislead here.
CONSOLE_ONLY = frozenset({"game start"})


def topic_lines(command: SlashCommand, locale: str) -> list[str]:
    """What each option value means (render_help, the console's words), when the command has such a topic.
    Its first line is the console's usage line: Discord's own usage line stands above instead."""
    name = command.qualified_name
    if name in CONSOLE_ONLY or name not in help_topics(locale):
        return []
    details = render_help(name, locale).lines[1:]
    return ["", *details] if details else []


def command_help(command: SlashCommand, locale: str) -> Message:
    description = command_text(command, "description", locale)
    lines = [description, "", t("discord.help.usage", locale, usage=usage(command, locale))]
    for parameter in command.parameters:
        about = shown(parameter.locale_description, parameter.description, locale)
        lines.append(t("discord.help.option_line", locale, name=option_name(parameter, locale), description=about))
    lines += topic_lines(command, locale)
    title = t("discord.help.command_title", locale, name=full_name(command, locale))
    return Message(title=title, lines=lines)


def subcommand_lines(group: app_commands.Group, locale: str) -> list[str]:
    return [
        t(
            "discord.help.subcommand_line",
            locale,
            usage=usage(c, locale),
            description=command_text(c, "description", locale),
        )
        for c in leaves(group)
    ]


def group_help(group: app_commands.Group, locale: str) -> Message:
    lines = [command_text(group, "description", locale), "", *subcommand_lines(group, locale)]
    return Message(title=t("discord.help.command_title", locale, name=full_name(group, locale)), lines=lines)


def overview(entries: list[Entry], locale: str) -> Message:
    """One field per top-level command; a group's field lists its subcommands' usage, one line each (their
    descriptions are a `/help command:` away: with them the overview would pass Discord's 6,000 characters)."""
    fields = []
    for entry in entries:
        if isinstance(entry, app_commands.Group):
            name = f"/{full_name(entry, locale)}: {command_text(entry, 'description', locale)}"
            fields.append(Field(name=name, value="\n".join(usage(c, locale) for c in leaves(entry))))
        else:
            fields.append(Field(name=usage(entry, locale), value=command_text(entry, "description", locale)))
    return Message(title=t("discord.help.title", locale), lines=[t("discord.help.intro", locale)], fields=fields)


class UnknownCommand(RefereeError):
    key = "discord.help.unknown_command"


class HelpCog(commands.Cog):
    def __init__(self, bot: RefereeBot) -> None:
        self.bot = bot

    def top_level(self) -> list[Entry]:
        """The commands and groups of the tree, by name."""
        found = [c for c in self.bot.tree.get_commands() if isinstance(c, app_commands.Command | app_commands.Group)]
        return sorted(found, key=lambda c: c.name)

    def everything(self) -> list[Entry]:
        """Every command and group, then every subcommand: /help may be asked about any of them, and an
        autocomplete of at most 25 offers the top level first."""
        top = self.top_level()
        return [*top, *(leaf for entry in top if isinstance(entry, app_commands.Group) for leaf in leaves(entry))]

    def find(self, name: str) -> Entry | None:
        """A command, subcommand (`game start`) or group by its English name or its name in either language,
        with or without the slash."""
        wanted = " ".join(name.strip().removeprefix("/").casefold().split())
        for entry in self.everything():
            names = {entry.qualified_name, *(full_name(entry, loc) for loc in ("ja", "en"))}
            if wanted in {n.casefold() for n in names}:
                return entry
        return None

    @app_commands.command(name=text("discord.command.help.name"), description=text("discord.command.help.description"))
    @app_commands.rename(command=text("discord.command.help.option.command.name"))
    @app_commands.describe(command=text("discord.command.help.option.command.description"))
    async def help(
        self, interaction: discord.Interaction[RefereeBot], command: app_commands.Range[str, 1, 100] | None = None
    ) -> None:
        locale = self.bot.locale_for(interaction)
        if command is None:
            await reply(interaction, overview(self.top_level(), locale), ephemeral=True)
            return
        found = self.find(command)
        if found is None:
            raise UnknownCommand(name=command)
        shown_help = group_help(found, locale) if isinstance(found, app_commands.Group) else command_help(found, locale)
        await reply(interaction, shown_help, ephemeral=True)

    @help.autocomplete("command")
    async def command_autocomplete(
        self, interaction: discord.Interaction[RefereeBot], current: str
    ) -> list[app_commands.Choice[str]]:
        locale = self.bot.locale_for(interaction)
        typed = current.strip().removeprefix("/").casefold()
        choices = []
        for entry in self.everything():
            label = full_name(entry, locale)
            if typed in label.casefold() or typed in entry.qualified_name:
                choices.append(app_commands.Choice(name=f"/{label}", value=entry.qualified_name))
        return choices[:25]


async def setup(bot: RefereeBot) -> None:
    await bot.add_cog(HelpCog(bot))
