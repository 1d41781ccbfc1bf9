"""A game state as the store keeps it: JSON of everything but the card definitions.

The card definitions never change during a game and are already in its GameStarted event; they are
most of the state's size, so they are left out (the service puts them back on load).
"""

from __future__ import annotations

from bot.engine import GameState
from bot.store import RawJson


def state_text(state: GameState) -> RawJson:
    """The stored JSON of `state`: every field but `cards`."""
    return RawJson(state.model_dump_json(exclude={"cards"}))
