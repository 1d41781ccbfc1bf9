"""Turn clocks on the worker side: arm a channel's deadline after each change, fire the due ones.

Off by default. With a channel's clock on, the player who must act has `seconds` from the moment the
move passed to them (in a game and a turn) until their deadline; an action that leaves them acting
keeps it. When it passes, the dispatcher (cogs/clock.py) asks `fire_clock_now`: the table either
passes for that player (when the channel chose `auto_pass` and a pass or no-block is legal) or is
told to remind them, once. A deadline that no longer fits the table (the game moved on in a way the
clock did not see, another process played) is armed again for whoever acts now, without a message.
"""

from __future__ import annotations

import logging
from dataclasses import dataclass, field
from typing import Literal

from bot.engine import Action, GameState, NoBlock, Pass, legal_actions
from bot.errors import RefereeError
from bot.service.core import TableCore
from bot.service.results import Outcome
from bot.store import NoGame
from bot.store.clock import ClockSetting, Deadline

log = logging.getLogger(__name__)
MIN_SECONDS = 30  # one message per deadline at most: this keeps a channel far below 5 messages in 5 s
MAX_SECONDS = 7 * 24 * 3600


class ClockRange(RefereeError):
    key = "store.clock.range"


@dataclass(frozen=True)
class ClockFired:
    """What a passed deadline did: `passed` (the Outcome of the automatic pass) or `reminder`."""

    channel_id: int
    user_id: int
    kind: Literal["passed", "reminder"]
    seconds: int
    outcome: Outcome | None = None


@dataclass
class ClockRules(TableCore):
    # The clock setting of each channel as last read or written (None: no clock), and whether any
    # channel has one at all: with none, an action costs the clock nothing.
    _clock_settings: dict[int, ClockSetting | None] = field(default_factory=dict)
    _clocks_any: bool | None = None

    def _forget_all(self) -> None:
        super()._forget_all()
        self._clock_settings.clear()  # a failed shared commit may have taken a clock setting back
        self._clocks_any = None

    def clocks_in_use(self) -> bool:
        if self._clocks_any is None:
            self._clocks_any = self.store.clocks.any_setting()
        return self._clocks_any

    def clock_setting_now(self, channel_id: int) -> ClockSetting | None:
        if channel_id not in self._clock_settings:
            self._clock_settings[channel_id] = self.store.clocks.setting(channel_id)
        return self._clock_settings[channel_id]

    def set_clock_now(self, channel_id: int, seconds: int, auto_pass: bool, now: float) -> ClockSetting | None:
        """Set (or with 0, remove) the channel's clock; a running game's player gets a fresh deadline."""
        if seconds != 0 and not MIN_SECONDS <= seconds <= MAX_SECONDS:
            raise ClockRange(low=MIN_SECONDS, high=MAX_SECONDS)
        setting = self.store.clocks.set_setting(channel_id, seconds, auto_pass)
        self._clock_settings[channel_id] = setting
        self._clocks_any = True if setting is not None else None
        if setting is not None:
            self.store.clocks.clear(channel_id)  # the new time counts from now
            try:
                game, state = self._load(channel_id)
            except NoGame:
                return setting
            self._arm(channel_id, game.id, state, now)
        return setting

    def clocked(self, now: float, outcome: Outcome) -> Outcome:
        """After a call that changed a table: its channel's deadline follows the player who acts now."""
        if self.clocks_in_use():
            if outcome.finished:
                self.store.clocks.clear(outcome.channel_id)
            else:
                self._arm(outcome.channel_id, outcome.game_id, outcome.state, now)
        return outcome

    def due_clocks_now(self, now: float) -> list[int]:
        return self.store.clocks.due(now) if self.clocks_in_use() else []

    def deadline_now(self, channel_id: int) -> Deadline | None:
        return self.store.clocks.deadline(channel_id)

    def fire_clock_now(self, channel_id: int, now: float) -> ClockFired | None:
        """The channel's deadline, if it has passed: pass for the player or say to remind them (once)."""
        deadline = self.store.clocks.deadline(channel_id)
        setting = self.clock_setting_now(channel_id)
        if deadline is None or deadline.reminded or deadline.due_at > now:
            return None
        if setting is None:
            self.store.clocks.clear(channel_id)
            return None
        try:
            game, state = self._load(channel_id)
        except NoGame:
            self.store.clocks.clear(channel_id)
            return None
        acting = _acting_user(state)
        if (game.id, acting, state.turn) != (deadline.game_id, deadline.user_id, deadline.turn):
            self._arm(channel_id, game.id, state, now)  # a deadline of a table as it no longer is
            return None
        if deadline.auto_pass:
            action = _pass_for(state, str(deadline.user_id))
            if action is not None:
                try:
                    outcome = self.clocked(now, self.act_now(channel_id, deadline.user_id, action))
                except RefereeError as exc:  # the pass was refused after all: the player is reminded instead
                    log.warning("automatic pass refused: %s", exc.message_key, extra={"channel": channel_id})
                else:
                    return ClockFired(channel_id, deadline.user_id, "passed", setting.seconds, outcome)
        if not self.store.clocks.mark_reminded(channel_id, deadline.due_at):
            return None
        return ClockFired(channel_id, deadline.user_id, "reminder", setting.seconds)

    def _arm(self, channel_id: int, game_id: int, state: GameState, now: float) -> None:
        setting = self.clock_setting_now(channel_id)
        acting = _acting_user(state)
        if setting is None or acting is None or state.over:
            self.store.clocks.clear(channel_id)
            return
        current = self.store.clocks.deadline(channel_id)
        if current is not None and (current.game_id, current.user_id, current.turn) == (game_id, acting, state.turn):
            return  # the same player still acts in the same turn: their time keeps running
        due = now + setting.seconds
        self.store.clocks.arm(
            Deadline(
                channel_id=channel_id,
                game_id=game_id,
                user_id=acting,
                turn=state.turn,
                due_at=due,
                auto_pass=setting.auto_pass,
            )
        )


def _acting_user(state: GameState) -> int | None:
    if state.active is None or state.over:
        return None
    try:
        return int(state.players[state.active].id)
    except (ValueError, IndexError):
        return None


def _pass_for(state: GameState, player: str) -> Action | None:
    """The move that hands the decision on without doing anything: a pass, else declining a block."""
    legal = legal_actions(state, player)
    for kind in (Pass, NoBlock):
        found = next((a for a in legal if isinstance(a, kind)), None)
        if found is not None:
            return found
    return None
