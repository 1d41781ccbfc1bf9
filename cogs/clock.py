"""The turn clock's one dispatcher: a task that fires the channels' passed deadlines and posts for them.

The deadlines are rows in the database (bot/store/clock.py), so nothing is lost in a restart: the task
starts with the bot and fires at once whatever passed while it was away. Every few seconds (or as soon
as `/settings clock` wakes it) it asks the service for the passed ones; each causes at most one
message: the automatic pass with what it did, or a reminder that pings the player who must act and
nobody else. These are the only messages the referee posts outside an interaction; a deadline is at
least 30 seconds long, so a channel never comes near Discord's 5 messages in 5 seconds.
"""

from __future__ import annotations

import asyncio
import contextlib
import logging

import discord
from discord.ext import commands

from bot.app import RefereeBot
from bot.embeds import to_embed
from bot.i18n import normalize_locale, t
from bot.render.outcome import render_outcome
from bot.service import ClockFired

log = logging.getLogger(__name__)

POLL_SECONDS = 5.0  # how late a deadline may fire at most


class ClockCog(commands.Cog):
    def __init__(self, bot: RefereeBot) -> None:
        self.bot = bot
        self.wake = asyncio.Event()
        self._task: asyncio.Task[None] | None = None

    async def cog_load(self) -> None:
        self._task = asyncio.create_task(self._dispatch(), name="referee-turn-clock")

    async def cog_unload(self) -> None:
        if self._task is not None:
            self._task.cancel()
            with contextlib.suppress(asyncio.CancelledError):
                await self._task

    async def _dispatch(self) -> None:
        while True:
            try:
                await self.tick()
            except Exception:  # a bad moment (a busy database, Discord away) must not stop the clock
                log.exception("the turn clock could not fire its deadlines; trying again")
            self.wake.clear()
            with contextlib.suppress(TimeoutError):
                async with asyncio.timeout(POLL_SECONDS):  # no task of its own: a sleep that a wake cuts short
                    await self.wake.wait()

    async def tick(self, now: float | None = None) -> list[ClockFired]:
        """Fire every deadline passed by `now` and post what each did (one message each)."""
        fired = await self.bot.service.fire_clocks(now)
        for one in fired:
            try:
                await self.post(one)
            except discord.HTTPException as exc:  # the channel is gone or closed to the bot: nobody to tell
                log.warning("could not post the turn clock's message: %s", exc, extra={"channel": one.channel_id})
        return fired

    async def locale_of(self, channel_id: int) -> str:
        """The channel's fixed language (read once, as for a command), else the referee's default: a
        message outside an interaction has no user language to go by."""
        if not self.bot.fixed_locales.knows(channel_id):
            guild = getattr(self.bot.get_channel(channel_id), "guild", None)  # known once the gateway said so
            fixed, _ = await self.bot.service.table_settings(channel_id, getattr(guild, "id", None))
            self.bot.fixed_locales.put(channel_id, fixed)
        return self.bot.fixed_locales.get(channel_id) or normalize_locale(self.bot.settings.default_locale)

    async def post(self, fired: ClockFired) -> None:
        locale = await self.locale_of(fired.channel_id)
        user = f"<@{fired.user_id}>"
        embeds: list[discord.Embed] = []
        if fired.kind == "passed" and fired.outcome is not None:
            content = t("discord.clock.passed", locale, user=user, seconds=fired.seconds)
            message = render_outcome(fired.outcome, locale)
            if message.private_to is None:
                embeds.append(to_embed(message))
        else:
            content = t("discord.clock.reminder", locale, user=user, seconds=fired.seconds)
        channel = self.bot.get_partial_messageable(fired.channel_id)
        # The player who must act is pinged; nobody else can be, whatever a name in the board says.
        mentions = discord.AllowedMentions(everyone=False, roles=False, users=[discord.Object(fired.user_id)])
        await channel.send(content, embeds=embeds, allowed_mentions=mentions)


async def setup(bot: RefereeBot) -> None:
    await bot.add_cog(ClockCog(bot))
