"""A game through the real `referee run` process when Discord misbehaves during it: the gateway drops the
connection and a move sent in the gap is played once after the resume; both players press the table's
buttons at the same moment, and each press gets one answer while the table moves on once.

What is checked is what the players see (one answer each, public for the move played, private for the
rest) and what the bot filed (its database, read with plain sqlite3): one logged move per move played.
"""

from __future__ import annotations

import asyncio
import re

import pytest

from tests.fake_discord import FakeMessage, FakeUser, InteractionHandle

from .conftest import RefereeTable

pytestmark = pytest.mark.asyncio(loop_scope="module")

ANSWER = 5.0
BUTTON = re.compile(r"hn:(?P<kind>pass|noblock|block):\d+:(?P<version>\d+):(?P<user>\d+):\d+$")


def head(table: RefereeTable, channel_id: int) -> tuple[int, int]:
    """(game id, version) of the channel's running game, as filed."""
    [row] = table.bot.sql("SELECT id, version FROM games WHERE channel_id = ? AND status = 'active'", channel_id)
    return row["id"], row["version"]


def moves_after(table: RefereeTable, game_id: int, version: int) -> list[tuple[int, int]]:
    """(version, actor) of every move the game's log holds after `version`."""
    rows = table.bot.sql(
        "SELECT version, actor FROM actions WHERE game_id = ? AND version > ? ORDER BY version", game_id, version
    )
    return [(r["version"], r["actor"]) for r in rows]


def move_button(table: RefereeTable, message: FakeMessage) -> tuple[str, FakeUser, FakeUser]:
    """A move button of the public table message (pass, no block or block), its player and the other one."""
    found = [m for m in (BUTTON.match(c) for c in message.custom_ids()) if m is not None]
    assert found, f"no move button on {message.custom_ids()}"
    button = found[0]
    actor = table.alice if int(button["user"]) == table.alice.id else table.bob
    other = table.bob if actor is table.alice else table.alice
    return button.string, actor, other


async def new_game(table: RefereeTable, name: str) -> FakeMessage:
    channel = await table.new_channel(name)
    invite = await table.fake.invoke(table.alice, channel, "game", {"opponent": table.bob}, subcommand="start")
    await invite.response(ANSWER)
    assert invite.original is not None
    [accept] = [c for c in invite.original.custom_ids() if c.startswith("hn:acc:")]
    accepted = await table.fake.click(table.bob, invite.original, accept)
    assert not (await accepted.response(ANSWER)).ephemeral and accepted.original is not None
    return accepted.original


async def test_a_move_sent_while_the_gateway_is_down_is_played_once_after_the_resume(table: RefereeTable) -> None:
    fake = table.fake
    message = await new_game(table, "game-gap")
    channel_id = message.channel_id
    game_id, version = head(table, channel_id)
    button, actor, _ = move_button(table, message)
    session = fake.gateway.sessions[table.bot.sessions[-1]]
    resumes = session.resumes

    fake.hold_resumes()
    try:
        await fake.drop_connection(0, code=None)  # the TCP connection is cut without a close frame
        await fake.wait_until(lambda: not session.connected)
        during = await fake.click(actor, message, button)
        assert not during.acknowledged  # nobody is there to hear it yet
        assert head(table, channel_id) == (game_id, version)
    finally:
        fake.release_resumes()

    played = await during.response(ANSWER)
    assert not played.ephemeral  # the move, in public, once the bot resumed
    assert session.resumes == resumes + 1 and session.connected
    assert moves_after(table, game_id, version) == [(version + 1, actor.id)]

    # Discord may deliver that interaction again after the reconnect: it plays nothing more.
    await fake.redeliver(during)
    status = await fake.invoke(actor, fake.channel(channel_id), "game", subcommand="status")
    await status.response(ANSWER)
    assert len(during.callbacks) == 1 and during.rejected == []
    assert moves_after(table, game_id, version) == [(version + 1, actor.id)]


async def test_both_players_pressing_the_table_buttons_at_once_are_each_answered_once_and_play_once(
    table: RefereeTable,
) -> None:
    fake = table.fake
    message: FakeMessage | None = await new_game(table, "game-clicks")
    rounds = 0
    for _ in range(6):
        assert message is not None
        channel_id = message.channel_id
        game_id, version = head(table, channel_id)
        button, actor, other = move_button(table, message)
        # The player presses twice and the other player once, all before any answer comes back.
        handles = await asyncio.gather(*(fake.click(u, message, button) for u in (actor, other, actor)))
        presses: list[tuple[FakeUser, InteractionHandle]] = list(zip((actor, other, actor), handles, strict=True))
        answers = [await h.response(ANSWER) for _, h in presses]

        public = [(u, h) for (u, h), a in zip(presses, answers, strict=True) if not a.ephemeral]
        assert len(public) == 1 and public[0][0] is actor  # one move, by the player the button is for
        assert answers[1].ephemeral  # the other player's press: not theirs
        for _, handle in presses:
            assert len(handle.callbacks) == 1 and handle.rejected == []  # each press answered exactly once
        assert moves_after(table, game_id, version) == [(version + 1, actor.id)]
        message = public[0][1].original
        rounds += 1
    assert rounds == 6
