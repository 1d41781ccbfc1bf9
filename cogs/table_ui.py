"""The table's buttons and select menu: what the acting player can do now, one click each.

Every component's custom_id carries the channel, the state version it was made for and the user it
is meant for (`hn:pass:{channel}:{version}:{user}:{index}`). The index is the action's place in
`legal_actions` of that very state: the state of one version always offers the same list, and the
click is played by a builder that the service runs under the table's lock, which refuses it unless
the table is still the one the component was made for (so a double click, or a click on an old
message, never plays on a newer table). Components are `DynamicItem`s registered in `setup`, so a
message sent before a restart keeps working after it.

The reply to a click is the interaction's own response (public for a play, ephemeral for a hand or a
refusal), never an extra channel message.
"""

from __future__ import annotations

import contextlib
import re
from collections.abc import Sequence
from typing import Any

import discord

from bot.app import RefereeBot
from bot.embeds import EMBEDS_PER_MESSAGE, TOTAL_LIMIT, clip, reply, send, to_embed
from bot.engine import (
    Action,
    Block,
    Cast,
    Charge,
    Concede,
    ConfirmAdjust,
    GameState,
    LookAtDeck,
    NoBlock,
    Pass,
    RejectAdjust,
    Summon,
    UseSkill,
    legal_actions,
)
from bot.errors import RefereeError
from bot.i18n import t
from bot.render import render_hand
from bot.render.message import Message
from bot.render.names import Names
from bot.render.outcome import render_outcome
from bot.service import NotSeated, Outcome, TableView
from bot.table import ActionBuilder
from bot.tree import answer_error

LABEL_LIMIT = 80  # a button's label
OPTION_LIMIT = 100  # a select option's label and value
MENU_LIMIT = 25  # options in one select menu
ROW_LIMIT = 5


class TableUIError(RefereeError):
    """A component that cannot be used (an old one, another player's); keys under discord.table."""

    key = "discord.table.stale"


# -- words --------------------------------------------------------------------------------------------


def channel_of(interaction: discord.Interaction[RefereeBot]) -> int:
    """The table of an interaction: its channel (a direct message's table is the user's own)."""
    return interaction.channel_id if interaction.channel_id is not None else interaction.user.id


def action_label(state: GameState, action: Action, locale: str) -> str:
    """An action as a button or menu option reads: what it plays and on what, in the reader's language."""
    names = Names(state, locale)

    def say(key: str, **args: Any) -> str:
        return clip(t(f"discord.table.action.{key}", locale, **args), OPTION_LIMIT)

    match action:
        case Charge():
            card = names.card(action.card)
            if not action.use_ether_effect:
                return say("charge_no_effect", card=card)
            aimed = action.target or action.ally_target
            return say("charge_target", card=card, target=names.unit(aimed)) if aimed else say("charge", card=card)
        case Cast():
            card, caster = names.card(action.card), names.unit(action.caster)
            aimed = action.target or action.ally_target
            if aimed:
                return say("cast_target", card=card, caster=caster, target=names.unit(aimed))
            return say("cast", card=card, caster=caster)
        case UseSkill():
            skill, unit = names.skill(action.unit, action.skill), names.unit(action.unit)
            aimed = action.target or action.ally_target
            if aimed:
                return say("skill_target", skill=skill, unit=unit, target=names.unit(aimed))
            return say("skill", skill=skill, unit=unit)
        case Summon():
            return say("summon", card=names.card(action.card), caster=names.unit(action.caster))
        case Block():
            return say("block", unit=names.unit(action.blocker))
        case NoBlock():
            return say("noblock")
        case Pass():
            return say("pass")
        case ConfirmAdjust():
            return say("confirm")
        case RejectAdjust():
            return say("reject")
        case LookAtDeck():
            return say("look", count=action.count)
        case Concede():
            return say("concede")
    return clip(action.type, OPTION_LIMIT)


