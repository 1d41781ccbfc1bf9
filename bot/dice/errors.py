"""The dice module's one error type: every bad expression or log raises it, with a catalog key."""

from __future__ import annotations

from typing import ClassVar

from bot.errors import RefereeError


class DiceError(RefereeError):
    """A dice expression or roll log the referee refuses. Nothing was rolled."""

    key: ClassVar[str] = "dice.error.unreadable"
