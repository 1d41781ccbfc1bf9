"""Card and deck data: models, loading and validation of cards/, name search.

`from bot.catalog import load_catalog, Catalog, Arcastella, Spell, ...`
"""

from __future__ import annotations

from bot.catalog.cards import (
    CARD_TYPES,
    DECK_CARD_TYPES,
    Arcastella,
    AuraCompolta,
    Card,
    CardBase,
    CardId,
    CardType,
    Follower,
    Resonator,
    SephirotCode,
    Skill,
    Spell,
    Trigger,
)
from bot.catalog.catalog import Catalog, UnknownCard, UnknownDeck, WrongCardType
from bot.catalog.decks import Deck, DeckEntry, DeckRules, Equipment
from bot.catalog.effects import (
    EFFECT_KINDS,
    ContinuingEffect,
    DamageEffect,
    DrawEffect,
    Effect,
    GainEtherEffect,
    HealEffect,
    ManualEffect,
    ModifyDefEffect,
    PlayerTarget,
    SimpleEffect,
    TapEffect,
    Target,
    Timing,
    UnitTarget,
    UntapEffect,
)
from bot.catalog.loader import CardFile, DeckFile, load_catalog
from bot.catalog.names import normalize_name
from bot.catalog.problems import CatalogError, Problem

__all__ = [
    "CARD_TYPES",
    "DECK_CARD_TYPES",
    "EFFECT_KINDS",
    "Arcastella",
    "AuraCompolta",
    "Card",
    "CardBase",
    "CardFile",
    "CardId",
    "CardType",
    "Catalog",
    "CatalogError",
    "ContinuingEffect",
    "DamageEffect",
    "Deck",
    "DeckEntry",
    "DeckFile",
    "DeckRules",
    "DrawEffect",
    "Effect",
    "Equipment",
    "Follower",
    "GainEtherEffect",
    "HealEffect",
    "ManualEffect",
    "ModifyDefEffect",
    "PlayerTarget",
    "Problem",
    "Resonator",
    "SephirotCode",
    "SimpleEffect",
    "Skill",
    "Spell",
    "TapEffect",
    "Target",
    "Timing",
    "Trigger",
    "UnitTarget",
    "UnknownCard",
    "UnknownDeck",
    "UntapEffect",
    "WrongCardType",
    "load_catalog",
    "normalize_name",
]