def pass_label(state: GameState, locale: str) -> str:
    """Pass reads as what it does in this phase: pass (charge), next phase (main), done (windows)."""
    if state.phase == "main":
        return t("discord.table.next", locale)
    if state.phase in ("start", "end"):
        return t("discord.table.done", locale)
    return t("discord.table.pass", locale)


# -- components ---------------------------------------------------------------------------------------

KINDS = ("pass", "noblock", "block", "confirm", "reject", "hand")
BUTTON_TEMPLATE = (
    r"hn:(?P<kind>pass|noblock|block|confirm|reject|hand):(?P<channel>[0-9]{1,20}):(?P<version>[0-9]{1,10})"
    r":(?P<user>[0-9]{1,20}):(?P<index>[0-9]{1,3})"
)
SELECT_TEMPLATE = r"hn:play:(?P<channel>[0-9]{1,20}):(?P<version>[0-9]{1,10}):(?P<user>[0-9]{1,20})"
KIND_OF: dict[type, str] = {
    Pass: "pass",
    NoBlock: "noblock",
    Block: "block",
    ConfirmAdjust: "confirm",
    RejectAdjust: "reject",
}
STYLE = {
    "pass": discord.ButtonStyle.primary,
    "noblock": discord.ButtonStyle.secondary,
    "block": discord.ButtonStyle.danger,
    "confirm": discord.ButtonStyle.success,
    "reject": discord.ButtonStyle.secondary,
    "hand": discord.ButtonStyle.secondary,
}


def on_table(view: TableView, version: int, index: int, expected: type | None) -> ActionBuilder:
    """A builder that plays the `index`-th legal action of the acting user, only on the table the
    component was made for: the service calls it under the lock, on the state it applies it to."""
    made_for = view.state

    def build(state: GameState, player: str, seat: int | None) -> Action:
        if state is not made_for and state != made_for:
            raise TableUIError("discord.table.stale")
        actions = legal_actions(state, player)
        if not 0 <= index < len(actions):
            raise TableUIError("discord.table.stale")
        action = actions[index]
        if expected is not None and not isinstance(action, expected):
            raise TableUIError("discord.table.stale")
        return action

    return build


async def current(bot: RefereeBot, channel_id: int, version: int) -> TableView:
    """The channel's running table, if it is still at `version`; otherwise the component is stale."""
    try:
        view = await bot.service.status(channel_id)
    except RefereeError:
        raise TableUIError("discord.table.stale") from None
    if not view.active or view.version != version:
        raise TableUIError("discord.table.stale")
    return view


def player_name(state: GameState, user_id: int) -> str:
    seat = state.seat_of(str(user_id))
    return state.players[seat].name if seat is not None else f"<@{user_id}>"


async def play_component(
    interaction: discord.Interaction[RefereeBot], channel_id: int, version: int, index: int, expected: type | None
) -> None:
    """Play the clicked action and answer with the public reply (and the next player's buttons)."""
    bot = interaction.client
    if interaction.channel_id != channel_id:
        raise TableUIError("discord.table.stale")
    view = await current(bot, channel_id, version)
    outcome = await bot.service.act(channel_id, interaction.user.id, on_table(view, version, index, expected))
    await answer_outcome(interaction, outcome)


async def answer_outcome(interaction: discord.Interaction[RefereeBot], outcome: Outcome) -> None:
    """The public reply to one play: what happened, who acts now, and that player's buttons."""
    locale = interaction.client.locale_for(interaction)
    message = render_outcome(outcome, locale)
    await reply(interaction, message, ephemeral=False, view=table_view(outcome.state, outcome, locale))


