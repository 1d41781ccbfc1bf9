"""Names typed by a player → the ids the engine takes: cards, units on the board, skills.

A card is found by id, Japanese or English name (Catalog.find forgives kana, width and middle dots).
A unit is found the same way among the units on one side of the board, or by its uid, or in the form
the board prints it, `鉄壁のヴォルク(alice)` or `炎狐〔f3〕(alice)`, so a name copied from the
board always works. Two units that answer to one name are refused with both listed, never guessed.
"""

from __future__ import annotations

import re
import unicodedata
from collections.abc import Callable, Collection
from typing import Literal

from bot.catalog import Arcastella, Catalog, Skill, normalize_name
from bot.engine.state import GameState
from bot.errors import Named
from bot.render.names import Names
from bot.table.errors import TableError

Side = Literal["own", "enemy", "any"]

_PRINTED = re.compile(r"^(?P<name>.*?)\s*(?:〔(?P<tag>[^〕]+)〕)?\s*(?:\((?P<owner>[^()]+)\))?$")


def _named(state: GameState, say: Callable[[Names], str]) -> Named:
    return Named(say(Names(state, "ja")), say(Names(state, "en")))


def find_card(catalog: Catalog, name: str, prefer: Collection[str] = ()) -> str:
    """The card id for `name`: an exact id or name, else the one card whose name contains it.

    `prefer` (the cards in the player's hand) settles a partial name that several cards share.
    """
    card = catalog.find(name)
    if card is not None:
        return card.id
    close = catalog.search(name, limit=25)
    if len(close) > 1 and prefer:
        close = [c for c in close if c.id in prefer] or close
    if len(close) == 1:
        return close[0].id
    shown = Named(
        ", ".join(f"{c.name} ({c.id})" for c in close[:6]),
        ", ".join(f"{c.name_en or c.name} ({c.id})" for c in close[:6]),
    )
    if close:
        raise TableError("table.ambiguous_card", name=name, names=shown)
    raise TableError("table.unknown_card", name=name)


def find_unit(state: GameState, name: str, seat: int | None, side: Side, *, auras: bool = False) -> str:
    """The uid of the unit `name` on `side` of the board, seen from `seat` (None: a spectator)."""
    units = [(u.uid, u.card, u.owner) for p in state.players for u in p.units]
    if auras:
        units += [(a.uid, a.card, a.owner) for p in state.players for a in p.auras]
    if side == "own":
        units = [u for u in units if u[2] == seat]
    elif side == "enemy":
        units = [u for u in units if u[2] != seat]
    text = unicodedata.normalize("NFKC", name).strip()
    exact = [u for u in units if u[0] == text]
    if exact:
        return exact[0][0]
    match = _PRINTED.match(text)
    assert match is not None  # every part of the pattern is optional
    wanted = normalize_name(match["name"])
    tag, owner = match["tag"], match["owner"]
    found = _matching(state, units, wanted, tag, owner, partial=False)
    if not found and wanted:
        found = _matching(state, units, wanted, tag, owner, partial=True)
    if len(found) == 1:
        return found[0]
    if not found:
        shown = _named(state, lambda n: ", ".join(n.unit(u[0]) for u in units) or "—")
        raise TableError(f"table.unknown_unit_{side}", name=name, units=shown)
    listed = _named(state, lambda n: ", ".join(n.unit(u) for u in found))
    raise TableError("table.ambiguous_unit", name=name, units=listed, example=_named(state, lambda n: n.unit(found[0])))


def _matching(
    state: GameState,
    units: list[tuple[str, str, int]],
    wanted: str,
    tag: str | None,
    owner: str | None,
    *,
    partial: bool,
) -> list[str]:
    """Units whose card names (or uid tail) equal `wanted`, or contain it when `partial`."""
    found = []
    for uid, card_id, owner_seat in units:
        names = [*state.cards[card_id].names(), normalize_name(uid.split(".", 1)[-1])]
        if wanted and not any((wanted in n) if partial else (wanted == n) for n in names):
            continue
        if tag is not None and uid.split(".", 1)[-1] != tag:
            continue
        if owner is not None and normalize_name(state.players[owner_seat].name) != normalize_name(owner):
            continue
        found.append(uid)
    return found


def find_skill(state: GameState, uid: str, name: str) -> Skill:
    unit = state.find_unit(uid)
    assert unit is not None  # find_unit chose it from the board
    card = state.cards[unit.card]
    skill = card.skill(name) if isinstance(card, Arcastella) else None
    if skill is None:
        listed = getattr(card, "skills", ())
        skills = Named(
            ", ".join(f"{s.name} ({s.id})" for s in listed) or "—",
            ", ".join(f"{s.name_en or s.name} ({s.id})" for s in listed) or "—",
        )
        raise TableError("table.unknown_skill", unit=_named(state, lambda n: n.unit(uid)), name=name, skills=skills)
    return skill
