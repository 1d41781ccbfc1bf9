"""/game start|status|log|end|undo|options|verify: the table of a channel, one service call each.

`/game start opponent:` posts an invitation; only the invited player may accept it (a button), and
the game starts through the service with both players' Discord ids and display names. Display names
are kept only after Discord's emoji joiners and variation selectors are taken out (our name rule
refuses invisible characters, bot/names.py); a name that is still refused falls back to the
account's user name. The accept button carries everything it needs, so it works after a restart.

What is public: the invitation, the start, the board, an end, an undo, options, the dice check.
Only the asker sees the log (it can be long) and every refusal.
"""

from __future__ import annotations

import re
from pathlib import Path
from typing import Any

import discord
from discord import app_commands
from discord.ext import commands

from bot.app import RefereeBot
from bot.catalog import Catalog
from bot.embeds import COLOUR, DESCRIPTION_LIMIT, EMBEDS_PER_MESSAGE, TOTAL_LIMIT, clip, reply
from bot.engine import GameOptions
from bot.files import read_text
from bot.i18n import t
from bot.names import BadName, check_name, normalize_name
from bot.paths import DataFolderMissing, data_folder
from bot.render import option_lines, render_board, render_log
from bot.render.board import option_value
from bot.render.message import Message
from bot.render.outcome import render_outcome
from bot.service import NoGame, NotModerator, TableView
from bot.table import START_KEYS, table_options
from bot.table.position import POSITION_LIMIT, parse_position
from bot.translator import text
from bot.tree import answer_error
from cogs.attachments import read_text_attachment
from cogs.table_ui import TableUIError, answer_outcome, channel_of, send_messages, table_view

NAME_IN_ID = 30  # the challenger's name rides in the accept button's custom_id (100 characters in all)
FIRST_CODES = {"random": "r", "me": "f", "opponent": "s"}
FIRST_OPTIONS = {"r": "random", "f": "first_seat", "s": "second_seat"}
# What Discord lets a display name hold and our name rule refuses: the zero-width joiners of emoji
# sequences, variation selectors and the tag characters of flag emoji. Taking them out keeps the emoji.
EMOJI_PARTS = re.compile("[\u200c\u200d\ufe00-\ufe0f\U000e0020-\U000e007f\U000e0100-\U000e01ef]")
REASON_LIMIT = 200


def seat_name(display: str, fallback: str) -> str:
    """A display name as a seat keeps it: emoji parts taken out, then our name rule; else the user name."""
    try:
        return check_name(EMOJI_PARTS.sub("", display)[:100], "player")
    except BadName:
        return check_name(fallback, "player")


def deck_ids(catalog: Catalog) -> list[str]:
    return sorted(catalog.decks)


def deck_label(catalog: Catalog, deck_id: str, locale: str) -> str:
    deck = catalog.decks[deck_id]
    return deck.name_en if locale == "en" and deck.name_en else deck.name


def choose_deck(catalog: Catalog, name: str | None, default: int) -> str:
    ids = deck_ids(catalog)
    if name is None:
        return ids[default % len(ids)]
    found = catalog.find_deck(name)
    if found is None:
        raise TableUIError("discord.table.unknown_deck", name=name, decks=", ".join(ids))
    return found.id


def is_moderator(interaction: discord.Interaction[RefereeBot]) -> bool:
    permissions = interaction.permissions
    return bool(permissions.administrator or permissions.manage_guild or permissions.manage_channels)


def as_text(options: dict[str, Any]) -> dict[str, str]:
    """Stored option values as the words /game start takes (table_options reads words)."""
    return {key: option_value(value) for key, value in options.items() if key not in START_KEYS}


ACCEPT_TEMPLATE = (
    r"hn:acc:(?P<challenger>[0-9]{1,20}):(?P<opponent>[0-9]{1,20}):(?P<deck>[0-9]{1,2}):(?P<opponent_deck>[0-9]{1,2})"
    r":(?P<first>[rfs]):(?P<name>.*)"
)
DECLINE_TEMPLATE = r"hn:dec:(?P<challenger>[0-9]{1,20}):(?P<opponent>[0-9]{1,20})"


