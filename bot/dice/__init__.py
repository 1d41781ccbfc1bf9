"""Dice expressions for HorizonNotes Referee: normalise, parse, roll, render, verify.

    from bot.dice import roll, shuffle, FairRandomness
    roll("3d6+2 炎の一撃")                      # OS CSPRNG
    table = FairRandomness.generate("table-1")  # publish table.commitment; reveal table.seed at the end
    roll("2d6>=7", table)

No discord import here: the cogs, the console and the engine all use this package.
"""

from typing import TYPE_CHECKING, Any

from bot.dice.errors import DiceError
from bot.dice.fair import REPRODUCIBLE, FairRandomness, FairStream, ReproducibleSeed, commitment_of
from bot.dice.grammar import MAX_DICE, MAX_INPUT, MAX_SIDES, MAX_TOTAL, normalize, parse
from bot.dice.model import Plan, RollResult
from bot.dice.randomness import FaceStream, Randomness, SystemRandomness
from bot.dice.render import render
from bot.dice.roller import roll, shuffle

if TYPE_CHECKING:
    from bot.dice.verify import VerifyReport, log_entry, shuffle_entry, verify_log

# The verify half reads logs with pydantic; a plain roll should not pay for importing it.
_VERIFY_NAMES = frozenset({"VerifyReport", "log_entry", "shuffle_entry", "verify_log"})


def __getattr__(name: str) -> Any:
    if name in _VERIFY_NAMES:
        from bot.dice import verify

        return getattr(verify, name)
    raise AttributeError(f"module 'bot.dice' has no attribute {name!r}")


__all__ = [
    "MAX_DICE",
    "MAX_INPUT",
    "MAX_SIDES",
    "MAX_TOTAL",
    "REPRODUCIBLE",
    "DiceError",
    "FaceStream",
    "FairRandomness",
    "FairStream",
    "Plan",
    "Randomness",
    "ReproducibleSeed",
    "RollResult",
    "SystemRandomness",
    "VerifyReport",
    "commitment_of",
    "log_entry",
    "normalize",
    "parse",
    "render",
    "roll",
    "shuffle",
    "shuffle_entry",
    "verify_log",
]
