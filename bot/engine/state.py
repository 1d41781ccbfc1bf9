"""The state of one table: everything the rules need, and nothing a front end invents.

Only bot/engine/fold.py changes a state, one event at a time. `apply` never changes the state it was
given: it works on a shallow `cow_copy()` and fold copies a player, one of its lists, a unit or an aura
the first time an event writes to it (copy on write, see fold.Writer). Most actions touch little, so this
is far cheaper than a deep copy; card definitions and options are frozen and shared.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any, Literal, TypeVar

from pydantic import BaseModel, ConfigDict, Field

from bot.catalog.cards import Card
from bot.catalog.effects import Effect
from bot.engine.options import GameOptions

Phase = Literal["setup", "start", "draw", "charge", "main", "block", "end", "over"]
UnitKind = Literal["arcastella", "follower"]
SourceKind = Literal[
    "spell", "attack", "astral", "support", "leader", "ether", "continuing", "knockout", "sephirot", "follower", "aura"
]


M = TypeVar("M", bound="_Mutable")

# The slot setters of BaseModel, bound once: `_shallow` runs several times in every `apply`.
_new = object.__new__
_set_fields_set = BaseModel.__dict__["__pydantic_fields_set__"].__set__
_set_extra = BaseModel.__dict__["__pydantic_extra__"].__set__
_set_private = BaseModel.__dict__["__pydantic_private__"].__set__


class _Mutable(BaseModel):
    model_config = ConfigDict(extra="forbid", validate_assignment=False)

    if not TYPE_CHECKING:
        # Only fold.py assigns, with values the engine already checked; skipping pydantic's
        # assignment machinery makes `apply` several times faster.
        __setattr__ = object.__setattr__

    def _shallow(self: M, **changes: Any) -> M:
        """A shallow copy without pydantic's generic copy machinery (the hot path of `apply`)."""
        copy = _new(type(self))
        # The fresh instance's own empty __dict__ is filled in place: cheaper than assigning one.
        copy.__dict__.update(self.__dict__, **changes)
        _set_fields_set(copy, self.__pydantic_fields_set__)
        _set_extra(copy, None)
        _set_private(copy, None)
        return copy


class Unit(_Mutable):
    """An Arcastella or a follower on the board."""

    uid: str
    card: str
    owner: int
    kind: UnitKind
    hp: int
    max_hp: int
    defense: int
    tapped: bool = False
    knocked_out: bool = False
    support_used: list[str] = Field(default_factory=list)  # skill ids used this turn (support / leader)
    equipment: str | None = None  # the Sephirot code card id it wears

    def clone(self) -> Unit:
        return self._shallow(support_used=list(self.support_used))


class Aura(_Mutable):
    """An Aura Compolta in play and its resonance value (共鳴値)."""

    uid: str
    card: str
    owner: int
    resonance: int

    def clone(self) -> Aura:
        return self._shallow()


class PlayerState(_Mutable):
    """One seat: its zones, ether and per-turn flags."""

    id: str
    name: str
    leader: str  # uid of the leader Arcastella
    deck: list[str] = Field(default_factory=list)
    hand: list[str] = Field(default_factory=list)
    cemetery: list[str] = Field(default_factory=list)
    afterglow: list[str] = Field(default_factory=list)  # cards in the cemetery as afterglow cards (残照カード)
    ether_area: list[str] = Field(default_factory=list)
    ether: int = 0
    units: list[Unit] = Field(default_factory=list)
    auras: list[Aura] = Field(default_factory=list)
    ether_effects_used: list[str] = Field(default_factory=list)  # card ids whose ether effect fired this turn
    charge_done: bool = False  # passed in this charge phase (matters only without charge_rejoin)
    astral_rights: int = 0

    def clone(self) -> PlayerState:
        """An independent copy: folding into it never touches this one."""
        copy = self.cow_copy()
        copy.units = [u.clone() for u in self.units]
        copy.auras = [a.clone() for a in self.auras]
        return copy

    def cow_copy(self) -> PlayerState:
        """A copy whose lists are its own but whose units and auras are still shared (for `clone`)."""
        copy = self._shallow()
        fields = copy.__dict__
        for name in _PLAYER_LISTS:
            fields[name] = fields[name][:]
        return copy

    def unit(self, uid: str) -> Unit | None:
        for unit in self.units:
            if unit.uid == uid:
                return unit
        return None


