"""The part of a table a rules question is about: phase, who acts now, and the units it names.

`/ruling` asked in a channel with a running game shows this beside the rulebook's answer, so the
players read the rule next to the very units it concerns. Only what the public board shows (never a
hand or a deck); a unit is named when its card's Japanese or English name appears in the question
or in a card the asker added, whatever the locale (width and case forgiven).
"""

from __future__ import annotations

import unicodedata
from collections.abc import Sequence

from bot.engine.state import GameState, Unit
from bot.i18n import t
from bot.render.board import status_lines, unit_line
from bot.render.message import Field
from bot.render.names import Names


def _folded(text: str) -> str:
    return unicodedata.normalize("NFKC", text).casefold()


def named_units(state: GameState, texts: Sequence[str]) -> list[Unit]:
    """The units on the table whose card name (either language) appears in one of `texts`, by seat."""
    folded = [_folded(text) for text in texts if text]
    found = []
    for player in state.players:
        for unit in player.units:
            card = state.cards.get(unit.card)
            names = {getattr(card, "name", None), getattr(card, "name_en", None)} if card is not None else set()
            if any(name and _folded(name) in text for name in names for text in folded):
                found.append(unit)
    return found


def ruling_board(state: GameState, texts: Sequence[str], locale: str) -> Field:
    """Phase, who acts now, and the named units with their HP, DEF and state, as one field."""
    names = Names(state, locale)
    lines = []
    if state.started and not state.over:
        phase = t(f"render.phase.{state.phase}", locale)
        lines.append(
            t("render.board.title", locale, turn=state.turn, player=names.player(state.turn_player), phase=phase)
        )
    lines += status_lines(state, locale)
    units = named_units(state, texts)
    if units:
        lines.append(t("render.ruling_board.units", locale))
        leaders = {player.leader for player in state.players}
        lines += [unit_line(state, u, names, u.uid if u.uid in leaders else None) for u in units]
    else:
        lines.append(t("render.ruling_board.no_units", locale))
    return Field(name=t("render.ruling_board.title", locale), value="\n".join(lines))