class TableButton(discord.ui.DynamicItem[discord.ui.Button[Any]], template=BUTTON_TEMPLATE):
    """Pass, no block, block with one unit, confirm or reject a request, or show one's hand."""

    def __init__(
        self, kind: str, channel_id: int, version: int, user_id: int, index: int = 0, *, label: str = "…"
    ) -> None:
        custom_id = f"hn:{kind}:{channel_id}:{version}:{user_id}:{index}"
        super().__init__(discord.ui.Button(label=clip(label, LABEL_LIMIT), style=STYLE[kind], custom_id=custom_id))
        self.kind, self.channel_id, self.version, self.user_id, self.index = kind, channel_id, version, user_id, index

    @classmethod
    async def from_custom_id(
        cls, interaction: discord.Interaction[Any], item: discord.ui.Item[Any], match: re.Match[str], /
    ) -> TableButton:
        label = item.label if isinstance(item, discord.ui.Button) and item.label else "…"
        ids = int(match["channel"]), int(match["version"]), int(match["user"]), int(match["index"])
        return cls(match["kind"], *ids, label=label)

    async def interaction_check(self, interaction: discord.Interaction[Any], /) -> bool:
        return await component_check(interaction, self.user_id)

    async def callback(self, interaction: discord.Interaction[Any]) -> None:
        try:
            if self.kind == "hand":
                await show_hand(interaction, self.channel_id)
                return
            expected = {v: k for k, v in KIND_OF.items()}[self.kind]
            await play_component(interaction, self.channel_id, self.version, self.index, expected)
        except Exception as exc:  # the tree's handler is for slash commands; components share its replies
            await answer_error(interaction, exc)


class PlaySelect(discord.ui.DynamicItem[discord.ui.Select[Any]], template=SELECT_TEMPLATE):
    """The menu of what the player can play now (cards to convert or cast, skills); values are indexes."""

    def __init__(
        self,
        channel_id: int,
        version: int,
        user_id: int,
        options: Sequence[discord.SelectOption] = (),
        *,
        placeholder: str | None = None,
    ) -> None:
        select: discord.ui.Select[Any] = discord.ui.Select(
            custom_id=f"hn:play:{channel_id}:{version}:{user_id}",
            options=list(options) or [discord.SelectOption(label="…", value="0")],
            placeholder=placeholder,
            min_values=1,
            max_values=1,
        )
        super().__init__(select)
        self.channel_id, self.version, self.user_id = channel_id, version, user_id

    @classmethod
    async def from_custom_id(
        cls, interaction: discord.Interaction[Any], item: discord.ui.Item[Any], match: re.Match[str], /
    ) -> PlaySelect:
        return cls(int(match["channel"]), int(match["version"]), int(match["user"]))

    async def interaction_check(self, interaction: discord.Interaction[Any], /) -> bool:
        return await component_check(interaction, self.user_id)

    async def callback(self, interaction: discord.Interaction[Any]) -> None:
        try:
            values = self.item.values
            chosen = str(values[0]) if values else ""
            if not chosen.isdigit() or len(chosen) > 3:
                raise TableUIError("discord.table.stale")
            await play_component(interaction, self.channel_id, self.version, int(chosen), None)
        except Exception as exc:
            await answer_error(interaction, exc)


async def component_check(interaction: discord.Interaction[RefereeBot], user_id: int) -> bool:
    """A replayed interaction acts once; another user's click is refused politely (ephemeral)."""
    bot = interaction.client
    if not bot.first_delivery(interaction):
        return False
    if interaction.user.id != user_id:
        who = f"<@{user_id}>"
        with contextlib.suppress(RefereeError):
            who = player_name((await bot.service.status(interaction.channel_id or 0)).state, user_id)
        await answer_error(interaction, TableUIError("discord.table.not_yours", player=who))
        return False
    return True


# -- what a message offers ----------------------------------------------------------------------------


