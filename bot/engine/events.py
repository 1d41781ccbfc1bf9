"""What happened at the table: a discriminated union on `type`.

Events are the record. Each one carries every outcome decided when it happened (shuffled deck
orders, dice faces with their draw number, damage after reduction), so folding them from an empty
state (bot/engine/fold.py) rebuilds the table exactly, without any randomness. Seats are 0 and 1.
"""

from __future__ import annotations

from typing import Annotated, Any, Literal

from pydantic import BaseModel, ConfigDict, Field

from bot.catalog.cards import Card
from bot.catalog.effects import Effect
from bot.engine.actions import AdjustField, SeatSpec
from bot.engine.options import GameOptions
from bot.engine.state import DefModifier, Phase, PlayerState, SourceKind


class _Event(BaseModel):
    model_config = ConfigDict(frozen=True, extra="forbid")


class GameStarted(_Event):
    type: Literal["game_started"] = "game_started"
    players: tuple[SeatSpec, SeatSpec]
    cards: dict[str, Card]
    options: GameOptions


class DiceRolled(_Event):
    """A public roll through bot.dice: what for, the expression, the faces, the total and its draw number."""

    type: Literal["dice_rolled"] = "dice_rolled"
    purpose: Literal["first_player", "damage", "sephirot"]
    expression: str
    faces: tuple[int, ...]
    total: int
    number: int | None
    seat: int | None = None


class FirstPlayerChosen(_Event):
    type: Literal["first_player_chosen"] = "first_player_chosen"
    seat: int
    how: Literal["roll", "option"]


class DeckShuffled(_Event):
    type: Literal["deck_shuffled"] = "deck_shuffled"
    seat: int
    order: tuple[str, ...]
    number: int | None


class DeckRebuilt(_Event):
    """House rule 4/18: the cemetery (not afterglow cards) and the ether area become the new deck."""

    type: Literal["deck_rebuilt"] = "deck_rebuilt"
    seat: int
    order: tuple[str, ...]
    number: int | None
    astral_rights: int
    rights_after: int | None = None  # the player's astral-code rights after it (None: an older log)


class CardsDrawn(_Event):
    type: Literal["cards_drawn"] = "cards_drawn"
    seat: int
    cards: tuple[str, ...]
    short: int = 0  # cards that could not be drawn
    # Counts after the draw (None: an event of an older log) and the card whose effect drew (None: the draw phase).
    hand_after: int | None = None
    deck_after: int | None = None
    card: str | None = None
    skill: str | None = None  # the skill of `card` that drew


class EtherGained(_Event):
    type: Literal["ether_gained"] = "ether_gained"
    seat: int
    amount: int
    reason: Literal["second_player", "conversion", "effect"]
    total_after: int | None = None  # the player's ether after the gain (None: an event of an older log)
    capped: int = 0  # ether the table's ether_cap (house rule 5) kept from this gain


class EtherCapped(_Event):
    """A gain the table's `ether_cap` (house rule 5) stopped entirely: the player already holds the cap."""

    type: Literal["ether_capped"] = "ether_capped"
    seat: int
    amount: int
    reason: Literal["second_player", "conversion", "effect"]
    cap: int


class EtherEmptied(_Event):
    type: Literal["ether_emptied"] = "ether_emptied"
    seat: int
    amount: int


class TurnStarted(_Event):
    type: Literal["turn_started"] = "turn_started"
    turn: int
    seat: int


class PhaseStarted(_Event):
    type: Literal["phase_started"] = "phase_started"
    phase: Phase


class PriorityGiven(_Event):
    """`seat` must act now (priority, or the decision the phase asks for)."""

    type: Literal["priority_given"] = "priority_given"
    seat: int


class Passed(_Event):
    type: Literal["passed"] = "passed"
    seat: int
    phase: Phase


class Untapped(_Event):
    type: Literal["untapped"] = "untapped"
    units: tuple[str, ...]


class Tapped(_Event):
    type: Literal["tapped"] = "tapped"
    units: tuple[str, ...]


class CardConverted(_Event):
    """The card went to the ether area; the ether itself follows as EtherGained (the cap may cut it)."""

    type: Literal["card_converted"] = "card_converted"
    seat: int
    card: str
    ether: int


class EtherEffectNotFired(_Event):
    """The player asked for the ether effect, but the table's `ether_effect_limit` (house rule 7) had
    already used up this turn's: the card is converted without it."""

    type: Literal["ether_effect_not_fired"] = "ether_effect_not_fired"
    seat: int
    card: str
    limit: Literal["per_player", "per_card", "per_table"]


class EtherEffectFired(_Event):
    type: Literal["ether_effect_fired"] = "ether_effect_fired"
    seat: int
    card: str


class SpellCast(_Event):
    type: Literal["spell_cast"] = "spell_cast"
    seat: int
    card: str
    caster: str
    cost: int
    target: str | None = None
    ally_target: str | None = None


class SpellResolved(_Event):
    """The spell has done its work and goes to the cemetery (house rule 10)."""

    type: Literal["spell_resolved"] = "spell_resolved"
    seat: int
    card: str


