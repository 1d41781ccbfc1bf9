"""Errors of the rulebook; each carries a key of bot/i18n/*/rulings.toml."""

from __future__ import annotations

from bot.errors import RefereeError


class RulingsError(RefereeError):
    key = "rulings.corpus_invalid"
