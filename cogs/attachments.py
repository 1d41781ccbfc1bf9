"""A text file a player attaches to a command (a deck list, a position): read within a size limit, as UTF-8."""

from __future__ import annotations

import discord

from bot.errors import RefereeError


class AttachmentError(RefereeError):
    key = "discord.attachment.unreadable"


async def read_text_attachment(attachment: discord.Attachment, limit: int) -> str:
    """The attachment's text; refused when larger than `limit` bytes (announced or read) or not UTF-8."""
    if attachment.size > limit:
        raise AttachmentError("discord.attachment.too_large", limit=limit)
    try:
        data = await attachment.read()
    except (discord.HTTPException, discord.NotFound) as exc:
        raise AttachmentError("discord.attachment.unreadable") from exc
    if len(data) > limit:  # the size Discord announced is not a promise
        raise AttachmentError("discord.attachment.too_large", limit=limit)
    try:
        return data.decode("utf-8-sig")
    except UnicodeDecodeError:
        raise AttachmentError("discord.attachment.not_text") from None
