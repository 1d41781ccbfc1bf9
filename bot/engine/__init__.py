"""The HorizonNotes rules engine: pure functions over pydantic models.

    from bot.engine import apply, legal_actions, replay, new_game, GameState, RuleViolation

No discord, no SQLite, no clock, no global random: dice and shuffles come from the `rng` argument
(bot.dice), and every outcome is written into the events, so `replay(events)` needs no rng.
"""

from __future__ import annotations

from bot.dice import Randomness
from bot.engine.actions import (
    Action,
    Adjust,
    Block,
    Cast,
    Charge,
    Concede,
    ConfirmAdjust,
    LookAtDeck,
    ModeratorAdjust,
    NoBlock,
    Pass,
    RejectAdjust,
    SeatSpec,
    StartGame,
    Summon,
    UseSkill,
)
from bot.engine.engine import apply
from bot.engine.errors import RuleViolation
from bot.engine.events import Event
from bot.engine.handlers import game_over
from bot.engine.legal import legal_actions
from bot.engine.options import GameOptions
from bot.engine.replay import events_from_json, events_to_json, replay
from bot.engine.setup import start_action
from bot.engine.state import GameState, PlayerState, Unit


def new_game(action: StartGame, rng: Randomness) -> tuple[GameState, list[Event]]:
    """Set up a table from a StartGame action (see `start_action` to build one from the catalog)."""
    return apply(GameState(), action, rng)


__all__ = [
    "Action",
    "Adjust",
    "Block",
    "Cast",
    "Charge",
    "Concede",
    "ConfirmAdjust",
    "Event",
    "GameOptions",
    "GameState",
    "LookAtDeck",
    "ModeratorAdjust",
    "NoBlock",
    "Pass",
    "PlayerState",
    "RejectAdjust",
    "RuleViolation",
    "SeatSpec",
    "StartGame",
    "Summon",
    "Unit",
    "UseSkill",
    "apply",
    "events_from_json",
    "events_to_json",
    "game_over",
    "legal_actions",
    "new_game",
    "replay",
    "start_action",
]
