"""The tree's error handler: refusals are private and localised, faults are logged without secrets."""

from __future__ import annotations

import logging

import discord
import pytest
from discord import app_commands

from bot.errors import RefereeError
from tests.discord.conftest import ALICE, BOT_TOKEN, CHANNEL_ID, GUILD_ID, Harness, command_payload


@pytest.fixture(autouse=True)
def _logs_reach_caplog(monkeypatch: pytest.MonkeyPatch) -> None:
    """configure_logging (run by other tests) stops the "bot" logger's records at its own handler."""
    monkeypatch.setattr(logging.getLogger("bot"), "propagate", True)


def add_command(harness: Harness, name: str, behaviour: str) -> None:
    async def callback(interaction: discord.Interaction) -> None:
        if behaviour == "answered-then-refused":
            await interaction.response.send_message("started", ephemeral=False)
            raise RefereeError("dice.error.empty")
        if behaviour == "refused":
            raise RefereeError("dice.error.empty")
        raise RuntimeError(f"broken with {interaction.token} and {BOT_TOKEN}")

    harness.bot.tree.add_command(app_commands.Command(name=name, description="test", callback=callback))


@pytest.mark.parametrize(
    ("locale", "expected"), [("ja", "ダイスの式が空です"), ("en-GB", "The dice expression is empty")]
)
async def test_a_referee_error_is_an_ephemeral_reply_in_the_users_language(
    harness: Harness, locale: str, expected: str
) -> None:
    add_command(harness, "refuse", "refused")
    await harness.command("refuse", locale=locale)
    [reply] = harness.recorder.messages()
    assert reply.ephemeral and reply.is_callback
    assert expected in reply.text
    assert reply.message["allowed_mentions"] == {"parse": []}


async def test_after_a_response_the_refusal_is_an_ephemeral_follow_up(harness: Harness) -> None:
    add_command(harness, "halfway", "answered-then-refused")
    await harness.command("halfway")
    first, refusal = harness.recorder.messages()
    assert first.is_callback and not first.ephemeral
    assert not refusal.is_callback and refusal.ephemeral
    assert "ダイスの式が空です" in refusal.text


async def test_an_unexpected_error_is_logged_with_its_context_and_never_a_token(
    harness: Harness, caplog: pytest.LogCaptureFixture
) -> None:
    add_command(harness, "boom", "fault")
    payload = command_payload("boom", {}, locale="en-US")
    with caplog.at_level(logging.INFO):
        await harness.deliver(payload)
    [reply] = harness.recorder.messages()
    assert reply.ephemeral and "Something went wrong" in reply.text
    assert "RuntimeError" not in reply.text  # the user is not shown our internals
    logged = caplog.text
    [record] = [r for r in caplog.records if r.levelno >= logging.ERROR]
    assert record.name == "bot.tree"
    for part in ("boom", str(ALICE), str(GUILD_ID), str(CHANNEL_ID), "RuntimeError: broken with"):
        assert part in logged, part
    assert BOT_TOKEN not in logged
    assert payload["token"] not in logged


async def test_an_unknown_command_still_gets_an_answer(harness: Harness, caplog: pytest.LogCaptureFixture) -> None:
    await harness.command("no-such-command", locale="en-US")
    [reply] = harness.recorder.messages()
    assert reply.ephemeral and "not known to the bot" in reply.text
    assert not [r for r in caplog.records if r.levelno >= logging.ERROR]  # not a fault of ours,
    [warning] = [r for r in caplog.records if r.name == "bot.tree"]  # but the admin should sync
    assert "no-such-command" in warning.getMessage() and "referee sync" in warning.getMessage()
