"""Name normalisation, so a player finds a card however they type its name: the one rule of bot/names.py."""

from __future__ import annotations

from bot.names import BadName, check_name, normalize_name

__all__ = ["BadName", "check_name", "normalize_name"]