class SkillUsed(_Event):
    type: Literal["skill_used"] = "skill_used"
    seat: int
    unit: str
    skill: str
    kind: Literal["attack", "support", "leader", "astral"]
    cost: int
    taps: bool
    uses_right: bool = False
    triggered: bool = False  # a turn_start / turn_end / knockout skill that fired by itself
    target: str | None = None
    ally_target: str | None = None


class SkillSkipped(_Event):
    """A triggered skill could not be paid for, so it did not fire."""

    type: Literal["skill_skipped"] = "skill_skipped"
    seat: int
    unit: str
    skill: str
    cost: int


class AttackPending(_Event):
    type: Literal["attack_pending"] = "attack_pending"
    attacker: int
    user: str
    skill: str
    source: SourceKind
    target: str
    ally_target: str | None = None
    defender: int
    rolls: dict[int, int] = Field(default_factory=dict)


class BlockDeclared(_Event):
    type: Literal["block_declared"] = "block_declared"
    seat: int
    blocker: str
    target: str


class BlockDeclined(_Event):
    type: Literal["block_declined"] = "block_declined"
    seat: int


class AttackResolved(_Event):
    type: Literal["attack_resolved"] = "attack_resolved"


class DefPart(BaseModel):
    """One change to a unit's printed DEF: a Sephirot code's bonus, an effect's DEF change, or a manual
    adjustment (`card` None). `until`: how long a change lasts (None for a code, worn until it breaks)."""

    model_config = ConfigDict(frozen=True, extra="forbid")

    kind: Literal["code", "effect", "adjust"]
    card: str | None = None
    amount: int
    until: Literal["turn", "starts"] | None = None
    skill: str | None = None


class DamageDealt(_Event):
    """The damage pipeline's outcome for one unit: rolled/fixed amount, reduction, final damage, HP after.

    How DEF was applied (house rules 12, 14): `printed_def` and `def_parts` add up to the unit's DEF
    (never below 0); `def_rule` says whether it counted in full (untapped, or blocking), halved because
    the unit is tapped (rounded down), or not at all (a spell, support skill or other damage);
    `def_applied` is the DEF the damage met and `difference` is `amount - def_applied`, unclamped
    (`final` is that, never below 0). The DEF fields are None in events of older logs.
    """

    type: Literal["damage_dealt"] = "damage_dealt"
    source: SourceKind
    card: str
    target: str
    amount: int
    reduction: int
    final: int
    hp_after: int
    printed_def: int | None = None
    def_parts: tuple[DefPart, ...] = ()
    def_rule: Literal["full", "blocking", "halved", "ignored"] | None = None
    def_applied: int | None = None
    difference: int | None = None


class SephirotChecked(_Event):
    type: Literal["sephirot_checked"] = "sephirot_checked"
    unit: str
    card: str
    face: int
    broken: bool
    source: SourceKind | None = None  # the damage that made the check (None: an event of an older log)


class Healed(_Event):
    type: Literal["healed"] = "healed"
    target: str
    amount: int
    hp_after: int


class KnockedOut(_Event):
    """At 0 HP: an Arcastella stays knocked out; a follower becomes an afterglow card in the cemetery."""

    type: Literal["knocked_out"] = "knocked_out"
    unit: str
    afterglow: bool


class DefChanged(_Event):
    type: Literal["def_changed"] = "def_changed"
    unit: str
    amount: int
    controller: int
    until: Literal["turn", "starts"]
    remaining: int = 0
    card: str | None = None  # the card whose effect changed it (None: an event of an older log)
    skill: str | None = None  # the skill of `card` whose effect it is (None: the card's own effect)


class DefChangesExpired(_Event):
    """`turn` changes end at the end phase; `starts` changes of `controller` count one start phase down."""

    type: Literal["def_changes_expired"] = "def_changes_expired"
    until: Literal["turn", "starts"]
    controller: int | None = None


class ContinuingStarted(_Event):
    type: Literal["continuing_started"] = "continuing_started"
    id: int
    controller: int
    source: str
    effects: tuple[Effect, ...]
    remaining: int
    self_unit: str | None = None
    target: str | None = None
    ally_target: str | None = None


class ContinuingTicked(_Event):
    """A 【継続】 effect resolved once; at `remaining` 0 it ends."""

    type: Literal["continuing_ticked"] = "continuing_ticked"
    id: int
    remaining: int


class ManualEffect(_Event):
    """An effect outside the vocabulary: the players apply it with `adjust`."""

    type: Literal["manual_effect"] = "manual_effect"
    seat: int
    card: str
    text: str
    text_en: str | None = None
    look: int = 0  # the effect lets `seat` look at this many cards of the top of their deck (0: no look)


class AdjustRequested(_Event):
    """`seat` asks to adjust a thing of `owner`: nothing changes until `owner` confirms it."""

    type: Literal["adjust_requested"] = "adjust_requested"
    seat: int
    owner: int
    subject: str
    field: AdjustField
    old: int
    new: int
    note: str = ""


