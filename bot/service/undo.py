"""Taking actions back: a player's undo of their own last action, a moderator's rollback.

The log is append-only, so both are entries of their own. An undo never goes past a barrier (the
events that define barriers say so, bot/engine/events.py): something drawn, rolled, shuffled or
shown cannot be unseen. Both read the log backwards from its end only as far as a kept state.
"""

from __future__ import annotations

import logging
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from typing import Any

from pydantic import TypeAdapter

from bot.engine import Event, GameState, replay
from bot.engine.events import undo_barrier
from bot.engine.fold import fold_all
from bot.service.core import TableCore
from bot.service.errors import BadRollback, NothingToUndo, NotYourUndo, UndoBarrier
from bot.service.results import Outcome
from bot.service.state_text import state_text
from bot.store import CorruptRow, EventRecord, GameRecord
from bot.store.history import Tail
from bot.store.records import parse_json
from bot.store.writes import CHECKPOINT_EVERY
from bot.table.entries import TABLE_TYPES, TableRollback, TableUndo

_EVENTS: TypeAdapter[Any] = TypeAdapter(Event)
log = logging.getLogger(__name__)


def barrier_reason(record: EventRecord) -> str | None:
    """Why this logged event stops an undo, as a key of store.service.barrier; None when it does not."""
    return undo_barrier(record.type, record.data_dict())


def is_barrier(record: EventRecord) -> bool:
    """Whether this logged event stops an undo."""
    return barrier_reason(record) is not None


@dataclass
class UndoRules(TableCore):
    """Undo and rollback, on the worker thread."""

    def undo_now(self, channel_id: int, user_id: int) -> Outcome:
        """`undo` without the lock or the worker thread: for a tool that owns the store alone (bench)."""
        game, before = self._load(channel_id)

        def enough(tail: Tail, kept: int) -> bool:  # the last action found, and a base below it
            return bool(tail.found) and tail.found[0][0] > kept and tail.intact_up_to(kept)

        tail, base = self._walk_back(game, enough)
        if base is None and len(tail.found) <= 1:  # only the game's start is in effect
            raise NothingToUndo()
        version, actor = tail.found[0]
        if actor != user_id:
            raise NotYourUndo()
        last = self.store.events_of(game.id, [version])
        barrier = next(((e, why) for e in last if (why := barrier_reason(e)) is not None), None)
        if barrier is not None:
            raise UndoBarrier(event=barrier[0].type, reason=barrier[1])
        state = self._state_from(game, base, [v for v, _ in reversed(tail.found[1:])], enough)
        undone = [TableUndo(by=user_id, undone=version)]
        log.debug("undo of version %d", version, extra={"channel": game.channel_id, "game": game.id})
        return self._keep_if_far(tail, self._commit(game, state, undone, user_id, before=before))

    def _rollback_now(self, channel_id: int, user_id: int, to_version: int | None) -> Outcome:
        # The stored state is not read: a rollback rebuilds from the log, so it also repairs a state
        # row that no longer parses (rolling back to the latest version re-derives it, dropping nothing).
        game = self.store.load(channel_id)
        try:  # the table the reply names things from; a damaged row has none, and the rollback repairs it
            before: GameState | None = self._state_of(game)
        except CorruptRow:
            before = None

        def enough(tail: Tail, kept: int) -> bool:  # the target read, and a base below it
            if to_version is None:
                return len(tail.found) > 1 and kept < tail.found[1][0] and tail.intact_up_to(kept)
            return kept < to_version and tail.intact_up_to(kept)

        tail, base = self._walk_back(game, enough)
        versions = [v for v, _ in tail.found]
        target = to_version if to_version is not None else (versions[1] if len(versions) > 1 else None)
        if target is None or target not in versions:
            every = [v for v, _ in reversed(self._walk_back(game, lambda tail, kept: False)[0].found)]
            raise BadRollback(versions=", ".join(str(v) for v in every) or "-")
        state = self._state_from(game, base, [v for v in reversed(versions) if v <= target], enough)
        rolled = [TableRollback(by=user_id, to=target)]
        log.debug("rollback to version %d", target, extra={"channel": game.channel_id, "game": game.id})
        return self._keep_if_far(tail, self._commit(game, state, rolled, user_id, before=before))

    def _keep_if_far(self, tail: Tail, out: Outcome) -> Outcome:
        """After an undo or rollback that read far back (the kept states before it had been taken back),
        keep the table it made, so the next one stops here: undos in a row, or action and undo over and
        over, then never read more than about CHECKPOINT_EVERY commits each."""
        if tail.read_count > CHECKPOINT_EVERY and not out.finished:
            self.store.keep_state(out.game_id, out.version, state_text(out.state))
        return out

    def _walk_back(
        self, game: GameRecord, enough: Callable[[Tail, int], bool], *, use_kept: bool = True
    ) -> tuple[Tail, int | None]:
        """Read the game's log backwards from its end, a few commits at a time, until `enough(tail, v)`
        accepts the state kept at version v (a checkpoint, met before that commit is read) as the base
        to fold the actions in effect after it onto: (tail, v). (tail, None) when the whole log was read."""
        kept = set(self.store.checkpoints(game.id)) if use_kept else set()
        tail = Tail()
        before, chunk = game.version + 1, 32
        while True:
            rows = self.store.outline(game.id, before=before, limit=chunk)
            for version, actor, head, data in rows:
                if version in kept and enough(tail, version):
                    return tail, version
                tail.read(version, actor, head, data, where=f"actions (game {game.id}, version {version})")
            if len(rows) < chunk:
                return tail, None
            before, chunk = rows[-1][0], min(chunk * 4, 4096)

    def _state_from(
        self, game: GameRecord, base: int | None, versions: list[int], enough: Callable[[Tail, int], bool]
    ) -> GameState:
        """The table of the actions `versions` (oldest first) folded onto the state kept at `base`, or onto
        an empty table when there is no base: the same table the whole log folds to
        (tests/store/test_undo_checkpoints.py)."""
        if base is None:
            return replay(self._engine_events(game, versions))
        try:
            text = self.store.checkpoint(game.id, base)
            state = parse_json(text, GameState, what=f"checkpoints (game {game.id}, version {base})")
        except CorruptRow:  # a damaged kept state: the log alone still has everything
            tail, _ = self._walk_back(game, enough, use_kept=False)
            wanted = set(versions)
            return replay(self._engine_events(game, [v for v, _ in reversed(tail.found) if v in wanted or v <= base]))
        self._put_cards(game, state)
        return fold_all(state, self._engine_events(game, versions))

    def _engine_events(self, game: GameRecord, versions: Sequence[int]) -> list[Any]:
        return [
            parse_json(r.data, _EVENTS, what=f"events.data (game {r.game_id}, seq {r.seq})")
            for r in self.store.events_of(game.id, versions)
            if r.type not in TABLE_TYPES
        ]
