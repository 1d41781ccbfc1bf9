"""Properties over many generated expressions and arbitrary text."""

from __future__ import annotations

from dataclasses import dataclass

from hypothesis import assume, given, settings
from hypothesis import strategies as st

from bot.dice import DiceError, FairRandomness, normalize, parse, roll


@dataclass
class GenTerm:
    sign: int
    count: int | None  # None: a plain number
    sides: int
    keep: tuple[str, int] | None
    multiplier: int
    number: int

    def text(self, tight: bool) -> str:
        if self.count is None:
            core = str(self.number)
        else:
            core = f"{self.count}d{self.sides}"
            if self.keep is not None:
                core += f"k{self.keep[0]}{self.keep[1]}"
        if self.multiplier != 1:
            core = f"{core}*{self.multiplier}" if tight else f"{self.multiplier} × {core}"
        return core

    def bounds(self) -> tuple[int, int]:
        """Computed here from the meaning of the notation, independently of the module."""
        if self.count is None:
            low = high = self.number * self.multiplier
        else:
            kept = self.count if self.keep is None else self.keep[1]
            low, high = kept * self.multiplier, kept * self.sides * self.multiplier
        return (low, high) if self.sign > 0 else (-high, -low)


@st.composite
def gen_terms(draw: st.DrawFn) -> GenTerm:
    is_dice = draw(st.booleans())
    count = draw(st.integers(1, 12)) if is_dice else None
    keep = None
    if count is not None and draw(st.booleans()):
        keep = (draw(st.sampled_from("hl")), draw(st.integers(1, count)))
    return GenTerm(
        sign=draw(st.sampled_from([1, -1])),
        count=count,
        sides=draw(st.integers(1, 1000).filter(lambda s: s != 66)),  # a counted d66 is refused
        keep=keep,
        multiplier=draw(st.integers(0, 5)),
        number=draw(st.integers(0, 10_000)),
    )


@st.composite
def expressions(draw: st.DrawFn) -> tuple[str, list[GenTerm]]:
    terms = draw(st.lists(gen_terms(), min_size=1, max_size=6))
    tight = draw(st.booleans())
    joiner = "" if tight else " "
    text = ""
    for k, term in enumerate(terms):
        sign = "-" if term.sign < 0 else ("+" if k else "")
        text += (joiner + sign + joiner if k else sign) + term.text(tight)
    return text, terms


labels = st.text(alphabet=st.characters(codec="utf-8", categories=["L", "N", "P", "Zs"]), max_size=20)


@settings(max_examples=300, deadline=None)
@given(expressions(), st.binary(min_size=1, max_size=8))
def test_a_total_lies_between_the_minimum_and_maximum(expr: tuple[str, list[GenTerm]], seed: bytes) -> None:
    text, terms = expr
    assume(any(t.count is not None for t in terms))  # a roll needs a die
    low = sum(t.bounds()[0] for t in terms)
    high = sum(t.bounds()[1] for t in terms)
    result = roll(text, FairRandomness(seed, "prop"))
    assert low <= result.total <= high
    assert parse(text).bounds() == (low, high)
    dice_terms = [t for t in terms if t.count is not None]
    assert [len(faces) for faces in result.dice] == [t.count for t in dice_terms]
    for term, faces in zip(dice_terms, result.dice, strict=True):
        assert all(1 <= f <= term.sides for f in faces)


@settings(max_examples=300, deadline=None)
@given(expressions(), labels)
def test_normalisation_is_idempotent(expr: tuple[str, list[GenTerm]], label: str) -> None:
    text = expr[0] + (" " + label if label.strip() else "")
    try:
        once = normalize(text)
    except DiceError:
        return  # a label starting with an operator, for instance, is refused: nothing to normalise
    assert normalize(once) == once


interesting = st.text(
    alphabet=st.sampled_from(list("0123456789dDkKhHlLxX+-*×−－=<>≥≦ 　()ｄ６＋\n.,!?炎の一撃%#@~`*_")),
    max_size=60,
)


@settings(max_examples=500, deadline=None)
@given(st.one_of(st.text(max_size=250), interesting))
def test_no_input_raises_anything_but_a_dice_error(text: str) -> None:
    try:
        result = roll(text)
    except DiceError as exc:
        assert exc.bilingual()  # the message itself must render in both catalogs
        return
    assert normalize(normalize(text)) == normalize(text)
    assert result.normalized == normalize(result.normalized)
