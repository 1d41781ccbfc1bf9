"""Front-neutral words of the table: what a player types or picks → the ids and actions the engine takes.

The console and the Discord cogs both use this package: names to cards, units, skills and players
(Japanese and English, kana and width forgiven, ambiguity listed with how to choose), the start
options of a game, and the builders of play actions that the service runs under the table's lock.
"""

from bot.table.builders import ADJUST_FIELDS, PLAY_OPTIONS, ActionBuilder, Request, builder, seated_player
from bot.table.errors import TableError
from bot.table.resolve import Side, find_card, find_skill, find_unit
from bot.table.start import START_KEYS, build_start, table_options
from bot.table.words import action_line

__all__ = [
    "ADJUST_FIELDS",
    "PLAY_OPTIONS",
    "START_KEYS",
    "ActionBuilder",
    "Request",
    "Side",
    "TableError",
    "action_line",
    "build_start",
    "builder",
    "find_card",
    "find_skill",
    "find_unit",
    "seated_player",
    "table_options",
]
