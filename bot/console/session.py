"""The console table: one parsed line → one service call → messages from bot/render.

Who acts is the line's `name:` prefix. Each name is a local user with a stable id (a hash of the
name), so the seats of a stored game find their players again after a restart. Names that are not
seated are spectators: they may read the status and the log, and the service refuses their actions.
A line without a name acts for the player who must act now.
"""

from __future__ import annotations

import hashlib
from collections.abc import Awaitable, Callable
from dataclasses import dataclass, field
from typing import Any

from pydantic import TypeAdapter

from bot.catalog import Catalog, normalize_name
from bot.console.lines import ConsoleLine, parse_line
from bot.dice import Randomness, roll
from bot.dice import render as render_roll
from bot.engine import Event, GameState
from bot.engine.position import Position
from bot.errors import RefereeError
from bot.i18n import t
from bot.render import (
    Message,
    render_board,
    render_deck_top,
    render_hand,
    render_log,
)
from bot.render.help import render_help
from bot.render.outcome import render_outcome
from bot.service import GameLog, NoGame, NotModerator, NotSeated, Outcome, TableService, TableView
from bot.table import PLAY_OPTIONS, Request, action_line, build_start, builder
from bot.table.options import as_int, need

_EVENT: TypeAdapter[Any] = TypeAdapter(Event)

# Options each command takes (the slash commands will take the same).
OPTIONS: dict[str, tuple[str, ...]] = {
    "game start": ("players", "decks", "first", "leaders", "*"),
    "game status": (),
    "game log": (),
    "game end": (),
    "hand": (),
    **PLAY_OPTIONS,
    "undo": (),
    "roll": (),
    "legal": (),
    "help": (),
}


def user_id(name: str) -> int:
    """A stable id for a local name: the same name is the same user in every run."""
    digest = hashlib.sha256(normalize_name(name).encode("utf-8")).digest()
    return int.from_bytes(digest[:6], "big")


class ConsoleError(RefereeError):
    """A console line that cannot be carried out as a terminal command (no game, nobody named)."""

    key = "console.bad_line"


@dataclass
class Reply:
    """What one line did: messages to show (public or private), or the refusal that changed nothing."""

    messages: list[Message] = field(default_factory=list)
    refusal: RefereeError | None = None


