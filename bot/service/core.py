"""The worker side of the table service: load a channel's game, play on it, commit it, read it.

Every method here runs on the service's one worker thread (bot/service/api.py hands each call over
and holds the channel's lock around it); nothing here is async. The game each channel last wrote or
read is held in memory and reused while the file still has that very version.
"""

from __future__ import annotations

import logging
import secrets
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field
from datetime import UTC, datetime
from typing import Any

from pydantic import TypeAdapter

from bot.dice import FairRandomness, Randomness
from bot.dice.given import PRACTICE, GivenDice, faces_of, given_seed
from bot.engine import Action, Event, GameState, ModeratorAdjust, StartGame, apply, game_over, legal_actions, replay
from bot.engine.position import Position, position_events, position_state
from bot.errors import RefereeError
from bot.service.errors import NotModerator, NotSeated, NotYourSeat
from bot.service.held import Held, Lru
from bot.service.log import GameLog, typed_log
from bot.service.results import Outcome, ReplayCheck, TableView, view_of
from bot.service.state_text import state_text
from bot.store import (
    CorruptRow,
    GameAlreadyRunning,
    GameRecord,
    NewRoll,
    NoGame,
    StoreError,
    TableStore,
    UnknownGame,
    VersionConflict,
)
from bot.store.history import Batch, in_effect
from bot.store.records import parse_json
from bot.table.builders import ActionBuilder
from bot.table.entries import TABLE_TYPES, TableEnded, TableJudge

_EVENTS: TypeAdapter[Any] = TypeAdapter(Event)
log = logging.getLogger(__name__)


@dataclass
class TableCore:
    """The service's state and its worker-side methods; bot/service/api.py adds the async API."""

    store: TableStore
    catalog_or_factory: Any = None
    seed_factory: Callable[[], bytes] = field(default=lambda: secrets.token_bytes(32))
    # The fair-dice table id of a new game (part of every roll's HMAC message): the channel and the
    # start time by default; the console fixes it so that `--seed N` replays a game exactly.
    table_id_factory: Callable[[int], str] = field(default=lambda channel_id: _table_id(channel_id))
    # The running game of each channel as last written or read (by channel id).
    _cache: Lru[Held] = field(default_factory=lambda: Lru(1024))
    _cards: Lru[dict[str, Any]] = field(default_factory=lambda: Lru(1024))
    _catalog: Any = None

    @property
    def catalog(self) -> Any:
        if self._catalog is None and self.catalog_or_factory is not None:
            source = self.catalog_or_factory
            self._catalog = source() if callable(source) else source
        return self._catalog

    def _forget_all(self) -> None:
        self._cache.clear()
        self._cards.clear()  # a game id of the undone group may be given to another game

    def games_played_now(self, channel_id: int) -> int:
        """How many games the channel has had, running or finished."""
        return len(self.store.history(channel_id))

    def status_now(self, channel_id: int) -> TableView:
        game, state = self._load(channel_id)
        return view_of(game, state)

    def game_log(self, channel_id: int, *, game_id: int | None = None) -> GameLog:
        game = self._chosen_game(channel_id, game_id)
        entries = self.store.events(game.id)
        return typed_log(view_of(game, self._state_of(game)), entries)

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
        log.debug("game started", extra=_at(game, action="start"))
        if state.over:  # decided at set-up (a deck too small to draw from): filed as finished at once
            return Outcome(channel_id, game.id, game.version, state, list(events), True, rng.commitment, rng.seed.hex())
        self._cache.put(channel_id, Held(game, state))
        return Outcome(channel_id, game.id, game.version, state, list(events), commitment=rng.commitment)

    def _start_practice_now(
        self, channel_id: int, user_id: int, position: Position, player_ids: tuple[int, int], guild_id: int | None
    ) -> Outcome:
        """A judge's practice table: the position's events, its given dice kept where a seed would be and
        PRACTICE where a commitment would be (bot/dice/given.py), so it is never taken for a fair game."""
        if self.store.find(channel_id) is not None:
            raise GameAlreadyRunning(channel=channel_id)
        cards = {card_id: self.catalog.get(card_id) for card_id in _position_cards(position)}
        events = position_events(position, (str(player_ids[0]), str(player_ids[1])), cards)
        state = position_state(events)
        game = self.store.start(
            channel_id,
            state_text(state),
            events,
            guild_id=guild_id,
            actor=user_id,
            seed=given_seed(position.dice),
            commitment=PRACTICE,
            table_id=f"practice-{channel_id}",
            next_roll=0,
        )
        log.info("practice table started", extra=_at(game, action="practice"))
        self._cache.put(channel_id, Held(game, state))
        return Outcome(channel_id, game.id, game.version, state, list(events), commitment=PRACTICE)

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
                log.info("the held game had moved on in the file; playing on the stored one", extra=_at(held.game))
        try:
            game, state = self._load(channel_id)
        except NoGame:
            ended = self._last_ended(channel_id)
            if ended is not None:  # say that this game is over, who won and how, not "no game is running"
                raise game_over(ended) from None
            raise
        return self._act_on(game, state, user_id, action, is_moderator=is_moderator)

    def _last_ended(self, channel_id: int) -> GameState | None:
        """The table of the channel's last finished game, if it had one."""
        try:
            game = self.store.latest(channel_id)
        except NoGame:
            return None
        return None if game.active else self._state_of(game)

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
        rng = _dice_of(game)
        new_state, events = apply(state, action, rng)
        out = self._commit(game, new_state, list(events), user_id, next_roll=rng.next_number, before=state)
        log.debug("action applied", extra=_at(game, out.version, action=action.type))
        return out

    def _is_current(self, game: GameRecord) -> bool:
        """Whether `game` is the very version in the file; if not, it is no longer held in memory."""
        if self.store.version_of(game.channel_id) == (game.id, game.version):
            return True
        self._cache.pop(game.channel_id)
        return False

    def end_now(self, channel_id: int, user_id: int, reason: str = "") -> Outcome:
        """`end` without the lock or the worker thread, for a tool that owns the store alone and has
        already decided the caller is a moderator (`referee game end`, run by whoever holds the file)."""
        try:
            game, state = self._load(channel_id)
        except CorruptRow:
            return self._end_damaged(channel_id, user_id, reason)
        return self._commit(game, state, [TableEnded(by=user_id, reason=reason)], user_id, finish=True, before=state)

    def judge_now(self, channel_id: int, user_id: int, question: str) -> Outcome:
        """File a judge call in the running game's log: the table stays as it is (same state, no action
        for undo), only the version moves on, as with every entry of the log."""
        game, state = self._load(channel_id)
        return self._commit(game, state, [TableJudge(by=user_id, question=question)], user_id, before=state)

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
        self._cache.put(channel_id, Held(game, state))
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
            log.debug("game finished", extra=_at(game, stored.version, action=str(events[-1].type)))
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
        self._cache.put(game.channel_id, Held(stored, state))
        return Outcome(
            game.channel_id, game.id, stored.version, state, events, commitment=stored.commitment, before=before
        )


