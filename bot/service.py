"""TableService: the one path every front end takes to change a table.

    lock(channel) → load (the game held in memory, else the file) → engine.apply → store.commit → unlock

One asyncio lock per channel (weak-valued, so idle channels cost nothing) serves the requests of one
channel one after the other while other channels go on; the store's version check stops a second
process from overwriting a table silently (and sends this one back to the stored game). Database calls
run on one worker thread (bot/worker.py); those waiting together share one commit.
"""

from __future__ import annotations

import asyncio
import functools
import secrets
import weakref
from collections import OrderedDict
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field
from datetime import UTC, datetime
from typing import Any, Generic, NamedTuple, TypeVar

from pydantic import TypeAdapter

from bot.dice import FairRandomness
from bot.engine import (
    Action,
    Event,
    GameOptions,
    GameState,
    ModeratorAdjust,
    StartGame,
    apply,
    legal_actions,
    replay,
    start_action,
)
from bot.engine.fold import fold_all
from bot.errors import RefereeError
from bot.i18n import normalize_locale, t
from bot.state_text import state_text
from bot.store import (
    CorruptRow,
    EventRecord,
    GameAlreadyRunning,
    GameRecord,
    NewRoll,
    NoGame,
    Store,
    StoreError,
    UnknownGame,
    VersionConflict,
)
from bot.store.history import (
    TABLE_TYPES,
    Batch,
    Effect,
    TableEnded,
    TableRollback,
    TableUndo,
    Tail,
    batches,
    in_effect,
)
from bot.store.records import parse_json
from bot.store.store import CHECKPOINT_EVERY
from bot.table.builders import ActionBuilder
from bot.worker import Worker

T = TypeVar("T")
_EVENTS: TypeAdapter[Any] = TypeAdapter(Event)

# Events after which an action can no longer be taken back: they drew on the table's randomness or
# showed someone information that was hidden (a draw, a shuffle, a roll, a deck order, a game's end).
BARRIER_TYPES = frozenset(
    {
        "game_started",
        "dice_rolled",
        "first_player_chosen",
        "deck_shuffled",
        "deck_rebuilt",
        "cards_drawn",
        "sephirot_checked",
        "game_ended",
        "conceded",
        "deck_looked",  # a player saw cards of their deck: taking the look back would not unsee them
    }
)


class ServiceError(RefereeError):
    key = "store.service.refused"


class NotSeated(ServiceError):
    key = "store.service.not_seated"


class NotYourSeat(ServiceError):
    key = "store.service.not_your_seat"


class NotModerator(ServiceError):
    key = "store.service.not_moderator"


class NothingToUndo(ServiceError):
    key = "store.service.nothing_to_undo"


class NotYourUndo(ServiceError):
    key = "store.service.not_your_undo"


class UndoBarrier(ServiceError):
    """`event` is the type of the event in the way; `reason` (a key of store.service.barrier) says it in words."""

    key = "store.service.undo_barrier"

    def message(self, locale: str = "ja") -> str:
        loc = normalize_locale(locale)
        return t(self.message_key, loc, what=t(f"store.service.barrier.{self.args_['reason']}", loc))

    def bilingual(self) -> str:
        ja, en = self.message("ja"), self.message("en")
        return f"{ja} / {en}"


class BadRollback(ServiceError):
    key = "store.service.bad_rollback"


_DICE_TYPES = frozenset({"dice_rolled", "first_player_chosen", "sephirot_checked"})

# Manual adjustments that move hidden cards: a discard shows a card from hand to everyone, and a
# reorder of the deck's top follows a look at cards nobody else has seen.
BARRIER_ADJUSTMENTS = frozenset({"discard", "deck_top"})


def is_barrier(record: EventRecord) -> bool:
    """Whether this logged event stops an undo: by its type, because it used a numbered random draw,
    or because it revealed or rearranged hidden cards."""
    return barrier_reason(record) is not None


