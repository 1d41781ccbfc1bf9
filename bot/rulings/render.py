"""An answer as text for a terminal or a chat message: each quote first, then where it comes from."""

from __future__ import annotations

import json
import re

from bot.i18n import catalog, t
from bot.rulings.models import Answer, Hit, Label

_UNVERIFIED_LABEL = re.compile(r"要確認\s*[:：]\s*")


def _quote(text: str) -> str:
    lines = text.splitlines() or [""]
    return "「" + "\n  ".join(lines) + "」"


def game_name(game: str, locale: str) -> str:
    """The game's printed name (HorizonNotes, Disney Lorcana); a game without one keeps its id."""
    key = f"rulings.game_{game.replace('-', '_')}"
    return t(key, locale) if key in catalog(locale) else game


def render_hit(number: int | str, hit: Hit, locale: str, options: dict[str, str] | None = None) -> list[str]:
    source = hit.source if locale == "ja" else hit.source_en
    out = [f"[{number}] {_quote(hit.summary if locale == 'ja' and hit.summary else hit.text)}"]
    if hit.house:
        out.append("    " + t("rulings.house_label", locale))
    out.append("    " + t("rulings.source", locale, source=source, game=game_name(hit.game, locale)))
    out.append("    " + t("rulings.section", locale, section=hit.section))
    if hit.citations:
        out.append("    " + t("rulings.citations", locale, citations="".join(f"〔{n}〕" for n in hit.citations)))
    if hit.unverified:
        notes = hit.unverified_notes or [""]
        for raw in notes:
            note = " ".join(raw.split())
            # The label is printed once, by us; a 訳注 that ends in a 要確認 point shows that point only
            # (the whole note is a passage of its own, quoted when it answers the question).
            label = _UNVERIFIED_LABEL.search(note)
            note = note[label.end() :] if label else note
            line = t("rulings.unverified", locale, note=note) if note else t("rulings.unverified_plain", locale)
            out.append("    " + line)
    authority = hit.authority if locale == "ja" else (hit.authority_en or hit.authority)
    if authority:
        out.append("    " + t("rulings.authority", locale, note=authority))
    if hit.rule_text:
        out.append("    " + t("rulings.restates", locale, text=" ".join(hit.rule_text.split())))
    if hit.related:
        out.append("    " + t("rulings.related", locale, ids=", ".join(hit.related)))
    for option in hit.options:
        value = (options or {}).get(option)
        line = (
            t("rulings.option_value", locale, option=option, value=value)
            if value is not None
            else t("rulings.option_name", locale, option=option)
        )
        out.append("    " + line)
    return out


def render_answer(answer: Answer, locale: str = "ja") -> str:
    lines: list[str] = []
    if answer.cards:
        lines.append(t("rulings.cards_header", locale))
        for c in answer.cards:
            text = "\n    ".join(c.text.splitlines())
            lines.append("  " + t("rulings.card_line", locale, name=c.name, type=c.type, text=text))
        lines.append("")
    if not answer.answered or answer.label is Label.OUTSIDE:
        lines.append(t("rulings.not_found", locale))
        if answer.closest_terms:
            terms = t("rulings.term_separator", locale).join(answer.closest_terms)
            lines.append(t("rulings.closest_terms", locale, terms=terms))
        else:
            lines.append(t("rulings.no_terms", locale))
        return "\n".join(lines)
    house_only = answer.label is Label.SILENT and not answer.hits  # no rule passage speaks of it at all
    lines.append(t("rulings.label_silent_house_only" if house_only else f"rulings.label_{answer.label.value}", locale))
    for typed, meant in answer.searched_for:
        lines.append(t("rulings.searched_for", locale, typed=typed, term=meant))
    for number, hit in enumerate(answer.hits, start=1):
        lines.append("")
        lines.extend(render_hit(number, hit, locale))
    for number, hit in enumerate(answer.house, start=1):
        lines.append("")
        lines.extend(render_hit(f"H{number}", hit, locale, answer.options))
    return "\n".join(lines)


def answer_json(answer: Answer) -> str:
    """The `--json` object: question, answered, hits best first (plus closest terms and cards)."""
    hits = [
        {
            "text": h.text,
            "game": h.game,
            "source": h.source,
            "section": h.section,
            "kind": h.kind.value,
            "citations": h.citations,
            "unverified": h.unverified,
            "score": h.score,
            "id": h.id,
            "unverified_notes": h.unverified_notes,
            "authority": h.authority,
            "related": h.related,
            "rule_text": h.rule_text,
            "house": h.house,
            "options": h.options,
            "summary": h.summary,
        }
        for h in [*answer.hits, *answer.house]
    ]
    payload = {
        "question": answer.question,
        "answered": answer.answered,
        "label": answer.label.value,
        "game": answer.game,
        "searched_for": [list(pair) for pair in answer.searched_for],
        "hits": hits,
        "closest_terms": answer.closest_terms,
        "cards": [c.model_dump() for c in answer.cards],
    }
    return json.dumps(payload, ensure_ascii=False, indent=2)