class AcceptButton(discord.ui.DynamicItem[discord.ui.Button[Any]], template=ACCEPT_TEMPLATE):
    """The invited player's "accept": starts the game with both decks (by their place in the catalog)."""

    def __init__(
        self, challenger: int, opponent: int, deck: int, opponent_deck: int, first: str, name: str, *, label: str = "…"
    ) -> None:
        custom_id = f"hn:acc:{challenger}:{opponent}:{deck}:{opponent_deck}:{first}:{name[:NAME_IN_ID]}"
        super().__init__(discord.ui.Button(label=label, style=discord.ButtonStyle.success, custom_id=custom_id))
        self.challenger, self.opponent, self.deck, self.opponent_deck = challenger, opponent, deck, opponent_deck
        self.first, self.name = first, name

    @classmethod
    async def from_custom_id(
        cls, interaction: discord.Interaction[Any], item: discord.ui.Item[Any], match: re.Match[str], /
    ) -> AcceptButton:
        label = item.label if isinstance(item, discord.ui.Button) and item.label else "…"
        numbers = int(match["challenger"]), int(match["opponent"]), int(match["deck"]), int(match["opponent_deck"])
        return cls(*numbers, match["first"], match["name"], label=label)

    async def interaction_check(self, interaction: discord.Interaction[Any], /) -> bool:
        return await invited_only(interaction, self.opponent)

    async def callback(self, interaction: discord.Interaction[Any]) -> None:
        try:
            await self.accept(interaction)
        except Exception as exc:
            await answer_error(interaction, exc)

    async def accept(self, interaction: discord.Interaction[RefereeBot]) -> None:
        bot = interaction.client
        ids = deck_ids(bot.catalog)
        if not (self.deck < len(ids) and self.opponent_deck < len(ids)):
            raise TableUIError("discord.table.stale")
        channel = channel_of(interaction)
        _locale, stored = await bot.service.table_settings(channel, interaction.guild_id)
        options = table_options(as_text(stored)).model_copy(update={"first_player": FIRST_OPTIONS[self.first]})
        first_name = seat_name(self.name, f"player-{self.challenger % 10000}")
        user = interaction.user
        second_name = seat_name(user.display_name, user.name)
        if normalize_name(first_name) == normalize_name(second_name):
            second_name = check_name(f"{second_name} ({user.name})", "player")
        seats = [(self.challenger, first_name, ids[self.deck]), (self.opponent, second_name, ids[self.opponent_deck])]
        outcome = await bot.service.start_from_decks(channel, user.id, seats, options, guild_id=interaction.guild_id)
        locale = bot.locale_for(interaction)
        board = render_board(outcome.state, locale, commitment=outcome.commitment, bars=True)
        view = table_view(outcome.state, outcome, locale)
        await send_messages(interaction, [render_outcome(outcome, locale), board], ephemeral=False, view=view)


class DeclineButton(discord.ui.DynamicItem[discord.ui.Button[Any]], template=DECLINE_TEMPLATE):
    """Either player may call the invitation off; the invitation message says so and loses its buttons."""

    def __init__(self, challenger: int, opponent: int, *, label: str = "…") -> None:
        custom_id = f"hn:dec:{challenger}:{opponent}"
        super().__init__(discord.ui.Button(label=label, style=discord.ButtonStyle.secondary, custom_id=custom_id))
        self.challenger, self.opponent = challenger, opponent

    @classmethod
    async def from_custom_id(
        cls, interaction: discord.Interaction[Any], item: discord.ui.Item[Any], match: re.Match[str], /
    ) -> DeclineButton:
        label = item.label if isinstance(item, discord.ui.Button) and item.label else "…"
        return cls(int(match["challenger"]), int(match["opponent"]), label=label)

    async def interaction_check(self, interaction: discord.Interaction[Any], /) -> bool:
        return await invited_only(interaction, self.opponent, also=self.challenger)

    async def callback(self, interaction: discord.Interaction[Any]) -> None:
        try:
            bot: RefereeBot = interaction.client
            locale = bot.locale_for(interaction)
            declined = t("discord.table.declined", locale, user=interaction.user.mention)
            embed = discord.Embed(description=declined, colour=COLOUR)
            await interaction.response.edit_message(
                embeds=[embed], view=None, allowed_mentions=discord.AllowedMentions.none()
            )
        except Exception as exc:
            await answer_error(interaction, exc)


async def invited_only(interaction: discord.Interaction[RefereeBot], user_id: int, also: int | None = None) -> bool:
    if not interaction.client.first_delivery(interaction):
        return False
    if interaction.user.id in (user_id, also):
        return True
    await answer_error(interaction, TableUIError("discord.table.not_invited", user=f"<@{user_id}>"))
    return False


