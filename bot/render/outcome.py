"""The reply to one table request: what happened, who must act now, and the dice commitment or seed.

Everything comes from the one Outcome the service returned for that request (taken under the
table's lock), so a reply never mixes a table read before with events that happened after. A
failure while rendering is the referee's own error with a message, never a traceback.
"""

from __future__ import annotations

import logging
from typing import TYPE_CHECKING

from bot.dice.given import PRACTICE
from bot.engine.events import GameStarted
from bot.errors import RefereeError
from bot.render.board import dice_lines, status_lines
from bot.render.events import render_events
from bot.render.message import Message

if TYPE_CHECKING:
    from bot.service import Outcome

log = logging.getLogger(__name__)


class RenderFailed(RefereeError):
    key = "render.failed"


def render_outcome(outcome: Outcome, locale: str) -> Message:
    try:
        lines = render_events(outcome.events, outcome.before, locale, practice=outcome.commitment == PRACTICE)
        lines += ["→ " + s for s in status_lines(outcome.state, locale, finished=outcome.finished)]
        # Fair dice: the hash of the secret seed is published as the game opens, the seed as it ends,
        # so anyone can check every roll and shuffle afterwards (referee verify). A seeded table says
        # instead that its dice are reproducible, not fair.
        opened = any(isinstance(event, GameStarted) for event in outcome.events)
        if outcome.commitment == PRACTICE:  # a judge's table: said so as it opens and ends; no seed to reveal
            shown = opened or outcome.finished
            lines += dice_lines(PRACTICE, None, locale) if shown else []
        else:
            lines += dice_lines(outcome.commitment if opened else None, outcome.revealed_seed, locale)
    except RefereeError:
        raise
    except Exception as exc:
        log.exception("rendering a reply failed", extra={"channel": outcome.channel_id, "game": outcome.game_id})
        raise RenderFailed(game=outcome.game_id, version=outcome.version) from exc
    return Message(lines=lines)
