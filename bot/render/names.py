"""Names as a player reads them: cards, skills, units and players, in one locale.

Units are remembered by uid once seen, so a follower that has left the board (an afterglow card) still
has a name in the log lines written after it fell.
"""

from __future__ import annotations

from typing import Any

from bot.catalog.cards import Arcastella
from bot.engine.state import GameState
from bot.i18n import t


def card_label(card: Any, locale: str) -> str:
    """The printed name: English where the card has one and the locale is English, else Japanese."""
    name_en = getattr(card, "name_en", None)
    return name_en if locale == "en" and name_en else str(card.name)


class Names:
    """Looks names up in a state; `remember` keeps every unit it has seen."""

    def __init__(self, state: GameState, locale: str) -> None:
        self.state = state
        self.locale = locale
        self._units: dict[str, tuple[str, int]] = {}  # uid -> (card id, owner seat)
        self._continuing: dict[int, str] = {}  # continuing effect id -> source card id
        self.remember(state)

    def remember(self, state: GameState) -> None:
        self.state = state
        for player in state.players:
            for unit in player.units:
                self._units[unit.uid] = (unit.card, unit.owner)
            for aura in player.auras:
                self._units[aura.uid] = (aura.card, aura.owner)
        for continuing in state.continuing:
            self._continuing[continuing.id] = continuing.source

    def card(self, card_id: str) -> str:
        card = self.state.cards.get(card_id)
        return card_label(card, self.locale) if card is not None else card_id

    def cards(self, card_ids: list[str] | tuple[str, ...]) -> str:
        if not card_ids:
            return t("render.board.empty", self.locale)
        return t("render.list_joiner", self.locale).join(self.card(c) for c in card_ids)

    def player(self, seat: int | None) -> str:
        if seat is None or not 0 <= seat < len(self.state.players):
            return "?"
        return self.state.players[seat].name

    def player_by_user(self, user_id: int | str | None) -> str:
        for player in self.state.players:
            if player.id == str(user_id):
                return player.name
        return str(user_id)

    def unit(self, uid: str | None) -> str:
        """`Card name (owner)`; followers and auras add their table number, since copies can share a name."""
        if uid is None:
            return "?"
        known = self._units.get(uid)
        if known is None:
            return uid
        card_id, owner = known
        name = self.card(card_id)
        if not isinstance(self.state.cards.get(card_id), Arcastella) or "#" in uid:
            name = f"{name}〔{uid.split('.', 1)[-1]}〕"
        return f"{name}({self.player(owner)})"

    def units(self, uids: tuple[str, ...] | list[str]) -> str:
        return t("render.list_joiner", self.locale).join(self.unit(u) for u in uids)

    def continuing(self, continuing_id: int) -> str:
        source = self._continuing.get(continuing_id)
        return self.card(source) if source is not None else f"#{continuing_id}"

    def skill(self, unit_uid: str, skill_id: str) -> str:
        known = self._units.get(unit_uid)
        card = self.state.cards.get(known[0]) if known else None
        if isinstance(card, Arcastella):
            skill = card.skill(skill_id)
            if skill is not None:
                return skill.name_en if self.locale == "en" and skill.name_en else skill.name
        return skill_id
