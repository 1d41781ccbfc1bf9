"""The one error the engine raises: an action the rules do not allow right now. Nothing changed."""

from __future__ import annotations

from typing import ClassVar

from bot.errors import RefereeError


class RuleViolation(RefereeError):
    """An illegal action. `message_key` is an `engine.*` key of bot/i18n/*/engine.toml."""

    key: ClassVar[str] = "engine.illegal"