def table_view(state: GameState, outcome: Outcome | TableView, locale: str) -> discord.ui.View | None:
    """The buttons of the public table message: the acting player's pass / block / no block / hand, and
    confirm / reject for whoever must answer a waiting adjustment. None when the game is over."""
    finished = outcome.finished if isinstance(outcome, Outcome) else not outcome.active
    if finished or state.over or not state.started:
        return None
    channel_id, version = outcome.channel_id, outcome.version
    buttons: list[TableButton] = []
    names = Names(state, locale)
    for seat, player in enumerate(state.players):
        user_id = int(player.id)
        actions = legal_actions(state, player.id)
        for index, action in enumerate(actions):
            kind = KIND_OF.get(type(action))
            if kind is None:
                continue
            if kind == "pass":
                label = pass_label(state, locale)
            elif kind == "block":
                assert isinstance(action, Block)
                label = t("discord.table.block", locale, unit=names.unit(action.blocker))
            else:
                label = t(f"discord.table.{kind}", locale)
            buttons.append(TableButton(kind, channel_id, version, user_id, index, label=label))
        if state.active == seat and any(isinstance(a, Charge | Cast | UseSkill | Summon) for a in actions):
            buttons.append(
                TableButton("hand", channel_id, version, user_id, label=t("discord.table.show_hand", locale))
            )
    if not buttons:
        return None
    view = discord.ui.View(timeout=None)
    for button in buttons[: ROW_LIMIT * ROW_LIMIT]:
        view.add_item(button)
    return view


PLAYABLE = (Charge, Cast, Summon, UseSkill)


def hand_view(state: GameState, channel_id: int, version: int, user_id: int, locale: str) -> discord.ui.View | None:
    """The menu of the cards the player can convert or cast now (and skills), and a pass button."""
    actions = legal_actions(state, str(user_id))
    options = []
    seen: set[str] = set()
    ordered = sorted(
        enumerate(actions), key=lambda pair: PLAYABLE.index(type(pair[1])) if type(pair[1]) in PLAYABLE else 9
    )
    for index, action in ordered:
        if not isinstance(action, PLAYABLE):
            continue
        label = action_label(state, action, locale)
        if label in seen:
            continue
        seen.add(label)
        options.append(discord.SelectOption(label=label, value=str(index)))
        if len(options) == MENU_LIMIT:
            break
    view = discord.ui.View(timeout=None)
    if options:
        placeholder = t("discord.table.hand_placeholder", locale)
        view.add_item(PlaySelect(channel_id, version, user_id, options, placeholder=placeholder))
    for index, action in enumerate(actions):
        if isinstance(action, Pass):
            view.add_item(TableButton("pass", channel_id, version, user_id, index, label=pass_label(state, locale)))
    return view if view.children else None


async def show_hand(interaction: discord.Interaction[RefereeBot], channel_id: int) -> None:
    """The player's hand, to them alone, with the menu of what they can play now."""
    bot = interaction.client
    view = await bot.service.status(channel_id)
    seat = view.state.seat_of(str(interaction.user.id))
    if seat is None or not view.active:
        raise NotSeated()
    locale = bot.locale_for(interaction)
    hand = render_hand(view.state, seat, locale)
    menu = hand_view(view.state, channel_id, view.version, interaction.user.id, locale)
    if menu is None:
        hand = Message(title=hand.title, lines=[*hand.lines, "", t("discord.table.hand_none", locale)],
                       fields=hand.fields, private_to=hand.private_to)  # fmt: skip
    await reply(interaction, hand, ephemeral=True, view=menu)


def fitted(embeds: Sequence[discord.Embed]) -> list[discord.Embed]:
    """As many of `embeds` as one message holds (10 embeds, 6,000 characters in all)."""
    out: list[discord.Embed] = []
    used = 0
    for embed in embeds[:EMBEDS_PER_MESSAGE]:
        size = len(embed)
        if out and used + size > TOTAL_LIMIT:
            break
        out.append(embed)
        used += size
    return out


async def send_messages(
    interaction: discord.Interaction[RefereeBot],
    messages: Sequence[Message],
    *,
    ephemeral: bool,
    view: discord.ui.View | None = None,
) -> None:
    """Several messages in one reply, as many as fit."""
    if not ephemeral and any(m.private_to for m in messages):
        raise ValueError("a private message cannot be sent publicly")
    await send(interaction, embeds=fitted([to_embed(m) for m in messages]), ephemeral=ephemeral, view=view)
