"""`apply(state, action, rng) -> (new state, events)`: the one entry point that changes a game.

The given state is never changed: the handler works on a clone of it (bot/engine/context.py),
and a RuleViolation (raised before any event or roll) leaves both the state and the rng as they were.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from bot.dice import Randomness
from bot.engine import actions as act
from bot.engine import events as ev
from bot.engine import handlers
from bot.engine.context import Ctx
from bot.engine.setup import start_game
from bot.engine.state import GameState

_HANDLERS: dict[type[Any], Callable[[Ctx, Any], None]] = {
    act.StartGame: start_game,
    act.Charge: handlers.charge,
    act.Pass: handlers.pass_,
    act.Cast: handlers.cast,
    act.UseSkill: handlers.use_skill,
    act.Block: handlers.block,
    act.NoBlock: handlers.no_block,
    act.Summon: handlers.summon,
    act.Adjust: handlers.adjust,
    act.ConfirmAdjust: handlers.confirm_adjust,
    act.RejectAdjust: handlers.reject_adjust,
    act.ModeratorAdjust: handlers.moderator_adjust,
    act.LookAtDeck: handlers.look_at_deck,
    act.Concede: handlers.concede,
}


def apply(state: GameState, action: act.Action, rng: Randomness) -> tuple[GameState, list[ev.Event]]:
    """Apply one action; return the new state and the events it caused, in order."""
    ctx = Ctx(state, rng)
    _HANDLERS[type(action)](ctx, action)
    return ctx.state, ctx.events
