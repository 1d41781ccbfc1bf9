"""A player's request → the engine action, built on the table as it stands when the service takes it.

A front end turns what a player typed or picked into a `Request` (a command, its options as text,
any free text) and hands the service a builder. The service calls the builder under the table's
lock, on the very state the action will be applied to, so a name is never resolved on a table that
has moved on since the player looked. Console lines and slash commands use the same words.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping
from dataclasses import dataclass, field
from typing import Any, get_args

from bot.catalog import Catalog, normalize_name
from bot.engine import (
    Action,
    Adjust,
    Block,
    Cast,
    Charge,
    Concede,
    ConfirmAdjust,
    GameState,
    LookAtDeck,
    NoBlock,
    Pass,
    RejectAdjust,
    Summon,
    UseSkill,
)
from bot.engine.actions import CARD_FIELDS, AdjustField
from bot.engine.targets import needs
from bot.table.errors import TableError
from bot.table.options import as_flag, as_int, need, split_names
from bot.table.resolve import Side, find_card, find_skill, find_unit

# (state, the acting player's id, their seat or None) → the action.
ActionBuilder = Callable[[GameState, str, "int | None"], Action]

ADJUST_FIELDS: tuple[str, ...] = get_args(AdjustField)  # whatever the engine takes, in its order
# The words after `/adjust` that answer a waiting request: True confirms, False rejects.
ANSWERS = {"confirm": True, "承認": True, "reject": False, "却下": False}

# The options each play command takes (the slash commands take the same).
PLAY_OPTIONS: dict[str, tuple[str, ...]] = {
    "charge": ("card", "target", "ally", "effect"),
    "pass": (),
    "next": (),
    "cast": ("card", "caster", "target", "ally"),
    "skill": ("unit", "skill", "target", "ally"),
    "block": ("blocker",),
    "noblock": (),
    "summon": ("card", "caster"),
    "adjust": ("subject", "field", "value", "note", "card", "cards"),
    "confirm": (),
    "reject": (),
    "concede": (),
    "deck": ("top",),
}


@dataclass(frozen=True)
class Request:
    """What a player asked for: `command` (a key of PLAY_OPTIONS), its options as text, free text."""

    command: str
    options: Mapping[str, str] = field(default_factory=dict)
    text: str = ""

    def need(self, option: str) -> str:
        return need(self.options, self.command, option)


def builder(catalog: Catalog, request: Request) -> ActionBuilder:
    """The builder of `request`'s action; an unknown command is refused before anything is read."""
    make = _BUILDERS.get(request.command)
    if make is None:
        raise TableError("table.unknown_command", command=request.command)

    def build(state: GameState, player: str, seat: int | None) -> Action:
        return make(catalog, request, state, player, seat)

    return build


def seated_player(state: GameState, name: str) -> str:
    """The player id of a seated player named `name` (kana and width forgiven); others are refused."""
    wanted = normalize_name(name)
    for player in state.players:
        if normalize_name(player.name) == wanted or player.id == name.strip():
            return player.id
    raise TableError("table.unknown_player", name=name.strip(), players=", ".join(p.name for p in state.players))


def _hand(state: GameState, seat: int | None) -> list[str]:
    return list(state.players[seat].hand) if seat is not None else []


def _targets(request: Request, state: GameState, seat: int | None, effects: Any) -> tuple[str | None, str | None]:
    """`target:` names the enemy the effects choose (or the ally when they choose only an ally)."""
    want_enemy, want_ally = needs(effects)
    side: Side = "enemy" if want_enemy else ("own" if want_ally else "any")
    target = request.options.get("target")
    ally = request.options.get("ally")
    return (
        find_unit(state, target, seat, side) if target is not None else None,
        find_unit(state, ally, seat, "own") if ally is not None else None,
    )


def _charge(catalog: Catalog, r: Request, state: GameState, player: str, seat: int | None) -> Action:
    card = find_card(catalog, r.need("card"), _hand(state, seat))
    effects = getattr(state.cards.get(card), "ether_effect", ())
    use = as_flag(r.options.get("effect", "on"), "effect")
    target, ally = _targets(r, state, seat, effects) if use else (None, None)
    return Charge(player=player, card=card, use_ether_effect=use, target=target, ally_target=ally)


def _cast(catalog: Catalog, r: Request, state: GameState, player: str, seat: int | None) -> Action:
    card = find_card(catalog, r.need("card"), _hand(state, seat))
    caster = find_unit(state, r.need("caster"), seat, "own")
    target, ally = _targets(r, state, seat, getattr(state.cards.get(card), "effects", ()))
    return Cast(player=player, card=card, caster=caster, target=target, ally_target=ally)