@dataclass
class ConsoleSession:
    service: TableService
    channel_id: int = 1
    locale: str = "ja"
    dice: Randomness | None = None  # /roll outside the engine; None: the OS CSPRNG

    @property
    def catalog(self) -> Catalog:
        catalog: Catalog = self.service.catalog
        return catalog

    async def run(self, text: str) -> Reply:
        """Parse and carry out one line; every RefereeError becomes a refusal, nothing half-done."""
        try:
            line = parse_line(text)
            if line is None:
                return Reply()
            return Reply(messages=await self._dispatch(line))
        except RefereeError as exc:
            return Reply(refusal=exc)

    async def current(self) -> TableView | None:
        try:
            return await self.service.status(self.channel_id)
        except NoGame:
            return None

    # -- dispatch ----------------------------------------------------------------------------------

    async def _dispatch(self, line: ConsoleLine) -> list[Message]:
        handler = self._handlers().get(line.command)
        if handler is None:
            raise ConsoleError("console.unknown_command", command=line.command)
        allowed = OPTIONS[line.command]
        if "*" not in allowed:
            for option in line.options:
                if option not in allowed:
                    shown = ", ".join(allowed) or "—"
                    raise ConsoleError("console.unknown_option", command=line.command, option=option, allowed=shown)
        return await handler(line)

    def _handlers(self) -> dict[str, Callable[[ConsoleLine], Awaitable[list[Message]]]]:
        return {
            "game start": self._start,
            "game status": self._status,
            "game log": self._log,
            "game end": self._end,
            "hand": self._hand,
            **{command: self._play for command in PLAY_OPTIONS},
            "deck": self._deck,
            "undo": self._undo,
            "roll": self._roll,
            "legal": self._legal,
            "help": self._help,
        }

    # -- the table ---------------------------------------------------------------------------------

    async def _start(self, line: ConsoleLine) -> list[Message]:
        start, players = build_start(self.catalog, line.options, user_id)
        actor = line.actor or players[0]
        outcome = await self.service.start_game(self.channel_id, user_id(actor), start)
        return [self._outcome(outcome)]

    async def _status(self, line: ConsoleLine) -> list[Message]:
        view = await self.current()
        if view is None:  # no running game: the last finished one, as it ended
            view = (await self._last_log()).game
        shown = render_board(
            view.state,
            self.locale,
            commitment=view.commitment,
            revealed_seed=view.revealed_seed,
            finished=not view.active,
        )
        return [shown]

    async def _log(self, line: ConsoleLine) -> list[Message]:
        log = await self._last_log()
        events = log.events()
        title = t("console.log_title", self.locale, game=log.game.game_id)
        return [render_log(events, self.locale, title=title)]

    async def _end(self, line: ConsoleLine) -> list[Message]:
        view = await self._view()
        actor = self._actor(line, view.state)
        # At a local table every seated player is its judge; a spectator is not.
        seated = view.state.seat_of(str(user_id(actor))) is not None
        if not seated:
            raise NotModerator()
        outcome = await self.service.end(self.channel_id, user_id(actor), is_moderator=True, reason=line.text)
        return [self._outcome(outcome)]

    async def _hand(self, line: ConsoleLine) -> list[Message]:
        view, seat = await self._own_seat(line)
        return [render_hand(view.state, seat, self.locale)]

    async def _deck(self, line: ConsoleLine) -> list[Message]:
        """A look at the top cards of one's own deck: the engine allows it only while a manual effect
        that names a look is applied, up to its number; everyone reads that the player looked and at
        how many cards, and only the player reads which."""
        if line.actor is None:
            raise ConsoleError("console.needs_actor", command=line.command)
        count = as_int(need(line.options, line.command, "top"), "top")
        request = Request("deck", line.options, line.text)
        outcome = await self.service.act(self.channel_id, user_id(line.actor), builder(self.catalog, request))
        seat = outcome.state.seat_of(str(user_id(line.actor)))
        assert seat is not None, "the service acted for a seated player"
        return [self._outcome(outcome), render_deck_top(outcome.state, seat, count, self.locale)]

    async def _undo(self, line: ConsoleLine) -> list[Message]:
        view = await self._view()
        actor = self._actor(line, view.state)
        outcome = await self.service.undo(self.channel_id, user_id(actor))
        return [self._outcome(outcome)]

    async def _roll(self, line: ConsoleLine) -> list[Message]:
        """Public dice outside the engine, filed in the channel's dice log.

        Not one of the game's numbered fair draws (those are the engine's): even when `--seed` makes
        these rolls repeatable, they carry no draw number, so the transcript never shows two "#0"s."""
        result = roll(line.text, self.dice).unnumbered()
        faces = [list(term) for term in result.dice]
        who = line.actor
        await self.service.record_roll(self.channel_id, user_id(who or "-"), result.normalized, faces, result.total)
        shown = render_roll(result, self.locale)
        return [Message(lines=[f"{who}: {shown}" if who else shown])]

    async def start_position(self, position: Position, file: str) -> Reply:
        """Open a judge's practice table from a checked position (bot/table/position.py): each side is
        the local user of its name; it is opened in the name of the first side's player."""
        ids = (user_id(position.players[0].name), user_id(position.players[1].name))
        try:
            outcome = await self.service.start_practice(self.channel_id, ids[0], position, ids)
        except RefereeError as exc:
            return Reply(refusal=exc)
        opened = Message(lines=[t("practice.loaded", self.locale, file=file)])
        return Reply(messages=[opened, self._outcome(outcome)])

    async def _legal(self, line: ConsoleLine) -> list[Message]:
        """What the actor may do now, as the lines that do it (a hint, so only to that player).
        `/legal NAME` asks for another player (a judge walking through a position)."""
        view = await self._view()
        actor = line.text.strip() or self._actor(line, view.state)
        actions = await self.service.legal(self.channel_id, user_id(actor))
        lines = list(dict.fromkeys(f"{actor}: {action_line(view.state, a)}" for a in actions))
        title = t("console.legal_title", self.locale, player=actor, count=len(lines))
        return [Message(title=title, lines=lines or [t("console.legal_none", self.locale)], private_to=actor)]

    async def _help(self, line: ConsoleLine) -> list[Message]:
        """The commands, or with a command's name (`/help adjust`) what its options mean."""
        return [render_help(line.text or None, self.locale)]

    # -- actions ---------------------------------------------------------------------------------

    async def _play(self, line: ConsoleLine) -> list[Message]:
        """One play command: its request is built into an action by the service, under the table's
        lock, on the state it is applied to; the reply renders from what that one call returns."""
        actor = line.actor
        if actor is None:
            view = await self._view()  # who must act now is only a default for who is named
            actor = self._actor(line, view.state)
        request = Request(line.command, line.options, line.text)
        try:
            outcome = await self.service.act(self.channel_id, user_id(actor), builder(self.catalog, request))
        except NoGame:
            raise ConsoleError("console.no_game") from None
        return [self._outcome(outcome)]

    # -- helpers -----------------------------------------------------------------------------------

    async def _last_log(self) -> GameLog:
        """The running game's log, else the last finished one's; none at all: say how to start one."""
        try:
            return await self.service.log(self.channel_id)
        except NoGame:
            raise ConsoleError("console.no_game") from None

    async def _view(self) -> TableView:
        view = await self.current()
        if view is None:
            raise ConsoleError("console.no_game")
        return view

    async def _own_seat(self, line: ConsoleLine) -> tuple[TableView, int]:
        """The seat of the named actor, for what only that player may see (a hand, their deck)."""
        if line.actor is None:
            raise ConsoleError("console.needs_actor", command=line.command)
        view = await self._view()
        seat = view.state.seat_of(str(user_id(line.actor)))
        if seat is None:
            raise NotSeated()
        return view, seat

    def _actor(self, line: ConsoleLine, state: GameState) -> str:
        """The named actor, else the player who must act now."""
        if line.actor is not None:
            return line.actor
        if state.active is None:
            raise ConsoleError("console.needs_actor", command=line.command)
        return state.players[state.active].name

    def _outcome(self, outcome: Outcome) -> Message:
        """The public log lines of what happened, then who must act now (or how the game ended)."""
        return render_outcome(outcome, self.locale)
