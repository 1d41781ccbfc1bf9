"""What both stores do around a version-checked write of a game: `commit` and `finish`, the values
serialised before any SQL (so a transaction holds its lock only for SQL), the UPDATE's parameters in one
order, the record as just written, the log's filing of events, the refusal that says why, and the
checkpoint cadence. Each store
keeps only its SQL (bot/store/store.py for SQLite, bot/store/pg/store.py for PostgreSQL)."""

from __future__ import annotations

import json
from abc import ABC, abstractmethod
from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any, NoReturn

from pydantic import BaseModel, TypeAdapter

from bot.store.errors import NoGame, VersionConflict
from bot.store.records import GameRecord, JsonLike, NewRoll, event_type, now_text, to_json

# Every this many versions (and at the start) the state as committed is kept beside the log, so an undo or
# rollback folds at most about this many actions onto a kept state instead of the whole log.
CHECKPOINT_EVERY = 64

Filed = tuple[str, str, int]  # the log's types array, events array, and how many
_EVENT_LIST: TypeAdapter[list[Any]] = TypeAdapter(list[Any])


def filed_events(events: Sequence[JsonLike]) -> Filed | None:
    """The events of one write as the log files them: a JSON array of their type names and one of the
    events themselves (None when there are none)."""
    if not events:
        return None
    types = [event_type(e) for e in events]
    # Plain names (all the referee's own) need no escaping; the array is then built without a dumps call.
    names = '["' + '","'.join(types) + '"]' if all(t.isidentifier() for t in types) else json.dumps(types)
    if all(isinstance(e, BaseModel | dict) for e in events):
        return names, _EVENT_LIST.dump_json(list(events)).decode(), len(events)  # one serialiser call for all
    return names, "[" + ",".join(to_json(e) for e in events) + "]", len(events)


@dataclass(frozen=True)
class Write:
    """One commit (or finish) of a game, serialised and checked, ready for either store's SQL."""

    channel_id: int
    expected_version: int
    game_id: int | None
    next_roll: int | None
    events: int
    now: str
    state_text: str
    result_text: str | None
    filed: Filed | None

    @property
    def finishes(self) -> bool:
        return self.result_text is not None

    @property
    def checkpoint(self) -> bool:
        """Whether the new version is one whose state is kept (a finished game keeps none)."""
        return not self.finishes and (self.expected_version + 1) % CHECKPOINT_EVERY == 0  # read at call time

    def update_params(self) -> list[Any]:
        """The parameters of the UPDATE (`finish_update` when it finishes), in their order in both stores'
        SQL: state, events, next roll, time, [time, result], channel, expected version, [game]."""
        params: list[Any] = [self.state_text, self.events, self.next_roll, self.now]
        if self.finishes:
            params += [self.now, self.result_text]
        params += [self.channel_id, self.expected_version]
        if self.game_id is not None:
            params.append(self.game_id)
        return params

    def after(self, loaded: GameRecord, last_seq: int) -> GameRecord:
        """The row as just written: the loaded record (validated when it was read) with what changed."""
        changes: dict[str, Any] = {"state": self.state_text, "version": self.expected_version + 1}
        changes.update(last_seq=last_seq, updated_at=self.now)
        if self.next_roll is not None:
            changes["next_roll"] = self.next_roll
        if self.finishes:
            changes.update(status="finished", finished_at=self.now, result=self.result_text)
        return loaded.model_copy(update=changes)


def plan_write(
    channel_id: int,
    state: JsonLike,
    events: Sequence[JsonLike],
    expected_version: int,
    game_id: int | None,
    next_roll: int | None,
    finish: JsonLike | None,
    loaded: GameRecord | None,
) -> Write:
    if loaded is not None and (loaded.channel_id, loaded.version) != (channel_id, expected_version):
        raise ValueError("`loaded` must be the game and version being committed on")
    return Write(
        channel_id=channel_id,
        expected_version=expected_version,
        game_id=loaded.id if loaded is not None else game_id,
        next_roll=next_roll,
        events=len(events),
        now=now_text(),
        state_text=to_json(state),
        result_text=None if finish is None else to_json(finish),
        filed=filed_events(events),
    )


class GameWrites(ABC):
    """`commit` and `finish` as both stores offer them: each store writes a planned Write with its own
    SQL (`_write`) and says why nothing was written with `_refuse`."""

    @abstractmethod
    def find(self, channel_id: int) -> GameRecord | None: ...

    @abstractmethod
    def _write(
        self, write: Write, actor: int | None, rolls: Sequence[NewRoll], loaded: GameRecord | None
    ) -> GameRecord: ...

    def commit(
        self,
        channel_id: int,
        new_state: JsonLike,
        events: Sequence[JsonLike],
        expected_version: int,
        *,
        game_id: int | None = None,
        actor: int | None = None,
        next_roll: int | None = None,
        rolls: Sequence[NewRoll] = (),
        loaded: GameRecord | None = None,
    ) -> GameRecord:
        """Write the new state and its events in one transaction, only if the stored version is
        `expected_version` (and the game is `game_id`, when given). Otherwise VersionConflict or
        NoGame, and nothing is written. Returns the game as stored now (version + 1).

        `loaded`, the record the new state was computed from (the service always has it), lets the
        store build the returned record from it instead of reading the row back."""
        # Everything is serialised before the transaction opens, so it holds its lock only for SQL.
        write = plan_write(channel_id, new_state, events, expected_version, game_id, next_roll, None, loaded)
        return self._write(write, actor, rolls, loaded)

    def finish(
        self,
        channel_id: int,
        final_state: JsonLike,
        events: Sequence[JsonLike],
        expected_version: int,
        *,
        result: JsonLike | None = None,
        game_id: int | None = None,
        actor: int | None = None,
        loaded: GameRecord | None = None,
        next_roll: int | None = None,
        rolls: Sequence[NewRoll] = (),
    ) -> GameRecord:
        """Like commit, and archive the game in the same transaction: the channel is free for the next
        game; the finished one stays readable (log, replay, dice verification with its revealed seed).
        The rolls of the final action are filed like any other action's."""
        write = plan_write(channel_id, final_state, events, expected_version, game_id, next_roll, result or {}, loaded)
        return self._write(write, actor, rolls, loaded)

    def _refuse(self, channel_id: int, expected_version: int, game_id: int | None) -> NoReturn:
        """Why a version-checked write wrote nothing: no game in the channel, or it has moved on."""
        current = self.find(channel_id)
        if current is None:
            raise NoGame(channel=channel_id)
        found = current.version if game_id in (None, current.id) else f"{current.version} (game #{current.id})"
        raise VersionConflict(channel=channel_id, expected=expected_version, found=found)
