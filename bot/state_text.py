"""A game state as the store keeps it: JSON of everything but the card definitions.

The card definitions never change during a game and are already in its GameStarted event; they are
most of the state's size, so they are left out (the service puts them back on load).

The players are most of the rest, and an action usually changes only one of them: the engine copies a
player on its first change and shares the unchanged one with the state before. So each write keeps the
JSON of its players, and the next write reuses the text of any player object it still finds unchanged.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

from bot.engine import GameState, PlayerState
from bot.store import RawJson

_REST = {"cards", "players"}


@dataclass(frozen=True)
class StateText:
    text: RawJson
    # Each player object of the state with its JSON. Holding the object keeps it alive, so an object
    # found here by identity is that very player, unchanged since (states are never changed in place).
    players: tuple[tuple[PlayerState, str], ...]


def state_text(state: GameState, before: StateText | None = None) -> StateText:
    """The stored JSON of `state`, reusing the text of the players it shares with `before`."""
    known: Sequence[tuple[PlayerState, str]] = before.players if before is not None else ()
    players = tuple((p, _player_json(p, known)) for p in state.players)
    rest = state.model_dump_json(exclude=_REST)  # an object with at least one field: '{"started":...}'
    text = '{"players":[' + ",".join(j for _, j in players) + "]," + rest[1:]
    return StateText(RawJson(text), players)


def _player_json(player: PlayerState, known: Sequence[tuple[PlayerState, str]]) -> str:
    for seen, text in known:
        if seen is player:
            return text
    return player.model_dump_json()
