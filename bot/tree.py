"""The command tree: one place where every failure of a slash command becomes a reply.

- A `RefereeError` (bad dice, an unknown card, a move the rules refuse) is the user's to fix: it is
  answered ephemerally, in the user's language, and not logged as a fault.
- Anything else is our fault: the user gets the generic message, and the log gets the command, the
  user, the guild and the channel with the traceback. The bot token and the interaction's own token
  (a credential for 15 minutes) are cut out of that text before it is logged.
- The same interaction delivered twice (a gateway resume may replay it) runs once.
- A command whose options do not match the ones the bot declares (a name it lacks, a string where a
  boolean belongs: Discord's copy of the commands is out of date) is refused, not run with the
  wrong values; discord.py itself passes such a value on as it came.
"""

from __future__ import annotations

import logging
import traceback
from collections import OrderedDict
from typing import TYPE_CHECKING, Any

import discord
from discord import app_commands

from bot.embeds import refusal_embed, send
from bot.errors import RefereeError
from bot.i18n import t

if TYPE_CHECKING:
    from bot.app import RefereeBot

log = logging.getLogger(__name__)

SEEN_LIMIT = 4096  # interaction ids remembered; a replay comes within seconds, not thousands later
REDACTED = "[redacted]"


class SeenInteractions:
    """A bounded memory of the interaction ids already handled."""

    def __init__(self, limit: int = SEEN_LIMIT) -> None:
        self._ids: OrderedDict[int, None] = OrderedDict()
        self._limit = limit

    def first_time(self, interaction_id: int) -> bool:
        if interaction_id in self._ids:
            return False
        self._ids[interaction_id] = None
        if len(self._ids) > self._limit:
            self._ids.popitem(last=False)
        return True


SUBCOMMAND_TYPES = (1, 2)  # a subcommand and a group wrap the options of the command they lead to


def leaf_options(data: Any) -> list[Any]:
    """The options of the command itself, below any subcommand and group."""
    options = data.get("options") if isinstance(data, dict) else None
    while isinstance(options, list) and options and isinstance(options[0], dict):
        if options[0].get("type") not in SUBCOMMAND_TYPES:
            break
        options = options[0].get("options")
    return options if isinstance(options, list) else []


# The JSON value each option type carries (users, channels, roles and attachments come as snowflake strings).
VALUE_TYPES: dict[int, tuple[type, ...]] = {3: (str,), 4: (int,), 5: (bool,), 10: (int, float)}


def value_fits(kind: int, value: Any) -> bool:
    if isinstance(value, bool) and kind != 5:
        return False  # JSON true is not a number
    return isinstance(value, VALUE_TYPES.get(kind, (str,)))


def options_match(command: app_commands.Command[Any, ..., Any], data: Any) -> bool:
    """Every option sent is one the command declares, with the declared type and a value of that type."""
    declared = {parameter.display_name: parameter.type.value for parameter in command.parameters}
    for option in leaf_options(data):
        if not isinstance(option, dict):
            return False
        kind = declared.get(str(option.get("name")))
        if kind is None or option.get("type") != kind or not value_fits(kind, option.get("value")):
            return False
    return True


def domain_error(error: BaseException) -> RefereeError | None:
    """The RefereeError behind an app-command error (discord.py wraps what a command raises)."""
    seen: set[int] = set()
    current: BaseException | None = error
    while current is not None and id(current) not in seen:
        if isinstance(current, RefereeError):
            return current
        seen.add(id(current))
        current = getattr(current, "original", None) or current.__cause__
    return None


# Discord offered a command, or options, that this bot does not have: its commands need a sync.
OUT_OF_SYNC = app_commands.CommandNotFound | app_commands.CommandSignatureMismatch


