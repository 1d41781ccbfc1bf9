"""The stored text of a state reads back as the very state, without its card definitions."""

from __future__ import annotations

import json
import random

from bot.dice import FairRandomness
from bot.engine import GameState, apply
from bot.service.state_text import state_text
from tests.store.tables import next_move, start


def test_every_state_of_random_games_is_stored_whole_but_its_cards() -> None:
    for game in range(6):
        rnd = random.Random(game)
        rng = FairRandomness(bytes([game + 1]) * 32, f"text-{game}")
        state, _ = apply(GameState(), start(), rng)
        for _ in range(150):
            if state.over:
                break
            state, _ = apply(state, next_move(state, rnd)[1], rng)
            text = state_text(state)
            assert "cards" not in json.loads(text)
            back = GameState.model_validate_json(text)
            assert back.model_dump() == state.model_copy(update={"cards": {}}).model_dump()
