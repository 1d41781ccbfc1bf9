"""/ruling question:[card][card2][public]: the rules passages that answer a question, quote first.

Each result shows the quoted passage, then its source, section, citation numbers, the ⚠ flag of an
unverified point and the translation note (bot.rulings.render). The best result comes first; the
"more results" button shows the next ones to whoever presses it. Rulings are public unless the
asker says otherwise; a refusal (an empty question, an unknown card) is the asker's alone.

In a channel with a running game the answer also shows the part of the board the question is about
(bot/render/ruling_board.py), and the rulebook gets the table's option values, so a house rule says
what this table has chosen.
"""

from __future__ import annotations

import re
from collections import OrderedDict
from typing import Any

import discord
from discord import app_commands
from discord.ext import commands

from bot.app import RefereeBot
from bot.embeds import COLOUR, send, to_embed
from bot.engine import GameOptions, GameState
from bot.errors import RefereeError
from bot.i18n import t
from bot.render.board import option_value
from bot.render.message import Field, Message
from bot.render.ruling_board import ruling_board
from bot.rulings.cards import card_notes
from bot.rulings.errors import RulingsError
from bot.rulings.models import Answer
from bot.rulings.render import render_hit
from bot.rulings.search import TABLE_GAME
from bot.translator import text
from bot.tree import answer_error
from cogs.cards import card_choices

QUESTION_LIMIT = 500
RESULTS = 7  # searched once; the first is shown, the rest come by the button
MORE_PAGE = 2
REMEMBERED = 512  # questions whose "more results" button still works (in memory: a restart forgets them)


class Asked:
    """The answers of recent questions, by a short key carried in the button's custom_id."""

    def __init__(self, limit: int = REMEMBERED) -> None:
        self._answers: OrderedDict[str, Answer] = OrderedDict()
        self._limit = limit

    def keep(self, key: str, answer: Answer) -> None:
        self._answers[key] = answer
        self._answers.move_to_end(key)
        while len(self._answers) > self._limit:
            self._answers.popitem(last=False)

    def get(self, key: str) -> Answer | None:
        return self._answers.get(key)


def answer_page(answer: Answer, start: int, stop: int, locale: str, board: Field | None = None) -> Message:
    """Results start..stop-1 of `answer` as one message: the question, then each quote with its source;
    the first page adds the house rule (with this table's setting) and the `board` of the table."""
    total = len(answer.hits)
    lines: list[str] = []
    for number in range(start, min(stop, total)):
        if lines:
            lines.append("")
        lines.extend(row.strip() for row in render_hit(number + 1, answer.hits[number], locale))
    if start == 0:
        for number, hit in enumerate(answer.house, start=1):
            if lines:
                lines.append("")
            lines.extend(row.strip() for row in render_hit(f"H{number}", hit, locale, answer.options))
    fields = []
    if answer.cards and start == 0:
        cards = "\n".join(t("rulings.card_line", locale, name=c.name, type=c.type, text=c.text) for c in answer.cards)
        fields.append(Field(name=t("rulings.cards_header", locale), value=cards))
    if board is not None and start == 0:
        fields.append(board)
    if total > 1:
        page = t("discord.ruling.page", locale, first=start + 1, last=min(stop, total), total=total)
        fields.append(Field(name="\u200b", value=page))
    title = t("discord.ruling.question", locale, question=answer.question)
    return Message(title=title, lines=lines, fields=fields)


def not_found(answer: Answer, locale: str) -> Message:
    lines = [t("rulings.not_found", locale)]
    if answer.closest_terms:
        terms = t("rulings.term_separator", locale).join(answer.closest_terms)
        lines.append(t("rulings.closest_terms", locale, terms=terms))
    else:
        lines.append(t("rulings.no_terms", locale))
    return Message(title=t("discord.ruling.question", locale, question=answer.question), lines=lines)


def more_view(key: str, start: int, answer: Answer, locale: str) -> discord.ui.View | None:
    """A view with the "more results" button, when results remain from `start` on."""
    if start >= len(answer.hits):
        return None
    view = discord.ui.View(timeout=None)
    view.add_item(MoreResults(key, start, label=t("discord.ruling.more", locale)))
    return view


MORE_TEMPLATE = r"ruling:more:(?P<key>[0-9a-f]{1,16}):(?P<start>[0-9]{1,2})"


