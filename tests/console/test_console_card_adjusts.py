"""The manual effects that move cards, typed at the console on a real database: a discard from one's
own hand (public from then on), a look at the top of one's own deck (private) and its reorder (the
log gives the count only). The engine takes these adjustments at any time, whoever holds priority."""

from __future__ import annotations

from bot.console.session import ConsoleSession
from bot.engine import GameState
from bot.render import to_text
from tests.console.conftest import START, refusal, text


async def _state(session: ConsoleSession) -> GameState:
    view = await session.current()
    assert view is not None
    return view.state


async def _pass_until(session: ConsoleSession, turn: int, phase: str) -> None:
    for _ in range(40):
        state = await _state(session)
        if state.turn == turn and state.phase == phase:
            return
        text(await session.run("/pass"))
    raise AssertionError(f"never reached turn {turn}, {phase} phase")


def _names(state: GameState, card_ids: list[str]) -> list[str]:
    return [n for c in card_ids for n in (c, state.cards[c].name, state.cards[c].name_en or c)]


async def test_the_owner_discards_by_name_or_id_in_the_opponents_main_phase(session: ConsoleSession) -> None:
    text(await session.run(START))
    await _pass_until(session, 2, "main")
    assert (await _state(session)).players[0].hand.count("counter-flame") == 2
    shown = text(await session.run("alice: /adjust field:discard card:返し火 イェソド・チェイン"))
    assert "alice discards 返し火 (Counter Flame) from hand (hand 4) (イェソド・チェイン)." in shown
    assert "→ To act: bob (Main phase)" in shown  # bob keeps priority
    assert "Counter Flame [counter-flame]" in text(await session.run("alice: /hand"))  # one left, no ×2
    text(await session.run("alice: /adjust field:discard card:counter-flame"))
    state = await _state(session)
    assert "counter-flame" not in state.players[0].hand
    assert state.players[0].cemetery[-2:] == ["counter-flame", "counter-flame"]
    assert "is not in your hand" in refusal(await session.run("alice: /adjust field:discard card:Counter Flame"))
    assert await _state(session) == state


async def test_only_the_owner_may_discard_and_only_what_the_hand_holds(session: ConsoleSession) -> None:
    text(await session.run(START))
    before = await _state(session)
    assert "Only their owner may move" in refusal(
        await session.run("bob: /adjust field:discard card:返し火 subject:alice")
    )
    assert "Only the seated players" in refusal(await session.run("carol: /adjust field:discard card:返し火"))
    assert "is not in your hand" in refusal(await session.run("bob: /adjust field:discard card:返し火"))
    assert "from 1 to 2" in refusal(await session.run("alice: /adjust field:discard card:返し火 value:3"))
    assert "needs the option card:" in refusal(await session.run("alice: /adjust field:discard"))
    assert await _state(session) == before


STARLIT = "alice: /game start players:alice,bob decks:starlit-night,tidal-veil first:alice"


async def _stargazing(session: ConsoleSession) -> GameState:
    """Alice's 星詠みのテラ・ミナ uses 星読み ("look at the top three cards of your deck") in her first main
    phase: the manual effect that lets her look at three cards. Returns the table just before it."""
    text(await session.run(STARLIT))
    state = await _state(session)
    hand = state.players[0].hand
    spell = next(c for c in hand if state.cards[c].type == "spell" and getattr(state.cards[c], "cost", 0) >= 1)
    text(await session.run(f"alice: /charge card:{spell} effect:off"))
    await _pass_until(session, 1, "main")
    before = await _state(session)
    shown = text(await session.run("alice: /skill unit:テラ・ミナ skill:星読み"))
    assert "Look at the top three cards of your deck" in shown
    return before


