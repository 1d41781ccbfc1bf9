"""/game practice: a judge's practice table from a shipped position or an attached file, marked practice."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest

from bot.dice import DiceError
from bot.paths import data_folder
from bot.service import NoGame
from tests.discord.conftest import ALICE, BOB, CHANNEL_ID, Harness
from tests.discord.table import game_payload, last


async def test_a_shipped_position_opens_a_practice_table_seating_the_caller_and_the_opponent(harness: Harness) -> None:
    await harness.deliver(game_payload("practice", {"opponent": BOB, "position": "spell-against-def"}, locale="en-US"))
    opened = last(harness)
    assert not opened.ephemeral and "Practice" in opened.text
    view = await harness.bot.service.status(CHANNEL_ID)
    assert [p.id for p in view.state.players] == [str(ALICE), str(BOB)]
    assert view.commitment == "practice"  # never mistaken for a fair table
    with pytest.raises(DiceError) as refused:  # and verify refuses it
        await harness.bot.service.verify(CHANNEL_ID)
    assert refused.value.message_key == "practice.dice.not_verifiable"


async def test_a_position_must_come_from_one_place_and_be_known(harness: Harness) -> None:
    await harness.deliver(game_payload("practice", {"opponent": BOB}, locale="en-US"))
    assert last(harness).ephemeral and "one of the two" in last(harness).text
    await harness.deliver(game_payload("practice", {"opponent": BOB, "position": "nowhere"}, locale="en-US"))
    assert last(harness).ephemeral and "spell-against-def" in last(harness).text  # the names it knows


async def test_an_attached_position_file_is_read_and_a_broken_one_is_refused_with_its_problems(
    harness: Harness, monkeypatch: pytest.MonkeyPatch
) -> None:
    good = (data_folder("docs") / "positions" / "knockouts.toml").read_bytes()
    files = {"mine.toml": good, "broken.toml": b"[[sides]]\nname = 3\n"}

    async def from_cdn(url: str) -> bytes:  # the CDN download: the one network door the harness lacks
        return files[url.rsplit("/", 1)[1]]

    monkeypatch.setattr(harness.bot.http, "get_from_cdn", from_cdn)
    for filename in ("broken.toml", "mine.toml"):
        await harness.deliver(_with_file(filename, len(files[filename])))
        answer = last(harness)
        if filename == "broken.toml":
            assert answer.ephemeral and not await _running(harness)
        else:
            assert not answer.ephemeral and await _running(harness)


def _with_file(filename: str, size: int) -> dict[str, Any]:
    attachment_id = "910000000000088888"
    payload = game_payload("practice", {"opponent": BOB}, locale="en-US")
    payload["data"]["options"][0]["options"].append({"name": "file", "type": 11, "value": attachment_id})
    url = f"https://cdn.example/attachments/{filename}"
    attachment = {"id": attachment_id, "filename": filename, "size": size, "url": url, "proxy_url": url}
    payload["data"].setdefault("resolved", {})["attachments"] = {attachment_id: attachment}
    return payload


async def _running(harness: Harness) -> bool:
    try:
        return (await harness.bot.service.status(CHANNEL_ID)).active
    except NoGame:
        return False


def test_the_shipped_positions_are_found_from_the_checkout() -> None:
    assert (Path(data_folder("docs")) / "positions" / "spell-against-def.toml").is_file()
