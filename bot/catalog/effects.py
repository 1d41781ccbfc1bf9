"""The effect vocabulary of card data: a small declarative language the engine can execute.

Anything the vocabulary cannot say is written as a `manual` effect: the table shows its text and the
players apply it themselves with a logged adjustment.
"""

from __future__ import annotations

from typing import Annotated, Literal

from pydantic import BaseModel, ConfigDict, Field, StringConstraints, model_validator
from pydantic_core import PydanticCustomError

Timing = Literal["own_turn", "opponent_turn", "any", "turn_start", "turn_end", "knockout"]
"""When a card or skill may be used or triggers.

- `own_turn`: [自分のターン], main phase of its controller's turn.
- `opponent_turn`: [相手のターン], main phase of the opponent's turn.
- `any`: [好きなタイミング], main phase of either turn.
- `turn_start`: ターン開始時, resolves in its controller's start phase.
- `turn_end`: ターン終了時, resolves in its controller's end phase.
- `knockout`: 戦闘脱落時, resolves when the unit it belongs to is knocked out.
"""

UnitTarget = Literal["chosen_enemy", "chosen_ally", "self", "all_enemies", "all_allies"]
"""Targets that are units (Arcastella or followers).

- `chosen_enemy` / `chosen_ally`: one unit the player chooses when using the card or skill.
- `self`: the user of a skill, the Arcastella that casts a spell, the follower itself, the wearer of
  a Sephirot code.
- `all_enemies` / `all_allies`: every unit on that side that is not knocked out.
"""

PlayerTarget = Literal["controller", "opponent"]
"""Targets that are players: the one who controls the effect, or the other player."""

Target = Literal["chosen_enemy", "chosen_ally", "self", "all_enemies", "all_allies", "controller", "opponent"]
"""Every target word of the vocabulary: the unit targets followed by the player targets."""

DiceText = Annotated[str, StringConstraints(pattern=r"^([1-9]|10)d6$")]
"""Damage dice as printed on cards: `Xd6` with X from 1 to 10."""


class EffectBase(BaseModel):
    """Common configuration: every effect is immutable and refuses unknown fields."""

    model_config = ConfigDict(frozen=True, extra="forbid")


class DamageEffect(EffectBase):
    """Deal damage: a fixed `amount`, or the total of `dice` rolled in public. Exactly one of the two."""

    kind: Literal["damage"] = "damage"
    amount: int | None = Field(default=None, ge=0, le=99, description="Fixed damage (固定ダメージ).")
    dice: DiceText | None = Field(default=None, description='Dice damage such as "2d6" (ダイスダメージ).')
    target: UnitTarget = Field(description="Who takes the damage.")

    @model_validator(mode="after")
    def _amount_or_dice(self) -> DamageEffect:
        if (self.amount is None) == (self.dice is None):
            raise PydanticCustomError("damage_amount_or_dice", "give exactly one of amount and dice")
        return self


class HealEffect(EffectBase):
    """Restore HP, never above the unit's printed HP."""

    kind: Literal["heal"] = "heal"
    amount: int = Field(ge=1, le=99, description="HP restored.")
    target: UnitTarget = Field(description="Who is healed.")


class DrawEffect(EffectBase):
    """A player draws cards from their deck."""

    kind: Literal["draw"] = "draw"
    count: int = Field(ge=1, le=10, description="How many cards are drawn.")
    player: PlayerTarget = Field(default="controller", description="Who draws.")


class GainEtherEffect(EffectBase):
    """A player gains ether (エーテル)."""

    kind: Literal["gain_ether"] = "gain_ether"
    amount: int = Field(ge=1, le=10, description="Ether gained.")
    player: PlayerTarget = Field(default="controller", description="Who gains it.")


class TapEffect(EffectBase):
    """Tap units (タップ): a tapped Arcastella cannot attack and applies only half its DEF."""

    kind: Literal["tap"] = "tap"
    target: UnitTarget = Field(description="Who is tapped.")


class UntapEffect(EffectBase):
    """Untap units (アンタップ)."""

    kind: Literal["untap"] = "untap"
    target: UnitTarget = Field(description="Who is untapped.")


class ModifyDefEffect(EffectBase):
    """Change DEF for a while: until the end of this turn, or for `count` start phases."""

    kind: Literal["modify_def"] = "modify_def"
    amount: int = Field(ge=-10, le=10, description="DEF change; negative lowers DEF (never below 0).")
    target: UnitTarget = Field(description="Whose DEF changes.")
    duration: Literal["turn", "continuing"] = Field(
        default="turn",
        description='"turn": until the end phase of this turn; "continuing": until `count` start phases '
        "of the controller have passed (【継続】).",
    )
    count: int | None = Field(default=None, ge=1, le=10, description='Start phases it lasts; only with "continuing".')

    @model_validator(mode="after")
    def _count_with_continuing(self) -> ModifyDefEffect:
        if self.amount == 0:
            raise PydanticCustomError("zero_def_change", "a DEF change of 0 does nothing", {"field": "amount"})
        if (self.duration == "continuing") != (self.count is not None):
            raise PydanticCustomError(
                "count_only_with_continuing", 'give count exactly when duration is "continuing"', {"field": "count"}
            )
        return self


class ManualEffect(EffectBase):
    """An effect outside the vocabulary: shown as text, applied by the players with a logged adjustment."""

    kind: Literal["manual"] = "manual"
    text: str = Field(min_length=1, description="What the players must do, in Japanese.")
    text_en: str | None = Field(default=None, description="The same in English, if known.")


SimpleEffect = Annotated[
    DamageEffect | HealEffect | DrawEffect | GainEtherEffect | TapEffect | UntapEffect | ModifyDefEffect | ManualEffect,
    Field(discriminator="kind"),
]
"""Every effect except `continuing`, which may not nest."""


class ContinuingEffect(EffectBase):
    """【継続】: the inner effects resolve in each of the controller's next `count` start phases.

    Nothing happens when the card or skill itself resolves except that the effect is set up; a card that
    also acts at once lists that effect beside this one. `count` goes down by one each time it resolves,
    and the effect ends at 0.
    """

    kind: Literal["continuing"] = "continuing"
    count: int = Field(ge=1, le=10, description="Remaining start phases.")
    effects: tuple[SimpleEffect, ...] = Field(min_length=1, description="What resolves each time.")


Effect = Annotated[
    DamageEffect
    | HealEffect
    | DrawEffect
    | GainEtherEffect
    | TapEffect
    | UntapEffect
    | ModifyDefEffect
    | ContinuingEffect
    | ManualEffect,
    Field(discriminator="kind"),
]
"""One effect of the vocabulary, told apart by `kind`."""

EFFECT_KINDS: tuple[str, ...] = (
    "damage",
    "heal",
    "draw",
    "gain_ether",
    "tap",
    "untap",
    "modify_def",
    "continuing",
    "manual",
)
