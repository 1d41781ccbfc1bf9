"""The play commands: /hand /charge /pass /cast /skill /block /noblock /next /summon /adjust /concede
and (in cogs/decks.py) /deck top. Each is one service call with the builder of its words (bot/table), rendered from the
Outcome that call returns; the reply is public and offers the acting player their buttons.

Options autocomplete from what the player may do now (`service.legal`), at most 25, in the engine's
order (the order it offers them), narrowed by the options already filled in. A suggestion is only a
suggestion: the submitted value is resolved again by the builder, under the table's lock, on the
table as it is then, and anything else is refused with the table's own words (ephemerally).
"""

from __future__ import annotations

import discord
from discord import app_commands
from discord.ext import commands

from bot.app import RefereeBot
from bot.embeds import clip
from bot.engine import Action, Block, Cast, Charge, GameState, Summon, UseSkill
from bot.errors import RefereeError
from bot.render.names import Names
from bot.table import ADJUST_FIELDS, Request, builder
from bot.translator import text
from cogs.table_ui import PlaySelect, TableButton, answer_outcome, channel_of, show_hand

CHOICES = 25
VALUE_LIMIT = 100
NOTE_LIMIT = 200

# (command, option) → the action type that offers it and the attribute that holds its value.
SOURCES: dict[str, tuple[type, dict[str, str]]] = {
    "charge": (Charge, {"card": "card", "target": "target", "ally": "ally_target"}),
    "cast": (Cast, {"card": "card", "caster": "caster", "target": "target", "ally": "ally_target"}),
    "skill": (UseSkill, {"unit": "unit", "skill": "skill", "target": "target", "ally": "ally_target"}),
    "block": (Block, {"blocker": "blocker"}),
    "summon": (Summon, {"card": "card", "caster": "caster"}),
}
CARD_OPTIONS = frozenset({"card"})
SKILL_OPTIONS = frozenset({"skill"})


def value_label(state: GameState, names: Names, action: Action, option: str, value: str) -> str:
    if option in CARD_OPTIONS:
        return names.card(value)
    if option in SKILL_OPTIONS:
        return names.skill(str(getattr(action, "unit", "")), value)
    return names.unit(value)


def suggestions(
    state: GameState,
    actions: list[Action],
    command: str,
    option: str,
    filled: dict[str, str],
    current: str,
    locale: str,
) -> list[app_commands.Choice[str]]:
    """The values of `option` among the legal actions of `command`, narrowed by the options already
    chosen (when they name one of them), matching what is typed; the engine's order, at most 25."""
    source = SOURCES.get(command)
    if source is None or option not in source[1]:
        return []
    kind, attributes = source
    offered = [a for a in actions if isinstance(a, kind)]
    for other, chosen in filled.items():
        attribute = attributes.get(other)
        if other == option or attribute is None:
            continue
        narrowed = [a for a in offered if getattr(a, attribute) == chosen]
        if narrowed:  # a typed name that is no id narrows nothing: the submit resolves it
            offered = narrowed
    names = Names(state, locale)
    typed = current.casefold().strip()
    starts: list[app_commands.Choice[str]] = []
    contains: list[app_commands.Choice[str]] = []
    seen: set[str] = set()
    for action in offered:
        value = getattr(action, attributes[option])
        if value is None or value in seen or len(value) > VALUE_LIMIT:
            continue
        seen.add(value)
        label = clip(value_label(state, names, action, option, value), VALUE_LIMIT)
        folded = label.casefold()
        if not typed or folded.startswith(typed) or value.startswith(typed):
            starts.append(app_commands.Choice(name=label, value=value))
        elif typed in folded or typed in value:
            contains.append(app_commands.Choice(name=label, value=value))
    return (starts + contains)[:CHOICES]


def filled_options(interaction: discord.Interaction[RefereeBot]) -> tuple[str, dict[str, str]]:
    """The command's name and the options given so far (by their English names)."""
    command = interaction.command
    name = command.name if command is not None else ""
    filled = {key: str(value) for key, value in interaction.namespace if isinstance(value, str | int) and value != ""}
    return name, filled


def given(**options: str | int | None) -> dict[str, str]:
    return {key: str(value) for key, value in options.items() if value is not None}


ADJUST_CHOICES = [app_commands.Choice(name=field, value=field) for field in ADJUST_FIELDS] + [
    app_commands.Choice(name=text(f"discord.command.adjust.choice.{answer}"), value=answer)
    for answer in ("confirm", "reject")
]


