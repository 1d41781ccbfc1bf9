"""The whole command tree as Discord receives it: names, localisations, descriptions, limits."""

from __future__ import annotations

import re
import unicodedata
from typing import Any

import discord
from discord import app_commands

from bot.i18n import catalog
from bot.translator import KEY, CatalogTranslator
from tests.discord.conftest import Harness

NAME_PUNCTUATION = set("-_")


def valid_name(name: str) -> bool:
    """Discord's ^[-_\\p{L}\\p{N}\\p{sc=Deva}\\p{sc=Thai}]{1,32}$, lower case where a letter has case.
    Python's re has no \\p{...}: letters and numbers by Unicode category, plus Devanagari and Thai."""
    if not 1 <= len(name) <= 32 or name != name.lower():
        return False
    for char in name:
        category = unicodedata.category(char)
        script = unicodedata.name(char, "")
        if not (char in NAME_PUNCTUATION or category[0] in "LN" or script.startswith(("DEVANAGARI", "THAI"))):
            return False
    return True


def test_the_name_check_refuses_what_discord_refuses() -> None:
    assert valid_name("roll") and valid_name("ダイス") and valid_name("カード2") and valid_name("card_2")
    for bad in ("Roll", "two words", "", "x" * 33, "ルール・裁定", "roll!", "ロール/"):
        assert not valid_name(bad), bad


async def payloads(harness: Harness) -> list[dict[str, Any]]:
    tree = harness.bot.tree
    return [await c.get_translated_payload(tree, CatalogTranslator()) for c in tree.get_commands()]


def options_of(payload: dict[str, Any]) -> list[dict[str, Any]]:
    found = []
    for option in payload.get("options", []):
        found.append(option)
        found += options_of(option)  # subcommands and groups (the table's /game)
    return found


async def test_every_command_is_valid_for_discord_in_both_languages(harness: Harness) -> None:
    commands = await payloads(harness)
    names = [c["name"] for c in commands]
    assert len(names) == len(set(names)), names
    assert {"roll", "ruling", "card", "help"} <= set(names)
    for command in commands:
        for item in [command, *options_of(command)]:
            where = f"/{command['name']} {item['name']}"
            assert valid_name(item["name"]), where
            for localised in item.get("name_localizations", {}).values():
                assert valid_name(localised), f"{where}: {localised!r}"
            assert 1 <= len(item["description"]) <= 100, where
            for localised in item.get("description_localizations", {}).values():
                assert 1 <= len(localised) <= 100, f"{where}: {localised!r}"
            assert len(item.get("options", [])) <= 25, where
            assert len(item.get("choices", [])) <= 25, where
            option_names = [o["name"] for o in item.get("options", [])]
            assert len(option_names) == len(set(option_names)), where
            localised_names = [o.get("name_localizations", {}).get("ja") for o in item.get("options", [])]
            assert len(localised_names) == len(set(localised_names)), f"{where}: two options share a Japanese name"


async def test_the_translator_gives_japanese_for_every_command_and_option(harness: Harness) -> None:
    for command in await payloads(harness):
        for item in [command, *options_of(command)]:
            ja_name = item.get("name_localizations", {}).get("ja")
            ja_description = item.get("description_localizations", {}).get("ja")
            assert ja_name and ja_description, f"/{command['name']} {item['name']} has no Japanese"
            assert re.search(r"[\u3040-\u30ff\u4e00-\u9fff]", ja_name + ja_description), ja_name


async def test_every_string_of_the_tree_comes_from_both_catalogs(harness: Harness) -> None:
    """Names and descriptions are made with bot.translator.text(key); the English is the registered text."""
    ja, en = catalog("ja"), catalog("en")
    strings: list[app_commands.locale_str] = []
    for command in harness.bot.tree.walk_commands():
        strings += [command._locale_name, command._locale_description]  # type: ignore[list-item]
        if isinstance(command, app_commands.Command):
            for parameter in command.parameters:
                strings += [parameter.locale_name, parameter.locale_description]  # type: ignore[list-item]
    for string in strings:
        assert string is not None
        key = string.extras.get(KEY)
        assert key, f"{string.message!r} is not from the catalog"
        assert key in ja and key in en, key
        assert en[key] == string.message, key
    discord_keys = {k for k in ja if k.startswith("discord.")}
    assert discord_keys == {k for k in en if k.startswith("discord.")}


async def test_other_locales_fall_back_to_the_english_names(harness: Harness) -> None:
    [roll] = [c for c in await payloads(harness) if c["name"] == "roll"]
    assert set(roll["name_localizations"]) == {discord.Locale.japanese.value}
