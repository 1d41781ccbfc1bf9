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
from typing import Any, get_args

from pydantic import TypeAdapter

from bot.catalog import Catalog, normalize_name
from bot.console.lines import OFF_WORDS, ON_WORDS, ConsoleLine, parse_line, split_names
from bot.console.resolve import ConsoleError, Side, find_card, find_skill, find_unit
from bot.console.start import build_start
from bot.console.words import action_line
from bot.dice import Randomness, roll
from bot.dice import render as render_roll
from bot.engine import (
    Action,
    Adjust,
    Block,
    Cast,
    Charge,
    Concede,
    ConfirmAdjust,
    Event,
    GameState,
    LookAtDeck,
    NoBlock,
    Pass,
    RejectAdjust,
    Summon,
    UseSkill,
)
from bot.engine.actions import CARD_FIELDS, AdjustField
from bot.engine.targets import needs
from bot.errors import RefereeError
from bot.i18n import t
from bot.render import (
    Message,
    render_board,
    render_deck_top,
    render_events,
    render_hand,
    render_log,
    status_lines,
)
from bot.render.board import dice_lines
from bot.service import GameLog, NotModerator, NotSeated, Outcome, TableService, TableView
from bot.store import NoGame
from bot.store.history import TABLE_TYPES

_EVENT: TypeAdapter[Any] = TypeAdapter(Event)
ADJUST_FIELDS: tuple[str, ...] = get_args(AdjustField)  # whatever the engine takes, in its order
# The words after `/adjust` that answer a waiting request: True confirms, False rejects.
ANSWERS = {"confirm": True, "承認": True, "reject": False, "却下": False}

# Options each command takes (the slash commands will take the same).
OPTIONS: dict[str, tuple[str, ...]] = {
    "game start": ("players", "decks", "first", "leaders", "*"),
    "game status": (),
    "game log": (),
    "game end": (),
    "hand": (),
    "deck": ("top",),
    "charge": ("card", "target", "ally", "effect"),
    "pass": (),
    "next": (),
    "cast": ("card", "caster", "target", "ally"),
    "skill": ("unit", "skill", "target", "ally"),
    "block": ("blocker",),
    "noblock": (),
    "summon": ("card", "caster"),
    "adjust": ("subject", "field", "value", "note", "card", "cards"),
    "confirm": (),
    "reject": (),
    "concede": (),
    "undo": (),
    "roll": (),
    "legal": (),
    "help": (),
}