def barrier_reason(record: EventRecord) -> str | None:
    """Why this event stops an undo, as a key of store.service.barrier; None when it does not."""
    data = record.data_dict()
    if record.type == "adjusted":
        field_name = data.get("field")
        return field_name if field_name in BARRIER_ADJUSTMENTS else None
    if record.type == "cards_drawn":
        return "draw"
    if record.type in ("deck_shuffled", "deck_rebuilt"):
        return "shuffle"
    if record.type in _DICE_TYPES or data.get("number") is not None:
        return "dice"
    return "revealed" if record.type in BARRIER_TYPES else None  # the game's start or end


@dataclass(frozen=True)
class Outcome:
    """What one request did. `state` is shared with the service's cache: treat it as read-only."""

    channel_id: int
    game_id: int
    version: int
    state: GameState
    events: list[Any]  # engine events and the table's own entries (undo, rollback, end), in log order
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
class GameLog:
    game: TableView
    entries: list[EventRecord]
    in_effect: list[Batch]


@dataclass(frozen=True)
class ReplayCheck:
    game_id: int
    stored: GameState
    rebuilt: GameState
    events: int

    @property
    def matches(self) -> bool:
        return self.stored.model_dump() == self.rebuilt.model_dump()


@dataclass
class TableService:
    """Start, play, undo, roll back and end the game of each channel; read its status and log.

    `catalog_or_factory` is the card catalog or a function that loads it (called once, when first
    needed): front ends use `service.catalog` to build the StartGame action from decks.

    Every database call runs on one worker thread of the service, so a slow disk or a file held by
    another process never stalls the event loop (and a Discord heartbeat with it); the per-channel
    lock is held across that await, which is what keeps two requests of one channel apart.
    """

    store: Store
    catalog_or_factory: Any = None
    seed_factory: Callable[[], bytes] = field(default=lambda: secrets.token_bytes(32))
    # The fair-dice table id of a new game (part of every roll's HMAC message): the channel and the
    # start time by default; the console fixes it so that `--seed N` replays a game exactly.
    table_id_factory: Callable[[int], str] = field(default=lambda channel_id: _table_id(channel_id))
    _locks: weakref.WeakValueDictionary[int, asyncio.Lock] = field(default_factory=weakref.WeakValueDictionary)
    # The running game of each channel as last written or read (by channel id).
    _cache: _Lru[_Held] = field(default_factory=lambda: _Lru(1024))
    _cards: _Lru[dict[str, Any]] = field(default_factory=lambda: _Lru(1024))
    _catalog: Any = None
    _worker: Worker = field(init=False)

    def __post_init__(self) -> None:
        # Calls waiting together share one transaction (group commit); should its commit fail, no game
        # held in memory can be trusted to be the stored one.
        self._worker = Worker("referee-store", group=self.store.group, on_group_failure=self._forget_all)

    def _forget_all(self) -> None:
        self._cache.clear()
        self._cards.clear()  # a game id of the undone group may be given to another game

    @property
    def catalog(self) -> Any:
        if self._catalog is None and self.catalog_or_factory is not None:
            source = self.catalog_or_factory
            self._catalog = source() if callable(source) else source
        return self._catalog

    def lock(self, channel_id: int) -> asyncio.Lock:
        lock = self._locks.get(channel_id)
        if lock is None:
            lock = asyncio.Lock()
            self._locks[channel_id] = lock
        return lock

    def close(self) -> None:
        """Stop the worker thread (the store is closed by whoever opened it)."""
        self._worker.close()

    async def _run(self, fn: Callable[..., T], *args: Any) -> T:
        return await self._worker.run(fn, *args)

    # -- playing -----------------------------------------------------------------------------------

    async def start_game(
        self,
        channel_id: int,
        user_id: int,
        start: StartGame,
        *,
        guild_id: int | None = None,
        is_moderator: bool = False,
    ) -> Outcome:
        """Open a game: only someone who takes a seat (or a moderator) may start it."""
        if str(user_id) not in {seat.id for seat in start.players} and not is_moderator:
            raise NotSeated()
        async with self.lock(channel_id):
            return await self._run(self._start_now, channel_id, user_id, start, guild_id)

    async def start_from_decks(
        self,
        channel_id: int,
        user_id: int,
        seats: list[tuple[int, str, str]],
        options: GameOptions | None = None,
        *,
        guild_id: int | None = None,
        is_moderator: bool = False,
    ) -> Outcome:
        """Start from two (user id, display name, deck id) seats, with the cards of `catalog`."""
        start = start_action(self.catalog, [(str(uid), name, deck) for uid, name, deck in seats], options)
        return await self.start_game(channel_id, user_id, start, guild_id=guild_id, is_moderator=is_moderator)

    async def act(
        self, channel_id: int, user_id: int, action: Action | ActionBuilder, *, is_moderator: bool = False
    ) -> Outcome:
        """Apply one player's action. Only a seated player, and only for their own seat; a
        `ModeratorAdjust` only for a moderator (`is_moderator`, as the front end's permissions say).

        `action` may be a builder (bot/table): it is called under the table's lock on the state the
        action is applied to, so names are resolved on the table as it is, never as it was. The
        Outcome carries that state as `before`, for the reply."""
        async with self.lock(channel_id):
            return await self._run(self.act_now, channel_id, user_id, action, is_moderator)

    async def undo(self, channel_id: int, user_id: int) -> Outcome:
        """Take back the last action: only its own player, and never past a barrier (is_barrier)."""
        async with self.lock(channel_id):
            return await self._run(self.undo_now, channel_id, user_id)

    async def rollback(
        self, channel_id: int, user_id: int, *, is_moderator: bool, to_version: int | None = None
    ) -> Outcome:
        """A moderator sets the table back to an earlier version (default: before the last action).
        Dice numbers are never reused: the table's draw counter does not go back."""
        if not is_moderator:
            raise NotModerator()
        async with self.lock(channel_id):
            return await self._run(self._rollback_now, channel_id, user_id, to_version)

    async def end(self, channel_id: int, user_id: int, *, is_moderator: bool, reason: str = "") -> Outcome:
        """A moderator ends the game without a winner; it is archived and its seed revealed."""
        if not is_moderator:
            raise NotModerator()
        async with self.lock(channel_id):
            return await self._run(self.end_now, channel_id, user_id, reason)

    # -- reading (no channel lock: a read sees the last committed version) -------------------------

    async def status(self, channel_id: int) -> TableView:
        """The running game of the channel (anyone may read it)."""
        return await self._run(self.status_now, channel_id)

    async def legal(self, channel_id: int, user_id: int) -> list[Action]:
        """What this user may do now (nothing when not seated)."""
        return await self._run(self._legal_now, channel_id, user_id)

    async def log(self, channel_id: int, *, game_id: int | None = None) -> GameLog:
        """The log of the channel's running game, else its last finished one (or of `game_id`)."""
        return await self._run(functools.partial(self.game_log, channel_id, game_id=game_id))

    async def record_roll(
        self, channel_id: int, user_id: int, expression: str, faces: Sequence[Any], total: int
    ) -> None:
        """File a roll made outside a game (OS randomness, no number to verify)."""
        roll = NewRoll(expression=expression, faces=list(faces), total=total, user_id=user_id)
        await self._run(self.store.rolls.record, channel_id, roll)

    # -- the same, synchronously, for tools that own the store (CLI, tests, benchmarks) ------------

    def status_now(self, channel_id: int) -> TableView:
        game, state = self._load(channel_id)
        return _view(game, state)

    def game_log(self, channel_id: int, *, game_id: int | None = None) -> GameLog:
        game = self._chosen_game(channel_id, game_id)
        entries = self.store.events(game.id)
        return GameLog(_view(game, self._state_of(game)), entries, in_effect(entries))

    def _chosen_game(self, channel_id: int, game_id: int | None) -> GameRecord:
        """The game `game_id`, else the channel's running or last game; never another channel's."""
        game = self.store.game(game_id) if game_id is not None else self.store.latest(channel_id)
        if game.channel_id != channel_id:  # another channel's game (maybe another server's) stays out of sight
            raise UnknownGame("store.not_in_channel", game=game.id, channel=channel_id)
        return game

    def check_replay(self, game_id: int) -> ReplayCheck:
        """Rebuild a game from its events and set it beside the stored state."""
        game = self.store.game(game_id)
        stack = in_effect(self.store.events(game_id))
        return ReplayCheck(game_id, self._state_of(game), _rebuild(stack), sum(len(b.events) for b in stack))

    # -- internals (run on the worker thread) ------------------------------------------------------

    def _start_now(self, channel_id: int, user_id: int, start: StartGame, guild_id: int | None) -> Outcome:
        if self.store.find(channel_id) is not None:
            raise GameAlreadyRunning(channel=channel_id)
        rng = FairRandomness(self.seed_factory(), self.table_id_factory(channel_id))
        state, events = apply(GameState(), start, rng)
        text = state_text(state)
        game = self.store.start(
            channel_id,
            text,
            events,
            guild_id=guild_id,
            actor=user_id,
            seed=rng.seed,
            commitment=rng.commitment,
            table_id=rng.table_id,
            next_roll=rng.next_number,
            rolls=_rolls(events, user_id, rng.commitment),
            result=_result(state) if state.over else None,
        )
        if state.over:  # decided at set-up (a deck too small to draw from): filed as finished at once
            return Outcome(channel_id, game.id, game.version, state, list(events), True, rng.commitment, rng.seed.hex())
        self._cache.put(channel_id, _Held(game, state))
        return Outcome(channel_id, game.id, game.version, state, list(events), commitment=rng.commitment)

    def act_now(
        self, channel_id: int, user_id: int, action: Action | ActionBuilder, is_moderator: bool = False
    ) -> Outcome:
        """`act` without the lock or the worker thread: for a tool that owns the store alone (bench)."""
        held = self._cache.get(channel_id)
        if held is not None:
            # The game held in memory is used without reading the file first: the commit's version check
            # refuses it if another process moved the game on. Only when something is refused is the held
            # game compared with the file, and on a stale one the action is tried again on the stored game.
            try:
                return self._act_on(held.game, held.state, user_id, action, is_moderator)
            except RefereeError as exc:
                if not _maybe_stale(exc) or self._is_current(held.game):
                    raise
        return self._act_on(*self._load(channel_id), user_id, action, is_moderator=is_moderator)

    def _act_on(
        self,
        game: GameRecord,
        state: GameState,
        user_id: int,
        action: Action | ActionBuilder,
        is_moderator: bool = False,
    ) -> Outcome:
        if callable(action):
            player = str(user_id)
            if state.seat_of(player) is None:
                raise NotSeated()
            action = action(state, player, state.seat_of(player))
        self._check_seat(state, user_id, action, is_moderator)
        assert game.seed is not None and game.table_id is not None, "a service game always has its dice"
        rng = FairRandomness(game.seed, game.table_id, next_number=game.next_roll)
        new_state, events = apply(state, action, rng)
        return self._commit(game, new_state, list(events), user_id, next_roll=rng.next_number, before=state)

    def _is_current(self, game: GameRecord) -> bool:
        """Whether `game` is the very version in the file; if not, it is no longer held in memory."""
        if self.store.version_of(game.channel_id) == (game.id, game.version):
            return True
        self._cache.pop(game.channel_id)
        return False

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

    def end_now(self, channel_id: int, user_id: int, reason: str = "") -> Outcome:
        """`end` without the lock or the worker thread, for a tool that owns the store alone and has
        already decided the caller is a moderator (`referee game end`, run by whoever holds the file)."""
        try:
            game, state = self._load(channel_id)
        except CorruptRow:
            return self._end_damaged(channel_id, user_id, reason)
        return self._commit(game, state, [TableEnded(by=user_id, reason=reason)], user_id, finish=True, before=state)

    def _end_damaged(self, channel_id: int, user_id: int, reason: str) -> Outcome:
        """A moderator can always end a game, even one whose state row no longer parses: the row is kept
        exactly as it was (for a human to inspect), the end is logged and the channel freed. The table
        shown is rebuilt from the log when the log still reads, else an empty one."""
        game = self.store.load(channel_id)
        try:
            state = _rebuild(in_effect(self.store.events(game.id)))
        except RefereeError:
            state = GameState()
        ended = TableEnded(by=user_id, reason=reason)
        stored = self.store.archive_as_is(game, [ended], actor=user_id, result={"winner": None, "reason": None})
        self._cache.pop(channel_id)
        seed = stored.seed.hex() if stored.seed is not None else None
        return Outcome(channel_id, game.id, stored.version, state, [ended], True, stored.commitment, seed)

    def _legal_now(self, channel_id: int, user_id: int) -> list[Action]:
        _, state = self._load(channel_id)
        if state.seat_of(str(user_id)) is None:
            return []
        actions: list[Action] = legal_actions(state, str(user_id))
        return actions

    def _load(self, channel_id: int) -> tuple[GameRecord, GameState]:
        # The version is read from the file; the game held in memory is reused only when it is the very
        # version stored (another process may have moved the game on).
        head = self.store.version_of(channel_id)
        if head is None:
            self._cache.pop(channel_id)
            raise NoGame(channel=channel_id)
        cached = self._cache.get(channel_id)
        if cached is not None and (cached.game.id, cached.game.version) == head:
            return cached.game, cached.state
        game = self.store.load(channel_id)
        state = self._state_of(game)
        self._cache.put(channel_id, _Held(game, state))
        return game, state

    def _state_of(self, game: GameRecord) -> GameState:
        """The stored state, with the card definitions put back from the game's GameStarted event."""
        state: GameState = game.state_as(GameState)
        self._put_cards(game, state)
        return state

    def _put_cards(self, game: GameRecord, state: GameState) -> None:
        """Put the card definitions (left out of a stored state) back from the game's GameStarted event."""
        if not state.cards and game.last_seq:
            cards = self._cards.get(game.id)
            if cards is None:
                first = self.store.events(game.id, limit=1)[0]
                started = parse_json(first.data, _EVENTS, what=f"events.data (game {game.id}, seq 1)")
                if getattr(started, "type", None) != "game_started":
                    raise CorruptRow(what=f"events (game {game.id}, seq 1)", reason=f"{first.type}, not game_started")
                cards = self._shared_cards(started.cards)
                self._cards.put(game.id, cards)
            state.cards = cards

    def _shared_cards(self, cards: dict[str, Any]) -> dict[str, Any]:
        """A game's card definitions, each replaced by the catalog's own when it is the same card: a
        thousand games read back after a restart then hold one copy of each card, not a thousand."""
        try:
            known = self.catalog.cards if self.catalog is not None else {}
        except RefereeError:  # card data that no longer loads: the game keeps the copy it was played with
            known = {}
        return {code: known[code] if known.get(code) == card else card for code, card in cards.items()}

    def _check_seat(self, state: GameState, user_id: int, action: Action, is_moderator: bool = False) -> None:
        if isinstance(action, ModeratorAdjust):  # a moderator need not be seated, but must be one
            if not is_moderator:
                raise NotModerator()
            if action.moderator != str(user_id):
                raise NotYourSeat()
            return
        if state.seat_of(str(user_id)) is None:
            raise NotSeated()
        player = getattr(action, "player", None)
        if player != str(user_id):
            raise NotYourSeat()

    def _commit(
        self,
        game: GameRecord,
        state: GameState,
        events: list[Any],
        user_id: int,
        *,
        next_roll: int | None = None,
        finish: bool = False,
        before: GameState | None = None,
    ) -> Outcome:
        text = state_text(state)
        if finish or state.over:
            stored = self.store.finish(
                game.channel_id,
                text,
                events,
                game.version,
                result=_result(state),
                game_id=game.id,
                actor=user_id,
                loaded=game,
                next_roll=next_roll,
                rolls=_rolls(events, user_id, game.commitment),
            )
            self._cache.pop(game.channel_id)
            seed = stored.seed.hex() if stored.seed is not None else None
            return Outcome(
                game.channel_id,
                game.id,
                stored.version,
                state,
                events,
                True,
                stored.commitment,
                revealed_seed=seed,
                before=before,
            )
        stored = self.store.commit(
            game.channel_id,
            text,
            events,
            game.version,
            game_id=game.id,
            actor=user_id,
            loaded=game,
            next_roll=next_roll,
            rolls=_rolls(events, user_id, game.commitment),
        )
        self._cache.put(game.channel_id, _Held(stored, state))
        return Outcome(
            game.channel_id, game.id, stored.version, state, events, commitment=stored.commitment, before=before
        )

    # -- fair dice, for a judge: a game's draws in the roll-log format of bot/dice/verify.py -------

    def fair_draws(self, channel_id: int, *, game_id: int | None = None) -> tuple[TableView, list[dict[str, Any]]]:
        """The game (running, else the last finished one, or `game_id`) and every numbered draw in its
        log, oldest first: each roll, and each shuffle with the cards it started from (the table folded
        up to it). Undone and rolled-back actions count too: their draws were made, and a draw number
        is never used twice. Each entry names its event (`seq`). While a game runs its deck orders are
        hidden information, so its shuffles are left out (and the view carries no seed)."""
        from bot.engine.context import _rebuild_pool  # the engine's own rule for a rebuilt deck's cards
        from bot.engine.events import DeckRebuilt, DeckShuffled, DiceRolled

        game = self._chosen_game(channel_id, game_id)
        view = _view(game, self._state_of(game))
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

    def __init__(self, service: TableService) -> None:
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