def user_message(error: BaseException, locale: str) -> str:
    """What the user reads for `error`, in `locale`."""
    found = domain_error(error)
    if found is not None:
        return found.message(locale)
    if isinstance(error, OUT_OF_SYNC):
        return t("discord.error.unknown_command", locale)
    if isinstance(error, app_commands.TransformerError):
        return t("discord.error.bad_value", locale, value=str(error.value)[:100])
    if isinstance(error, app_commands.CheckFailure):
        return t("discord.error.not_allowed", locale)
    return t("discord.error.generic", locale)


def is_expected(error: BaseException) -> bool:
    """A refusal the user can act on, not a fault of ours."""
    return domain_error(error) is not None or isinstance(
        error, app_commands.CheckFailure | app_commands.TransformerError | OUT_OF_SYNC
    )


class RefereeTree(app_commands.CommandTree["RefereeBot"]):
    def __init__(self, client: RefereeBot) -> None:
        super().__init__(client)
        self.seen = SeenInteractions()

    async def interaction_check(self, interaction: discord.Interaction[RefereeBot], /) -> bool:
        if not interaction.client.first_delivery(interaction):
            return False
        await interaction.client.load_locale(interaction)  # the channel's fixed language, read once
        command = interaction.command
        if (
            interaction.type is discord.InteractionType.application_command
            and isinstance(command, app_commands.Command)
            and not options_match(command, interaction.data)
        ):
            raise app_commands.CommandSignatureMismatch(command)
        return True

    async def on_error(
        self, interaction: discord.Interaction[RefereeBot], error: app_commands.AppCommandError, /
    ) -> None:
        await answer_error(interaction, error)


async def answer_error(interaction: discord.Interaction[RefereeBot], error: BaseException) -> None:
    """Reply to the user about `error` (ephemerally) and log it if it is ours. Shared with the buttons."""
    if not is_expected(error):
        log_unexpected(interaction, error)
    elif isinstance(error, app_commands.CommandNotFound):
        # Discord offered a command this bot does not have: the synced commands are out of date.
        log.warning("unknown command %r: run `referee sync` after an update", error.name, extra=context(interaction))
    elif isinstance(error, app_commands.CommandSignatureMismatch):
        name = error.command.qualified_name
        log.warning("options of /%s do not match: run `referee sync` after an update", name, extra=context(interaction))
    locale = interaction.client.locale_for(interaction)
    try:
        await send(interaction, embeds=[refusal_embed(user_message(error, locale))], ephemeral=True)
    except discord.HTTPException as exc:  # the interaction expired or was answered elsewhere: nobody to tell
        log.warning("could not send the error reply: %s", exc, extra=context(interaction))


def context(interaction: discord.Interaction[RefereeBot]) -> dict[str, object]:
    """The log fields of an interaction (ids only: no names, no tokens)."""
    command = interaction.command.qualified_name if interaction.command is not None else None
    custom_id = interaction.data.get("custom_id") if interaction.data else None
    return {
        "command": command or custom_id or f"type={interaction.type.name}",
        "user": interaction.user.id,
        "guild": interaction.guild_id,
        "channel": interaction.channel_id,
        **shard_field(interaction),
    }


def shard_field(interaction: discord.Interaction[RefereeBot]) -> dict[str, object]:
    """{"shard": "1/4"} when the bot runs shards of several (log lines then name the one that answered)."""
    label = interaction.client.shard_label(interaction.guild_id)
    return {} if label is None else {"shard": label}


def log_unexpected(interaction: discord.Interaction[RefereeBot], error: BaseException) -> None:
    fields = context(interaction)
    cause = getattr(error, "original", None) or error
    text = "".join(traceback.format_exception(cause))
    for secret in (interaction.client.http.token, interaction.token):
        if secret:
            text = text.replace(secret, REDACTED)
    log.error(
        "unexpected error in %s (user %s, guild %s, channel %s)\n%s",
        fields["command"],
        fields["user"],
        fields["guild"],
        fields["channel"],
        text.rstrip(),
        extra={"user": fields["user"], "channel": fields["channel"], **shard_field(interaction)},
    )
