"""Deck models: three Arcastella (one the leader), their Sephirot codes, and the deck of cards.

The rulebook does not say how large a deck is; `DeckRules` holds the house rule (see docs/house-rules.md).
Whether the ids exist is checked by the catalog, which knows every card.
"""

from __future__ import annotations

from pydantic import Field, model_validator
from pydantic_core import PydanticCustomError

from bot.catalog.cards import CardId, Frozen, Name


class DeckRules(Frozen):
    """The deck-building house rule. Default: exactly 30 cards in the deck, at most 3 copies of a card."""

    size: int = Field(default=30, ge=1, le=200, description="Cards in the deck (spells, followers, Aura Compolta).")
    max_copies: int = Field(default=3, ge=1, le=60, description="Copies of one card allowed.")


class DeckEntry(Frozen):
    """`count` copies of card `id` in the deck."""

    id: CardId = Field(description="A spell, follower or Aura Compolta of the catalog.")
    count: int = Field(default=1, ge=1, le=60, description="Copies in the deck.")


class Equipment(Frozen):
    """A Sephirot code worn by one of the deck's Arcastella from the start of the game."""

    arcastella: CardId = Field(description="Which of the deck's three Arcastella wears it.")
    code: CardId = Field(description="The Sephirot code card.")


class Deck(Frozen):
    """A player's deck file."""

    id: CardId = Field(description="Stable ascii slug, unique among decks.")
    name: Name = Field(min_length=1, description="Japanese name.")
    name_en: Name | None = Field(default=None, description="English name, if any.")
    text: str = Field(default="", description="A short description of how the deck plays.")
    leader: CardId = Field(description="The leader: one of the three Arcastella.")
    arcastella: tuple[CardId, ...] = Field(
        description="Exactly three different Arcastella, the leader among them.",
        json_schema_extra={"minItems": 3, "maxItems": 3, "uniqueItems": True},
    )
    equipment: tuple[Equipment, ...] = Field(default=(), description="Sephirot codes, at most one per Arcastella.")
    cards: tuple[DeckEntry, ...] = Field(min_length=1, description="The deck (山札).")

    @model_validator(mode="after")
    def _shape(self) -> Deck:
        if len(self.arcastella) != 3 or len(set(self.arcastella)) != 3:
            raise PydanticCustomError(
                "arcastella_count",
                "name exactly three different Arcastella (got {count})",
                {"count": len(self.arcastella), "field": "arcastella"},
            )
        if self.leader not in self.arcastella:
            raise PydanticCustomError(
                "leader_not_fielded",
                "the leader {leader} is not among the three",
                {"leader": self.leader, "field": "leader"},
            )
        wearers = [e.arcastella for e in self.equipment]
        for wearer in wearers:
            if wearer not in self.arcastella:
                raise PydanticCustomError(
                    "wearer_not_fielded",
                    "{id} wears a code but is not in the deck",
                    {"id": wearer, "field": "equipment"},
                )
        if len(set(wearers)) != len(wearers):
            raise PydanticCustomError(
                "two_codes", "an Arcastella may wear only one Sephirot code", {"field": "equipment"}
            )
        ids = [e.id for e in self.cards]
        repeated = sorted({i for i in ids if ids.count(i) > 1})
        if repeated:
            raise PydanticCustomError(
                "repeated_entry",
                "list each card once with a count: {ids}",
                {"ids": ", ".join(repeated), "field": "cards"},
            )
        return self

    @property
    def size(self) -> int:
        """Cards in the deck."""
        return sum(e.count for e in self.cards)

    def card_ids(self) -> list[str]:
        """The deck as a flat list of card ids, each repeated `count` times, in file order (before shuffling)."""
        return [e.id for e in self.cards for _ in range(e.count)]

    def code_of(self, arcastella: str) -> str | None:
        """The Sephirot code worn by `arcastella`, if any."""
        return next((e.code for e in self.equipment if e.arcastella == arcastella), None)
