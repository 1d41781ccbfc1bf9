"""The refusal of a request a front end built from what a player typed or picked."""

from __future__ import annotations

from bot.errors import RefereeError


class TableError(RefereeError):
    """A request that names something that is not there, or misses or garbles an option. Units and
    skills are named as each language prints them (a `Named` argument), like the engine's refusals."""

    key = "table.missing_option"
