"""The state of one table: everything the rules need, and nothing a front end invents.

Only bot/engine/fold.py changes a state, one event at a time, in place. `apply` never changes the state
it was given: it works on a `clone()`, a copy of everything that can change (players, their zones,
units and auras, DEF changes, 【継続】 effects, the pending attack). Card definitions and options are
frozen, so the copy shares them. Because fold changes objects in place, a unit or player that a rule
looked up stays the same object, up to date, after every event.
"""

from __future__ import annotations

from typing import Literal

from pydantic import BaseModel, ConfigDict, Field

from bot.catalog.cards import Card
from bot.catalog.effects import Effect
from bot.engine.options import GameOptions

Phase = Literal["setup", "start", "draw", "charge", "main", "block", "end", "over"]
UnitKind = Literal["arcastella", "follower"]
SourceKind = Literal[
    "spell", "attack", "astral", "support", "leader", "ether", "continuing", "knockout", "sephirot", "follower", "aura"
]


class _Mutable(BaseModel):
    # Assignments are not validated: only fold.py assigns, with values from events.
    model_config = ConfigDict(extra="forbid", validate_assignment=False)


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
        return self.model_copy(update={"support_used": list(self.support_used)})


class Aura(_Mutable):
    """An Aura Compolta in play and its resonance value (共鳴値)."""

    uid: str
    card: str
    owner: int
    resonance: int

    def clone(self) -> Aura:
        return self.model_copy()


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
        return self.model_copy(
            update={
                "deck": list(self.deck),
                "hand": list(self.hand),
                "cemetery": list(self.cemetery),
                "afterglow": list(self.afterglow),
                "ether_area": list(self.ether_area),
                "units": [u.clone() for u in self.units],
                "auras": [a.clone() for a in self.auras],
                "ether_effects_used": list(self.ether_effects_used),
            }
        )

    def unit(self, uid: str) -> Unit | None:
        for unit in self.units:
            if unit.uid == uid:
                return unit
        return None


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
    card: str | None = None  # the card whose effect made it; None: a manual adjustment
    skill: str | None = None  # the skill of `card` whose effect made it


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

    def clone(self) -> PendingAttack:
        return self.model_copy(update={"rolls": dict(self.rolls)})


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
        return self.model_copy(
            update={
                "players": [p.clone() for p in self.players],
                "pending": self.pending.clone() if self.pending is not None else None,
                "continuing": [c.model_copy() for c in self.continuing],  # its effects are frozen
                "def_mods": [m.model_copy() for m in self.def_mods],
                "pending_adjust": self.pending_adjust.model_copy() if self.pending_adjust is not None else None,
                "deck_look": self.deck_look.model_copy() if self.deck_look is not None else None,
            }
        )

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
