"""States for the renderer tests: real games from the sample decks, set up by the engine itself."""

from __future__ import annotations

from functools import cache

import pytest

from bot.catalog import Catalog, load_catalog
from bot.dice import FairRandomness
from bot.engine import GameOptions, GameState, apply, start_action
from bot.engine.events import Event


@cache
def catalog() -> Catalog:
    return load_catalog()


def new_table(
    options: GameOptions | None = None, seed: bytes = b"render-tests"
) -> tuple[GameState, list[Event], FairRandomness]:
    rng = FairRandomness(seed.ljust(32, b"."), "render-table")
    start = start_action(
        catalog(),
        [("11", "alice", "solar-vanguard"), ("22", "bob", "tidal-veil")],
        options or GameOptions(first_player="first_seat"),
    )
    state, events = apply(GameState(), start, rng)
    return state, events, rng


@pytest.fixture
def table() -> tuple[GameState, list[Event], FairRandomness]:
    return new_table()
