"""Helpers for the service tests: a real StartGame from the shipped decks and random legal play."""

from __future__ import annotations

import random
from functools import cache

from bot.catalog import Catalog, load_catalog
from bot.engine import Action, StartGame, legal_actions, start_action
from bot.engine.state import GameState

AKI, BEN, STRANGER, JUDGE = 111, 222, 333, 999


@cache
def catalog() -> Catalog:
    return load_catalog()


def start(first: int = AKI, second: int = BEN) -> StartGame:
    return start_action(catalog(), [(str(first), "Aki", "solar-vanguard"), (str(second), "Ben", "tidal-veil")])


def next_move(state: GameState, rnd: random.Random) -> tuple[int, Action]:
    """The seat that must act now and a random legal action of theirs."""
    assert state.active is not None, "a running game always has someone to act"
    player = state.players[state.active].id
    return int(player), rnd.choice(legal_actions(state, player))