def log_messages(lines: list[str], title: str, locale: str) -> list[Message]:
    """A log as embeds within Discord's limits: the latest lines kept, the earlier ones counted."""
    budget = TOTAL_LIMIT - len(title) - 200
    kept: list[str] = []
    used = 0
    for line in reversed(lines):
        line = clip(line, 1000)
        if used + len(line) + 1 > budget or len(kept) >= 400:
            break
        kept.append(line)
        used += len(line) + 1
    kept.reverse()
    skipped = len(lines) - len(kept)
    if skipped:
        kept.insert(0, t("discord.table.log_clipped", locale, count=skipped))
    pages: list[list[str]] = [[]]
    size = 0
    for line in kept:
        if size + len(line) + 1 > DESCRIPTION_LIMIT - 10 and pages[-1]:
            pages.append([])
            size = 0
        pages[-1].append(line)
        size += len(line) + 1
    pages = pages[:EMBEDS_PER_MESSAGE]
    return [Message(title=title if i == 0 else "", lines=page) for i, page in enumerate(pages)]


class GameCog(commands.Cog):
    game = app_commands.Group(
        name=text("discord.command.game.name"), description=text("discord.command.game.description")
    )

    def __init__(self, bot: RefereeBot) -> None:
        self.bot = bot

    # -- start ------------------------------------------------------------------------------------

    @game.command(
        name=text("discord.command.game.start.name"), description=text("discord.command.game.start.description")
    )
    @app_commands.rename(
        opponent=text("discord.command.game.start.option.opponent.name"),
        deck=text("discord.command.game.start.option.deck.name"),
        opponent_deck=text("discord.command.game.start.option.opponent_deck.name"),
        first=text("discord.command.game.start.option.first.name"),
    )
    @app_commands.describe(
        opponent=text("discord.command.game.start.option.opponent.description"),
        deck=text("discord.command.game.start.option.deck.description"),
        opponent_deck=text("discord.command.game.start.option.opponent_deck.description"),
        first=text("discord.command.game.start.option.first.description"),
    )
    @app_commands.choices(
        first=[
            app_commands.Choice(name=text(f"discord.command.game.start.choice.{c}"), value=c)
            for c in ("random", "me", "opponent")
        ]
    )
    async def start(
        self,
        interaction: discord.Interaction[RefereeBot],
        opponent: discord.User,
        deck: app_commands.Range[str, 1, 100] | None = None,
        opponent_deck: app_commands.Range[str, 1, 100] | None = None,
        first: str = "random",
    ) -> None:
        if opponent.id == interaction.user.id:
            raise TableUIError("discord.table.self_invite")
        if opponent.bot:
            raise TableUIError("discord.table.bot_invite")
        catalog = self.bot.catalog
        mine, theirs = choose_deck(catalog, deck, 0), choose_deck(catalog, opponent_deck, 1)
        channel = channel_of(interaction)
        try:  # a running game is refused now, not when the opponent accepts
            view = await self.bot.service.status(channel)
        except NoGame:
            view = None
        if view is not None and view.active:
            raise TableUIError("store.game_exists", channel=channel)
        locale = self.bot.locale_for(interaction)
        ids = deck_ids(catalog)
        code = FIRST_CODES.get(first, "r")
        first_text = {
            "r": t("discord.table.first_random", locale),
            "f": interaction.user.mention,
            "s": opponent.mention,
        }[code]
        line = t(
            "discord.table.invite",
            locale,
            challenger=interaction.user.mention,
            opponent=opponent.mention,
            deck=deck_label(catalog, mine, locale),
            opponent_deck=deck_label(catalog, theirs, locale),
            first=first_text,
        )
        message = Message(
            title=t("discord.table.invite_title", locale),
            lines=[line, t("discord.table.invite_wait", locale, opponent=opponent.mention)],
        )
        name = seat_name(interaction.user.display_name, interaction.user.name)
        buttons = discord.ui.View(timeout=None)
        accept = AcceptButton(
            interaction.user.id, opponent.id, ids.index(mine), ids.index(theirs), code, name,
            label=t("discord.table.accept", locale),
        )  # fmt: skip
        buttons.add_item(accept)
        buttons.add_item(DeclineButton(interaction.user.id, opponent.id, label=t("discord.table.decline", locale)))
        await reply(interaction, message, ephemeral=False, view=buttons)

    @start.autocomplete("deck")
    @start.autocomplete("opponent_deck")
    async def deck_autocomplete(
        self, interaction: discord.Interaction[RefereeBot], current: str
    ) -> list[app_commands.Choice[str]]:
        locale = self.bot.locale_for(interaction)
        typed = current.casefold().strip()
        choices = []
        for deck_id in deck_ids(self.bot.catalog):
            label = deck_label(self.bot.catalog, deck_id, locale)
            if typed in label.casefold() or typed in deck_id:
                choices.append(app_commands.Choice(name=clip(f"{label} ({deck_id})", 100), value=deck_id))
        return choices[:25]

    @game.command(
        name=text("discord.command.game.practice.name"), description=text("discord.command.game.practice.description")
    )
    @app_commands.rename(
        opponent=text("discord.command.game.practice.option.opponent.name"),
        position=text("discord.command.game.practice.option.position.name"),
        file=text("discord.command.game.practice.option.file.name"),
    )
    @app_commands.describe(
        opponent=text("discord.command.game.practice.option.opponent.description"),
        position=text("discord.command.game.practice.option.position.description"),
        file=text("discord.command.game.practice.option.file.description"),
    )
    async def practice(
        self,
        interaction: discord.Interaction[RefereeBot],
        opponent: discord.User,
        position: str | None = None,
        file: discord.Attachment | None = None,
    ) -> None:
        """A judge's practice table from a position: one the referee ships, by name, or an attached file.
        The caller takes its first side and `opponent` the second. It is marked practice everywhere, its
        dice are the position's given faces, and `/game verify` refuses it (bot/table/position.py)."""
        if (position is None) == (file is None):
            raise TableUIError("discord.table.practice_one_source")
        if opponent.id == interaction.user.id:
            raise TableUIError("discord.table.self_invite")
        if file is not None:
            source, name = await read_text_attachment(file, POSITION_LIMIT), file.filename
        else:
            path = shipped_positions().get(str(position))
            if path is None:
                raise TableUIError("discord.table.practice_unknown", names=", ".join(sorted(shipped_positions())))
            source, name = read_text(path, limit=POSITION_LIMIT), path.name
        checked = parse_position(source, self.bot.catalog, name)
        outcome = await self.bot.service.start_practice(
            channel_of(interaction),
            interaction.user.id,
            checked,
            (interaction.user.id, opponent.id),
            guild_id=interaction.guild_id,
            is_moderator=is_moderator(interaction),
        )
        await answer_outcome(interaction, outcome)

    @practice.autocomplete("position")
    async def position_autocomplete(
        self, interaction: discord.Interaction[RefereeBot], current: str
    ) -> list[app_commands.Choice[str]]:
        typed = current.casefold()
        return [app_commands.Choice(name=n, value=n) for n in sorted(shipped_positions()) if typed in n][:25]

    # -- reading ----------------------------------------------------------------------------------

    @game.command(
        name=text("discord.command.game.status.name"), description=text("discord.command.game.status.description")
    )
    async def status(self, interaction: discord.Interaction[RefereeBot]) -> None:
        view = await self._view_or_last(channel_of(interaction))
        locale = self.bot.locale_for(interaction)
        board = render_board(
            view.state,
            locale,
            commitment=view.commitment,
            revealed_seed=view.revealed_seed,
            finished=not view.active,
            bars=True,  # a board read at a glance: HP as bars
        )
        shard = self.bot.shard_label(interaction.guild_id)
        if shard is not None:  # which process answers this server, when several share the shards
            board = board.model_copy(update={"lines": [*board.lines, t("discord.table.shard", locale, shard=shard)]})
        await reply(interaction, board, ephemeral=False, view=table_view(view.state, view, locale))

    @game.command(name=text("discord.command.game.log.name"), description=text("discord.command.game.log.description"))
    async def log(self, interaction: discord.Interaction[RefereeBot]) -> None:
        try:
            game_log = await self.bot.service.log(channel_of(interaction))
        except NoGame:
            raise TableUIError("discord.table.no_game") from None
        locale = self.bot.locale_for(interaction)
        rendered = render_log(game_log.events(), locale, title="")
        title = t("discord.table.log_title", locale, game=game_log.game.game_id)
        await send_messages(interaction, log_messages(list(rendered.lines), title, locale), ephemeral=True)

    # -- changing ---------------------------------------------------------------------------------

    @game.command(name=text("discord.command.game.end.name"), description=text("discord.command.game.end.description"))
    @app_commands.rename(reason=text("discord.command.game.end.option.reason.name"))
    @app_commands.describe(reason=text("discord.command.game.end.option.reason.description"))
    async def end(
        self, interaction: discord.Interaction[RefereeBot], reason: app_commands.Range[str, 1, REASON_LIMIT] = ""
    ) -> None:
        channel = channel_of(interaction)
        moderator = is_moderator(interaction)
        if not moderator:  # a seated player is the table's judge too, as at the console
            try:
                view = await self.bot.service.status(channel)
            except NoGame:
                raise TableUIError("discord.table.no_game") from None
            if view.state.seat_of(str(interaction.user.id)) is None:
                raise NotModerator("discord.table.not_seated_or_moderator")
        outcome = await self.bot.service.end(channel, interaction.user.id, is_moderator=True, reason=reason)
        await answer_outcome(interaction, outcome)

    @game.command(
        name=text("discord.command.game.undo.name"), description=text("discord.command.game.undo.description")
    )
    async def undo(self, interaction: discord.Interaction[RefereeBot]) -> None:
        outcome = await self.bot.service.undo(channel_of(interaction), interaction.user.id)
        await answer_outcome(interaction, outcome)

    @game.command(
        name=text("discord.command.game.options.name"), description=text("discord.command.game.options.description")
    )
    @app_commands.rename(
        option=text("discord.command.game.options.option.option.name"),
        value=text("discord.command.game.options.option.value.name"),
    )
    @app_commands.describe(
        option=text("discord.command.game.options.option.option.description"),
        value=text("discord.command.game.options.option.value.description"),
    )
    async def options(
        self,
        interaction: discord.Interaction[RefereeBot],
        option: app_commands.Range[str, 1, 40] | None = None,
        value: app_commands.Range[str, 1, 40] | None = None,
    ) -> None:
        channel = channel_of(interaction)
        locale = self.bot.locale_for(interaction)
        _locale, stored = await self.bot.service.table_settings(channel, interaction.guild_id)
        current = as_text(stored)
        lines: list[str] = []
        if option is not None:
            key = option.strip().lower()
            if key not in GameOptions.model_fields or key in START_KEYS:
                raise TableUIError(
                    "discord.table.options_unknown", key=option, options=", ".join(GameOptions.model_fields)
                )
            if value is None:
                raise TableUIError("discord.table.options_value_missing", key=key)
            chosen = table_options({**current, key: value})  # a bad value is refused here, nothing stored
            word = option_value(getattr(chosen, key))
            await self.bot.service.set_channel_settings(channel, guild_id=interaction.guild_id, options={key: word})
            current[key] = word
            lines.append(t("discord.table.options_set", locale, key=key, value=word))
        lines += option_lines(table_options(current), locale)
        lines.append(t("discord.table.options_note", locale))
        await reply(interaction, Message(title=t("discord.table.options_title", locale), lines=lines), ephemeral=False)

    @options.autocomplete("option")
    async def option_autocomplete(
        self, interaction: discord.Interaction[RefereeBot], current: str
    ) -> list[app_commands.Choice[str]]:
        locale = self.bot.locale_for(interaction)
        typed = current.casefold().strip()
        choices = []
        for key in GameOptions.model_fields:
            label = t(f"render.option.{key}", locale)
            if typed in key or typed in label.casefold():
                choices.append(app_commands.Choice(name=clip(f"{key} — {label}", 100), value=key))
        return choices[:25]

    @game.command(
        name=text("discord.command.game.verify.name"), description=text("discord.command.game.verify.description")
    )
    async def verify(self, interaction: discord.Interaction[RefereeBot]) -> None:
        channel = channel_of(interaction)
        try:
            check = await self.bot.service.verify(channel)
        except NoGame:
            raise TableUIError("discord.table.no_game") from None
        locale = self.bot.locale_for(interaction)
        lines = [t("dice.verify.reproducible", locale)] if check.reproducible else []
        lines += [t(p.key, locale, **p.args) for p in check.problems]
        if check.ok:
            key = "dice.verify.game_ok_reproducible" if check.reproducible else "dice.verify.game_ok"
            summary = t(
                key, locale, game=check.game_id, channel=channel, table=check.table_id, rolls=check.rolls,
                shuffles=check.shuffles, filed=check.filed, commitment=check.commitment,
            )  # fmt: skip
            lines.insert(0, t("discord.table.verify_ok", locale, summary=summary))
        else:
            count = check.rolls + check.shuffles + check.filed
            summary = t("dice.verify.game_failed", locale, game=check.game_id, bad=len(check.problems), count=count)
            lines.insert(0, t("discord.table.verify_failed", locale, summary=summary))
        await reply(interaction, Message(lines=lines), ephemeral=False)

    async def _view_or_last(self, channel: int) -> TableView:
        """The running table, else the last finished one as it ended."""
        try:
            return await self.bot.service.status(channel)
        except NoGame:
            pass
        try:
            return (await self.bot.service.log(channel)).game
        except NoGame:
            raise TableUIError("discord.table.no_game") from None


def shipped_positions() -> dict[str, Path]:
    """The practice positions the referee ships (docs/positions/), by name."""
    try:
        folder = data_folder("docs") / "positions"
    except DataFolderMissing:
        return {}
    return {path.stem: path for path in sorted(folder.glob("*.toml"))}


async def setup(bot: RefereeBot) -> None:
    await bot.add_cog(GameCog(bot))
    bot.add_dynamic_items(AcceptButton, DeclineButton)
