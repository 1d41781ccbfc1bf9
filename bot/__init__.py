"""HorizonNotes Referee: the referee itself (engine, dice, rulings, store). Discord glue lives in cogs/."""

__version__ = "0.1.0"
