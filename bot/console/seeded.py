"""A TableService whose dice table id is fixed, so `--seed N` replays a console game exactly.

The service names each table's dice after the clock (channel and start time), and that name goes
into every fair roll and shuffle; a console run with a seed needs it fixed too. This subclass only
swaps that one name. It goes away once TableService takes a table-id factory of its own.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass, field

from bot.dice import FairRandomness
from bot.engine import GameState, StartGame, apply
from bot.service import Outcome, TableService, _rolls, _state_json
from bot.store import GameAlreadyRunning


@dataclass
class SeededTableService(TableService):
    table_id_factory: Callable[[int], str] = field(default=lambda channel_id: f"console-{channel_id}")

    def _start_now(self, channel_id: int, user_id: int, start: StartGame, guild_id: int | None) -> Outcome:
        if self.store.find(channel_id) is not None:
            raise GameAlreadyRunning(channel=channel_id)
        rng = FairRandomness(self.seed_factory(), self.table_id_factory(channel_id))
        state, events = apply(GameState(), start, rng)
        game = self.store.start(
            channel_id,
            _state_json(state),
            events,
            guild_id=guild_id,
            actor=user_id,
            seed=rng.seed,
            commitment=rng.commitment,
            table_id=rng.table_id,
            next_roll=rng.next_number,
            rolls=_rolls(events, user_id, rng.commitment),
        )
        self._cache.put(game.id, (game, state))
        return Outcome(channel_id, game.id, game.version, state, list(events), commitment=rng.commitment)
