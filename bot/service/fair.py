"""A game's fair-dice draws for a judge, in the roll-log format of bot/dice/verify.py.

Every numbered roll and shuffle of a game's log, and the rolls filed beside it, so that
`referee verify` (and /game verify) can recompute them from the revealed seed.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from pydantic import TypeAdapter

from bot.engine import Event, GameState
from bot.engine.fold import fold_all
from bot.service.core import TableCore
from bot.service.results import TableView, view_of
from bot.store import EventRecord
from bot.store.history import Batch, Effect, batches
from bot.store.records import parse_json
from bot.table.entries import TABLE_TYPES

_EVENTS: TypeAdapter[Any] = TypeAdapter(Event)


@dataclass
class FairDraws(TableCore):
    """Reading a game's draws, on the worker thread."""

    def fair_draws(self, channel_id: int, *, game_id: int | None = None) -> tuple[TableView, list[dict[str, Any]]]:
        """The game (running, else the last finished one, or `game_id`) and every numbered draw in its
        log, oldest first: each roll, and each shuffle with the cards it started from (the table folded
        up to it). Undone and rolled-back actions count too: their draws were made, and a draw number
        is never used twice. Each entry names its event (`seq`). While a game runs its deck orders are
        hidden information, so its shuffles are left out (and the view carries no seed)."""
        from bot.engine.context import _rebuild_pool  # the engine's own rule for a rebuilt deck's cards
        from bot.engine.events import DeckRebuilt, DeckShuffled, DiceRolled

        game = self._chosen_game(channel_id, game_id)
        view = view_of(game, self._state_of(game))
        table_id = game.table_id or ""
        draws: list[dict[str, Any]] = []
        # One pass over the log. Only numbered events are parsed on the way; the table is folded only
        # when a finished game's shuffle needs it (the cards it started from), and then only from where
        # it was last folded, unless an undo or rollback since took back what had been folded.
        effect: Effect[Batch] = Effect()
        table = _Folding(self)
        for batch in batches(self.store.events(game.id)):
            head = batch.events[0]
            effect.read(batch.version, head.type, head.data, batch, where=_where(head))
            if head.type in TABLE_TYPES:
                table.keep(len(effect.stack))
                continue
            for index, record in enumerate(batch.events):
                if record.type not in _NUMBERED and '"number"' not in record.data:
                    continue
                event = table.event(batch, index)
                number = getattr(event, "number", None)
                head_entry = {"table_id": table_id, "number": number, "seq": record.seq}
                if number is not None and isinstance(event, DiceRolled):
                    rolled = {"expression": event.expression, "faces": list(event.faces), "total": event.total}
                    draws.append(head_entry | rolled | {"purpose": event.purpose})
                elif number is not None and isinstance(event, DeckShuffled | DeckRebuilt) and not game.active:
                    state = table.before(effect.items(), index)
                    player = state.players[event.seat]
                    items = list(player.deck)
                    if isinstance(event, DeckRebuilt):
                        items = _rebuild_pool(player.cemetery, player.afterglow) + list(player.ether_area)
                    draws.append(head_entry | {"shuffle": items, "order": list(event.order), "seat": event.seat})
        return view, draws

    def filed_rolls(self, game_id: int) -> list[dict[str, Any]]:
        """The game's numbered rolls as filed in the rolls table, in the same log format (faces in one
        list), each with its row id (`roll`) and the commitment filed with it."""
        table_id = self.store.game(game_id).table_id or ""
        return [
            {
                "table_id": table_id,
                "number": row.number,
                "expression": row.expression,
                "faces": [face for term in row.face_list() for face in (term if isinstance(term, list) else [term])],
                "total": row.total,
                "roll": row.id,
                "commitment": row.commitment,
            }
            for row in self.store.rolls.of_game(game_id)
            if row.number is not None
        ]


# The events that can carry a draw number (others are checked for a "number" key before being parsed).
_NUMBERED = frozenset({"dice_rolled", "deck_shuffled", "deck_rebuilt"})


def _where(record: EventRecord) -> str:
    return f"events.data (game {record.game_id}, seq {record.seq})"


class _Folding:
    """The table folded lazily along a log read in one pass (for fair_draws): events are parsed once,
    and the table is folded forward only when asked for, from where it was last folded."""

    def __init__(self, service: TableCore) -> None:
        self._service = service
        self._parsed: dict[int, list[Any]] = {}  # version -> its events, parsed
        self._state = GameState()
        self._done = 0  # actions in effect folded into the state, oldest first
        self._partial = 0  # events of the next action folded too

    def event(self, batch: Batch, index: int) -> Any:
        return self._events(batch)[index]

    def keep(self, depth: int) -> None:
        """An undo or rollback left `depth` actions in effect: start again if it took back folded ones."""
        if depth < self._done + (1 if self._partial else 0):
            self._state, self._done, self._partial = GameState(), 0, 0

    def before(self, stack: list[Batch], index: int) -> GameState:
        """The table just before event `index` of the newest action in effect (`stack[-1]`)."""
        target = len(stack) - 1
        while self._done < target:
            events = self._events(stack[self._done])
            self._state = fold_all(self._state, events[self._partial :])
            self._done, self._partial = self._done + 1, 0
        if index > self._partial:
            self._state = fold_all(self._state, self._events(stack[target])[self._partial : index])
            self._partial = index
        return self._state

    def _events(self, batch: Batch) -> list[Any]:
        found = self._parsed.get(batch.version)
        if found is None:
            found = [
                parse_json(r.data, _EVENTS, what=_where(r)) if r.type not in TABLE_TYPES else None for r in batch.events
            ]
            self._parsed[batch.version] = found
        return found