# The list fields of PlayerState: its cow_copy gives each of them its own copy.
_PLAYER_LISTS = ("deck", "hand", "cemetery", "afterglow", "ether_area", "units", "auras", "ether_effects_used")


class Continuing(_Mutable):
    """A 【継続】 effect waiting for its controller's start phases."""

    id: int
    controller: int
    source: str  # card id
    effects: tuple[Effect, ...]
    remaining: int
    self_unit: str | None = None
    target: str | None = None
    ally_target: str | None = None


class DefModifier(_Mutable):
    """A DEF change on a unit: until the end phase ("turn") or for `remaining` start phases of its controller."""

    unit: str
    amount: int
    controller: int
    until: Literal["turn", "starts"]
    remaining: int = 0


class PendingAttack(_Mutable):
    """An attack skill or astral code waiting for the defender's block decision."""

    attacker: int
    user: str
    skill: str
    source: SourceKind
    target: str
    ally_target: str | None = None
    defender: int
    rolls: dict[int, int] = Field(default_factory=dict)  # effect index -> damage already rolled


class PendingAdjust(_Mutable):
    """An adjustment of the other player's things, waiting for that player (`owner`) to confirm it."""

    seat: int  # who asked
    owner: int  # who must confirm
    subject: str
    field: str
    value: int
    note: str = ""


class DeckLook(_Mutable):
    """A manual effect being applied lets `seat` look at up to `count` cards of the top of their deck
    (and put them back in any order) until the phase ends. `looked`: they have looked."""

    seat: int
    card: str
    count: int
    looked: bool = False


class GameState(_Mutable):
    """A whole table. `active` is the one seat that must act now (priority or a decision), None when nobody."""

    started: bool = False
    options: GameOptions = Field(default_factory=GameOptions)
    cards: dict[str, Card] = Field(default_factory=dict)
    players: list[PlayerState] = Field(default_factory=list)
    turn: int = 0
    turn_player: int = 0
    phase: Phase = "setup"
    active: int | None = None
    passes: int = 0
    pending: PendingAttack | None = None
    continuing: list[Continuing] = Field(default_factory=list)
    def_mods: list[DefModifier] = Field(default_factory=list)
    next_id: int = 1
    knockouts_this_turn: int = 0
    winner: int | None = None
    end_reason: str | None = None
    pending_adjust: PendingAdjust | None = None
    deck_look: DeckLook | None = None

    def clone(self) -> GameState:
        """An independent copy that `fold` may change in place without touching this state."""
        return self.cow_copy()._shallow(players=[p.clone() for p in self.players])

    def cow_copy(self) -> GameState:
        """The copy `apply` works on: its lists may change freely, but the players, units and auras in
        them are still shared and are copied by fold.Writer before their first change. Continuing
        effects, DEF changes and the pending attack are replaced, never changed, so sharing them is safe."""
        copy = self._shallow()
        fields = copy.__dict__
        fields["players"] = self.players[:]
        fields["continuing"] = self.continuing[:]
        fields["def_mods"] = self.def_mods[:]
        return copy

    # Look-ups used everywhere.
    def seat_of(self, player_id: str) -> int | None:
        for seat, player in enumerate(self.players):
            if player.id == player_id:
                return seat
        return None

    def find_unit(self, uid: str) -> Unit | None:
        for player in self.players:
            for unit in player.units:
                if unit.uid == uid:
                    return unit
        return None

    def find_aura(self, uid: str) -> Aura | None:
        for player in self.players:
            for aura in player.auras:
                if aura.uid == uid:
                    return aura
        return None

    def effective_def(self, unit: Unit) -> int:
        """Printed DEF, every DEF change on the unit and its intact Sephirot code's bonus; never below zero."""
        total = unit.defense + sum(m.amount for m in self.def_mods if m.unit == unit.uid)
        if unit.equipment is not None:
            code = self.cards[unit.equipment]
            total += getattr(code, "def_bonus", 0)
        return max(0, total)

    @property
    def over(self) -> bool:
        return self.phase == "over"