class AdjustRejected(_Event):
    """The pending request is dropped: refused by its owner (`by`) or withdrawn by its asker."""

    type: Literal["adjust_rejected"] = "adjust_rejected"
    seat: int
    by: int
    subject: str
    field: AdjustField
    new: int


class DeckLooked(_Event):
    """`seat` looked at the top `count` cards of their own deck (which cards: only they know)."""

    type: Literal["deck_looked"] = "deck_looked"
    seat: int
    count: int
    card: str


class Adjusted(_Event):
    """A manual adjustment. For `def_turn`, `old` is the unit's DEF change this turn before it and
    `new` the change it adds (they add up until the end phase). For `discard`, old/new are the hand
    sizes and `cards` the discarded cards (now public); for `deck_top`, old/new are the count and
    `cards` the new top order (hidden: only its owner may see it, like a shuffle's order)."""

    type: Literal["adjusted"] = "adjusted"
    seat: int
    subject: str
    field: AdjustField
    old: int
    new: int
    note: str = ""
    cards: tuple[str, ...] = ()
    # An adjustment of the other player's things: the seat of the player who confirmed it.
    confirmed_by: int | None = None
    # A moderator's correction: their user id (`seat` is then the owner of the subject).
    moderator: str | None = None


class ResonanceRaised(_Event):
    type: Literal["resonance_raised"] = "resonance_raised"
    aura: str
    value: int


class ResonanceReset(_Event):
    type: Literal["resonance_reset"] = "resonance_reset"
    auras: tuple[tuple[str, int], ...]


class Summoned(_Event):
    type: Literal["summoned"] = "summoned"
    seat: int
    card: str
    uid: str
    caster: str
    cost: int


class Conceded(_Event):
    type: Literal["conceded"] = "conceded"
    seat: int


class GameEnded(_Event):
    type: Literal["game_ended"] = "game_ended"
    winner: int
    reason: Literal["leader_knocked_out", "concession", "deck_out"]


class PositionLoaded(_Event):
    """A judge's practice table (docs/positions/README.md): right after its GameStarted, the table is
    set to the position the file describes. Carries the whole of what it sets, so a replay needs no file;
    `dice` are the faces the judge gave, played in order instead of rolled (bot/dice/given.py)."""

    type: Literal["position_loaded"] = "position_loaded"
    title: str
    players: tuple[PlayerState, PlayerState]
    turn: int
    turn_player: int
    phase: Phase
    active: int
    def_mods: tuple[DefModifier, ...] = ()
    next_id: int
    dice: tuple[int, ...] = ()


Event = Annotated[
    GameStarted
    | PositionLoaded
    | DiceRolled
    | FirstPlayerChosen
    | DeckShuffled
    | DeckRebuilt
    | CardsDrawn
    | EtherGained
    | EtherCapped
    | EtherEmptied
    | TurnStarted
    | PhaseStarted
    | PriorityGiven
    | Passed
    | Untapped
    | Tapped
    | CardConverted
    | EtherEffectFired
    | EtherEffectNotFired
    | SpellCast
    | SpellResolved
    | SkillUsed
    | SkillSkipped
    | AttackPending
    | BlockDeclared
    | BlockDeclined
    | AttackResolved
    | DamageDealt
    | SephirotChecked
    | Healed
    | KnockedOut
    | DefChanged
    | DefChangesExpired
    | ContinuingStarted
    | ContinuingTicked
    | ManualEffect
    | Adjusted
    | AdjustRequested
    | AdjustRejected
    | DeckLooked
    | ResonanceRaised
    | ResonanceReset
    | Summoned
    | Conceded
    | GameEnded,
    Field(discriminator="type"),
]


# -- which events an undo cannot take back ------------------------------------------------------------
# After these, an action can no longer be taken back: they drew on the table's randomness or showed
# someone information that was hidden. The reason is a key of store.service.barrier.
_BARRIER_REASONS: dict[str, str] = {
    "cards_drawn": "draw",
    "deck_shuffled": "shuffle",
    "deck_rebuilt": "shuffle",
    "dice_rolled": "dice",
    "first_player_chosen": "dice",
    "sephirot_checked": "dice",
    "game_started": "revealed",
    "game_ended": "revealed",
    "conceded": "revealed",
    "deck_looked": "revealed",  # a player saw cards of their deck: taking the look back would not unsee them
}
# Manual adjustments that move hidden cards: a discard shows a card from hand to everyone, and a
# reorder of the deck's top follows a look at cards nobody else has seen.
_BARRIER_ADJUSTMENTS = frozenset({"discard", "deck_top"})


def undo_barrier(event_type: str, data: dict[str, Any]) -> str | None:
    """Why an event of this type and data stops an undo (a key of store.service.barrier), else None:
    any event that used a numbered random draw is one, whatever its type."""
    if event_type == "adjusted":
        field_name = data.get("field")
        return field_name if field_name in _BARRIER_ADJUSTMENTS else None
    reason = _BARRIER_REASONS.get(event_type)
    if reason is None and data.get("number") is not None:
        return "dice"
    return reason
