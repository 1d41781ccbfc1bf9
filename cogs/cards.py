"""/card name:[public]: a card's printed text and what it does, found by name as the user types.

The autocomplete offers at most 25 cards from the catalog (exact names, then prefixes, then
contained words); Discord's choices are only suggestions, so the submitted value is looked up again
and anything that is not a card is refused. The answer is the asker's alone unless they make it
public: looking a card up in the middle of a game could hint at a hand.
"""

from __future__ import annotations

import discord
from discord import app_commands
from discord.ext import commands

from bot.app import RefereeBot
from bot.catalog import Catalog, UnknownCard
from bot.catalog.cards import Card
from bot.catalog.describe import describe_card
from bot.embeds import clip, reply
from bot.errors import RefereeError
from bot.i18n import t
from bot.render.message import Message
from bot.translator import text

CHOICE_LIMIT = 25  # Discord shows at most 25 choices
CHOICE_TEXT = 100  # and each name and value is at most 100 characters
NAME_LIMIT = 100


def card_label(card: Card, locale: str) -> str:
    """The card as a choice reads: its name in the reader's language, the other beside it."""
    if card.name_en and card.name_en != card.name:
        both = f"{card.name_en} ({card.name})" if locale == "en" else f"{card.name} ({card.name_en})"
    else:
        both = card.name
    return clip(both, CHOICE_TEXT)


def card_choices(catalog: Catalog, current: str, locale: str) -> list[app_commands.Choice[str]]:
    """At most 25 cards matching what is typed so far, best first; each choice's value is the card id.

    Half-typed text that no name could hold (an invisible character) offers nothing; the submit says why."""
    try:
        found = catalog.search(current[:NAME_LIMIT], limit=CHOICE_LIMIT)
    except RefereeError:
        return []
    return [
        app_commands.Choice(name=card_label(card, locale), value=card.id)
        for card in found
        if len(card.id) <= CHOICE_TEXT
    ]


def card_message(catalog: Catalog, card: Card, locale: str) -> Message:
    lines = [card.rules_text(), "", *describe_card(card, locale)]
    source, notice = catalog.source(card.id), catalog.notice(card.id)
    if source:
        lines.append(t("cards.show.source", locale, file=source))
    if notice:
        lines.append(notice)
    return Message(title=t("discord.card.title", locale, name=card_label(card, locale)), lines=lines)


class CardsCog(commands.Cog):
    def __init__(self, bot: RefereeBot) -> None:
        self.bot = bot

    @app_commands.command(name=text("discord.command.card.name"), description=text("discord.command.card.description"))
    @app_commands.rename(
        name=text("discord.command.card.option.name.name"), public=text("discord.command.card.option.public.name")
    )
    @app_commands.describe(
        name=text("discord.command.card.option.name.description"),
        public=text("discord.command.card.option.public.description"),
    )
    async def card(
        self,
        interaction: discord.Interaction[RefereeBot],
        name: app_commands.Range[str, 1, NAME_LIMIT],
        public: bool = False,
    ) -> None:
        found = self.bot.catalog.find(name)
        if found is None:
            raise UnknownCard(card=name)
        locale = self.bot.locale_for(interaction)
        await reply(interaction, card_message(self.bot.catalog, found, locale), ephemeral=not public)

    @card.autocomplete("name")
    async def name_autocomplete(
        self, interaction: discord.Interaction[RefereeBot], current: str
    ) -> list[app_commands.Choice[str]]:
        return card_choices(self.bot.catalog, current, self.bot.locale_for(interaction))


async def setup(bot: RefereeBot) -> None:
    await bot.add_cog(CardsCog(bot))
