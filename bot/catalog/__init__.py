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
from bot.catalog.names import normalize_name

__all__ = [
    "CARD_TYPES",
    "DECK_CARD_TYPES",
    "EFFECT_KINDS",
    "Arcastella",
    "AuraCompolta",
    "Card",
    "CardBase",
    "CardId",
    "CardType",
    "ContinuingEffect",
    "DamageEffect",
    "Deck",
    "DeckEntry",
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
    "UntapEffect",
    "normalize_name",
]
