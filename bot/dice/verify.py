"""Checking a revealed seed against a table's roll log.

Log format: JSON Lines (UTF-8), one object per draw; blank lines are skipped.

A roll:
    {"table_id": "t1", "number": 0, "expression": "3d6+2", "dice": [[6, 3, 1]], "total": 12}
  - table_id   the table the draw belongs to (string; part of the HMAC message)
  - number     the draw number inside that table (integer >= 0)
  - expression the expression rolled; any text `roll()` accepts. The HMAC purpose is its normalised
               form, so "３ｄ６＋２" and "3d6+2" give the same faces.
  - dice       the faces of each dice term, in written order; or instead
  - faces      all faces in one list, in written order (the shape of the engine's DiceRolled events)
  - total      the total
  - success    optional: true/false for an expression with a comparison; checked when present
A shuffle (it uses a draw number too):
    {"table_id": "t1", "number": 1, "shuffle": ["c1", "c2", "c3"], "order": ["c3", "c1", "c2"]}
  - shuffle    the items in the order they were shuffled from (any JSON values), or a count n,
               meaning the items 0 .. n-1
  - order      the order `shuffle()` gave
Other keys (label, time, user...) are ignored. Each (table_id, number) may appear once.

A log is one table's, complete: every line has the same table_id, and the draw numbers are exactly
0 .. n-1 (a table numbers its draws from 0 and never skips one), so a line taken out is named by
its number. An empty log verifies nothing and fails. (The last draws of a table cannot be told
missing from the log alone: a log ends where the table ended.)

A line is refused, never crashes the check: JSON nested too deep or a number too long, a draw
number past 2**63 - 1, a table id that is not UTF-8 text, faces that are not lists of integers.

`log_entry()` and `shuffle_entry()` write records in exactly this shape.
"""

from __future__ import annotations

import json
from collections.abc import Iterable, Sequence
from typing import Any, Literal

from pydantic import BaseModel, ConfigDict

from bot.dice.errors import DiceError
from bot.dice.fair import FairRandomness, commitment_of
from bot.dice.model import RollResult
from bot.dice.roller import roll, shuffle

MAX_SHUFFLE = 100_000  # a count beyond any deck: refuse rather than build a huge list
MAX_NUMBER = 2**63 - 1  # draw numbers go into the HMAC message as 8 bytes, and into SQLite's 64 bits
_SCALARS = (str, int, float, bool, type(None))


class Mismatch(BaseModel):
    """One log line that the seed does not reproduce."""

    model_config = ConfigDict(frozen=True)

    kind: Literal["roll", "shuffle", "duplicate"]
    line: int
    table_id: str
    number: int
    what: str = ""  # the normalised expression, or the shuffled size
    logged: str = ""
    recomputed: str = ""


class VerifyReport(BaseModel):
    """`tables`: the table ids the log names, in order of appearance; `missing`: the first draw numbers
    absent from 0 .. the highest one logged, and `missing_count` how many are. A log verifies when it
    has draws, all of one table, none missing, and each reproduced."""

    model_config = ConfigDict(frozen=True)

    checked: int
    mismatches: tuple[Mismatch, ...]
    tables: tuple[str, ...] = ()
    missing: tuple[int, ...] = ()
    missing_count: int = 0

    @property
    def ok(self) -> bool:
        return self.checked > 0 and not self.mismatches and not self.missing_count and len(self.tables) == 1


def log_entry(result: RollResult, table_id: str) -> dict[str, Any]:
    """The log line of a fair roll (see the module docstring)."""
    if result.number is None:
        raise ValueError("only rolls from a fair table have a draw number to verify")
    entry: dict[str, Any] = {
        "table_id": table_id,
        "number": result.number,
        "expression": result.normalized,
        "dice": [list(faces) for faces in result.dice],
        "total": result.total,
    }
    if result.success is not None:
        entry["success"] = result.success
    if result.label:
        entry["label"] = result.label
    return entry


def shuffle_entry(table_id: str, number: int, items: Sequence[Any], order: Sequence[Any]) -> dict[str, Any]:
    """The log line of a shuffle: draw `number` (read `rng.next_number` before shuffling) put `items` in `order`."""
    return {"table_id": table_id, "number": number, "shuffle": list(items), "order": list(order)}


def parse_seed(text: str) -> bytes:
    """The revealed seed, written in hex (an "0x" prefix is allowed)."""
    text = text.strip().removeprefix("0x").removeprefix("0X")
    try:
        seed = bytes.fromhex(text)
    except ValueError:
        raise DiceError("dice.verify.bad_seed") from None
    if not seed:
        raise DiceError("dice.verify.bad_seed")
    return seed


def check_commitment(seed: bytes, commitment: str) -> bool:
    return commitment_of(seed) == commitment.strip().lower()


def _field(entry: dict[str, Any], name: str, kind: type, line: int) -> Any:
    value = entry.get(name)
    if not isinstance(value, kind) or (kind is int and isinstance(value, bool)):
        raise DiceError("dice.verify.bad_line", line=line, reason=name)
    return value


def _is_int(value: Any) -> bool:
    return isinstance(value, int) and not isinstance(value, bool)


