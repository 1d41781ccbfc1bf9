"""Printed names for refusals: cards, skills and units as a player reads them, never internal ids.

Japanese: the printed name (and the owner for a unit), as the board shows it. English: the printed
name with its English name beside it, since players type and see the Japanese names at the table.
Anything the game does not know (a typo, a card outside both decks) is shown as the player gave it.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from bot.catalog.cards import Arcastella
from bot.engine.state import GameState
from bot.errors import Named


def _label(name: str, name_en: str | None) -> Named:
    return Named(name, f"{name} ({name_en})" if name_en and name_en != name else name)


def card_name(cards: Mapping[str, Any], card_id: str) -> Named | str:
    card = cards.get(card_id)
    if card is None:
        return card_id
    return _label(card.name, card.name_en)


def printed_name(thing: Any) -> Named:
    """A card or skill object's printed name."""
    return _label(thing.name, thing.name_en)


def unit_name(state: GameState, uid: str | None) -> Named | str:
    """`焔刃のハルト(alice)` / `alice's 焔刃のハルト (Hart of the Blazing Blade)`; a follower or aura adds
    its table number, since two copies can share a name."""
    if uid is None:
        return ""
    found = state.find_unit(uid) or state.find_aura(uid)
    if found is None:
        return uid
    card = state.cards.get(found.card)
    if card is None:
        return uid
    owner = state.players[found.owner].name
    number = "" if isinstance(card, Arcastella) else f"〔{uid.split('.', 1)[-1]}〕"
    en = f" ({card.name_en})" if card.name_en and card.name_en != card.name else ""
    return Named(f"{card.name}{number}({owner})", f"{owner}'s {card.name}{en}{number}")
