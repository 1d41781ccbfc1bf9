"""Reading dice expressions: NFKC, then a small hand-written recursive-descent parser.

Grammar (after NFKC; letters are case-insensitive, spaces allowed between tokens):

    line       := expression [comparison] [SPACE label]
    expression := [sign] term (sign term)*
    term       := factor (times factor)*          at most one factor may be dice
    factor     := "D66" | [count] "d" sides [keep] | number
    keep       := "k" ["h" | "l"] number           "k3" is "kh3"
    comparison := (">=" | "<=" | ">" | "<" | "=" | "==" | "≥" | "≤" | "≧" | "≦") [sign] number
    sign       := "+" | "-" | "−" and the other dashes
    times      := "*" | "×" | "x" (the last only written tight: "3d6x2", "2x3d6")

The label is whatever follows the expression after a space ("3d6+2 炎の一撃"). After a space, an
operator always continues the expression, so "3d6 + 2" is one expression and a typo such as
"3d6 + 2d" is an error rather than a label.

A roll needs at least one die: "134 text" is refused, not rolled as the constant 134.

"D66" is BCDice's: a tens die and a ones die (two d6, not sorted), 11..66. With a count in front
("2D66") it is refused: BCDice players mean tens-and-ones by it, never a die of 66 faces, and
"D66+D66" says the sum plainly. ASCII letters written tight after a number or a die ("2b6",
"2R6>=3", "3D6MAX", "D66S") are BCDice commands this grammar lacks: they are refused by name,
never read as a label (a label needs a space and may not follow such a command).

Every total is bounded: no term and no sum of terms may reach past MAX_TOTAL either way, so a total
always fits a signed 64-bit integer (the store's) with room to spare, on every front end alike.
"""

from __future__ import annotations

import re
import unicodedata
from functools import lru_cache

from bot.dice.errors import DiceError
from bot.dice.model import D66, Dice, Plan, Term

MAX_INPUT = 200
MAX_DICE = 200
MAX_SIDES = 1000
MAX_DIGITS = 7  # literal numbers up to 9,999,999
# The largest total (either sign) a roll may reach, checked on the parsed plan before anything is
# rolled: far inside SQLite's signed 64 bits (about 9.2e18), and an exact integer in any JSON reader.
MAX_TOTAL = 10**15

_DIGITS = frozenset("0123456789")
_PLUS = frozenset("+")
# NFKC leaves these minus signs and dashes alone; people type them for "minus".
_MINUS = frozenset("-\u2212\u2010\u2011\u2012\u2013\u2014\ufe63")
_TIMES = frozenset("*×\u2217")
# How comparisons may be written, and their canonical spelling (two-character forms are tried first).
_COMPARISONS = {
    ">=": ">=",
    "<=": "<=",
    "==": "=",
    ">": ">",
    "<": "<",
    "=": "=",
    "≥": ">=",
    "≧": ">=",
    "≤": "<=",
    "≦": "<=",
}
_COMPARE_START = frozenset(key[0] for key in _COMPARISONS)
_OPERATORS = _PLUS | _MINUS | _TIMES | _COMPARE_START
_SPACE = frozenset(" \t\n\r\v\f")
_SURROGATE = re.compile("[\ud800-\udfff]")
_ASCII_LETTERS = frozenset("abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ")
_BIDI_CONTROLS = frozenset("\u061c\u200e\u200f\u202a\u202b\u202c\u202d\u202e\u2066\u2067\u2068\u2069")


def nfkc(text: str) -> str:
    return unicodedata.normalize("NFKC", text)


