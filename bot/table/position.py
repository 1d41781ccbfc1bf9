"""Reading a practice position file (docs/positions/README.md): the file → a checked `Position`.

The file is read through bot/files.py (a regular UTF-8 file of at most POSITION_LIMIT bytes), parsed
as TOML (deep nesting refused), validated by the frozen models of bot/engine/position.py, and then
checked against the card catalog and the rules of a table: every problem is collected and reported at
once with its file and field (`PositionError`, like the catalog's own `CatalogError`), so a judge
fixes a file in one go. Card references may be ids or printed names; the result holds card ids.

This lives in bot/table because it is front-neutral words to the table (names → ids, like
`build_start`); the engine side, from a checked Position to events, is bot/engine/position.py.
"""

from __future__ import annotations

import tomllib
from collections import Counter
from pathlib import Path
from typing import Any

from pydantic import ValidationError

from bot.catalog import Catalog
from bot.catalog.cards import Arcastella, AuraCompolta, Card, Follower, SephirotCode
from bot.catalog.loader import problems_of
from bot.catalog.problems import Problem
from bot.engine.position import Position
from bot.errors import RefereeError
from bot.files import InputFileError, read_text
from bot.names import check_name, normalize_name

POSITION_LIMIT = 256 * 1024  # a position is a page of TOML; anything larger is not one


class PositionError(RefereeError):
    """A position file that cannot be played; `problems` lists every one, each with file and field."""

    key = "practice.invalid"

    def __init__(self, problems: list[Problem]) -> None:
        self.problems = tuple(problems)
        super().__init__(count=len(self.problems))

    def message(self, locale: str = "ja") -> str:
        return "\n".join([super().message(locale), *(p.render(locale) for p in self.problems)])

    def bilingual(self) -> str:
        return "\n".join([super().bilingual(), *(p.bilingual() for p in self.problems)])


def load_position(path: Path, catalog: Catalog) -> Position:
    """The checked position of the file at `path`, or PositionError listing every problem."""
    file = path.name
    try:
        text = read_text(path, limit=POSITION_LIMIT)
    except InputFileError as exc:
        raise PositionError([Problem(file=str(path), key=exc.message_key, args=_strings(exc.args_))]) from None
    return parse_position(text, catalog, file)


def parse_position(text: str, catalog: Catalog, file: str = "<position>") -> Position:
    """The checked position of a file's text (what `load_position` read)."""
    try:
        data = tomllib.loads(text)
    except tomllib.TOMLDecodeError as exc:
        raise PositionError([Problem(file=file, key="cards.problem.toml", args={"detail": str(exc)})]) from None
    except RecursionError:
        raise PositionError([Problem(file=file, key="cards.problem.too_deep")]) from None
    try:
        position = Position.model_validate(data)
    except ValidationError as exc:
        raise PositionError(problems_of(exc, file, "", tagged=False)) from None
    except RecursionError:
        raise PositionError([Problem(file=file, key="cards.problem.too_deep")]) from None
    return _Checker(catalog, file).check(position)


def _strings(args: dict[str, Any]) -> dict[str, str]:
    return {k: str(v) for k, v in args.items()}


