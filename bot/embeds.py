"""The neutral `bot.render.Message` as a Discord embed, and the one way the cogs answer.

Discord refuses a message whose embed passes its limits (a title of 256 characters, a description
of 4096, 25 fields of 256 + 1024, 6000 in all); `to_embed` shortens rather than lose the reply.
`reply` answers through the interaction (its response, else a follow-up), never with a new channel
message, and always with mentions disabled: a name or a dice label can never ping anyone.
"""

from __future__ import annotations

from collections.abc import Sequence

import discord
from discord.utils import MISSING

from bot.render.message import Message

NO_MENTIONS = discord.AllowedMentions.none()

TITLE_LIMIT = 256
DESCRIPTION_LIMIT = 4096
FIELD_COUNT_LIMIT = 25
FIELD_NAME_LIMIT = 256
FIELD_VALUE_LIMIT = 1024
TOTAL_LIMIT = 6000
EMBEDS_PER_MESSAGE = 10

COLOUR = discord.Colour(0x4F6BED)  # one colour for the referee's public messages
PRIVATE_COLOUR = discord.Colour(0x5D6470)  # what only one player sees
REFUSAL_COLOUR = discord.Colour(0xD9822B)


def clip(text: str, limit: int) -> str:
    """`text` cut to `limit` characters, with … where it was cut."""
    return text if len(text) <= limit else text[: limit - 1] + "…"


def to_embed(message: Message, *, colour: discord.Colour | None = None) -> discord.Embed:
    """One embed for `message`: the title, the lines as the description, the fields (at most 25)."""
    chosen = colour if colour is not None else (PRIVATE_COLOUR if message.private_to else COLOUR)
    embed = discord.Embed(
        title=clip(message.title, TITLE_LIMIT) if message.title else None,
        description=clip("\n".join(message.lines), DESCRIPTION_LIMIT) if message.lines else None,
        colour=chosen,
    )
    used = len(embed.title or "") + len(embed.description or "")
    for field in message.fields[:FIELD_COUNT_LIMIT]:
        name = clip(field.name or "\u200b", FIELD_NAME_LIMIT)
        value = clip(field.value or "\u200b", FIELD_VALUE_LIMIT)
        if used + len(name) + len(value) > TOTAL_LIMIT:
            break  # the rest would make Discord refuse the whole message
        embed.add_field(name=name, value=value, inline=field.inline)
        used += len(name) + len(value)
    return embed


def refusal_embed(text: str) -> discord.Embed:
    """A refusal or an error: what was wrong and what to do, nothing else."""
    return discord.Embed(description=clip(text, DESCRIPTION_LIMIT), colour=REFUSAL_COLOUR)


async def reply(
    interaction: discord.Interaction,
    *messages: Message | discord.Embed,
    ephemeral: bool,
    content: str | None = None,
    view: discord.ui.View | None = None,
) -> None:
    """Answer `interaction` with `messages` (as embeds): its first response, else a follow-up.

    A message meant for one player (`private_to`) is refused in a public reply: showing a hand to
    the channel is a bug, so it raises instead of sending.
    """
    if not ephemeral and any(isinstance(m, Message) and m.private_to for m in messages):
        raise ValueError("a private message cannot be sent publicly")
    embeds = [m if isinstance(m, discord.Embed) else to_embed(m) for m in messages][:EMBEDS_PER_MESSAGE]
    await send(interaction, content=content, embeds=embeds, ephemeral=ephemeral, view=view)


async def send(
    interaction: discord.Interaction,
    *,
    content: str | None = None,
    embeds: Sequence[discord.Embed] = (),
    ephemeral: bool,
    view: discord.ui.View | None = None,
) -> None:
    """The lowest step: response if not yet given, else follow-up; mentions always off."""
    shown = content if content is not None else MISSING
    items = view if view is not None else MISSING
    if interaction.response.is_done():
        await interaction.followup.send(
            shown, embeds=list(embeds), ephemeral=ephemeral, allowed_mentions=NO_MENTIONS, view=items
        )
    else:
        await interaction.response.send_message(
            shown, embeds=list(embeds), ephemeral=ephemeral, allowed_mentions=NO_MENTIONS, view=items
        )
