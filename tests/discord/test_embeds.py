"""The neutral message as an embed, within Discord's limits; private messages never go public."""

from __future__ import annotations

from functools import cache

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from bot.catalog import Catalog, load_catalog
from bot.embeds import reply, to_embed
from bot.render.message import Field, Message
from cogs.cards import card_choices
from tests.discord.conftest import Harness, command_payload


def test_an_embed_keeps_the_title_lines_and_fields() -> None:
    embed = to_embed(
        Message(title="盤面", lines=["一行目", "二行目"], fields=[Field(name="HP", value="30", inline=True)])
    )
    data = embed.to_dict()
    assert data["title"] == "盤面" and data["description"] == "一行目\n二行目"
    assert data["fields"] == [{"name": "HP", "value": "30", "inline": True}]


def test_an_oversized_message_is_shortened_to_what_discord_accepts() -> None:
    fields = [Field(name=f"f{i}" * 200, value="v" * 2000) for i in range(40)]
    embed = to_embed(Message(title="t" * 300, lines=["x" * 5000], fields=fields))
    assert len(embed.title or "") == 256 and (embed.title or "").endswith("…")
    assert len(embed.description or "") == 4096
    assert len(embed.fields) <= 25
    assert all(len(f.name or "") <= 256 and len(f.value or "") <= 1024 for f in embed.fields)
    assert len(embed) <= 6000


async def test_a_private_message_cannot_be_sent_publicly(harness: Harness) -> None:
    from discord import Interaction

    interaction = Interaction(data=command_payload("card", {}), state=harness.bot._connection)  # type: ignore[arg-type]
    hand = Message(title="手札", lines=["焔刃のハルト"], private_to="1")
    with pytest.raises(ValueError, match="private"):
        await reply(interaction, hand, ephemeral=False)
    assert harness.recorder.sent == []


@settings(max_examples=60, deadline=None)
@given(
    title=st.text(max_size=400),
    lines=st.lists(st.text(max_size=3000), max_size=5),
    fields=st.lists(st.tuples(st.text(max_size=300), st.text(max_size=1500)), max_size=40),
)
def test_any_message_fits_in_an_embed(title: str, lines: list[str], fields: list[tuple[str, str]]) -> None:
    message = Message(title=title or None, lines=lines, fields=[Field(name=n, value=v) for n, v in fields])
    embed = to_embed(message)
    assert len(embed) <= 6000 and len(embed.fields) <= 25
    assert len(embed.title or "") <= 256 and len(embed.description or "") <= 4096
    assert all(1 <= len(f.name or "") <= 256 and 1 <= len(f.value or "") <= 1024 for f in embed.fields)


@cache
def shipped() -> Catalog:
    return load_catalog()


@settings(max_examples=60, deadline=None)
@given(typed=st.text(max_size=150))
def test_card_choices_are_always_within_discords_limits(typed: str) -> None:
    choices = card_choices(shipped(), typed, "ja")
    assert len(choices) <= 25
    assert all(1 <= len(c.name) <= 100 and 1 <= len(c.value) <= 100 for c in choices)