class PlayCog(commands.Cog):
    def __init__(self, bot: RefereeBot) -> None:
        self.bot = bot

    async def play(
        self, interaction: discord.Interaction[RefereeBot], command: str, **options: str | int | None
    ) -> None:
        """The one service call of a play command, and its public reply."""
        request = Request(command, given(**options))
        outcome = await self.bot.service.act(
            channel_of(interaction), interaction.user.id, builder(self.bot.catalog, request)
        )
        await answer_outcome(interaction, outcome)

    async def suggest(
        self, interaction: discord.Interaction[RefereeBot], option: str, current: str
    ) -> list[app_commands.Choice[str]]:
        """Autocomplete from the player's legal actions; nothing (never an error) when there is no table."""
        channel = channel_of(interaction)
        try:
            actions = await self.bot.service.legal(channel, interaction.user.id)
            if not actions:
                return []
            view = await self.bot.service.status(channel)
        except RefereeError:
            return []
        command, filled = filled_options(interaction)
        locale = self.bot.locale_for(interaction)
        return suggestions(view.state, actions, command, option, filled, current, locale)

    # -- the hand -----------------------------------------------------------------------------------

    @app_commands.command(name=text("discord.command.hand.name"), description=text("discord.command.hand.description"))
    async def hand(self, interaction: discord.Interaction[RefereeBot]) -> None:
        await show_hand(interaction, channel_of(interaction))

    # -- the charge phase ---------------------------------------------------------------------------

    @app_commands.command(
        name=text("discord.command.charge.name"), description=text("discord.command.charge.description")
    )
    @app_commands.rename(
        card=text("discord.command.charge.option.card.name"),
        target=text("discord.command.charge.option.target.name"),
        ally=text("discord.command.charge.option.ally.name"),
        effect=text("discord.command.charge.option.effect.name"),
    )
    @app_commands.describe(
        card=text("discord.command.charge.option.card.description"),
        target=text("discord.command.charge.option.target.description"),
        ally=text("discord.command.charge.option.ally.description"),
        effect=text("discord.command.charge.option.effect.description"),
    )
    async def charge(
        self,
        interaction: discord.Interaction[RefereeBot],
        card: app_commands.Range[str, 1, VALUE_LIMIT],
        target: app_commands.Range[str, 1, VALUE_LIMIT] | None = None,
        ally: app_commands.Range[str, 1, VALUE_LIMIT] | None = None,
        effect: bool = True,
    ) -> None:
        await self.play(interaction, "charge", card=card, target=target, ally=ally, effect="on" if effect else "off")

    @charge.autocomplete("card")
    async def charge_card(
        self, interaction: discord.Interaction[RefereeBot], current: str
    ) -> list[app_commands.Choice[str]]:
        return await self.suggest(interaction, "card", current)

    @charge.autocomplete("target")
    async def charge_target(
        self, interaction: discord.Interaction[RefereeBot], current: str
    ) -> list[app_commands.Choice[str]]:
        return await self.suggest(interaction, "target", current)

    @charge.autocomplete("ally")
    async def charge_ally(
        self, interaction: discord.Interaction[RefereeBot], current: str
    ) -> list[app_commands.Choice[str]]:
        return await self.suggest(interaction, "ally", current)

    @app_commands.command(name=text("discord.command.pass.name"), description=text("discord.command.pass.description"))
    async def pass_(self, interaction: discord.Interaction[RefereeBot]) -> None:
        await self.play(interaction, "pass")

    @app_commands.command(name=text("discord.command.next.name"), description=text("discord.command.next.description"))
    async def next_(self, interaction: discord.Interaction[RefereeBot]) -> None:
        await self.play(interaction, "next")

    # -- the main phase -----------------------------------------------------------------------------

    @app_commands.command(name=text("discord.command.cast.name"), description=text("discord.command.cast.description"))
    @app_commands.rename(
        card=text("discord.command.cast.option.card.name"),
        caster=text("discord.command.cast.option.caster.name"),
        target=text("discord.command.cast.option.target.name"),
        ally=text("discord.command.cast.option.ally.name"),
    )
    @app_commands.describe(
        card=text("discord.command.cast.option.card.description"),
        caster=text("discord.command.cast.option.caster.description"),
        target=text("discord.command.cast.option.target.description"),
        ally=text("discord.command.cast.option.ally.description"),
    )
    async def cast(
        self,
        interaction: discord.Interaction[RefereeBot],
        card: app_commands.Range[str, 1, VALUE_LIMIT],
        caster: app_commands.Range[str, 1, VALUE_LIMIT],
        target: app_commands.Range[str, 1, VALUE_LIMIT] | None = None,
        ally: app_commands.Range[str, 1, VALUE_LIMIT] | None = None,
    ) -> None:
        await self.play(interaction, "cast", card=card, caster=caster, target=target, ally=ally)

    @cast.autocomplete("card")
    async def cast_card(
        self, interaction: discord.Interaction[RefereeBot], current: str
    ) -> list[app_commands.Choice[str]]:
        return await self.suggest(interaction, "card", current)

    @cast.autocomplete("caster")
    async def cast_caster(
        self, interaction: discord.Interaction[RefereeBot], current: str
    ) -> list[app_commands.Choice[str]]:
        return await self.suggest(interaction, "caster", current)

    @cast.autocomplete("target")
    async def cast_target(
        self, interaction: discord.Interaction[RefereeBot], current: str
    ) -> list[app_commands.Choice[str]]:
        return await self.suggest(interaction, "target", current)

    @cast.autocomplete("ally")
    async def cast_ally(
        self, interaction: discord.Interaction[RefereeBot], current: str
    ) -> list[app_commands.Choice[str]]:
        return await self.suggest(interaction, "ally", current)

    @app_commands.command(
        name=text("discord.command.skill.name"), description=text("discord.command.skill.description")
    )
    @app_commands.rename(
        unit=text("discord.command.skill.option.unit.name"),
        skill=text("discord.command.skill.option.skill.name"),
        target=text("discord.command.skill.option.target.name"),
        ally=text("discord.command.skill.option.ally.name"),
    )
    @app_commands.describe(
        unit=text("discord.command.skill.option.unit.description"),
        skill=text("discord.command.skill.option.skill.description"),
        target=text("discord.command.skill.option.target.description"),
        ally=text("discord.command.skill.option.ally.description"),
    )
    async def skill(
        self,
        interaction: discord.Interaction[RefereeBot],
        unit: app_commands.Range[str, 1, VALUE_LIMIT],
        skill: app_commands.Range[str, 1, VALUE_LIMIT],
        target: app_commands.Range[str, 1, VALUE_LIMIT] | None = None,
        ally: app_commands.Range[str, 1, VALUE_LIMIT] | None = None,
    ) -> None:
        await self.play(interaction, "skill", unit=unit, skill=skill, target=target, ally=ally)

    @skill.autocomplete("unit")
    async def skill_unit(
        self, interaction: discord.Interaction[RefereeBot], current: str
    ) -> list[app_commands.Choice[str]]:
        return await self.suggest(interaction, "unit", current)

    @skill.autocomplete("skill")
    async def skill_skill(
        self, interaction: discord.Interaction[RefereeBot], current: str
    ) -> list[app_commands.Choice[str]]:
        return await self.suggest(interaction, "skill", current)

    @skill.autocomplete("target")
    async def skill_target(
        self, interaction: discord.Interaction[RefereeBot], current: str
    ) -> list[app_commands.Choice[str]]:
        return await self.suggest(interaction, "target", current)

    @skill.autocomplete("ally")
    async def skill_ally(
        self, interaction: discord.Interaction[RefereeBot], current: str
    ) -> list[app_commands.Choice[str]]:
        return await self.suggest(interaction, "ally", current)

    @app_commands.command(
        name=text("discord.command.summon.name"), description=text("discord.command.summon.description")
    )
    @app_commands.rename(
        card=text("discord.command.summon.option.card.name"),
        caster=text("discord.command.summon.option.caster.name"),
    )
    @app_commands.describe(
        card=text("discord.command.summon.option.card.description"),
        caster=text("discord.command.summon.option.caster.description"),
    )
    async def summon(
        self,
        interaction: discord.Interaction[RefereeBot],
        card: app_commands.Range[str, 1, VALUE_LIMIT],
        caster: app_commands.Range[str, 1, VALUE_LIMIT],
    ) -> None:
        await self.play(interaction, "summon", card=card, caster=caster)

    @summon.autocomplete("card")
    async def summon_card(
        self, interaction: discord.Interaction[RefereeBot], current: str
    ) -> list[app_commands.Choice[str]]:
        return await self.suggest(interaction, "card", current)

    @summon.autocomplete("caster")
    async def summon_caster(
        self, interaction: discord.Interaction[RefereeBot], current: str
    ) -> list[app_commands.Choice[str]]:
        return await self.suggest(interaction, "caster", current)

    # -- the block step -----------------------------------------------------------------------------

    @app_commands.command(
        name=text("discord.command.block.name"), description=text("discord.command.block.description")
    )
    @app_commands.rename(blocker=text("discord.command.block.option.blocker.name"))
    @app_commands.describe(blocker=text("discord.command.block.option.blocker.description"))
    async def block(
        self, interaction: discord.Interaction[RefereeBot], blocker: app_commands.Range[str, 1, VALUE_LIMIT]
    ) -> None:
        await self.play(interaction, "block", blocker=blocker)

    @block.autocomplete("blocker")
    async def block_blocker(
        self, interaction: discord.Interaction[RefereeBot], current: str
    ) -> list[app_commands.Choice[str]]:
        return await self.suggest(interaction, "blocker", current)

    @app_commands.command(
        name=text("discord.command.noblock.name"), description=text("discord.command.noblock.description")
    )
    async def noblock(self, interaction: discord.Interaction[RefereeBot]) -> None:
        await self.play(interaction, "noblock")

    # -- corrections, the end, a look ---------------------------------------------------------------

    @app_commands.command(
        name=text("discord.command.adjust.name"), description=text("discord.command.adjust.description")
    )
    @app_commands.rename(
        field=text("discord.command.adjust.option.field.name"),
        subject=text("discord.command.adjust.option.subject.name"),
        value=text("discord.command.adjust.option.value.name"),
        note=text("discord.command.adjust.option.note.name"),
        card=text("discord.command.adjust.option.card.name"),
        cards=text("discord.command.adjust.option.cards.name"),
    )
    @app_commands.describe(
        field=text("discord.command.adjust.option.field.description"),
        subject=text("discord.command.adjust.option.subject.description"),
        value=text("discord.command.adjust.option.value.description"),
        note=text("discord.command.adjust.option.note.description"),
        card=text("discord.command.adjust.option.card.description"),
        cards=text("discord.command.adjust.option.cards.description"),
    )
    @app_commands.choices(field=ADJUST_CHOICES)
    async def adjust(
        self,
        interaction: discord.Interaction[RefereeBot],
        field: str,
        subject: app_commands.Range[str, 1, VALUE_LIMIT] | None = None,
        value: app_commands.Range[str, 1, 20] | None = None,
        note: app_commands.Range[str, 1, NOTE_LIMIT] | None = None,
        card: app_commands.Range[str, 1, VALUE_LIMIT] | None = None,
        cards: app_commands.Range[str, 1, 400] | None = None,
    ) -> None:
        if field in ("confirm", "reject"):  # the answer to the waiting request
            await self.play(interaction, field)
            return
        await self.play(
            interaction, "adjust", field=field, subject=subject, value=value, note=note, card=card, cards=cards
        )

    @adjust.autocomplete("subject")
    async def adjust_subject(
        self, interaction: discord.Interaction[RefereeBot], current: str
    ) -> list[app_commands.Choice[str]]:
        """Units on the board and the seated players (adjustments are not offered by the engine's list)."""
        try:
            view = await self.bot.service.status(channel_of(interaction))
        except RefereeError:
            return []
        names = Names(view.state, self.bot.locale_for(interaction))
        typed = current.casefold().strip()
        choices = [
            app_commands.Choice(name=clip(names.unit(unit.uid), VALUE_LIMIT), value=unit.uid)
            for player in view.state.players
            for unit in player.units
        ]
        choices += [app_commands.Choice(name=clip(p.name, VALUE_LIMIT), value=p.id) for p in view.state.players]
        return [c for c in choices if typed in c.name.casefold() or typed in c.value][:CHOICES]

    @app_commands.command(
        name=text("discord.command.concede.name"), description=text("discord.command.concede.description")
    )
    async def concede(self, interaction: discord.Interaction[RefereeBot]) -> None:
        await self.play(interaction, "concede")


async def setup(bot: RefereeBot) -> None:
    await bot.add_cog(PlayCog(bot))
    bot.add_dynamic_items(TableButton, PlaySelect)