def _dice_of(game: GameRecord) -> Randomness:
    """A game's dice from its stored seed: the given faces of a practice table, else the fair stream."""
    assert game.seed is not None and game.table_id is not None, "a service game always has its dice"
    faces = faces_of(game.seed) if game.commitment == PRACTICE else None
    if faces is not None:
        return GivenDice(faces, next_number=game.next_roll)
    return FairRandomness(game.seed, game.table_id, next_number=game.next_roll)


def _position_cards(position: Position) -> list[str]:
    """Every card a position names, each once, in order."""
    seen: dict[str, None] = {}
    for side in position.players:
        for unit in side.units:
            seen[unit.card] = None
            if unit.code is not None:
                seen[unit.code] = None
        for aura in side.auras:
            seen[aura.card] = None
        for card_id in (*side.hand, *side.deck, *side.cemetery, *side.ether_area):
            seen[card_id] = None
    return list(seen)


def _at(game: GameRecord, version: int | None = None, **more: Any) -> dict[str, Any]:
    """The context of a log line: channel and game (and version, action). Never a seed, a hand or a deck."""
    return {"channel": game.channel_id, "game": game.id, "version": version or game.version, **more}


def _maybe_stale(exc: RefereeError) -> bool:
    """A refusal that a game held in memory but moved on in the file could cause (a rule or seat refusal
    read from an old table, or the version check); not a file that is busy or broken."""
    return not isinstance(exc, StoreError) or isinstance(exc, VersionConflict | NoGame)


def _result(state: GameState) -> dict[str, Any]:
    return {"winner": state.winner, "reason": state.end_reason}


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
