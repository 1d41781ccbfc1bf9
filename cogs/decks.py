"""/deck: a look at the top of one's deck in a game (`top`), and one's own saved decks
(`save|list|show|delete`), always answered to that player alone.

`top` is a play: one service call with the builder of its words, like the play cog's commands; the
table reads that the player looked and at how many cards, the player alone reads which.

A deck is given as a list of card names (the `cards` option, or a text file
with one entry a line) and checked against the catalog and its deck rules before it is saved
(bot/catalog/deck_list.py); a list that is not a legal deck is refused and nothing is saved.
"""

from __future__ import annotations

import discord
from discord import app_commands
from discord.ext import commands

from bot.app import RefereeBot
from bot.catalog import Catalog, Deck
from bot.catalog.deck_list import deck_from_ids, parse_deck_list, stored_ids
from bot.embeds import reply
from bot.errors import RefereeError
from bot.i18n import t
from bot.names import MAX_NAME
from bot.render import render_deck_top
from bot.render.message import Message
from bot.service import NotSeated
from bot.table import Request, builder
from bot.translator import text
from cogs.attachments import read_text_attachment
from cogs.table_ui import answer_outcome, channel_of

LIST_LIMIT = 4000  # a deck list typed in the option (Discord allows 6000 characters)
FILE_LIMIT = 64 * 1024  # a deck list file: a few kilobytes at most
CHOICE_LIMIT = 25


class DeckInputError(RefereeError):
    """The deck list was not given, given twice, or its file is not usable (keys under discord.decks)."""

    key = "discord.decks.need_list"


def card_name(catalog: Catalog, card_id: str, locale: str) -> str:
    card = catalog.cards.get(card_id)
    if card is None:
        return card_id
    return card.name_en if locale == "en" and card.name_en else card.name


def deck_message(catalog: Catalog, deck: Deck, locale: str) -> Message:
    """A saved deck as its owner reads it: leader, Arcastella, codes, then each card with its count."""

    def name(card_id: str) -> str:
        return card_name(catalog, card_id, locale)

    joiner = t("render.list_joiner", locale)
    lines = [
        t("discord.decks.leader", locale, card=name(deck.leader)),
        t("discord.decks.arcastella", locale, cards=joiner.join(name(a) for a in deck.arcastella)),
        *(t("discord.decks.code", locale, code=name(e.code), wearer=name(e.arcastella)) for e in deck.equipment),
        "",
        *(t("discord.decks.card_line", locale, count=e.count, card=name(e.id)) for e in deck.cards),
        "",
        t("discord.decks.size", locale, size=deck.size),
    ]
    return Message(title=deck.name, lines=lines)


def stored_message(catalog: Catalog, name: str, ids: list[object], problem: RefereeError, locale: str) -> Message:
    """A saved deck that no longer passes the checks: what was saved, and why it would be refused now."""
    lines = [str(i) for i in ids]
    lines.append(t("discord.decks.no_longer_valid", locale, reason=problem.message(locale)))
    return Message(title=name, lines=lines)