class _Checker:
    """Turns card references into ids and checks what a model alone cannot: kinds, counts, names."""

    def __init__(self, catalog: Catalog, file: str) -> None:
        self.catalog = catalog
        self.file = file
        self.problems: list[Problem] = []

    def problem(self, field: str, key: str, **args: Any) -> None:
        self.problems.append(Problem(file=self.file, field=field, key=f"practice.problem.{key}", args=_strings(args)))

    def card(self, field: str, ref: str, kinds: tuple[type[Any], ...] | None = None) -> str:
        """The card id `ref` names (an id or a printed name); a problem, and `ref` back, if none fits."""
        try:
            card: Card | None = self.catalog.cards.get(ref) or self.catalog.find(ref)
        except RefereeError:  # a name with an invisible character: names nothing
            card = None
        if card is None:
            self.problem(field, "unknown_card", card=ref)
            return ref
        if kinds is not None and not isinstance(card, kinds):
            self.problem(field, "wrong_kind", card=ref, kind=card.type)
        return card.id

    def zone(self, field: str, refs: tuple[str, ...]) -> tuple[str, ...]:
        return tuple(self.card(f"{field}[{i}]", ref) for i, ref in enumerate(refs))

    def check(self, position: Position) -> Position:
        names: list[str] = []
        sides = []
        for seat, side in enumerate(position.players):
            at = f"players[{seat}]"
            try:
                name = check_name(side.name, "player")
                names.append(normalize_name(name))
            except RefereeError as exc:
                self.problem(f"{at}.name", "bad_name", reason=exc.message("en"))
                name = side.name
            sides.append(self._side(side, at).model_copy(update={"name": name}))
        if len(names) == 2 and names[0] == names[1]:
            self.problem("players[1].name", "same_name", name=position.players[1].name)
        checked = position.model_copy(update={"players": (sides[0], sides[1])})
        self._seat("turn_player", position.turn_player, checked)
        if position.priority is not None:
            self._seat("priority", position.priority, checked)
        for seat, side in enumerate(checked.players):
            leader_unit = next((u for u in side.units if u.card == side.leader), None)
            if leader_unit is not None and leader_unit.hp == 0:
                self.problem(f"players[{seat}].leader", "leader_knocked_out", card=side.leader)
        if self.problems:
            raise PositionError(self.problems)
        return checked

    def _seat(self, field: str, name: str, position: Position) -> None:
        try:
            found = position.seat_named(name)
        except RefereeError:
            found = None
        if found is None:
            self.problem(field, "no_such_player", name=name, players=", ".join(s.name for s in position.players))

    def _side(self, side: Any, at: str) -> Any:
        units = []
        arcastella: list[str] = []
        for i, unit in enumerate(side.units):
            field = f"{at}.units[{i}]"
            card_id = self.card(f"{field}.card", unit.card, (Arcastella, Follower))
            card = self.catalog.cards.get(card_id)
            code = None
            if unit.code is not None:
                code = self.card(f"{field}.code", unit.code, (SephirotCode,))
                if not isinstance(card, Arcastella):
                    self.problem(f"{field}.code", "code_on_follower", card=unit.card)
            if isinstance(card, Arcastella | Follower) and unit.hp is not None and unit.hp > card.hp:
                self.problem(f"{field}.hp", "hp_above_max", hp=unit.hp, max=card.hp)
            if isinstance(card, Arcastella):
                arcastella.append(card_id)
            units.append(unit.model_copy(update={"card": card_id, "code": code}))
        if len(arcastella) != 3:
            self.problem(f"{at}.units", "three_arcastella", count=len(arcastella))
        leader = self.card(f"{at}.leader", side.leader, (Arcastella,))
        if leader not in arcastella:
            self.problem(f"{at}.leader", "leader_not_on_board", card=side.leader)
        auras = [
            a.model_copy(update={"card": self.card(f"{at}.auras[{i}].card", a.card, (AuraCompolta,))})
            for i, a in enumerate(side.auras)
        ]
        for i, aura in enumerate(auras):
            card = self.catalog.cards.get(aura.card)
            if isinstance(card, AuraCompolta) and aura.resonance > card.resonance_max:
                self.problem(
                    f"{at}.auras[{i}].resonance", "resonance_above_max", value=aura.resonance, max=card.resonance_max
                )
        zones = {z: self.zone(f"{at}.{z}", getattr(side, z)) for z in ("hand", "deck", "cemetery", "ether_area")}
        for z in ("hand", "deck", "ether_area"):
            for i, card_id in enumerate(zones[z]):
                if isinstance(self.catalog.cards.get(card_id), Arcastella | SephirotCode):
                    self.problem(f"{at}.{z}[{i}]", "not_a_deck_card", card=card_id)
        doubled = [c for c, n in Counter(arcastella).items() if n > 1]
        for card_id in doubled:
            self.problem(f"{at}.units", "same_arcastella_twice", card=card_id)
        return side.model_copy(update={"units": tuple(units), "leader": leader, "auras": tuple(auras), **zones})