def _skill(catalog: Catalog, r: Request, state: GameState, player: str, seat: int | None) -> Action:
    unit = find_unit(state, r.need("unit"), seat, "own")
    skill = find_skill(state, unit, r.need("skill"))
    target, ally = _targets(r, state, seat, skill.effects)
    return UseSkill(player=player, unit=unit, skill=skill.id, target=target, ally_target=ally)


def _block(catalog: Catalog, r: Request, state: GameState, player: str, seat: int | None) -> Action:
    return Block(player=player, blocker=find_unit(state, r.need("blocker"), seat, "own"))


def _summon(catalog: Catalog, r: Request, state: GameState, player: str, seat: int | None) -> Action:
    card = find_card(catalog, r.need("card"), _hand(state, seat))
    caster = find_unit(state, r.need("caster"), seat, "own")
    return Summon(player=player, card=card, caster=caster)


def _look(catalog: Catalog, r: Request, state: GameState, player: str, seat: int | None) -> Action:
    return LookAtDeck(player=player, count=as_int(r.need("top"), "top"))


def _adjust(catalog: Catalog, r: Request, state: GameState, player: str, seat: int | None) -> Action:
    # `/adjust confirm` and `/adjust reject` answer the waiting request (the same as /confirm, /reject).
    answer = r.text.strip().lower()
    if not r.options and answer in ANSWERS:
        return ConfirmAdjust(player=player) if ANSWERS[answer] else RejectAdjust(player=player)
    field_name = r.need("field").lower()
    if field_name not in ADJUST_FIELDS:
        raise TableError("table.bad_adjust_field", fields=", ".join(ADJUST_FIELDS), value=field_name)
    field_value: AdjustField = field_name  # type: ignore[assignment]  # checked against ADJUST_FIELDS
    note = r.options.get("note", r.text)
    if field_name in CARD_FIELDS:
        return _card_adjust(catalog, r, state, player, seat, field_value, note)
    subject_text = r.need("subject")
    if field_name in ("ether", "astral_rights"):
        subject = seated_player(state, subject_text)
    else:
        subject = find_unit(state, subject_text, seat, "any", auras=field_name == "resonance")
    value_text = r.need("value")
    if field_name == "tapped" and not value_text.lstrip("-").isdigit():
        value = int(as_flag(value_text, "value"))
    else:
        value = as_int(value_text, "value")
    # A card named on another field reaches the engine, which refuses it with its own words.
    named = split_names(r.options.get("card", "")) + split_names(r.options.get("cards", ""))
    cards = tuple(find_card(catalog, c) for c in named)
    return Adjust(player=player, subject=subject, field=field_value, value=value, note=note, cards=cards)


def _card_adjust(
    catalog: Catalog, r: Request, state: GameState, player: str, seat: int | None, field_value: AdjustField, note: str
) -> Adjust:
    """`discard` names one card (`card:`, `value:` copies, default 1); `deck_top` names the new order
    of the top cards (`cards:a,b,c`, their count is the value). The subject is the actor's own seat."""
    subject = seated_player(state, r.options["subject"]) if "subject" in r.options else player
    deck = list(state.players[seat].deck) if seat is not None else []
    cards: tuple[str, ...]
    if field_value == "discard":
        cards = (find_card(catalog, r.need("card"), _hand(state, seat)),)
        value = as_int(r.options.get("value", "1"), "value")
    else:
        names = split_names(r.need("cards"))
        value = as_int(r.options.get("value", str(len(names))), "value")
        top = deck[: max(value, 0)]
        cards = tuple(find_card(catalog, c, top) for c in names)
    return Adjust(player=player, subject=subject, field=field_value, value=value, note=note, cards=cards)


def _simple(make: Callable[[str], Action]) -> Callable[[Catalog, Request, GameState, str, int | None], Action]:
    return lambda catalog, r, state, player, seat: make(player)


_BUILDERS: dict[str, Callable[[Catalog, Request, GameState, str, int | None], Action]] = {
    "charge": _charge,
    "pass": _simple(lambda p: Pass(player=p)),
    "next": _simple(lambda p: Pass(player=p)),
    "cast": _cast,
    "skill": _skill,
    "block": _block,
    "noblock": _simple(lambda p: NoBlock(player=p)),
    "summon": _summon,
    "adjust": _adjust,
    "confirm": _simple(lambda p: ConfirmAdjust(player=p)),
    "reject": _simple(lambda p: RejectAdjust(player=p)),
    "concede": _simple(lambda p: Concede(player=p)),
    "deck": _look,
}
