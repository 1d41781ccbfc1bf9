"""`/game start`: players, their decks, leaders and table options → a StartGame action.

    /game start players:alice,bob decks:solar-vanguard,tidal-veil first:alice leaders:sola-lyne,mizuha
                ether_cap:8 deck_out:lose

`players` are seated in the order given; `decks` and `leaders` follow that order. `first` names who
plays first (or `random`, the default: a public 1d6). Every other option is a table option of
GameOptions under its own name, written as `/game status` shows it (on/off, none, a number or a word).
"""

from __future__ import annotations

from typing import Any, Literal, get_args, get_origin

from pydantic import ValidationError
from pydantic.fields import FieldInfo

from bot.catalog import Catalog, normalize_name
from bot.engine import GameOptions, StartGame, start_action
from bot.names import check_name
from bot.table.errors import TableError
from bot.table.options import OFF_WORDS, ON_WORDS, split_names
from bot.table.resolve import find_card

START_KEYS = ("players", "decks", "first", "leaders")


def _option_value(text: str) -> Any:
    lowered = text.strip().lower()
    if lowered == "none":
        return None
    if lowered in ON_WORDS:
        return True
    if lowered in OFF_WORDS:
        return False
    if lowered.lstrip("-").isdigit():
        return int(lowered)
    return lowered


def table_options(raw: dict[str, str]) -> GameOptions:
    """GameOptions from the options of the line that are not START_KEYS; each problem named."""
    values: dict[str, Any] = {}
    fields = GameOptions.model_fields
    for key, text in raw.items():
        if key in START_KEYS:
            continue
        if key not in fields:
            raise TableError("table.unknown_table_option", key=key, options=", ".join(fields))
        values[key] = _option_value(text)
    try:
        return GameOptions.model_validate(values)
    except ValidationError as exc:
        error = exc.errors()[0]
        key = str(error["loc"][0]) if error["loc"] else "?"
        accepted = _accepted(fields[key]) if key in fields else "-"
        raise TableError("table.bad_option", key=key, value=raw.get(key, ""), accepted=accepted) from None


def _accepted(info: FieldInfo) -> str:
    """The values an option takes, written as the line takes them (read off the model, so never stale)."""
    if info.annotation is bool:
        return "on, off"
    if get_origin(info.annotation) is Literal:
        return ", ".join(str(v) for v in get_args(info.annotation))
    low = next((m.ge for m in info.metadata if hasattr(m, "ge")), "…")
    high = next((m.le for m in info.metadata if hasattr(m, "le")), "…")
    span = f"{low}-{high}"
    return f"{span}, none" if type(None) in get_args(info.annotation) else span


def build_start(catalog: Catalog, options: dict[str, str], user_id: Any) -> tuple[StartGame, list[str]]:
    """The StartGame action and the seated names, in seat order. `user_id(name)` gives a seat's id."""
    players = [check_name(p, "player") for p in split_names(options.get("players", ""))]
    if len(players) != 2:
        raise TableError("table.players_count", count=len(players))
    if normalize_name(players[0]) == normalize_name(players[1]):
        raise TableError("table.same_player", name=players[0])
    decks = split_names(options.get("decks", ""))
    if len(decks) != 2:
        raise TableError("table.decks_count", count=len(decks))
    for deck in decks:
        if catalog.find_deck(deck) is None:
            raise TableError("table.unknown_deck", name=deck, decks=", ".join(catalog.decks))
    leaders: dict[str, str] = {}
    if "leaders" in options:
        named = split_names(options["leaders"])
        if len(named) != 2:
            raise TableError("table.leaders_count", count=len(named))
        leaders = {str(user_id(p)): find_card(catalog, n) for p, n in zip(players, named, strict=True)}
    game_options = table_options(options)
    if "first" in options:
        first = options["first"].strip()
        if normalize_name(first) == "random":
            choice = "random"
        elif normalize_name(first) == normalize_name(players[0]):
            choice = "first_seat"
        elif normalize_name(first) == normalize_name(players[1]):
            choice = "second_seat"
        else:
            raise TableError("table.bad_first", players=", ".join(players), value=first)
        game_options = game_options.model_copy(update={"first_player": choice})
    seats: list[tuple[str, str, Any]] = [(str(user_id(p)), p, d) for p, d in zip(players, decks, strict=True)]
    return start_action(catalog, seats, game_options, leaders=leaders or None), players
