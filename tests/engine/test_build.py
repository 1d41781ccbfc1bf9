"""The trusted builders of bot/engine/build.py make exactly what pydantic's validating constructors make.

Random games (options varied as in test_random_play) are played; every event, every legal action and
every state part `apply` built is rebuilt through validation and compared field by field: the same
values of the same types, in the same order, with the same fields set.
"""

from __future__ import annotations

import random
from typing import Any

from pydantic import BaseModel

from bot.catalog import load_catalog
from bot.dice import FairRandomness
from bot.engine import GameOptions, apply, legal_actions, new_game, start_action
from bot.engine.state import GameState

from .test_random_play import OPTION_CHOICES

GAMES = 24
TURN_LIMIT = 12


def _shape(value: Any) -> Any:
    """A value with every container's and scalar's type spelled out (== alone ignores list vs tuple)."""
    if isinstance(value, BaseModel):
        return (type(value), [(k, _shape(v)) for k, v in value.__dict__.items()])
    if isinstance(value, list | tuple):
        return (type(value), [_shape(v) for v in value])
    if isinstance(value, dict):
        return (type(value), [(_shape(k), _shape(v)) for k, v in value.items()])
    return (type(value), value)


def _same_as_validated(model: BaseModel, *, changed: bool = False) -> None:
    """`changed`: fold may have written to it since, so every field is given, and the set ones are not compared."""
    given = model.__dict__ if changed else {name: getattr(model, name) for name in model.model_fields_set}
    validated = type(model)(**given)
    assert _shape(model) == _shape(validated), type(model).__name__
    assert changed or model.model_fields_set == validated.model_fields_set
    assert repr(model) == repr(validated)
    assert model.model_dump_json() == validated.model_dump_json()


def _check_state(state: GameState) -> None:
    """Continuing effects, DEF changes and the pending attack are replaced, never written; units and auras are."""
    for part in [*state.continuing, *state.def_mods, *([state.pending] if state.pending is not None else [])]:
        _same_as_validated(part)
    for player in state.players:
        for member in [*player.units, *player.auras]:
            _same_as_validated(member, changed=True)


def test_built_models_equal_validated_ones() -> None:
    catalog = load_catalog()
    decks = sorted(catalog.decks)
    for game in range(GAMES):
        r = random.Random(game)
        options = GameOptions() if game % 4 == 0 else GameOptions(**{k: r.choice(v) for k, v in OPTION_CHOICES.items()})
        rng = FairRandomness(game.to_bytes(4, "big") + b"build", f"build-{game}")
        action = start_action(catalog, [("alice", "Alice", r.choice(decks)), ("bob", "Bob", r.choice(decks))], options)
        state, events = new_game(action, rng)
        while not state.over and state.turn <= TURN_LIMIT:
            assert state.active is not None
            choices = legal_actions(state, state.players[state.active].id, include_concede=game % 5 == 0)
            for choice in choices:
                _same_as_validated(choice)
            pick = [c for c in choices if c.type != "concede"] or choices
            state, new = apply(state, r.choice(pick), rng)
            events.extend(new)
            _check_state(state)
        for event in events:
            _same_as_validated(event)
