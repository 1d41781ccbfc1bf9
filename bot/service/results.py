"""What the service returns: the outcome of one request, a table's public view, a game's log."""

from __future__ import annotations

from dataclasses import dataclass

from bot.engine import GameState
from bot.store import GameRecord
from bot.table.entries import Logged


@dataclass(frozen=True)
class Outcome:
    """What one request did. `state` is shared with the service's cache: treat it as read-only."""

    channel_id: int
    game_id: int
    version: int
    state: GameState
    events: list[Logged]  # engine events and the table's own entries (undo, rollback, end), in log order
    finished: bool = False
    commitment: str | None = None
    revealed_seed: str | None = None  # hex, only once the game is over
    before: GameState | None = None  # the table the request was applied to (None: a new game)


@dataclass(frozen=True)
class TableView:
    """The public facts of a table. The seed appears only when the game is finished."""

    channel_id: int
    game_id: int
    version: int
    state: GameState
    active: bool
    commitment: str | None
    table_id: str | None
    revealed_seed: str | None
    created_at: str
    updated_at: str


@dataclass(frozen=True)
class ReplayCheck:
    game_id: int
    stored: GameState
    rebuilt: GameState
    events: int

    @property
    def matches(self) -> bool:
        return self.stored.model_dump() == self.rebuilt.model_dump()


def view_of(game: GameRecord, state: GameState) -> TableView:
    seed = game.seed.hex() if game.seed is not None and not game.active else None
    return TableView(
        game.channel_id,
        game.id,
        game.version,
        state,
        game.active,
        game.commitment,
        game.table_id,
        seed,
        game.created_at,
        game.updated_at,
    )
