"""Helpers for engine tests: small test cards built with the real catalog models, loaded dice, and a
table builder that plays the real set-up through `apply`.

`LoadedDice` is a real implementation of the dice module's Randomness protocol whose faces are
given in advance: shuffles keep the deck in list order (Fisher-Yates with j = i every step) and rolls
take the next listed face. Scenario tests use it to reach an exact board; the random-play test uses
the real FairRandomness.
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from typing import Any

import pytest
from pydantic import TypeAdapter

from bot.catalog import Card
from bot.engine import GameOptions, GameState, RuleViolation, SeatSpec, StartGame, apply, new_game, replay
from bot.engine.actions import Action

CARD = TypeAdapter(Card)


class _LoadedStream:
    def __init__(self, dice: LoadedDice, purpose: str, number: int) -> None:
        self.dice, self.purpose, self.number = dice, purpose, number

    def die(self, sides: int) -> int:
        if self.purpose == "shuffle":
            return sides  # j = i: the order stays as listed
        if not self.dice.faces:
            raise AssertionError(f"the test rolled {self.purpose} but listed no more faces")
        face = self.dice.faces.pop(0)
        assert 1 <= face <= sides
        return face


class LoadedDice:
    """Randomness with listed faces: `LoadedDice(6, 5)` rolls a 6, then a 5."""

    def __init__(self, *faces: int) -> None:
        self.faces = list(faces)
        self.next_number = 0

    def load(self, *faces: int) -> LoadedDice:
        self.faces.extend(faces)
        return self

    def stream(self, purpose: str) -> _LoadedStream:
        number = self.next_number
        self.next_number += 1
        return _LoadedStream(self, purpose, number)


def dmg(amount: int | None = None, dice: str | None = None, target: str = "chosen_enemy") -> dict[str, Any]:
    out: dict[str, Any] = {"kind": "damage", "target": target}
    if dice:
        out["dice"] = dice
    else:
        out["amount"] = amount
    return out


def skill(sid: str, kind: str, cost: int, effects: list[dict[str, Any]], timing: str = "own_turn") -> dict[str, Any]:
    return {"id": sid, "name": sid, "kind": kind, "cost": cost, "timing": timing, "effects": effects, "text": sid}


def _arc(cid: str, hp: int, defense: int, skills: list[dict[str, Any]]) -> dict[str, Any]:
    return {"type": "arcastella", "id": cid, "name": cid, "hp": hp, "def": defense, "skills": skills}


def _spell(cid: str, cost: int, effects: list[dict[str, Any]], timing: str = "own_turn", **more: Any) -> dict[str, Any]:
    return {"type": "spell", "id": cid, "name": cid, "cost": cost, "timing": timing, "effects": effects, **more}


TEST_CARDS: list[dict[str, Any]] = [
    _arc(
        "knight",
        20,
        4,
        [
            skill("slash", "attack", 1, [dmg(6)]),
            skill("crash", "attack", 2, [dmg(dice="2d6")]),
            skill("guard", "support", 1, [{"kind": "modify_def", "amount": 2, "target": "self"}]),
            skill("aid", "support", 0, [{"kind": "heal", "amount": 2, "target": "chosen_ally"}]),
            skill("nova", "astral", 0, [dmg(10)]),
            skill("riposte", "attack", 1, [dmg(3)], timing="opponent_turn"),
        ],
    ),
    _arc(
        "sage",
        15,
        2,
        [
            skill("zap", "attack", 1, [dmg(3)]),
            skill("dawnlight", "leader", 0, [{"kind": "gain_ether", "amount": 1}], timing="turn_start"),
            skill("farewell", "support", 0, [{"kind": "draw", "count": 1}], timing="knockout"),
            skill("dusk-prayer", "support", 0, [{"kind": "heal", "amount": 1, "target": "self"}], timing="turn_end"),
        ],
    ),
    _arc("squire", 10, 3, [skill("poke", "attack", 0, [dmg(2)]), skill("jab", "support", 0, [dmg(2)])]),
    _spell("bolt", 1, [dmg(4)], ether_effect=[{"kind": "draw", "count": 1}]),
    _spell("spark", 2, [dmg(dice="1d6")], timing="any", ether_effect=[{"kind": "gain_ether", "amount": 1}]),
    _spell("quick", 1, [dmg(2)], timing="opponent_turn"),
    _spell("dawn", 1, [{"kind": "gain_ether", "amount": 2}], timing="turn_start"),
    _spell("dusk", 0, [{"kind": "heal", "amount": 3, "target": "all_allies"}], timing="turn_end"),
    _spell("vengeance", 1, [dmg(5)], timing="knockout"),
    _spell(
        "regen",
        2,
        [{"kind": "continuing", "count": 2, "effects": [{"kind": "heal", "amount": 3, "target": "chosen_ally"}]}],
    ),
    _spell(
        "riddle", 0, [{"kind": "manual", "text": "相手は手札を1枚捨てる。", "text_en": "The opponent discards a card."}]
    ),
    _spell("weaken", 1, [{"kind": "modify_def", "amount": -3, "target": "chosen_enemy"}], timing="any"),
    _spell("big", 5, [dmg(9)]),
    _spell("study", 0, [{"kind": "draw", "count": 2}]),
    _spell("storm", 1, [dmg(2, target="all_enemies")]),
    {
        "type": "follower",
        "id": "martyr",
        "name": "martyr",
        "cost": 0,
        "hp": 1,
        "triggers": [{"timing": "knockout", "effects": [{"kind": "heal", "amount": 5, "target": "all_allies"}]}],
    },
    {
        "type": "follower",
        "id": "pup",
        "name": "pup",
        "cost": 1,
        "hp": 3,
        "def": 1,
        "triggers": [{"timing": "knockout", "effects": [{"kind": "draw", "count": 1}]}],
    },
    {
        "type": "follower",
        "id": "imp",
        "name": "imp",
        "text": "ターン開始時、相手のユニット1体に1ダメージ。",
        "cost": 0,
        "hp": 2,
        "triggers": [{"timing": "turn_start", "effects": [dmg(1)]}],
    },
    {
        "type": "aura_compolta",
        "id": "choir",
        "name": "choir",
        "cost": 1,
        "resonance_max": 2,
        "resonates_on": "spell_cast",
        "effects": [{"kind": "gain_ether", "amount": 3}],
    },
    {
        "type": "sephirot_code",
        "id": "amulet",
        "name": "amulet",
        "breaks_on": [1, 2, 3],
        "def_bonus": 2,
        "on_break": [{"kind": "heal", "amount": 1, "target": "self"}],
    },
]

CARDS: dict[str, Card] = {c["id"]: CARD.validate_python(c) for c in TEST_CARDS}


def seat(
    pid: str, deck: Sequence[str], arcastella: tuple[str, str, str] = ("sage", "knight", "squire"), **more: Any
) -> SeatSpec:
    return SeatSpec(
        id=pid,
        name=pid.capitalize(),
        arcastella=arcastella,
        leader=more.pop("leader", arcastella[0]),
        deck=tuple(deck),
        **more,
    )


class Table:
    """A game played through the real engine, keeping every event so replay can be checked."""

    def __init__(self, state: GameState, events: list[Any], dice: LoadedDice) -> None:
        self.state, self.events, self.dice = state, events, dice

    def do(self, action: Action, *faces: int) -> list[Any]:
        self.dice.load(*faces)
        self.state, new = apply(self.state, action, self.dice)
        self.events.extend(new)
        assert replay(self.events) == self.state
        return new

    def unit(self, uid: str) -> Any:
        unit = self.state.find_unit(uid)
        assert unit is not None, uid
        return unit

    def player(self, seat: int) -> Any:
        return self.state.players[seat]

    def types(self, events: Iterable[Any]) -> list[str]:
        return [e.type for e in events]


def start(
    deck1: Sequence[str] = ("bolt",) * 10,
    deck2: Sequence[str] = ("bolt",) * 10,
    *faces: int,
    options: GameOptions | None = None,
    seat1: dict[str, Any] | None = None,
    seat2: dict[str, Any] | None = None,
) -> Table:
    """Alice (seat 0) plays first unless the options say otherwise. Decks are drawn in listed order."""
    dice = LoadedDice(*faces)
    action = StartGame(
        players=(seat("alice", deck1, **(seat1 or {})), seat("bob", deck2, **(seat2 or {}))),
        cards=CARDS,
        options=options or GameOptions(first_player="first_seat"),
    )
    state, events = new_game(action, dice)
    return Table(state, events, dice)


def pass_until(t: Table, phase: str, turn: int | None = None) -> None:
    """Whoever has priority passes (or declines a block) until the phase (of that turn) or the game's end."""
    from bot.engine import NoBlock, Pass

    for _ in range(200):
        if t.state.over or (t.state.phase == phase and (turn is None or t.state.turn == turn)):
            return
        assert t.state.active is not None
        who = t.state.players[t.state.active].id
        t.do(NoBlock(player=who) if t.state.phase == "block" else Pass(player=who))
    raise AssertionError(f"never reached {phase}")


def at_main(deck: Sequence[str], options: GameOptions | None = None, **seats: Any) -> Table:
    """Both players with `deck`, in alice's first main phase, each with 9 ether to spend."""
    from bot.engine import Adjust

    t = start(deck, deck, options=options, **seats)
    pass_until(t, "main")
    t.do(Adjust(player="alice", subject="alice", field="ether", value=9))
    t.do(Adjust(player="bob", subject="bob", field="ether", value=9))
    return t


def refused(t: Table, action: Any) -> RuleViolation:
    """Apply `action` expecting a refusal: the table's state stays the same, no die is drawn, and the
    reason reads in both languages."""
    before = t.state
    dice = LoadedDice()  # no faces listed: a roll would fail the test
    with pytest.raises(RuleViolation) as info:
        apply(t.state, action, dice)
    assert t.state is before and t.state == replay(t.events)
    assert dice.next_number == 0, "a refused action drew from the dice"
    assert info.value.bilingual()
    return info.value


@pytest.fixture
def table() -> Table:
    return start()
