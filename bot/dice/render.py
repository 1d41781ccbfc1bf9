"""A roll as Discord-flavoured text, in the reader's language.

Marks, the same everywhere: the highest face is **bold**, a one is *italic*, a die set aside by
keep-highest/lowest is ~~struck through~~ (keeping its other mark). When the full breakdown would
pass Discord's 2000 characters, each dice term shows only the sum of its kept faces.
"""

from __future__ import annotations

import re

from bot.dice.grammar import parse
from bot.dice.model import Dice, Plan, RollResult, d66_value
from bot.i18n import catalog, normalize_locale

DISCORD_LIMIT = 2000
_SHOWN_OPERATOR = {">=": "≥", "<=": "≤", ">": ">", "<": "<", "=": "="}
Words = dict[str, str]
_MARKDOWN = re.compile(r"([\\*_~`|>\[\]])")
_NO_PING = "@\u200b"  # a zero-width space after "@": @everyone, @here and <@id> read the same and ping nobody


def shown_label(text: str) -> str:
    """A label is the player's text: shown as written, never as formatting, a link or a mention."""
    return _MARKDOWN.sub(r"\\\1", text).replace("@", _NO_PING)


def _face(face: int, sides: int, dropped: bool) -> str:
    text = f"**{face}**" if face == sides else (f"*{face}*" if face == 1 else str(face))
    return f"~~{text}~~" if dropped else text


def _dice_text(dice: Dice, faces: tuple[int, ...], dropped: tuple[int, ...], short: bool, words: Words) -> str:
    gone = set(dropped)
    if dice.d66:  # tens and ones, then what they read as: "D66 (3, 5 → 35)"
        return f"{dice.text} ({', '.join(_face(f, dice.sides, False) for f in faces)} → {d66_value(faces)})"
    if short:
        kept = sum(f for i, f in enumerate(faces) if i not in gone)
        return words["dice.render.short_term"].format(dice=dice.text, sum=kept)
    shown = ", ".join(_face(f, dice.sides, i in gone) for i, f in enumerate(faces))
    return f"{dice.text} ({shown})"


def _breakdown(plan: Plan, result: RollResult, short: bool, words: Words) -> str:
    parts: list[str] = []
    k = 0
    for n, term in enumerate(plan.terms):
        pieces: list[str] = []
        for factor in term.factors:
            if isinstance(factor, Dice):
                pieces.append(_dice_text(factor, result.dice[k], result.dropped[k], short, words))
                k += 1
            else:
                pieces.append(str(factor))
        text = " × ".join(pieces)
        if n == 0:
            parts.append(f"-{text}" if term.sign < 0 else text)
        else:
            parts.append(f"{'-' if term.sign < 0 else '+'} {text}")
    return " ".join(parts)


def render(result: RollResult, locale: str | None = "ja") -> str:
    """The message a table shows for `result`, at most 2000 characters, in `locale` (ja or en)."""
    words = catalog(normalize_locale(locale))  # looked up once: render runs for every roll
    plan = parse(result.normalized)
    expression = f"`{result.normalized}`"
    if result.label:
        header = words["dice.render.header_label"].format(label=shown_label(result.label), expression=expression)
    else:
        header = words["dice.render.header"].format(expression=expression)
    if result.number is not None:
        header += " " + words["dice.render.fair_number"].format(number=result.number)
    outcome = words["dice.render.total"].format(total=result.total)
    if plan.comparison is not None:
        op, target = plan.comparison
        verdict = words["dice.render.success" if result.success else "dice.render.failure"]
        outcome = f"{outcome} {_SHOWN_OPERATOR[op]} {target} → {verdict}"
    full = f"{header}\n{_breakdown(plan, result, False, words)} → {outcome}"
    if len(full) <= DISCORD_LIMIT:
        return full
    short = f"{header}\n{_breakdown(plan, result, True, words)} → {outcome}\n{words['dice.render.shortened']}"
    return short if len(short) <= DISCORD_LIMIT else short[: DISCORD_LIMIT - 1] + "…"
