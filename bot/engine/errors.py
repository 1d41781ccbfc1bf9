"""The one error the engine raises: an action the rules do not allow right now. Nothing changed.

Refusals name cards and units as printed (bot/engine/naming.py) with `bot.errors.Named` arguments, whose
Japanese text is the string itself and whose English text adds the English name, so the same template
field reads well in both catalogs.
"""

from __future__ import annotations

from typing import ClassVar

from bot.errors import RefereeError


class RuleViolation(RefereeError):
    """An illegal action. `message_key` is an `engine.*` key of bot/i18n/*/engine.toml."""

    key: ClassVar[str] = "engine.illegal"
