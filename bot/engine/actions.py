"""What a player can ask the table to do: a discriminated union on `type`.

Actions name cards by card id, and units by their uid (`p1.<card id>` for Arcastella, `p1.f3` for a
follower, `p1.a4` for an Aura Compolta). `player` is the id the seat was opened with.
"""

from __future__ import annotations

from typing import Annotated, Literal

from pydantic import BaseModel, ConfigDict, Field

from bot.catalog.cards import Card
from bot.engine.options import GameOptions


class _Action(BaseModel):
    model_config = ConfigDict(frozen=True, extra="forbid")


class SeatSpec(BaseModel):
    """One player at the start: who, their deck in list order, their three Arcastella and the leader."""

    model_config = ConfigDict(frozen=True, extra="forbid")

    id: str
    name: str
    arcastella: tuple[str, str, str]
    leader: str
    deck: tuple[str, ...]
    equipment: dict[str, str] = Field(default_factory=dict)  # Arcastella card id -> Sephirot code id


class StartGame(_Action):
    """Set-up, once (ゲーム開始時の準備). Carries every card definition the game will use."""

    type: Literal["start"] = "start"
    players: tuple[SeatSpec, SeatSpec]
    cards: dict[str, Card]
    options: GameOptions = Field(default_factory=GameOptions)


class Charge(_Action):
    """Charge phase: convert one spell card from hand into ether (エーテル変換)."""

    type: Literal["charge"] = "charge"
    player: str
    card: str
    use_ether_effect: bool = True
    target: str | None = None
    ally_target: str | None = None


class Pass(_Action):
    """Pass (待機): in the charge or main phase hands the turn to act over; in a start or end window, done."""

    type: Literal["pass"] = "pass"
    player: str


class Cast(_Action):
    """Cast a spell from hand, naming the Arcastella that casts it."""

    type: Literal["cast"] = "cast"
    player: str
    card: str
    caster: str
    target: str | None = None
    ally_target: str | None = None


class UseSkill(_Action):
    """Use a skill of one of your Arcastella: attack, support, astral code, or an activated leader skill."""

    type: Literal["skill"] = "skill"
    player: str
    unit: str
    skill: str
    target: str | None = None
    ally_target: str | None = None


class Block(_Action):
    """Block the pending attack with another untapped Arcastella."""

    type: Literal["block"] = "block"
    player: str
    blocker: str


class NoBlock(_Action):
    """Decline to block the pending attack."""

    type: Literal["noblock"] = "noblock"
    player: str


class Summon(_Action):
    """Play a follower or an Aura Compolta from hand for its cost, named by one of your Arcastella."""

    type: Literal["summon"] = "summon"
    player: str
    card: str
    caster: str


AdjustField = Literal["hp", "tapped", "def_turn", "ether", "resonance", "astral_rights", "discard", "deck_top"]
CARD_FIELDS = frozenset({"discard", "deck_top"})  # the fields that move cards, named in `cards`


class Adjust(_Action):
    """A logged manual correction for an effect outside the vocabulary. On the acting player's own
    things it takes effect at once; on the other player's things it is a request that takes effect
    only when that player confirms it (`ConfirmAdjust`), so no one can change the opponent's side alone.

    `subject` is a unit uid (hp, tapped, def_turn), an aura uid (resonance) or a player id (ether,
    astral_rights). `value` is the new value; for `def_turn` it is the DEF change until the end phase.

    Two fields move a player's own cards (subject: that player, who must be the one acting):
    `discard` puts `value` copies of `cards[0]` from hand into the cemetery, face up; `deck_top`
    puts the top `len(cards)` cards of the deck back in the order of `cards` (value: how many).
    """

    type: Literal["adjust"] = "adjust"
    player: str
    subject: str
    field: AdjustField
    value: int
    note: str = ""
    cards: tuple[str, ...] = ()


class ConfirmAdjust(_Action):
    """The owner of the subject of the pending adjustment request agrees to it: it takes effect now."""

    type: Literal["confirm_adjust"] = "confirm_adjust"
    player: str


class RejectAdjust(_Action):
    """The owner of the subject refuses the pending adjustment request (or its asker withdraws it)."""

    type: Literal["reject_adjust"] = "reject_adjust"
    player: str


class ModeratorAdjust(_Action):
    """A moderator's correction: takes effect at once, logged as made by that moderator (`moderator`,
    their user id). Only the service builds it, for a caller it was told is a moderator."""

    type: Literal["moderator_adjust"] = "moderator_adjust"
    moderator: str
    subject: str
    field: AdjustField
    value: int
    note: str = ""


class LookAtDeck(_Action):
    """Look at the top `count` cards of one's own deck, while a manual effect that says so is applied."""

    type: Literal["look_at_deck"] = "look_at_deck"
    player: str
    count: int


class Concede(_Action):
    """Give up: the other player wins at once."""

    type: Literal["concede"] = "concede"
    player: str


Action = Annotated[
    StartGame
    | Charge
    | Pass
    | Cast
    | UseSkill
    | Block
    | NoBlock
    | Summon
    | Adjust
    | ConfirmAdjust
    | RejectAdjust
    | ModeratorAdjust
    | LookAtDeck
    | Concede,
    Field(discriminator="type"),
]