async def test_a_look_at_the_top_of_the_deck_is_private_and_a_reorder_public_by_count_only(
    session: ConsoleSession,
) -> None:
    start = await _stargazing(session)
    top = start.players[0].deck[:3]
    look = await session.run("alice: /deck top:3")
    assert [m.private_to for m in look.messages] == [None, "alice"]  # the fact in public, the cards to her
    public = to_text(look.messages[0])
    assert "alice looks at the top 3 card(s) of their deck" in public
    for name in _names(start, [c for c in top if c not in start.players[0].hand]):
        assert name not in public
    assert all(f"{i}. " in to_text(look.messages[1]) for i in (1, 2, 3))
    # Alice puts them back bottom card first, naming them by their English names.
    order = list(reversed(top))
    english = ",".join(start.cards[c].name_en or c for c in order)
    reply = await session.run(f'alice: /adjust field:deck_top cards:"{english}"')
    shown = text(reply)
    assert [m.private_to for m in reply.messages] == [None]
    assert "alice reorders the top 3 card(s) of their deck." in shown
    state = await _state(session)
    assert state.players[0].deck[:3] == order
    hidden = [c for c in order if c not in state.players[0].hand]  # hand cards may be named for other reasons
    for name in _names(state, hidden):
        assert name not in shown
    log = text(await session.run("bob: /game log"))
    assert "alice looks at the top 3 card(s) of their deck" in log
    for name in _names(state, hidden):
        assert name not in log
    # The reorder closed the look: the deck is hidden again.
    assert "only while an effect that says so" in refusal(await session.run("alice: /deck top:3"))


async def test_the_next_draw_takes_the_card_put_on_top(session: ConsoleSession) -> None:
    start = await _stargazing(session)
    top = start.players[0].deck[:2]
    names = ",".join(start.cards[c].name for c in reversed(top))
    text(await session.run("alice: /deck top:2"))
    session.locale = "ja"
    assert "aliceが山札の上2枚を並べ替えました（星読み）。" in text(
        await session.run(f"alice: /adjust field:deck_top cards:{names} note:星読み")
    )
    await _pass_until(session, 3, "charge")
    assert top[1] in (await _state(session)).players[0].hand


async def test_a_reorder_must_follow_a_look_name_the_cards_on_top_and_only_its_owner_may(
    session: ConsoleSession,
) -> None:
    before = await _stargazing(session)
    mine = ",".join(before.cards[c].name for c in before.players[0].deck[:3])
    assert "only after looking at them" in refusal(await session.run(f"alice: /adjust field:deck_top cards:{mine}"))
    text(await session.run("alice: /deck top:3"))
    looked = await _state(session)
    wrong = ",".join(before.cards[c].name for c in before.players[1].deck[:3])
    assert "Name the same cards as the top 3" in refusal(
        await session.run(f"alice: /adjust field:deck_top cards:{wrong}")
    )
    assert "Only their owner may move" in refusal(
        await session.run(f"bob: /adjust field:deck_top cards:{wrong} subject:alice")
    )
    assert "needs the option cards:" in refusal(await session.run("alice: /adjust field:deck_top"))
    assert await _state(session) == looked


async def test_deck_is_refused_without_an_effect_and_within_its_number(session: ConsoleSession) -> None:
    text(await session.run(START))
    before = await _state(session)
    for line in ("alice: /deck top:1", "bob: /deck top:25", "alice: /deck top:3"):
        assert "only while an effect that says so is being applied" in refusal(await session.run(line))
    assert "Say who does this" in refusal(await session.run("/deck top:1"))
    assert "Only the seated players" in refusal(await session.run("carol: /deck top:1"))
    assert "must be a whole number" in refusal(await session.run("alice: /deck top:three"))
    assert await _state(session) == before
    log = text(await session.run("bob: /game log"))
    assert "looks at" not in log


async def test_the_look_is_for_the_effects_controller_up_to_its_number(session: ConsoleSession) -> None:
    await _stargazing(session)
    assert "1 to 3 card(s)" in refusal(await session.run("alice: /deck top:4"))
    assert "1 to 3 card(s)" in refusal(await session.run("alice: /deck top:0"))
    assert "only while an effect" in refusal(await session.run("bob: /deck top:1"))


async def test_help_shows_the_card_adjustments_and_the_deck_look(session: ConsoleSession) -> None:
    shown = text(await session.run("/help"))
    assert "/adjust field:discard card:…" in shown
    assert "/adjust field:deck_top cards:…,…,…" in shown
    assert "/deck top:3" in shown
