"""Names as a player reads them: cards, skills, units and players, in one locale.

A `Names` starts from a table (or from nothing, for a whole game's log) and learns what the events
introduce as they are read (`introduce`): the seats, cards and Arcastella of `game_started` (their uids
follow `arcastella_uid`, as fold gives them), a follower or Aura Compolta of `summoned`, a 【継続】
effect of `continuing_started`. It never folds an event, and it never forgets a unit, so a follower
that has left the board (an afterglow card) still has a name in the lines written after it fell.
"""

from __future__ import annotations

from typing import Any

from bot.catalog.cards import Arcastella, Card
from bot.engine import events as ev
from bot.engine.fold import arcastella_uid
from bot.engine.options import GameOptions
from bot.engine.state import GameState
from bot.i18n import t


def card_label(card: Any, locale: str) -> str:
    """The printed name: English where the card has one and the locale is English, else Japanese."""
    name_en = getattr(card, "name_en", None)
    return name_en if locale == "en" and name_en else str(card.name)


class Names:
    """Looks names up in what it was given and what the events introduced since."""

    def __init__(self, state: GameState | None, locale: str) -> None:
        self.locale = locale
        self.cards: dict[str, Card] = {}
        self.players: list[tuple[str, str]] = []  # (player id, name) by seat
        self.options = GameOptions()
        self._units: dict[str, tuple[str, int]] = {}  # uid -> (card id, owner seat)
        self._continuing: dict[int, str] = {}  # continuing effect id -> source card id
        if state is not None:
            self._learn(state)

    def _learn(self, state: GameState) -> None:
        self.cards = dict(state.cards)
        self.options = state.options
        self.players = [(p.id, p.name) for p in state.players]
        for player in state.players:
            for unit in player.units:
                self._units[unit.uid] = (unit.card, unit.owner)
            for aura in player.auras:
                self._units[aura.uid] = (aura.card, aura.owner)
        for continuing in state.continuing:
            self._continuing[continuing.id] = continuing.source

    def introduce(self, event: Any) -> None:
        """Learn the names an event brings to the table (nothing else of it)."""
        if isinstance(event, ev.GameStarted):
            self.cards = dict(event.cards)
            self.options = event.options
            self.players = [(spec.id, spec.name) for spec in event.players]
            taken: set[str] = set()
            for seat, spec in enumerate(event.players):
                for card_id in spec.arcastella:
                    self._units[arcastella_uid(seat, card_id, taken)] = (card_id, seat)
        elif isinstance(event, ev.PositionLoaded):  # a practice table: its followers and auras too
            for player in event.players:
                for unit in player.units:
                    self._units[unit.uid] = (unit.card, unit.owner)
                for aura in player.auras:
                    self._units[aura.uid] = (aura.card, aura.owner)
        elif isinstance(event, ev.Summoned):
            self._units[event.uid] = (event.card, event.seat)
        elif isinstance(event, ev.ContinuingStarted):
            self._continuing[event.id] = event.source

    def card(self, card_id: str) -> str:
        card = self.cards.get(card_id)
        return card_label(card, self.locale) if card is not None else card_id

    def cards_of(self, card_ids: list[str] | tuple[str, ...]) -> str:
        if not card_ids:
            return t("render.board.empty", self.locale)
        return t("render.list_joiner", self.locale).join(self.card(c) for c in card_ids)

    def player(self, seat: int | None) -> str:
        if seat is None or not 0 <= seat < len(self.players):
            return "?"
        return self.players[seat][1]

    def player_by_user(self, user_id: int | str | None) -> str:
        for player_id, name in self.players:
            if player_id == str(user_id):
                return name
        return str(user_id)

    def card_of(self, uid: str) -> Card | None:
        """The card of a unit or aura seen so far (None: never seen)."""
        known = self._units.get(uid)
        return self.cards.get(known[0]) if known is not None else None

    def unit(self, uid: str | None) -> str:
        """`Card name (owner)`; followers and auras add their table number, since copies can share a name."""
        if uid is None:
            return "?"
        known = self._units.get(uid)
        if known is None:
            return uid
        card_id, owner = known
        name = self.card(card_id)
        if not isinstance(self.cards.get(card_id), Arcastella) or "#" in uid:
            name = f"{name}〔{uid.split('.', 1)[-1]}〕"
        return f"{name}({self.player(owner)})"

    def units(self, uids: tuple[str, ...] | list[str]) -> str:
        return t("render.list_joiner", self.locale).join(self.unit(u) for u in uids)

    def continuing(self, continuing_id: int) -> str:
        source = self._continuing.get(continuing_id)
        return self.card(source) if source is not None else f"#{continuing_id}"

    def effect_source(self, card_id: str | None, skill_id: str | None) -> str:
        """What an effect came from: the skill's name when a skill, else the card's."""
        if card_id is None:
            return "?"
        card = self.cards.get(card_id)
        if skill_id is not None and isinstance(card, Arcastella):
            skill = card.skill(skill_id)
            if skill is not None:
                return skill.name_en if self.locale == "en" and skill.name_en else skill.name
        return self.card(card_id)

    def skill(self, unit_uid: str, skill_id: str) -> str:
        card = self.card_of(unit_uid)
        if isinstance(card, Arcastella):
            skill = card.skill(skill_id)
            if skill is not None:
                return skill.name_en if self.locale == "en" and skill.name_en else skill.name
        return skill_id