class _Parser:
    """One pass over the NFKC text; raises DiceError at the first problem.

    `peek()` gives "" at the end, and "" is in none of the character sets or tuples used here.
    """

    def __init__(self, text: str) -> None:
        self.s = text
        self.n = len(text)
        self.i = 0

    # -- small helpers -------------------------------------------------------------------------
    def peek(self, ahead: int = 0) -> str:
        j = self.i + ahead
        return self.s[j] if j < self.n else ""

    def skip_space(self) -> bool:
        start = self.i
        while self.i < self.n and self.s[self.i] in _SPACE:
            self.i += 1
        return self.i > start

    def unexpected(self) -> DiceError:
        if self.i >= self.n:
            return DiceError("dice.error.incomplete")
        return DiceError("dice.error.unexpected", char=self.s[self.i], position=self.i + 1)

    def number(self) -> int:
        start = self.i
        while self.i < self.n and self.s[self.i] in _DIGITS:
            self.i += 1
        digits = self.s[start : self.i]
        if not digits:
            raise self.unexpected()
        if len(digits.lstrip("0")) > MAX_DIGITS:
            raise DiceError("dice.error.number_too_large", digits=MAX_DIGITS)
        return int(digits)

    # -- grammar -------------------------------------------------------------------------------
    def line(self) -> Plan:
        self.skip_space()
        if self.i >= self.n:
            raise DiceError("dice.error.empty")
        terms = self.expression()
        comparison = self.comparison()
        label = self.label()
        count = sum(t.dice.count for t in terms if t.dice is not None)
        if count > MAX_DICE:
            raise DiceError("dice.error.too_many_dice", limit=MAX_DICE, count=count)
        if count == 0:
            raise DiceError("dice.error.no_dice")
        # Bounding the sum of the terms' largest sizes bounds every partial sum as well.
        if sum(max(map(abs, t.bounds())) for t in terms) > MAX_TOTAL:
            raise DiceError("dice.error.total_too_large", limit=f"{MAX_TOTAL:,}")
        return Plan.build(tuple(terms), comparison, label)

    def expression(self) -> list[Term]:
        sign = 1
        if self.peek() in _PLUS:
            self.i += 1
            self.skip_space()
        elif self.peek() in _MINUS:
            sign = -1
            self.i += 1
            self.skip_space()
        terms = [self.term(sign)]
        while True:
            mark = self.i
            self.skip_space()
            c = self.peek()
            if c in _PLUS:
                sign = 1
            elif c in _MINUS:
                sign = -1
            else:
                self.i = mark
                return terms
            self.i += 1
            self.skip_space()
            terms.append(self.term(sign))

    def _times_follows(self) -> bool:
        """Is there a multiplication sign here (after optional spaces)? Consumes it if so."""
        mark = self.i
        spaced = self.skip_space()
        c = self.peek()
        if c in _TIMES:
            self.i += 1
            self.skip_space()
            return True
        # "x" means times only when written tight and followed by a number or a die.
        if not spaced and c in ("x", "X") and (self.peek(1) in _DIGITS or self.peek(1) in ("d", "D")):
            self.i += 1
            return True
        self.i = mark
        return False

    def term(self, sign: int) -> Term:
        factors: list[Dice | int] = [self.factor()]
        while self._times_follows():
            factors.append(self.factor())
        dice = [f for f in factors if isinstance(f, Dice)]
        if len(dice) > 1:
            raise DiceError("dice.error.dice_times_dice")
        # Every running product stays within the limit, so no intermediate value grows without bound.
        size = 1
        multiplier = 1
        for f in factors:
            if isinstance(f, int):
                multiplier *= f
            size *= f if isinstance(f, int) else f.largest
            if size > MAX_TOTAL:
                raise DiceError("dice.error.total_too_large", limit=f"{MAX_TOTAL:,}")
        return Term(sign=sign, factors=tuple(factors), dice=dice[0] if dice else None, multiplier=multiplier)

    def factor(self) -> Dice | int:
        c = self.peek()
        start = self.i
        if c in _DIGITS:
            value = self.number()
            if self.peek() in ("d", "D"):
                if self._d66_here():
                    raise DiceError("dice.error.counted_d66", dice=self.s[start : self.i + 3])
                return self.dice(value, start)
            return value
        if c in ("d", "D"):
            if self._d66_here():
                self.i += 3
                return D66
            return self.dice(1, start)
        if c in _MINUS and self.peek(1) in _DIGITS:
            # "3*-2" or "2d6+-1": a second sign where a number belongs.
            raise DiceError("dice.error.negative")
        raise self.unexpected()

    def _d66_here(self) -> bool:
        """Is "d66" written here, as a whole (not the start of "d666")?"""
        return self.s[self.i + 1 : self.i + 3] == "66" and self.peek(3) not in _DIGITS

    def dice(self, count: int, start: int) -> Dice:
        """`count` dice; the factor began at `start`, so an error quotes it as written ("d", "02d")."""
        self.i += 1  # the "d"
        c = self.peek()
        if c in _MINUS and self.peek(1) in _DIGITS:
            self.i += 1
            raise DiceError("dice.error.faces_not_positive", faces=-self.number())
        if c not in _DIGITS:
            raise DiceError("dice.error.missing_faces", dice=self.s[start : self.i])
        sides = self.number()
        if count < 1:
            raise DiceError("dice.error.count_not_positive", count=count)
        if sides < 1:
            raise DiceError("dice.error.faces_not_positive", faces=sides)
        if count > MAX_DICE:
            raise DiceError("dice.error.too_many_dice", limit=MAX_DICE, count=count)
        if sides > MAX_SIDES:
            raise DiceError("dice.error.too_many_faces", limit=MAX_SIDES, faces=sides)
        if self.peek() not in ("k", "K"):
            return Dice(count, sides)
        self.i += 1
        mode = "h"
        if self.peek() in ("h", "H", "l", "L"):
            mode = self.peek().lower()
            self.i += 1
        if self.peek() in _MINUS and self.peek(1) in _DIGITS:
            self.i += 1
            raise DiceError("dice.error.keep_out_of_range", keep=-self.number(), count=count)
        if self.peek() not in _DIGITS:
            raise DiceError("dice.error.missing_keep", dice=self.s[start : self.i])
        keep = self.number()
        if keep < 1 or keep > count:
            raise DiceError("dice.error.keep_out_of_range", keep=keep, count=count)
        return Dice(count, sides, keep, mode)

    def comparison(self) -> tuple[str, int] | None:
        mark = self.i
        self.skip_space()
        op = self._operator()
        if op is None:
            self.i = mark
            return None
        self.skip_space()
        sign = 1
        if self.peek() in _MINUS:
            sign = -1
            self.i += 1
        elif self.peek() in _PLUS:
            self.i += 1
        if self.peek() not in _DIGITS:
            if self.peek() in ("d", "D"):
                raise DiceError("dice.error.target_not_number")
            raise self.unexpected()
        target = sign * self.number()
        mark = self.i
        self.skip_space()
        c = self.peek()
        if c in _COMPARE_START:
            raise DiceError("dice.error.two_comparisons")
        if c in _OPERATORS or c in ("d", "D"):
            raise DiceError("dice.error.target_not_number")
        self.i = mark
        return op, target

    def _operator(self) -> str | None:
        """Read a comparison operator if one is here; return its canonical spelling."""
        for length in (2, 1):
            canonical = _COMPARISONS.get(self.s[self.i : self.i + length])
            if canonical is not None:
                self.i += length
                return canonical
        return None

    def label(self) -> str | None:
        if self.i >= self.n:
            return None
        c = self.s[self.i]
        if c not in _SPACE:
            if c in _ASCII_LETTERS:
                # Letters tight after a number or a die: a dice command (BCDice's 2b6, 2R6>=3, 3D6MAX,
                # D66S ...), not a label. Name it, rather than suggest a space that rolls something else.
                raise DiceError("dice.error.unsupported_command", command=self._word())
            if c.isalpha():
                raise DiceError("dice.error.label_needs_space", char=c)
            raise self.unexpected()
        # One line, single spaces, no control characters and no bidi overrides: a label cannot break
        # the table's layout, nor turn the expression and total after it around on screen.
        kept = "".join(
            ch
            for ch in self.s[self.i :]
            if ch.isspace() or (unicodedata.category(ch) != "Cc" and ch not in _BIDI_CONTROLS)
        )
        text = " ".join(kept.split())
        return text or None

    def _word(self) -> str:
        """The run of text without spaces around the current position: the command as written."""
        start = self.i
        while start > 0 and self.s[start - 1] not in _SPACE:
            start -= 1
        end = self.i
        while end < self.n and self.s[end] not in _SPACE:
            end += 1
        return self.s[start:end]


@lru_cache(maxsize=2048)
def parse(text: str) -> Plan:
    """Parse one line ("3d6+2 炎の一撃") into a plan. Bad input raises DiceError.

    Cached by the exact text: players repeat the same few expressions, and a plan is immutable.
    """
    if len(text) > MAX_INPUT:
        raise DiceError("dice.error.too_long", limit=MAX_INPUT, length=len(text))
    if not text.isascii() and _SURROGATE.search(text):
        # A lone surrogate (from undecodable bytes, or "\ud800" in JSON) is no character: it could not
        # be stored, posted or printed as UTF-8, so the line is refused rather than carried along.
        raise DiceError("dice.error.not_text")
    return _Parser(nfkc(text)).line()


def normalize(text: str) -> str:
    """The canonical spelling of a line: expression in ASCII without spaces, then the label."""
    return parse(text).canonical