class DecksCog(
    commands.GroupCog,
    group_name=text("discord.command.deck.name"),
    group_description=text("discord.command.deck.description"),
):
    """The group `/deck`: the look at the top of one's deck, and one's saved decks (answered privately)."""

    def __init__(self, bot: RefereeBot) -> None:
        self.bot = bot
        super().__init__()

    @app_commands.command(
        name=text("discord.command.deck.top.name"), description=text("discord.command.deck.top.description")
    )
    @app_commands.rename(count=text("discord.command.deck.top.option.count.name"))
    @app_commands.describe(count=text("discord.command.deck.top.option.count.description"))
    async def top(self, interaction: discord.Interaction[RefereeBot], count: app_commands.Range[int, 1, 60]) -> None:
        """The look: everyone reads that the player looked at how many cards; only the player reads which."""
        request = Request("deck", {"top": str(count)})
        outcome = await self.bot.service.act(
            channel_of(interaction), interaction.user.id, builder(self.bot.catalog, request)
        )
        await answer_outcome(interaction, outcome)
        seat = outcome.state.seat_of(str(interaction.user.id))
        if seat is None:
            raise NotSeated()
        locale = self.bot.locale_for(interaction)
        await reply(interaction, render_deck_top(outcome.state, seat, count, locale), ephemeral=True)

    @app_commands.command(
        name=text("discord.command.deck.save.name"), description=text("discord.command.deck.save.description")
    )
    @app_commands.rename(
        name=text("discord.command.deck.save.option.name.name"),
        cards=text("discord.command.deck.save.option.cards.name"),
        file=text("discord.command.deck.save.option.file.name"),
    )
    @app_commands.describe(
        name=text("discord.command.deck.save.option.name.description"),
        cards=text("discord.command.deck.save.option.cards.description"),
        file=text("discord.command.deck.save.option.file.description"),
    )
    async def save(
        self,
        interaction: discord.Interaction[RefereeBot],
        name: app_commands.Range[str, 1, MAX_NAME],
        cards: app_commands.Range[str, 1, LIST_LIMIT] | None = None,
        file: discord.Attachment | None = None,
    ) -> None:
        if cards is not None and file is not None:
            raise DeckInputError("discord.decks.both_given")
        if cards is None and file is None:
            raise DeckInputError("discord.decks.need_list")
        if file is not None:
            await interaction.response.defer(ephemeral=True, thinking=True)  # the download may take a moment
            listed = await read_text_attachment(file, FILE_LIMIT)
        else:
            listed = cards or ""
        deck = parse_deck_list(self.bot.catalog, name, listed)  # refused before anything is saved
        user = interaction.user.id
        existing = {d.name for d in await self.bot.service.decks(user)}
        record = await self.bot.service.save_deck(user, deck.name, stored_ids(deck))
        locale = self.bot.locale_for(interaction)
        key = "discord.decks.replaced" if record.name in existing else "discord.decks.saved"
        done = Message(title=t(key, locale, name=record.name, size=deck.size))
        await reply(interaction, done, deck_message(self.bot.catalog, deck, locale), ephemeral=True)

    @app_commands.command(
        name=text("discord.command.deck.list.name"), description=text("discord.command.deck.list.description")
    )
    async def list_decks(self, interaction: discord.Interaction[RefereeBot]) -> None:
        locale = self.bot.locale_for(interaction)
        records = await self.bot.service.decks(interaction.user.id)
        if not records:
            await reply(interaction, Message(lines=[t("discord.decks.none", locale)]), ephemeral=True)
            return
        lines = []
        for record in records:
            ids = record.card_list()
            leader = card_name(self.bot.catalog, str(ids[0]), locale) if ids else "-"
            size = max(0, sum(1 for i in ids if "@" not in str(i)) - 3)  # less the three Arcastella
            updated = record.updated_at[:10]
            lines.append(
                t("discord.decks.list_line", locale, name=record.name, leader=leader, size=size, updated=updated)
            )
        message = Message(title=t("discord.decks.list_title", locale), lines=lines)
        await reply(interaction, message, ephemeral=True)

    @app_commands.command(
        name=text("discord.command.deck.show.name"), description=text("discord.command.deck.show.description")
    )
    @app_commands.rename(name=text("discord.command.deck.show.option.name.name"))
    @app_commands.describe(name=text("discord.command.deck.show.option.name.description"))
    async def show(
        self, interaction: discord.Interaction[RefereeBot], name: app_commands.Range[str, 1, MAX_NAME]
    ) -> None:
        record = await self.bot.service.deck(interaction.user.id, name)
        locale = self.bot.locale_for(interaction)
        ids = record.card_list()
        try:
            message = deck_message(self.bot.catalog, deck_from_ids(self.bot.catalog, record.name, ids), locale)
        except RefereeError as problem:  # the cards or the rules changed since it was saved
            message = stored_message(self.bot.catalog, record.name, ids, problem, locale)
        await reply(interaction, message, ephemeral=True)

    @app_commands.command(
        name=text("discord.command.deck.delete.name"), description=text("discord.command.deck.delete.description")
    )
    @app_commands.rename(name=text("discord.command.deck.delete.option.name.name"))
    @app_commands.describe(name=text("discord.command.deck.delete.option.name.description"))
    async def delete(
        self, interaction: discord.Interaction[RefereeBot], name: app_commands.Range[str, 1, MAX_NAME]
    ) -> None:
        await self.bot.service.delete_deck(interaction.user.id, name)
        locale = self.bot.locale_for(interaction)
        await reply(interaction, Message(lines=[t("discord.decks.deleted", locale, name=name)]), ephemeral=True)

    @show.autocomplete("name")
    @delete.autocomplete("name")
    async def name_autocomplete(
        self, interaction: discord.Interaction[RefereeBot], current: str
    ) -> list[app_commands.Choice[str]]:
        """The asker's own saved decks whose name holds what is typed (the submit looks it up again)."""
        typed = current.casefold()
        records = await self.bot.service.decks(interaction.user.id)
        names = [r.name for r in records if typed in r.name.casefold()]
        return [app_commands.Choice(name=n, value=n) for n in names[:CHOICE_LIMIT]]


async def setup(bot: RefereeBot) -> None:
    await bot.add_cog(DecksCog(bot))