def _maybe_stale(exc: RefereeError) -> bool:
    """A refusal that a game held in memory but moved on in the file could cause (a rule or seat refusal
    read from an old table, or the version check); not a file that is busy or broken."""
    return not isinstance(exc, StoreError) or isinstance(exc, VersionConflict | NoGame)


def _result(state: GameState) -> dict[str, Any]:
    return {"winner": state.winner, "reason": state.end_reason}


class _Held(NamedTuple):
    """A channel's running game as last written or read."""

    game: GameRecord
    state: GameState


class _Lru(Generic[T]):
    """A small least-recently-used map from game id, so memory stays bounded however many games run."""

    def __init__(self, size: int) -> None:
        self._size = size
        self._items: OrderedDict[int, T] = OrderedDict()

    def get(self, key: int) -> T | None:
        item = self._items.get(key)
        if item is not None:
            self._items.move_to_end(key)
        return item

    def put(self, key: int, value: T) -> None:
        self._items[key] = value
        self._items.move_to_end(key)
        while len(self._items) > self._size:
            self._items.popitem(last=False)

    def pop(self, key: int) -> None:
        self._items.pop(key, None)

    def clear(self) -> None:
        self._items.clear()


def _rebuild(batches: Sequence[Batch]) -> GameState:
    """Fold the engine events of these actions from the start (the table's own entries are skipped)."""
    events = [
        parse_json(r.data, _EVENTS, what=f"events.data (game {r.game_id}, seq {r.seq})")
        for b in batches
        for r in b.events
        if r.type not in TABLE_TYPES
    ]
    state: GameState = replay(events)
    return state


def _rolls(events: Sequence[Any], user_id: int, commitment: str | None) -> list[NewRoll]:
    return [
        NewRoll(
            expression=e.expression,
            faces=[list(e.faces)],
            total=e.total,
            number=e.number,
            commitment=commitment,
            user_id=user_id,
        )
        for e in events
        if getattr(e, "type", None) == "dice_rolled"
    ]


def _table_id(channel_id: int) -> str:
    return f"{channel_id}-{datetime.now(UTC).strftime('%Y%m%dT%H%M%S%f')}"


def _view(game: GameRecord, state: GameState) -> TableView:
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