def user_id(name: str) -> int:
    """A stable id for a local name: the same name is the same user in every run."""
    digest = hashlib.sha256(normalize_name(name).encode("utf-8")).digest()
    return int.from_bytes(digest[:6], "big")


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
            "deck": self._deck,
            "charge": self._charge,
            "pass": self._pass,
            "next": self._pass,
            "cast": self._cast,
            "skill": self._skill,
            "block": self._block,
            "noblock": self._noblock,
            "summon": self._summon,
            "adjust": self._adjust,
            "confirm": self._confirm,
            "reject": self._reject,
            "concede": self._concede,
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
        return [self._outcome(outcome, None)]

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
        events = [_EVENT.validate_json(r.data) for b in log.in_effect for r in b.events if r.type not in TABLE_TYPES]
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
        return [self._outcome(outcome, view.state)]

    async def _hand(self, line: ConsoleLine) -> list[Message]:
        view, seat = await self._own_seat(line)
        return [render_hand(view.state, seat, self.locale)]

    async def _deck(self, line: ConsoleLine) -> list[Message]:
        """A look at the top cards of one's own deck: the engine allows it only while a manual effect
        that names a look is applied, up to its number; everyone reads that the player looked and at
        how many cards, and only the player reads which."""
        view, seat = await self._own_seat(line)
        count = _int(_need(line, "top"), "top")
        player = view.state.players[seat].id
        outcome = await self.service.act(self.channel_id, int(player), LookAtDeck(player=player, count=count))
        return [self._outcome(outcome, view.state), render_deck_top(outcome.state, seat, count, self.locale)]

    async def _undo(self, line: ConsoleLine) -> list[Message]:
        view = await self._view()
        actor = self._actor(line, view.state)
        outcome = await self.service.undo(self.channel_id, user_id(actor))
        return [self._outcome(outcome, view.state)]

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

    async def _legal(self, line: ConsoleLine) -> list[Message]:
        """What the actor may do now, as the lines that do it (a hint, so only to that player)."""
        view = await self._view()
        actor = self._actor(line, view.state)
        actions = await self.service.legal(self.channel_id, user_id(actor))
        lines = list(dict.fromkeys(f"{actor}: {action_line(view.state, a)}" for a in actions))
        title = t("console.legal_title", self.locale, player=actor, count=len(lines))
        return [Message(title=title, lines=lines or [t("console.legal_none", self.locale)], private_to=actor)]

    async def _help(self, line: ConsoleLine) -> list[Message]:
        return [Message(title=t("console.help_title", self.locale), lines=t("console.help", self.locale).splitlines())]

    # -- actions -----------------------------------------------------------------------------------

    async def _act(self, line: ConsoleLine, build: Callable[[GameState, str, int | None], Action]) -> list[Message]:
        view = await self._view()
        actor = self._actor(line, view.state)
        player = str(user_id(actor))
        action = build(view.state, player, view.state.seat_of(player))
        outcome = await self.service.act(self.channel_id, int(player), action)
        return [self._outcome(outcome, view.state)]

    async def _charge(self, line: ConsoleLine) -> list[Message]:
        def build(state: GameState, player: str, seat: int | None) -> Action:
            card = find_card(self.catalog, _need(line, "card"), _hand(state, seat))
            effects = getattr(state.cards.get(card), "ether_effect", ())
            use = _flag(line.options.get("effect", "on"), "effect")
            target, ally = self._targets(line, state, seat, effects) if use else (None, None)
            return Charge(player=player, card=card, use_ether_effect=use, target=target, ally_target=ally)

        return await self._act(line, build)

    async def _pass(self, line: ConsoleLine) -> list[Message]:
        return await self._act(line, lambda state, player, seat: Pass(player=player))

    async def _cast(self, line: ConsoleLine) -> list[Message]:
        def build(state: GameState, player: str, seat: int | None) -> Action:
            card = find_card(self.catalog, _need(line, "card"), _hand(state, seat))
            caster = find_unit(state, _need(line, "caster"), seat, "own")
            target, ally = self._targets(line, state, seat, getattr(state.cards.get(card), "effects", ()))
            return Cast(player=player, card=card, caster=caster, target=target, ally_target=ally)

        return await self._act(line, build)

    async def _skill(self, line: ConsoleLine) -> list[Message]:
        def build(state: GameState, player: str, seat: int | None) -> Action:
            unit = find_unit(state, _need(line, "unit"), seat, "own")
            skill = find_skill(state, unit, _need(line, "skill"))
            target, ally = self._targets(line, state, seat, skill.effects)
            return UseSkill(player=player, unit=unit, skill=skill.id, target=target, ally_target=ally)

        return await self._act(line, build)

    async def _block(self, line: ConsoleLine) -> list[Message]:
        def build(state: GameState, player: str, seat: int | None) -> Action:
            return Block(player=player, blocker=find_unit(state, _need(line, "blocker"), seat, "own"))

        return await self._act(line, build)

    async def _noblock(self, line: ConsoleLine) -> list[Message]:
        return await self._act(line, lambda state, player, seat: NoBlock(player=player))

    async def _summon(self, line: ConsoleLine) -> list[Message]:
        def build(state: GameState, player: str, seat: int | None) -> Action:
            card = find_card(self.catalog, _need(line, "card"), _hand(state, seat))
            caster = find_unit(state, _need(line, "caster"), seat, "own")
            return Summon(player=player, card=card, caster=caster)

        return await self._act(line, build)

    async def _confirm(self, line: ConsoleLine) -> list[Message]:
        """The owner of the subject of the waiting adjustment request agrees to it."""
        return await self._act(line, lambda state, player, seat: ConfirmAdjust(player=player))

    async def _reject(self, line: ConsoleLine) -> list[Message]:
        """The owner refuses the waiting request, or its asker withdraws it."""
        return await self._act(line, lambda state, player, seat: RejectAdjust(player=player))

    async def _adjust(self, line: ConsoleLine) -> list[Message]:
        # `/adjust confirm` and `/adjust reject` answer the waiting request (the same as /confirm, /reject).
        answer = line.text.strip().lower()
        if not line.options and answer in ANSWERS:
            return await (self._confirm(line) if ANSWERS[answer] else self._reject(line))

        def build(state: GameState, player: str, seat: int | None) -> Action:
            field_name = _need(line, "field").lower()
            if field_name not in ADJUST_FIELDS:
                raise ConsoleError("console.bad_adjust_field", fields=", ".join(ADJUST_FIELDS), value=field_name)
            field_value: AdjustField = field_name  # type: ignore[assignment]  # checked against ADJUST_FIELDS
            note = line.options.get("note", line.text)
            if field_name in CARD_FIELDS:
                return self._card_adjust(line, state, player, seat, field_value, note)
            subject_text = _need(line, "subject")
            if field_name in ("ether", "astral_rights"):
                subject = _seated(state, subject_text)
            else:
                subject = find_unit(state, subject_text, seat, "any", auras=field_name == "resonance")
            value_text = _need(line, "value")
            if field_name == "tapped" and not value_text.lstrip("-").isdigit():
                value = int(_flag(value_text, "value"))
            else:
                value = _int(value_text, "value")
            # A card named on another field reaches the engine, which refuses it with its own words.
            named = split_names(line.options.get("card", "")) + split_names(line.options.get("cards", ""))
            cards = tuple(find_card(self.catalog, c) for c in named)
            return Adjust(player=player, subject=subject, field=field_value, value=value, note=note, cards=cards)

        return await self._act(line, build)

    def _card_adjust(
        self, line: ConsoleLine, state: GameState, player: str, seat: int | None, field_value: AdjustField, note: str
    ) -> Adjust:
        """`discard` names one card (`card:`, `value:` copies, default 1); `deck_top` names the new order
        of the top cards (`cards:a,b,c`, their count is the value). The subject is the actor's own seat."""
        subject = _seated(state, line.options["subject"]) if "subject" in line.options else player
        deck = list(state.players[seat].deck) if seat is not None else []
        cards: tuple[str, ...]
        if field_value == "discard":
            cards = (find_card(self.catalog, _need(line, "card"), _hand(state, seat)),)
            value = _int(line.options.get("value", "1"), "value")
        else:
            names = split_names(_need(line, "cards"))
            value = _int(line.options.get("value", str(len(names))), "value")
            top = deck[: max(value, 0)]
            cards = tuple(find_card(self.catalog, c, top) for c in names)
        return Adjust(player=player, subject=subject, field=field_value, value=value, note=note, cards=cards)

    async def _concede(self, line: ConsoleLine) -> list[Message]:
        return await self._act(line, lambda state, player, seat: Concede(player=player))

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

    def _targets(
        self, line: ConsoleLine, state: GameState, seat: int | None, effects: Any
    ) -> tuple[str | None, str | None]:
        """`target:` names the enemy the effects choose (or the ally when they choose only an ally)."""
        want_enemy, want_ally = needs(effects)
        side: Side = "enemy" if want_enemy else ("own" if want_ally else "any")
        target = line.options.get("target")
        ally = line.options.get("ally")
        return (
            find_unit(state, target, seat, side) if target is not None else None,
            find_unit(state, ally, seat, "own") if ally is not None else None,
        )

    def _outcome(self, outcome: Outcome, before: GameState | None) -> Message:
        """The public log lines of what happened, then who must act now (or how the game ended)."""
        lines = render_events(outcome.events, before, self.locale)
        lines += ["→ " + s for s in status_lines(outcome.state, self.locale, finished=outcome.finished)]
        # Fair dice: the hash of the secret seed is published as the game opens, the seed as it ends,
        # so anyone can check every roll and shuffle afterwards (referee verify). A seeded table says
        # instead that its dice are reproducible, not fair.
        lines += dice_lines(outcome.commitment if before is None else None, outcome.revealed_seed, self.locale)
        return Message(lines=lines)


def _seated(state: GameState, name: str) -> str:
    """The player id of a seated name; a name not at the table is refused by that name."""
    player = str(user_id(name))
    if state.seat_of(player) is None:
        seated = ", ".join(p.name for p in state.players)
        raise ConsoleError("console.unknown_player", name=name.strip(), players=seated)
    return player


def _hand(state: GameState, seat: int | None) -> list[str]:
    return list(state.players[seat].hand) if seat is not None else []


def _need(line: ConsoleLine, option: str) -> str:
    value = line.options.get(option)
    if value is None or not value.strip():
        raise ConsoleError("console.missing_option", command=line.command, option=option)
    return value


def _int(text: str, option: str) -> int:
    try:
        return int(text.strip())
    except ValueError:
        raise ConsoleError("console.bad_value", option=option, value=text) from None


def _flag(text: str, option: str) -> bool:
    lowered = text.strip().lower()
    if lowered in ON_WORDS:
        return True
    if lowered in OFF_WORDS:
        return False
    raise ConsoleError("console.bad_flag", option=option, value=text)
