"""Issue 9: an opponent could end the game at once with `/adjust` on the other player's leader. Now an
adjustment of the other player's things is a request that player confirms or rejects, on a real
database through the real service; a moderator's correction takes effect at once; undo takes back a
request not yet answered. And nothing else lets a player act for the other seat out of turn."""

from __future__ import annotations

import pytest

from bot.console.session import ConsoleSession, user_id
from bot.engine import (
    Action,
    Adjust,
    Block,
    Cast,
    Charge,
    ConfirmAdjust,
    GameState,
    LookAtDeck,
    ModeratorAdjust,
    NoBlock,
    Pass,
    RejectAdjust,
    Summon,
    UseSkill,
)
from bot.engine.errors import RuleViolation
from bot.engine.events import Adjusted
from bot.service import NotModerator, NotSeated, NotYourSeat
from tests.console.conftest import START, refusal, text

LEADER = "焔刃のハルト(alice)"


async def _state(session: ConsoleSession) -> GameState:
    view = await session.current()
    assert view is not None
    return view.state


async def test_bob_cannot_win_on_turn_one_by_setting_alices_leader_to_zero(session: ConsoleSession) -> None:
    text(await session.run(START))
    before = await _state(session)
    shown = text(await session.run(f"bob: /adjust subject:{LEADER} field:hp value:0"))
    assert "bob asks to adjust Hart of the Blazing Blade(alice) HP: 30 → 0" in shown
    assert "→ alice: confirm or reject bob's request" in shown
    after = await _state(session)
    assert not after.over and after.find_unit("p1.ignis-hart") == before.find_unit("p1.ignis-hart")
    assert "Only alice, whose thing it adjusts, may confirm" in refusal(await session.run("bob: /adjust confirm"))
    assert "Only alice" in refusal(await session.run("bob: /confirm"))
    assert "alice: confirm or reject" in text(await session.run("/game status"))
    shown = text(await session.run("alice: /adjust reject"))
    assert "alice rejects bob's request to adjust Hart of the Blazing Blade(alice) HP; nothing changes." in shown
    assert not (await _state(session)).over


async def test_a_confirmed_request_takes_effect_and_the_log_says_who_asked_and_who_confirmed(
    session: ConsoleSession,
) -> None:
    text(await session.run(START))
    text(await session.run("alice: /adjust subject:bob field:ether value:0 a misread charge"))
    assert (await _state(session)).players[1].ether == 2
    shown = text(await session.run("bob: /confirm"))
    assert "alice adjusts bob ether: 2 → 0 (a misread charge) — confirmed by bob." in shown
    assert (await _state(session)).players[1].ether == 0
    log = text(await session.run("carol: /game log"))
    assert "alice asks to adjust bob ether: 2 → 0" in log and "— confirmed by bob." in log
    session.locale = "ja"
    text(await session.run(f"bob: /adjust subject:{LEADER} field:tapped value:on"))
    assert "aliceが承認" in text(await session.run("alice: /adjust 承認"))


async def test_undo_takes_back_a_request_not_yet_answered(session: ConsoleSession) -> None:
    text(await session.run(START))
    text(await session.run(f"bob: /adjust subject:{LEADER} field:hp value:0"))
    assert "↩ bob took back their last action." in text(await session.run("bob: /undo"))
    state = await _state(session)
    assert state.pending_adjust is None
    assert "No adjustment request is waiting" in refusal(await session.run("alice: /confirm"))


async def test_ones_own_things_change_at_once(session: ConsoleSession) -> None:
    text(await session.run(START))
    shown = text(await session.run("bob: /adjust subject:bob field:ether value:5"))
    assert "bob adjusts bob ether: 2 → 5." in shown and "confirm" not in shown


async def test_a_moderator_corrects_at_once_and_only_a_moderator(session: ConsoleSession) -> None:
    text(await session.run(START))
    service, channel = session.service, session.channel_id
    judge = 4242
    fix = ModeratorAdjust(moderator=str(judge), subject="p1.ignis-hart", field="hp", value=12, note="ruling")
    with pytest.raises(NotModerator):
        await service.act(channel, judge, fix)
    with pytest.raises(NotYourSeat):  # a moderator acts under their own name only
        await service.act(channel, judge + 1, fix, is_moderator=True)
    outcome = await service.act(channel, judge, fix, is_moderator=True)
    assert outcome.state.find_unit("p1.ignis-hart").hp == 12  # type: ignore[union-attr]
    (event,) = outcome.events
    assert isinstance(event, Adjusted) and (event.moderator, event.confirmed_by) == (str(judge), None)
    assert "Moderator 4242 adjusts Hart of the Blazing Blade(alice) HP: 30 → 12 (ruling)." in text(
        await session.run("/game log")
    )


async def test_no_action_lets_a_player_act_for_the_other_seat_or_out_of_turn(session: ConsoleSession) -> None:
    """The rest of its kind: every action the service takes, tried by bob (no priority on alice's
    turn 1) for himself and in alice's name, and by a spectator; none changes the table."""
    text(await session.run(START))
    service, channel = session.service, session.channel_id
    alice, bob, carol = (str(user_id(n)) for n in ("alice", "bob", "carol"))
    state = await _state(session)
    spell = state.players[1].hand[0]
    mine: list[Action] = [
        Charge(player=bob, card=spell, use_ether_effect=False),
        Pass(player=bob),
        Cast(player=bob, card=spell, caster="p2.mizuha", target="p1.ignis-hart"),
        UseSkill(player=bob, unit="p2.mizuha", skill="water-blade", target="p1.ignis-hart"),
        Block(player=bob, blocker="p2.kiri-no-sei"),
        NoBlock(player=bob),
        Summon(player=bob, card=spell, caster="p2.mizuha"),
        LookAtDeck(player=bob, count=1),
        ConfirmAdjust(player=bob),
        RejectAdjust(player=bob),
        Adjust(player=bob, subject=alice, field="discard", value=1, cards=(state.players[0].hand[0],)),
    ]
    for action in mine:
        with pytest.raises(RuleViolation):
            await service.act(channel, int(bob), action)
    for action in (Pass(player=alice), Adjust(player=alice, subject=alice, field="ether", value=9)):
        with pytest.raises(NotYourSeat):
            await service.act(channel, int(bob), action)
        with pytest.raises(NotSeated):
            await service.act(channel, int(carol), action.model_copy(update={"player": carol}))
    assert await _state(session) == state


async def test_legal_lists_the_answers_to_a_waiting_request(session: ConsoleSession) -> None:
    text(await session.run(START))
    text(await session.run("bob: /adjust subject:alice field:ether value:3"))
    alice = text(await session.run("alice: /legal"))
    assert "alice: /adjust confirm" in alice and "alice: /adjust reject" in alice
    bob = text(await session.run("bob: /legal"))
    assert "bob: /adjust reject" in bob and "/adjust confirm" not in bob