def _faces(value: list[Any], flat: bool, name: str, line: int) -> list[Any]:
    """Logged faces: integers (flat), or lists of integers (per term); anything else is refused."""
    ok = all(_is_int(v) for v in value) if flat else all(isinstance(t, list) and all(map(_is_int, t)) for t in value)
    if not ok:
        raise DiceError("dice.verify.bad_line", line=line, reason=name)
    return value


def _flat_list(entry: dict[str, Any], name: str, line: int) -> list[Any]:
    """A list of plain JSON values (card ids, numbers): a shuffle never holds nested structures."""
    value: list[Any] = _field(entry, name, list, line)
    if not all(isinstance(v, _SCALARS) for v in value):
        raise DiceError("dice.verify.bad_line", line=line, reason=name)
    return value


def _entry(raw: str, line: int) -> dict[str, Any]:
    try:
        entry = json.loads(raw)
    except (ValueError, RecursionError):  # bad JSON, a number of thousands of digits, nesting too deep
        raise DiceError("dice.verify.bad_line", line=line, reason="JSON") from None
    if not isinstance(entry, dict):
        raise DiceError("dice.verify.bad_line", line=line, reason="JSON")
    return entry


def _table_id(entry: dict[str, Any], line: int) -> str:
    table_id: str = _field(entry, "table_id", str, line)
    try:
        table_id.encode("utf-8")  # a lone surrogate ("\ud800") is valid JSON but no text
    except UnicodeEncodeError:
        raise DiceError("dice.verify.bad_line", line=line, reason="table_id") from None
    return table_id


def missing_numbers(numbers: Iterable[int], shown: int = 20) -> tuple[list[int], int]:
    """The draw numbers absent from 0 .. max(numbers), the draws a log or a table left out: the first
    `shown` of them and how many there are. Counted gap by gap, never listed whole: one line with
    draw number 10**18 must not make a list of 10**18 numbers."""
    first: list[int] = []
    count = 0
    expected = 0
    for number in sorted(set(numbers)):
        if number > expected:
            count += number - expected
            first.extend(range(expected, min(number, expected + shown - len(first))))
        expected = number + 1
    return first, count


def verify_log(seed: bytes, lines: Iterable[str]) -> VerifyReport:
    """Recompute every draw of the log from `seed`. Unreadable lines raise DiceError."""
    mismatches: list[Mismatch] = []
    seen: set[tuple[str, int]] = set()
    tables: dict[str, None] = {}  # in order of appearance
    checked = 0
    for line_no, raw in enumerate(lines, start=1):
        if not raw.strip():
            continue
        entry = _entry(raw, line_no)
        table_id = _table_id(entry, line_no)
        number = _field(entry, "number", int, line_no)
        if not 0 <= number <= MAX_NUMBER:
            raise DiceError("dice.verify.bad_line", line=line_no, reason="number")
        tables[table_id] = None
        rng = FairRandomness(seed, table_id, next_number=number)
        key = (table_id, number)
        if key in seen:
            mismatches.append(Mismatch(kind="duplicate", line=line_no, table_id=table_id, number=number))
            checked += 1
            continue
        seen.add(key)
        if "shuffle" in entry:
            items = entry["shuffle"]
            if _is_int(items) and 0 <= items <= MAX_SHUFFLE:
                items = list(range(items))
            else:
                items = _flat_list(entry, "shuffle", line_no)
            order = _flat_list(entry, "order", line_no)
            expected = shuffle(items, rng)
            if order != expected:
                mismatches.append(
                    Mismatch(
                        kind="shuffle",
                        line=line_no,
                        table_id=table_id,
                        number=number,
                        what=str(len(items)),
                        logged=json.dumps(order),
                        recomputed=json.dumps(expected),
                    )
                )
        else:
            expression = _field(entry, "expression", str, line_no)
            # "dice" holds the faces per term; "faces" (as engine events carry them) all faces in order.
            flat = "dice" not in entry
            name = "faces" if flat else "dice"
            logged_dice = _faces(_field(entry, name, list, line_no), flat, name, line_no)
            logged_total = _field(entry, "total", int, line_no)
            try:
                result = roll(expression, rng)
            except DiceError:
                raise DiceError("dice.verify.bad_line", line=line_no, reason="expression") from None
            expected_dice: list[Any] = [list(faces) for faces in result.dice]
            if flat:
                expected_dice = [face for faces in expected_dice for face in faces]
            logged_success = entry.get("success", result.success)
            if logged_dice != expected_dice or logged_total != result.total or logged_success != result.success:
                mismatches.append(
                    Mismatch(
                        kind="roll",
                        line=line_no,
                        table_id=table_id,
                        number=number,
                        what=result.normalized,
                        logged=f"{json.dumps(logged_dice)} = {logged_total}",
                        recomputed=f"{json.dumps(expected_dice)} = {result.total}",
                    )
                )
        checked += 1
    missing, count = missing_numbers(number for _, number in seen) if len(tables) == 1 else ([], 0)
    return VerifyReport(
        checked=checked, mismatches=tuple(mismatches), tables=tuple(tables), missing=tuple(missing), missing_count=count
    )
