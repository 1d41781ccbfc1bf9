"""Command names and descriptions from the message catalogs, in English and Japanese.

A cog names every command, option and description with `text("discord.command.roll.name")`: the
English catalog gives the string Discord registers, and the key travels with it in `locale_str`, so
`CatalogTranslator` finds the Japanese at sync time. One source for both languages, and a key that
is missing in either catalog fails when the cog is imported or the tree is checked.
"""

from __future__ import annotations

from typing import ClassVar

import discord
from discord import app_commands

from bot.i18n import catalog

KEY = "key"  # the extra of a locale_str that holds its catalog key


def text(key: str) -> app_commands.locale_str:
    """The English text of `key`, marked for translation with its key."""
    return app_commands.locale_str(catalog("en")[key], **{KEY: key})


class CatalogTranslator(app_commands.Translator):
    """Japanese for every string made by `text()`; other locales fall back to the English names."""

    LOCALES: ClassVar[dict[discord.Locale, str]] = {discord.Locale.japanese: "ja"}

    async def translate(
        self,
        string: app_commands.locale_str,
        locale: discord.Locale,
        context: app_commands.TranslationContextTypes,
    ) -> str | None:
        language = self.LOCALES.get(locale)
        key = string.extras.get(KEY)
        if language is None or key is None:
            return None
        return catalog(language).get(key)
