"""What a rule author may rely on inside a handler: the table they read is the live one.

A handler looks units and players up on `ctx.state`, emits events, and reads them again. Every read
after an `emit` must see what the event did, through the very objects read before it: no rule has to
remember to look a unit up again (a trap that once let a rule read a unit's HP from before a hit).
"""

from __future__ import annotations

from bot.engine import events as ev
from bot.engine.context import Ctx

from .conftest import LoadedDice, at_main


def _hit(hp_after: int) -> ev.DamageDealt:
    return ev.DamageDealt(
        source="spell", card="bolt", target="p2.knight", amount=2, reduction=0, final=2, hp_after=hp_after
    )


def test_a_unit_and_a_player_read_before_an_event_show_its_outcome_after_it() -> None:
    t = at_main(("bolt",) * 10)
    ctx = Ctx(t.state, LoadedDice())
    knight = ctx.state.find_unit("p2.knight")
    bob = ctx.state.players[1]
    assert knight is not None and not knight.tapped
    hp, ether = knight.hp, bob.ether

    ctx.emit(_hit(hp - 2))
    ctx.emit(ev.Tapped(units=("p2.knight",)))
    ctx.emit(ev.EtherGained(seat=1, amount=1, reason="effect"))

    assert knight.hp == hp - 2 and knight.tapped
    assert bob.ether == ether + 1
    assert knight is ctx.state.find_unit("p2.knight") and bob is ctx.state.players[1]


def test_the_state_a_handler_was_given_is_left_as_it_was() -> None:
    t = at_main(("bolt",) * 10)
    before = t.state.model_dump_json()
    ctx = Ctx(t.state, LoadedDice())
    ctx.emit(_hit(1))
    ctx.emit(ev.CardsDrawn(seat=0, cards=(t.state.players[0].deck[0],)))
    assert t.state.model_dump_json() == before