class MoreResults(discord.ui.DynamicItem[discord.ui.Button[Any]], template=MORE_TEMPLATE):
    """The "more results" button; its custom_id names the question (by key) and the next result."""

    def __init__(self, key: str, start: int, *, label: str = "…") -> None:
        super().__init__(
            discord.ui.Button(label=label, style=discord.ButtonStyle.secondary, custom_id=f"ruling:more:{key}:{start}")
        )
        self.key = key
        self.start = start

    @classmethod
    async def from_custom_id(
        cls, interaction: discord.Interaction[Any], item: discord.ui.Item[Any], match: re.Match[str], /
    ) -> MoreResults:
        label = item.label if isinstance(item, discord.ui.Button) and item.label else "…"
        return cls(match["key"], int(match["start"]), label=label)

    async def interaction_check(self, interaction: discord.Interaction[Any], /) -> bool:
        bot: RefereeBot = interaction.client
        return bot.first_delivery(interaction)

    async def callback(self, interaction: discord.Interaction[Any]) -> None:
        bot: RefereeBot = interaction.client
        try:
            await self.show(bot, interaction)
        except Exception as exc:  # the tree's handler is for slash commands; buttons share its replies
            await answer_error(interaction, exc)

    async def show(self, bot: RefereeBot, interaction: discord.Interaction[RefereeBot]) -> None:
        locale = bot.locale_for(interaction)
        cog = bot.get_cog(RulingCog.__cog_name__)
        answer = cog.asked.get(self.key) if isinstance(cog, RulingCog) else None
        if answer is None:
            raise RulingsError("discord.ruling.expired")
        if self.start >= len(answer.hits):
            raise RulingsError("discord.ruling.no_more")
        stop = self.start + MORE_PAGE
        embed = to_embed(answer_page(answer, self.start, stop, locale), colour=COLOUR)
        view = more_view(self.key, stop, answer, locale)
        await send(interaction, embeds=[embed], ephemeral=True, view=view)


class RulingCog(commands.Cog):
    def __init__(self, bot: RefereeBot) -> None:
        self.bot = bot
        self.asked = Asked()

    @app_commands.command(
        name=text("discord.command.ruling.name"), description=text("discord.command.ruling.description")
    )
    @app_commands.rename(
        question=text("discord.command.ruling.option.question.name"),
        card=text("discord.command.ruling.option.card.name"),
        card2=text("discord.command.ruling.option.card2.name"),
        public=text("discord.command.ruling.option.public.name"),
    )
    @app_commands.describe(
        question=text("discord.command.ruling.option.question.description"),
        card=text("discord.command.ruling.option.card.description"),
        card2=text("discord.command.ruling.option.card2.description"),
        public=text("discord.command.ruling.option.public.description"),
    )
    async def ruling(
        self,
        interaction: discord.Interaction[RefereeBot],
        question: app_commands.Range[str, 1, QUESTION_LIMIT],
        card: str | None = None,
        card2: str | None = None,
        public: bool = True,
    ) -> None:
        if not question.strip():
            raise RulingsError("rulings.empty_question")
        if not self.bot.rulebook.documents:  # a misplaced corpus, not a question the rules are silent on
            raise RulingsError("rulings.empty_corpus", path=self.bot.settings.rules_dir or "rules/")
        # Autocomplete only suggests: a typed name is checked here, with close names when unknown.
        cards = card_notes([c for c in (card, card2) if c is not None], catalog=self.bot.catalog)
        state = await self.running_table(interaction)
        options = table_option_values(state.options) if state is not None else None
        # Asked beside a running table, a question that names no game is about the game being played.
        table_game = TABLE_GAME if state is not None else None
        answer = self.bot.rulebook.search(question, k=RESULTS, cards=cards, options=options, table_game=table_game)
        locale = self.bot.locale_for(interaction)
        named = [question, *(c.name for c in cards)]
        board = ruling_board(state, named, locale) if state is not None else None
        if not answer.answered:
            await send(interaction, embeds=[to_embed(not_found(answer, locale))], ephemeral=not public)
            return
        key = format(interaction.id, "x")
        self.asked.keep(key, answer)
        message = answer_page(answer, 0, 1, locale, board)
        view = more_view(key, 1, answer, locale)
        await send(interaction, embeds=[to_embed(message)], ephemeral=not public, view=view)

    async def running_table(self, interaction: discord.Interaction[RefereeBot]) -> GameState | None:
        """The channel's running game, if it has one (a table that cannot be read only loses the board)."""
        if interaction.channel_id is None:
            return None
        try:
            view = await self.bot.service.status(interaction.channel_id)
        except RefereeError:
            return None
        return view.state if view.active else None

    @ruling.autocomplete("card")
    @ruling.autocomplete("card2")
    async def card_autocomplete(
        self, interaction: discord.Interaction[RefereeBot], current: str
    ) -> list[app_commands.Choice[str]]:
        return card_choices(self.bot.catalog, current, self.bot.locale_for(interaction))


def table_option_values(options: GameOptions) -> dict[str, str]:
    """The table's options as the words `/game start` takes, for the house rules' "this table's setting"."""
    return {key: option_value(getattr(options, key)) for key in GameOptions.model_fields}


async def setup(bot: RefereeBot) -> None:
    await bot.add_cog(RulingCog(bot))
    bot.add_dynamic_items(MoreResults)
