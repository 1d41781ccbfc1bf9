"""TableService: the async API every front end calls, one call per command.

    lock(channel) → on the worker thread: load (the game held in memory, else the file)
                  → build the action (a front end's builder, on that very state) → engine.apply
                  → store.commit → unlock; the Outcome carries the state before and after, the
                    typed events and the version, for the reply

One asyncio lock per channel (weak-valued, so idle channels cost nothing) serves the requests of one
channel one after the other while other channels go on; the store's version check stops a second
process from overwriting a table silently (and sends this one back to the stored game). Database calls
run on one worker thread (bot/worker.py); those waiting together share one commit.
"""

from __future__ import annotations

import functools
import logging
import time
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field
from typing import Any, TypeVar

from bot.dice.errors import DiceError
from bot.dice.game_check import GameCheck, check_game
from bot.dice.given import PRACTICE
from bot.engine import Action, GameOptions, StartGame, start_action
from bot.engine.position import Position
from bot.errors import RefereeError
from bot.service.clock import ClockFired, ClockRules
from bot.service.errors import NotModerator, NotSeated
from bot.service.fair import FairDraws
from bot.service.log import GameLog
from bot.service.results import Outcome, ReplayCheck, TableView
from bot.service.turns import ChannelTurn, ChannelTurns
from bot.service.undo import UndoRules
from bot.store import ChannelSettingsRecord, DeckRecord, GuildSettingsRecord, NewRoll
from bot.store.clock import ClockSetting, Deadline
from bot.table.builders import ActionBuilder
from bot.worker import Worker

T = TypeVar("T")
log = logging.getLogger(__name__)


