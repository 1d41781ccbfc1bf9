"""/judge question: call the server's judges to the table, with the board as it is now.

The question is posted publicly with a mention of the judge role the server set (`/settings judge`):
that role alone may be pinged (allowed mentions name it and nothing else, so a question that holds
@everyone or another role pings nobody). In a channel with a running game the call is written into
the game's log as a table entry of its own (bot/store/history.py `TableJudge`): the table does not
change and an undo passes over it. Without a game the judges are still called, and told so.
"""

from __future__ import annotations

import discord
from discord import app_commands
from discord.ext import commands

from bot.app import RefereeBot
from bot.embeds import COLOUR, clip, to_embed
from bot.errors import RefereeError
from bot.i18n import t
from bot.render import render_board
from bot.render.message import Message
from bot.service import NoGame, Outcome
from bot.translator import text

QUESTION_LIMIT = 1000


class JudgeError(RefereeError):
    """A judge cannot be called here (keys under discord.judge)."""

    key = "discord.judge.no_role"


def call_message(user: str, question: str, outcome: Outcome | None, locale: str) -> Message:
    lines = [t("discord.judge.asked", locale, user=user, question=question)]
    if outcome is None:
        lines.append(t("discord.judge.no_table", locale))
    else:
        lines.append(t("discord.judge.filed", locale, game=outcome.game_id, version=outcome.version))
    return Message(title=t("discord.judge.title", locale), lines=lines)


class JudgeCog(commands.Cog):
    def __init__(self, bot: RefereeBot) -> None:
        self.bot = bot

    @app_commands.command(
        name=text("discord.command.judge.name"), description=text("discord.command.judge.description")
    )
    @app_commands.rename(question=text("discord.command.judge.option.question.name"))
    @app_commands.describe(question=text("discord.command.judge.option.question.description"))
    @app_commands.guild_only()
    async def judge(
        self, interaction: discord.Interaction[RefereeBot], question: app_commands.Range[str, 1, QUESTION_LIMIT]
    ) -> None:
        if interaction.guild_id is None or interaction.channel_id is None:
            raise JudgeError("discord.judge.not_in_guild")
        role_id = (await self.bot.service.guild_settings(interaction.guild_id)).judge_role_id
        if role_id is None:
            raise JudgeError("discord.judge.no_role")  # nothing is filed: no judge would hear of it
        outcome: Outcome | None
        try:
            outcome = await self.bot.service.call_judge(interaction.channel_id, interaction.user.id, question)
        except NoGame:
            outcome = None
        locale = self.bot.locale_for(interaction)
        embeds = [to_embed(call_message(interaction.user.mention, question, outcome, locale), colour=COLOUR)]
        if outcome is not None:
            board = render_board(outcome.state, locale, commitment=outcome.commitment, bars=True)
            embeds.append(to_embed(board))
        await interaction.response.send_message(
            clip(f"<@&{role_id}>", 100),
            embeds=embeds,
            allowed_mentions=discord.AllowedMentions(everyone=False, users=False, roles=[discord.Object(role_id)]),
        )


async def setup(bot: RefereeBot) -> None:
    await bot.add_cog(JudgeCog(bot))
