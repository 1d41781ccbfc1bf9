"""A judge's practice position: the validated model of a position file, and the events that set a table to it.

The file format is documented in docs/positions/README.md; bot/table/position.py reads and checks a
file (every problem with its field) and hands over a `Position` whose cards all exist and fit. Here it
becomes two events, `game_started` (the seats, the cards, the options) and `position_loaded` (every
zone, HP, tapped state, DEF change, aura, ether, phase and priority), so a practice game is recorded
and replayed like any other: from its events alone.
"""

from __future__ import annotations

from typing import Annotated, Literal

from pydantic import BaseModel, ConfigDict, Field

from bot.catalog.cards import Arcastella, AuraCompolta, Card, Follower
from bot.engine import events as ev
from bot.engine.actions import SeatSpec
from bot.engine.fold import arcastella_uid, fold_all
from bot.engine.options import GameOptions
from bot.engine.state import Aura, DefModifier, GameState, PlayerState, Unit

CardRef = Annotated[str, Field(min_length=1, max_length=100)]
Zone = Annotated[tuple[CardRef, ...], Field(max_length=200)]
Face = Annotated[int, Field(ge=1, le=6)]


class _Frozen(BaseModel):
    model_config = ConfigDict(frozen=True, extra="forbid")


class UnitSpec(_Frozen):
    """An Arcastella or a follower on the board."""

    card: CardRef = Field(description="Card id or name of an Arcastella or a follower.")
    hp: int | None = Field(default=None, ge=0, le=99, description="HP now (default: printed). 0: knocked out.")
    tapped: bool = Field(default=False, description="Tapped (it attacked or was tapped).")
    def_change: int = Field(default=0, ge=-20, le=20, description="DEF change for this turn, added to the printed DEF.")
    code: CardRef | None = Field(default=None, description="The Sephirot code it wears (Arcastella only).")


class AuraSpec(_Frozen):
    card: CardRef = Field(description="Card id or name of an Aura Compolta.")
    resonance: int = Field(default=0, ge=0, le=10, description="Its resonance value (共鳴値) now.")


class SideSpec(_Frozen):
    """One player's side: exactly three Arcastella (one the leader), followers, auras and zones."""

    name: str = Field(min_length=1, max_length=100, description="The player's name at the table.")
    leader: CardRef = Field(description="Which of the three Arcastella is the leader.")
    units: tuple[UnitSpec, ...] = Field(
        min_length=3, max_length=20, description="The three Arcastella, then followers."
    )
    auras: tuple[AuraSpec, ...] = Field(default=(), max_length=10)
    hand: Zone = Field(default=(), description="Cards in hand.")
    deck: Zone = Field(default=(), description="The deck, top card first.")
    cemetery: Zone = Field(default=(), description="The cemetery, oldest first.")
    ether_area: Zone = Field(default=(), description="Cards converted to ether.")
    ether: int = Field(default=0, ge=0, le=99, description="Ether in the pool.")
    astral_rights: int = Field(default=0, ge=0, le=99, description="Astral-code rights held (house rule 18).")


class Position(_Frozen):
    """A whole position file, as read and checked (card references already turned into card ids)."""

    model_config = ConfigDict(title="HorizonNotes Referee practice position")

    title: str = Field(default="", max_length=200, description="What the position shows, one line.")
    text: str = Field(default="", max_length=4000, description="Longer notes for the judge (not shown at the table).")
    turn: int = Field(default=1, ge=1, le=999, description="The turn number.")
    turn_player: str = Field(description="The name of the player whose turn it is.")
    phase: Literal["charge", "main"] = Field(description="The phase the table is in.")
    priority: str | None = Field(default=None, description="Who must act now (default: the turn player).")
    dice: tuple[Face, ...] = Field(default=(), max_length=1000, description="Die faces to use, in order (1-6).")
    options: GameOptions = Field(default_factory=GameOptions, description="Table options, as for /game start.")
    players: tuple[SideSpec, SideSpec] = Field(description="The two sides, first seat first.")

    def seat_named(self, name: str) -> int | None:
        from bot.names import normalize_name

        key = normalize_name(name)
        for seat, side in enumerate(self.players):
            if normalize_name(side.name) == key:
                return seat
        return None


def position_events(position: Position, player_ids: tuple[str, str], cards: dict[str, Card]) -> list[ev.Event]:
    """`game_started` then `position_loaded` for this position; `cards` holds every card it names
    (bot/table/position.py has checked kinds, counts and names, so nothing here can fail on a good file)."""
    specs: list[SeatSpec] = []
    players: list[PlayerState] = []
    def_mods: list[DefModifier] = []
    taken: set[str] = set()
    next_id = 1
    for seat, side in enumerate(position.players):
        arcastella = [u for u in side.units if isinstance(cards[u.card], Arcastella)]
        specs.append(
            SeatSpec(
                id=player_ids[seat],
                name=side.name,
                arcastella=(arcastella[0].card, arcastella[1].card, arcastella[2].card),
                leader=side.leader,
                deck=side.deck,
                equipment={u.card: u.code for u in arcastella if u.code is not None},
            )
        )
        units: list[Unit] = []
        leader = ""
        for spec in side.units:
            card = cards[spec.card]
            assert isinstance(card, Arcastella | Follower)
            if isinstance(card, Arcastella):
                uid = arcastella_uid(seat, spec.card, taken)
                if spec.card == side.leader and not leader:
                    leader = uid
                kind: Literal["arcastella", "follower"] = "arcastella"
            else:
                uid, kind = f"p{seat + 1}.f{next_id}", "follower"
                next_id += 1
            hp = card.hp if spec.hp is None else spec.hp
            units.append(
                Unit(
                    uid=uid, card=spec.card, owner=seat, kind=kind, hp=hp, max_hp=card.hp, defense=card.defense,
                    tapped=spec.tapped, knocked_out=hp == 0, equipment=spec.code,
                )
            )  # fmt: skip
            if spec.def_change:
                def_mods.append(DefModifier(unit=uid, amount=spec.def_change, controller=seat, until="turn"))
        auras: list[Aura] = []
        for aura in side.auras:
            assert isinstance(cards[aura.card], AuraCompolta)
            auras.append(Aura(uid=f"p{seat + 1}.a{next_id}", card=aura.card, owner=seat, resonance=aura.resonance))
            next_id += 1
        players.append(
            PlayerState(
                id=player_ids[seat], name=side.name, leader=leader, deck=list(side.deck), hand=list(side.hand),
                cemetery=list(side.cemetery), ether_area=list(side.ether_area), ether=side.ether, units=units,
                auras=auras, astral_rights=side.astral_rights,
            )
        )  # fmt: skip
    turn_player = position.seat_named(position.turn_player)
    active = position.seat_named(position.priority) if position.priority is not None else turn_player
    assert turn_player is not None and active is not None
    return [
        ev.GameStarted(players=(specs[0], specs[1]), cards=cards, options=position.options),
        ev.PositionLoaded(
            title=position.title, players=(players[0], players[1]), turn=position.turn, turn_player=turn_player,
            phase=position.phase, active=active, def_mods=tuple(def_mods), next_id=next_id, dice=position.dice,
        ),
    ]  # fmt: skip


def position_state(events: list[ev.Event]) -> GameState:
    """The table the events of `position_events` set up."""
    return fold_all(GameState(), events)
