"""The dice check of a finished game: every draw of its log and every roll filed beside it,
recomputed from the revealed seed, and the seed checked against the published commitment.

The service hands over the draws (TableService.verify); front ends only print the result: each
problem is a message key with its arguments, so it reads in either language.
"""

from __future__ import annotations

import json
from dataclasses import dataclass, field
from typing import Any

from bot.dice.errors import DiceError
from bot.dice.fair import REPRODUCIBLE, commitment_of
from bot.dice.given import PRACTICE
from bot.dice.verify import Mismatch, check_commitment, missing_numbers, verify_log


@dataclass(frozen=True)
class Problem:
    key: str  # a message key under dice.verify
    args: dict[str, Any]


@dataclass
class GameCheck:
    game_id: int
    table_id: str
    commitment: str
    reproducible: bool  # a seeded table: its dice were reproducible, not fair
    rolls: int = 0
    shuffles: int = 0
    filed: int = 0
    problems: list[Problem] = field(default_factory=list)

    @property
    def ok(self) -> bool:
        return not self.problems

    def _add(self, key: str, **args: Any) -> None:
        self.problems.append(Problem(f"dice.verify.{key}", args))


def check_game(
    game_id: int,
    table_id: str | None,
    commitment: str | None,
    revealed_seed: str | None,
    draws: list[dict[str, Any]],
    filed: list[dict[str, Any]],
    published: str | None = None,
) -> GameCheck:
    """`published` is the commitment the players saw at the start: without it the check trusts the
    stored one. Draws are numbered 0, 1, 2 ... and never reused, and every roll of the log was filed
    as it was made: a missing number, or a roll the rolls table lacks, is a problem too."""
    if commitment == PRACTICE:  # a judge's practice table: its dice were given, there is nothing to check
        raise DiceError("practice.dice.not_verifiable", game=game_id)
    if not revealed_seed or not commitment:
        raise DiceError("dice.verify.no_seed", game=game_id)
    seed = bytes.fromhex(revealed_seed)
    reproducible = commitment == REPRODUCIBLE
    check = GameCheck(game_id, table_id or "-", commitment, reproducible, filed=len(filed))
    for expected in (None if reproducible else commitment, published):
        if expected is not None and not check_commitment(seed, expected):
            check._add("commitment_mismatch", actual=commitment_of(seed), expected=expected)
    for bad in verify_log(seed, [json.dumps(d) for d in draws]).mismatches:
        _name_draw(check, bad, draws[bad.line - 1])
    for bad in verify_log(seed, [json.dumps(d) for d in filed]).mismatches:
        row = filed[bad.line - 1]
        check._add(
            "filed_mismatch", roll=row["roll"], number=bad.number, what=bad.what, logged=bad.logged,
            recomputed=bad.recomputed,
        )  # fmt: skip
    for row in filed:
        if row["commitment"] != commitment:
            check._add("filed_commitment", roll=row["roll"], found=row["commitment"] or "-", expected=commitment)
    first, count = missing_numbers({d["number"] for d in draws} | {r["number"] for r in filed})
    for number in first:
        check._add("missing_draw", number=number)
    if count > len(first):
        check._add("more_missing", count=count - len(first))
    filed_numbers = {r["number"] for r in filed}
    for draw in draws:
        if "shuffle" not in draw and draw["number"] not in filed_numbers:
            check._add("filed_missing", number=draw["number"], seq=draw["seq"], what=draw["expression"])
    check.rolls = sum(1 for d in draws if "shuffle" not in d)
    check.shuffles = len(draws) - check.rolls
    return check


def _name_draw(check: GameCheck, bad: Mismatch, draw: dict[str, Any]) -> None:
    """Name the event of a stored draw the seed does not give, so a judge can find it."""
    if bad.kind == "duplicate":
        check._add("game_duplicate", number=bad.number, seq=draw["seq"])
    elif bad.kind == "shuffle":
        logged, recomputed = json.loads(bad.logged), json.loads(bad.recomputed)
        at = next(
            (i for i, (a, b) in enumerate(zip(logged, recomputed, strict=False)) if a != b),
            min(len(logged), len(recomputed)),
        )
        check._add(
            "game_shuffle_mismatch", number=bad.number, seq=draw["seq"], seat=draw["seat"], position=at + 1,
            logged=_at(logged, at), recomputed=_at(recomputed, at),
        )  # fmt: skip
    else:
        check._add(
            "game_roll_mismatch", number=bad.number, seq=draw["seq"], purpose=draw["purpose"], what=bad.what,
            logged=bad.logged, recomputed=bad.recomputed,
        )  # fmt: skip


def _at(items: list[Any], index: int) -> str:
    return str(items[index]) if index < len(items) else "-"
