"""Dice expressions for HorizonNotes Referee: normalise, parse, roll, render, verify.

    from bot.dice import roll, shuffle, FairRandomness
    roll("3d6+2 炎の一撃")                      # OS CSPRNG
    table = FairRandomness.generate("table-1")  # publish table.commitment; reveal table.seed at the end
    roll("2d6>=7", table)

No discord import here: the cogs, the console and the engine all use this package.
"""

from bot.dice.errors import DiceError
from bot.dice.fair import REPRODUCIBLE, FairRandomness, FairStream, ReproducibleSeed, commitment_of
from bot.dice.grammar import MAX_DICE, MAX_INPUT, MAX_SIDES, MAX_TOTAL, normalize, parse
from bot.dice.model import Plan, RollResult
from bot.dice.randomness import FaceStream, Randomness, SystemRandomness
from bot.dice.render import render
from bot.dice.roller import roll, shuffle
from bot.dice.verify import VerifyReport, log_entry, shuffle_entry, verify_log

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
