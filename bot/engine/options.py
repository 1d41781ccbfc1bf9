"""Table options: the house rules where players could reasonably disagree (docs/house-rules.md).

Every field has the default the house rules recommend; a table picks other values at `/game start`.
The options travel inside the state (and the GameStarted event), so a replay uses the same ones.
"""

from __future__ import annotations

from typing import Literal

from pydantic import BaseModel, ConfigDict, Field


class GameOptions(BaseModel):
    """The table's choices on the points the rulebook leaves open. Numbers refer to DESIGN.md section 5."""

    model_config = ConfigDict(frozen=True, extra="forbid")

    first_player: Literal["random", "first_seat", "second_seat"] = Field(
        default="random", description="(1) Who plays first: a public 1d6 (1-3 first seat), or a fixed seat."
    )
    ether_carry_over: bool = Field(
        default=True, description="(5) Unspent ether stays for later turns; False empties both pools at each end phase."
    )
    ether_cap: int | None = Field(
        default=None, ge=1, le=99, description="(5) Most ether a player may hold; None: no cap."
    )
    charge_rejoin: bool = Field(
        default=True,
        description="(6) A player who passed in the charge phase may convert again until both pass in a row.",
    )
    ether_effect_limit: Literal["per_player", "per_card", "per_table"] = Field(
        default="per_player",
        description="(7) 'Once per turn' of ether effects: each player once, each card name once per player, "
        "or one ether effect for the whole table.",
    )
    priority_after_action: Literal["keep", "pass"] = Field(
        default="keep", description="(8) After acting in the main phase a player keeps priority, or it passes over."
    )
    tapped_may_act: bool = Field(
        default=True, description="(9) A tapped Arcastella may still cast spells and use support skills."
    )
    untap: Literal["own_turn", "every_turn"] = Field(
        default="own_turn",
        description="(3) Tapped units untap at the start of their owner's turn, or at the start of every turn "
        "(so a unit that attacked can block in the opponent's turn).",
    )
    block_timing: Literal["after_roll", "before_roll"] = Field(
        default="after_roll",
        description="(11) The defender decides on a block after the damage dice are rolled, or before.",
    )
    sephirot_check: Literal["attack_only", "all_damage"] = Field(
        default="attack_only",
        description="(13) Which damage makes an equipped Sephirot code roll its break check.",
    )
    resonance_reset: Literal["all", "turn_player"] = Field(
        default="all", description="(17) Whose Aura Compolta resonance resets in the end phase."
    )
    astral_right: Literal["deck_rebuild", "always"] = Field(
        default="deck_rebuild",
        description="(18) An astral code needs a right earned by rebuilding the deck, or is always usable.",
    )
    deck_out: Literal["rebuild", "lose", "stop"] = Field(
        default="rebuild",
        description="(4, 20) Drawing from an empty deck: rebuild it from the cemetery and ether area, "
        "lose the game, or simply draw no more.",
    )
