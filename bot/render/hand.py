"""A player's hidden cards, private to that player (an ephemeral reply on Discord, a marked block in the
console): their hand, and the top of their deck when a manual effect lets them look."""

from __future__ import annotations

from collections import Counter

from bot.catalog.cards import Spell
from bot.catalog.describe import describe_effects
from bot.engine.state import GameState
from bot.i18n import t
from bot.render.message import Message
from bot.render.names import Names


def render_hand(state: GameState, seat: int, locale: str) -> Message:
    """Each card once with its count, cost, timing and effects; `private_to` is the player's name."""
    names = Names(state, locale)
    player = state.players[seat]
    lines: list[str] = []
    for card_id, count in Counter(player.hand).items():
        card = state.cards[card_id]
        cost = getattr(card, "cost", 0)
        timing = t(f"cards.timing.{getattr(card, 'timing', 'own_turn')}", locale)
        effects = describe_effects(getattr(card, "effects", ()), locale) or card.text
        name = names.card(card_id) + (f" ×{count}" if count > 1 else "")
        lines.append(
            t(
                "render.hand.line",
                locale,
                name=name,
                id=card_id,
                type=t(f"cards.type.{card.type}", locale),
                cost=cost,
                timing=timing,
                effects=effects,
            )
        )
        if isinstance(card, Spell) and card.ether_effect:
            lines.append(t("render.hand.ether_effect", locale, effects=describe_effects(card.ether_effect, locale)))
    if not lines:
        lines.append(t("render.hand.empty", locale))
    title = t("render.hand.title", locale, player=player.name, count=len(player.hand))
    return Message(title=title, lines=lines, private_to=player.name)


def render_deck_top(state: GameState, seat: int, count: int, locale: str) -> Message:
    """The top `count` cards of the player's deck, top first, and the line that puts them back reordered."""
    names = Names(state, locale)
    player = state.players[seat]
    top = player.deck[:count]
    lines = [t("render.deck.line", locale, place=i, name=names.card(c), id=c) for i, c in enumerate(top, 1)]
    order = ",".join(state.cards[c].name for c in top)
    lines.append(t("render.deck.reorder", locale, player=player.name, cards=order))
    title = t("render.deck.title", locale, player=player.name, count=len(top), deck=len(player.deck))
    return Message(title=title, lines=lines, private_to=player.name)