@dataclass
class TableService(UndoRules, FairDraws, ClockRules):
    """Start, play, undo, roll back and end the game of each channel; read its status and log.

    `catalog_or_factory` is the card catalog or a function that loads it (called once, when first
    needed): front ends use `service.catalog` to build the StartGame action from decks.

    Every database call runs on one worker thread of the service, so a slow disk or a file held by
    another process never stalls the event loop (and a Discord heartbeat with it); the per-channel
    lock is held across that await, which is what keeps two requests of one channel apart.
    """

    _turns: ChannelTurns = field(default_factory=ChannelTurns)
    _worker: Worker = field(init=False)

    def __post_init__(self) -> None:
        # Calls waiting together share one transaction (group commit); should its commit fail, no game
        # held in memory can be trusted to be the stored one.
        # The worker thread alone uses the store's connection while it runs: it reopens it for itself
        # (sqlite3 then refuses any other thread, so a call that skips the worker fails at once).
        self._worker = Worker(
            "referee-store",
            group=self.store.group,
            on_group_failure=self._group_failed,
            on_start=lambda: self.store.rebind(same_thread=True),
            on_stop=self.store.release,
        )

    def _group_failed(self) -> None:
        log.warning("a shared commit failed: every call in it was refused and the games held in memory dropped")
        self._forget_all()

    def lock(self, channel_id: int) -> ChannelTurn:
        """`async with service.lock(channel):` one call at a time per channel, in this process."""
        return self._turns(channel_id)

    def close(self) -> None:
        """Stop the worker thread (the store is closed by whoever opened it)."""
        self._worker.close()

    async def _run(self, fn: Callable[..., T], *args: Any) -> T:
        return await self._worker.run(fn, *args)

    def _clocked(self, fn: Callable[..., Outcome], *args: Any) -> Outcome:
        """`fn(*args)` on the worker, then the channel's turn clock follows the table (bot/service/clock.py)."""
        return self.clocked(time.time(), fn(*args))

    async def on_worker(self, fn: Callable[..., T], *args: Any) -> T:
        """Run `fn(*args)` on the worker thread, the one thread that may use the store while the service
        runs: for tools and tests that look into the file (`service.on_worker(service.store.events, 1)`)."""
        return await self._run(fn, *args)

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
            return await self._run(self._clocked, self._start_now, channel_id, user_id, start, guild_id)

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

    async def start_practice(
        self,
        channel_id: int,
        user_id: int,
        position: Position,
        player_ids: tuple[int, int],
        *,
        guild_id: int | None = None,
        is_moderator: bool = False,
    ) -> Outcome:
        """Open a judge's practice table from a checked position (bot/table/position.py), its two sides
        seated by `player_ids`. It is marked practice everywhere: its dice are the position's given faces,
        its commitment is PRACTICE, and `verify` refuses it. Only a seated player or a moderator opens it."""
        if user_id not in player_ids and not is_moderator:
            raise NotSeated()
        async with self.lock(channel_id):
            return await self._run(self._start_practice_now, channel_id, user_id, position, player_ids, guild_id)

    async def act(
        self, channel_id: int, user_id: int, action: Action | ActionBuilder, *, is_moderator: bool = False
    ) -> Outcome:
        """Apply one player's action. Only a seated player, and only for their own seat; a
        `ModeratorAdjust` only for a moderator (`is_moderator`, as the front end's permissions say).

        `action` may be a builder (bot/table): it is called under the table's lock on the state the
        action is applied to, so names are resolved on the table as it is, never as it was. The
        Outcome carries that state as `before`, for the reply."""
        async with self.lock(channel_id):
            try:
                return await self._run(self._clocked, self.act_now, channel_id, user_id, action, is_moderator)
            except RefereeError as exc:
                log.debug("refused: %s", exc.message_key, extra={"channel": channel_id, "user": user_id})
                raise

    async def undo(self, channel_id: int, user_id: int) -> Outcome:
        """Take back the last action: only its own player, and never past a barrier (is_barrier)."""
        async with self.lock(channel_id):
            return await self._run(self._clocked, self.undo_now, channel_id, user_id)

    async def rollback(
        self, channel_id: int, user_id: int, *, is_moderator: bool, to_version: int | None = None
    ) -> Outcome:
        """A moderator sets the table back to an earlier version (default: before the last action).
        Dice numbers are never reused: the table's draw counter does not go back."""
        if not is_moderator:
            raise NotModerator()
        async with self.lock(channel_id):
            return await self._run(self._clocked, self._rollback_now, channel_id, user_id, to_version)

    async def end(self, channel_id: int, user_id: int, *, is_moderator: bool, reason: str = "") -> Outcome:
        """A moderator ends the game without a winner; it is archived and its seed revealed."""
        if not is_moderator:
            raise NotModerator()
        async with self.lock(channel_id):
            return await self._run(self._clocked, self.end_now, channel_id, user_id, reason)

    async def call_judge(self, channel_id: int, user_id: int, question: str) -> Outcome:
        """Write a judge call (who asked, the question) into the running game's log; anyone in the
        channel may call one. The table does not change and an undo passes over the entry. NoGame
        when no game is running (a judge may still be called: the front end says it was not filed)."""
        async with self.lock(channel_id):
            return await self._run(self.judge_now, channel_id, user_id, question)

    async def status(self, channel_id: int) -> TableView:
        """The running game of the channel (anyone may read it)."""
        return await self._run(self.status_now, channel_id)

    async def legal(self, channel_id: int, user_id: int) -> list[Action]:
        """What this user may do now (nothing when not seated)."""
        return await self._run(self._legal_now, channel_id, user_id)

    async def log(self, channel_id: int, *, game_id: int | None = None) -> GameLog:
        """The log of the channel's running game, else its last finished one (or of `game_id`)."""
        return await self._run(functools.partial(self.game_log, channel_id, game_id=game_id))

    async def replay_check(self, game_id: int) -> ReplayCheck:
        """Rebuild a game from its log and set it beside the stored state (a judge's check)."""
        return await self._run(self.check_replay, game_id)

    async def draws(self, channel_id: int, *, game_id: int | None = None) -> tuple[TableView, list[dict[str, Any]]]:
        """Every numbered draw of a game in the roll-log format (shuffles only once it is finished)."""
        return await self._run(functools.partial(self.fair_draws, channel_id, game_id=game_id))

    async def verify(self, channel_id: int, *, game_id: int | None = None, published: str | None = None) -> GameCheck:
        """The dice check of a finished game: every draw of its log and every filed roll recomputed from
        its revealed seed (bot/dice/game_check.py). A running game's seed is secret: refused."""
        view, draws = await self.draws(channel_id, game_id=game_id)
        if view.commitment == PRACTICE:  # given dice, not rolled: nothing to verify, never taken for fair
            raise DiceError("practice.dice.not_verifiable", game=view.game_id)
        if view.active:
            raise DiceError(
                "dice.verify.running", game=view.game_id, channel=channel_id, commitment=view.commitment or "-"
            )
        filed = await self._run(self.filed_rolls, view.game_id)
        return check_game(view.game_id, view.table_id, view.commitment, view.revealed_seed, draws, filed, published)

    async def rolls_outside_games(self, channel_id: int) -> int:
        """How many `/roll`s were filed in the channel, during a game or not (the console numbers its own
        on): every roll without a draw number, as the game's own draws all have one."""
        rolls = await self._run(functools.partial(self.store.rolls.of_channel, channel_id, limit=1_000_000))
        return sum(1 for r in rolls if r.number is None)

    # -- a player's saved decks, and the settings of a guild and a channel ---------------------------

    async def save_deck(self, user_id: int, name: str, cards: list[str]) -> DeckRecord:
        return await self._run(self.store.decks.save, user_id, name, cards)

    async def deck(self, user_id: int, name: str) -> DeckRecord:
        return await self._run(self.store.decks.get, user_id, name)

    async def decks(self, user_id: int) -> list[DeckRecord]:
        return await self._run(self.store.decks.of_user, user_id)

    async def delete_deck(self, user_id: int, name: str) -> None:
        await self._run(self.store.decks.delete, user_id, name)

    async def table_settings(self, channel_id: int, guild_id: int | None) -> tuple[str | None, dict[str, Any]]:
        """The locale and table options of a channel: its own over its guild's."""
        return await self._run(self.store.settings.effective, channel_id, guild_id)

    async def guild_settings(self, guild_id: int) -> GuildSettingsRecord:
        """The guild's own settings (its locale, options and judge role); defaults when it set none."""
        return await self._run(self.store.settings.guild, guild_id)

    async def set_guild_settings(self, guild_id: int, **changes: Any) -> GuildSettingsRecord:
        """Change only what is given (`locale`, `options` merged in, `judge_role_id`)."""
        return await self._run(functools.partial(self.store.settings.set_guild, guild_id, **changes))

    async def set_channel_settings(self, channel_id: int, **changes: Any) -> ChannelSettingsRecord:
        """Change only what is given (`guild_id`, `locale`, `options` merged in)."""
        return await self._run(functools.partial(self.store.settings.set_channel, channel_id, **changes))

    # -- turn clocks (off by default) ----------------------------------------------------------------

    async def set_clock(self, channel_id: int, seconds: int, *, auto_pass: bool = False) -> ClockSetting | None:
        """Give the channel a turn clock of `seconds` (30 s to a week; 0 removes it); with `auto_pass` the
        table passes for a player whose time ran out. A running game's acting player starts afresh."""
        async with self.lock(channel_id):
            return await self._run(self.set_clock_now, channel_id, seconds, auto_pass, time.time())

    async def clock(self, channel_id: int) -> tuple[ClockSetting | None, Deadline | None]:
        """The channel's clock setting and its current deadline."""
        return await self._run(lambda: (self.clock_setting_now(channel_id), self.deadline_now(channel_id)))

    async def fire_clocks(self, now: float | None = None) -> list[ClockFired]:
        """Every deadline passed by `now` (default: the time now) does what it must, each once, under
        its channel's lock: an automatic pass, or a reminder for the front end to post."""
        at = time.time() if now is None else now
        fired: list[ClockFired] = []
        for channel_id in await self._run(self.due_clocks_now, at):
            async with self.lock(channel_id):
                result = await self._run(self.fire_clock_now, channel_id, at)
            if result is not None:
                fired.append(result)
        return fired

    async def record_roll(
        self, channel_id: int, user_id: int, expression: str, faces: Sequence[Any], total: int
    ) -> None:
        """File a `/roll` (OS randomness, no number to verify): with the channel's running game when it
        has one (the game's log of rolls shows it; verify skips it, having no number), else the channel's."""
        roll = NewRoll(expression=expression, faces=list(faces), total=total, user_id=user_id)
        await self._run(self._record_roll_now, channel_id, roll)

    def _record_roll_now(self, channel_id: int, roll: NewRoll) -> None:
        running = self.store.version_of(channel_id)  # (game id, version), or None
        self.store.rolls.record(channel_id, roll, game_id=None if running is None else running[0])
