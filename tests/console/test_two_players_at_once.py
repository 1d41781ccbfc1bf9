"""Two players pressing at once on one table: each request is built and applied under the table's
lock on the table as it then stands, and each reply renders from its own call's outcome."""

from __future__ import annotations

import asyncio

from bot.console.session import ConsoleSession, user_id
from bot.errors import RefereeError
from tests.console.conftest import START, text


async def test_both_players_passing_at_once_get_replies_that_tell_their_own_move(session: ConsoleSession) -> None:
    text(await session.run(START))
    both = 0
    for _ in range(12):
        view = await session.current()
        assert view is not None and view.state.active is not None
        first = view.state.players[view.state.active].name
        second = next(p.name for p in view.state.players if p.name != first)
        before = view.version
        # Both lines reach the service together; whichever goes second is built on the table the first left.
        replies = await asyncio.gather(session.run(f"{first}: /pass"), session.run(f"{second}: /pass"))
        log = await session.service.log(session.channel_id)
        played = [a for a in log.in_effect if a.version > before]
        for reply, name in zip(replies, (first, second), strict=True):
            if reply.refusal is not None:  # refused with the referee's own words, and nothing of it was kept
                assert isinstance(reply.refusal, RefereeError) and reply.refusal.bilingual()
                assert all(a.actor != user_id(name) for a in played)
                continue
            shown = "\n".join(line for m in reply.messages for line in m.lines)
            assert f"{name} passes" in shown or f"{name}がパス" in shown or f"{name} passed" in shown, shown
            assert any(a.actor == user_id(name) for a in played)
        assert len(played) == sum(r.refusal is None for r in replies)
        both += all(r.refusal is None for r in replies)
        if (await session.current()) is None:
            break
    assert both >= 3  # the second line was built on the table the first had just left, several times
