"""The stored text of a state reads back as the very state, whichever players it reused."""

from __future__ import annotations

import json
import random

from bot.dice import FairRandomness
from bot.engine import GameState, apply
from bot.state_text import state_text
from tests.store.tables import next_move, start


def test_every_state_of_random_games_is_stored_whole_reusing_only_unchanged_players() -> None:
    reused = 0
    for game in range(6):
        rnd = random.Random(game)
        rng = FairRandomness(bytes([game + 1]) * 32, f"text-{game}")
        state, _ = apply(GameState(), start(), rng)
        text = state_text(state)
        for _ in range(150):
            if state.over:
                break
            new_state, _ = apply(state, next_move(state, rnd)[1], rng)
            new_text = state_text(new_state, text)
            full = new_state.model_dump_json(exclude={"cards"})
            assert json.loads(new_text.text) == json.loads(full)
            back = GameState.model_validate_json(new_text.text)
            assert back.model_dump() == new_state.model_copy(update={"cards": {}}).model_dump()
            reused += sum(a is b for (a, _), (b, _) in zip(text.players, new_text.players, strict=True))
            state, text = new_state, new_text
    assert reused > 100, "unchanged players are not serialised again"


def test_the_texts_of_another_game_are_never_taken_for_its_players() -> None:
    rng = FairRandomness(b"\x07" * 32, "text-other")
    one, _ = apply(GameState(), start(), rng)
    other, _ = apply(GameState(), start(), FairRandomness(b"\x08" * 32, "text-other"))
    assert state_text(one, state_text(other)).text == state_text(one).text
