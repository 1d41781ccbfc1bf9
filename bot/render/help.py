"""/help and /help <command>: the list of commands, or what one command's options mean, in one locale.

The words are the console catalog's (`console.help`, `console.help_topic.<command>`); a front end only
passes what followed /help. A command with two words (`game start`) has its topic under `game_start`.
"""

from __future__ import annotations

from bot.errors import RefereeError
from bot.i18n import catalog, t
from bot.render.message import Message


class UnknownHelpTopic(RefereeError):
    key = "console.help_unknown"


def help_topics(locale: str = "en") -> list[str]:
    """The commands /help can explain, as typed (`game start`, `adjust`, ...)."""
    prefix = "console.help_topic."
    return [key[len(prefix) :].replace("_", " ") for key in catalog(locale) if key.startswith(prefix)]


def render_help(command: str | None, locale: str) -> Message:
    """The list of commands (no command), else the options of `command` (`adjust`, `/adjust`, `game start`)."""
    if command is None or not command.strip():
        return Message(title=t("console.help_title", locale), lines=t("console.help", locale).splitlines())
    words = " ".join(command.strip().lstrip("/").lower().split())
    topics = help_topics(locale)
    if words not in topics:
        raise UnknownHelpTopic(command=words, commands=", ".join(f"/{c}" for c in topics))
    lines = t(f"console.help_topic.{words.replace(' ', '_')}", locale).strip().splitlines()
    return Message(title=t("console.help_topic_title", locale, command=words), lines=lines)
