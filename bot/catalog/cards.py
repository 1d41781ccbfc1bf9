"""Card models: Arcastella, spells, Sephirot codes, followers and Aura Compolta.

All models are frozen and refuse unknown fields, so a typo in a data file is an error, not a silent default.
"""

from __future__ import annotations

import unicodedata
from typing import Annotated, Literal

from pydantic import AfterValidator, BaseModel, ConfigDict, Field, StringConstraints, model_validator
from pydantic_core import PydanticCustomError

from bot.catalog.effects import DamageEffect, Effect, Timing
from bot.catalog.names import normalize_name
from bot.i18n import t
from bot.names import hidden_char

CardId = Annotated[str, StringConstraints(pattern=r"^[a-z0-9][a-z0-9_-]{0,63}$")]
"""A stable ascii slug: lowercase letters, digits, `-` and `_`; it never changes once published."""


def _valid_name(value: str) -> str:
    """A printed name, NFKC-normalised; an invisible or direction-changing character is refused (bot/names.py)."""
    normal = unicodedata.normalize("NFKC", value)
    char = hidden_char(normal)
    if char is not None:
        raise PydanticCustomError("bad_name", "the name holds an invisible or bidi character {char}", {"char": char})
    return normal


Name = Annotated[str, AfterValidator(_valid_name)]
"""A card, skill or deck name as printed: no character that could make two names look the same."""

Cost = Annotated[int, Field(ge=0, le=10)]

CardType = Literal["arcastella", "spell", "sephirot_code", "follower", "aura_compolta"]


def _ja(key: str) -> str:
    """The Japanese label used in printed card text (the rules corpus is Japanese)."""
    return t(key, "ja")


class Frozen(BaseModel):
    """Immutable, strict about unknown fields, and accepts both a field's name and its alias."""

    model_config = ConfigDict(frozen=True, extra="forbid", populate_by_name=True)


class Skill(Frozen):
    """One skill of an Arcastella.

    - `attack` and `astral` (アストラルコード) skills cost ether and tap the user; they must deal damage to
      a chosen enemy, because that target is what a block redirects.
    - `support` skills cost ether, do not tap, and are used at most once per Arcastella per turn.
    - `leader` skills work only while their Arcastella is the leader; they resolve at their `timing`.
    """

    id: CardId = Field(description="Unique among the skills of this Arcastella.")
    name: Name = Field(min_length=1, description="Japanese name as printed.")
    name_en: Name | None = Field(default=None, description="English name, if any.")
    kind: Literal["attack", "support", "leader", "astral"] = Field(description="Which kind of skill.")
    cost: Cost = Field(default=0, description="Ether paid to use it.")
    timing: Timing = Field(default="own_turn", description="When it may be used or when it triggers.")
    effects: tuple[Effect, ...] = Field(min_length=1, description="What it does, in order.")
    text: str = Field(min_length=1, description="The skill text as printed (Japanese).")

    @model_validator(mode="after")
    def _attacks_target_an_enemy(self) -> Skill:
        if self.kind in ("attack", "astral") and not any(
            isinstance(e, DamageEffect) and e.target == "chosen_enemy" for e in self.effects
        ):
            raise PydanticCustomError(
                "attack_without_target", "an attack needs a damage effect on chosen_enemy", {"field": "effects"}
            )
        return self

    def rules_text(self) -> str:
        cost = f" コスト{self.cost}" if self.cost else ""
        english = f" ({self.name_en})" if self.name_en else ""
        kind, timing = _ja(f"cards.skill.{self.kind}"), _ja(f"cards.timing.{self.timing}")
        return f"《{kind}》{self.name}{english}{cost} {timing}: {self.text}"


class CardBase(Frozen):
    """Fields every card has."""

    id: CardId = Field(description="Stable ascii slug, unique in the catalog.")
    name: Name = Field(min_length=1, description="Japanese name as printed.")
    name_en: Name | None = Field(default=None, description="English name, if any.")
    text: str = Field(default="", description="The card text as printed (Japanese).")
    keywords: tuple[str, ...] = Field(default=(), description="Keywords and traits, for search and effects.")

    def names(self) -> tuple[str, ...]:
        """Everything a player may type to name this card, normalised."""
        raw = [self.id, self.name] + ([self.name_en] if self.name_en else [])
        return tuple(dict.fromkeys(normalize_name(n) for n in raw))

    def stats(self) -> str:
        """The printed numbers after the type label; each card type says its own."""
        return ""

    def rules_text(self) -> str:
        """The card as readable text for the rulings search and `referee cards show`."""
        english = f" ({self.name_en})" if self.name_en else ""
        keywords = f" 〈{'・'.join(self.keywords)}〉" if self.keywords else ""
        label = _ja(f"cards.type.{getattr(self, 'type', '')}")
        lines = [f"{self.name}{english} 〔{label}〕 {self.stats()}".rstrip() + keywords]
        if self.text:
            lines.append(self.text)
        return "\n".join(lines)


class Arcastella(CardBase):
    """A character (アルカステラ). Each player fields three; one of them is the leader."""

    type: Literal["arcastella"] = "arcastella"
    hp: int = Field(ge=1, le=99, description="Starting and maximum HP.")
    defense: int = Field(alias="def", ge=0, le=20, description='DEF, written "def" in files.')
    skills: tuple[Skill, ...] = Field(min_length=1, description="Attack, support and leader skills and astral codes.")

    @model_validator(mode="after")
    def _unique_skill_ids(self) -> Arcastella:
        ids = [s.id for s in self.skills]
        duplicates = sorted({i for i in ids if ids.count(i) > 1})
        if duplicates:
            raise PydanticCustomError(
                "duplicate_skill", "skill ids repeat: {ids}", {"ids": ", ".join(duplicates), "field": "skills"}
            )
        return self

    def skill(self, name: str) -> Skill | None:
        """The skill named `name` (id, Japanese or English name; kana and middle dots are forgiven)."""
        for skill in self.skills:
            if skill.id == name:  # the engine and the buttons name skills by id
                return skill
        wanted = normalize_name(name)
        for skill in self.skills:
            candidates = [skill.id, skill.name] + ([skill.name_en] if skill.name_en else [])
            if wanted in {normalize_name(c) for c in candidates}:
                return skill
        return None

    def stats(self) -> str:
        return f"HP {self.hp} DEF {self.defense}"

    def rules_text(self) -> str:
        return "\n".join([super().rules_text(), *(s.rules_text() for s in self.skills)])


class Spell(CardBase):
    """A spell card (スペルカード): cast for its cost by a named Arcastella, or converted into that much ether."""

    type: Literal["spell"] = "spell"
    cost: Cost = Field(description="Ether paid to cast it, and ether gained by converting it.")
    timing: Timing = Field(description="When it may be cast or when it triggers.")
    effects: tuple[Effect, ...] = Field(min_length=1, description="What casting it does, in order.")
    ether_effect: tuple[Effect, ...] = Field(
        default=(),
        description="≪エーテルエフェクト≫: resolves when the card is converted into ether in the charge phase.",
    )

    def stats(self) -> str:
        return f"コスト{self.cost} {_ja(f'cards.timing.{self.timing}')}"


class SephirotCode(CardBase):
    """Equipment (セフィロト・コード) worn by one Arcastella from the start, as the deck file says.

    When its wearer takes damage from an attack skill or astral code, a 1d6 is rolled; a result listed
    in `breaks_on` breaks it, and a broken code gives nothing any more.
    """

    type: Literal["sephirot_code"] = "sephirot_code"
    breaks_on: tuple[Annotated[int, Field(ge=1, le=6)], ...] = Field(
        min_length=1, max_length=5, description="1d6 results that break it (1 to 6, at most five of them)."
    )
    def_bonus: int = Field(default=0, ge=0, le=10, description="DEF added to the wearer while intact.")
    on_break: tuple[Effect, ...] = Field(default=(), description="Effects when it breaks; `self` is the wearer.")

    @model_validator(mode="after")
    def _distinct_results(self) -> SephirotCode:
        if len(set(self.breaks_on)) != len(self.breaks_on):
            raise PydanticCustomError(
                "duplicate_break_result", "a break result is listed twice", {"field": "breaks_on"}
            )
        return self

    def stats(self) -> str:
        breaks = "・".join(str(n) for n in sorted(self.breaks_on))
        bonus = f" DEF+{self.def_bonus}" if self.def_bonus else ""
        return f"破損: 1d6で{breaks}{bonus}"


class Trigger(Frozen):
    """Effects that resolve at a timing while their card is in play (turn start, turn end, knock-out)."""

    timing: Literal["turn_start", "turn_end", "knockout"] = Field(description="When they resolve.")
    effects: tuple[Effect, ...] = Field(min_length=1, description="What resolves.")


class Follower(CardBase):
    """A follower (フォロワー): played from hand for its cost by a named Arcastella; at 0 HP it becomes an
    afterglow card (残照カード) in the cemetery."""

    type: Literal["follower"] = "follower"
    cost: Cost = Field(description="Ether paid to play it.")
    timing: Timing = Field(default="own_turn", description="When it may be played.")
    hp: int = Field(ge=1, le=99, description="Starting and maximum HP.")
    defense: int = Field(default=0, alias="def", ge=0, le=20, description='DEF, written "def" in files.')
    effects: tuple[Effect, ...] = Field(default=(), description="Effects when it enters play; `self` is the follower.")
    triggers: tuple[Trigger, ...] = Field(default=(), description="Effects at later timings while it is in play.")

    def stats(self) -> str:
        return f"コスト{self.cost} {_ja(f'cards.timing.{self.timing}')} HP {self.hp} DEF {self.defense}"


Resonator = Literal["spell_cast", "skill_used", "ether_conversion", "damage_dealt"]
"""What raises a resonance value by one: its controller casting a spell, using a skill, converting a card
into ether, or dealing damage to an enemy unit (once per damage effect)."""


class AuraCompolta(CardBase):
    """An Aura Compolta (アウラ・コンポルタ): stays in play and gathers a resonance value (≪共鳴値≫).

    Each `resonates_on` event of its controller raises the value by one; when it reaches
    `resonance_max` the effects resolve once and the value stops rising. The value resets to 0 in
    every end phase.
    """

    type: Literal["aura_compolta"] = "aura_compolta"
    cost: Cost = Field(description="Ether paid to play it.")
    timing: Timing = Field(default="own_turn", description="When it may be played.")
    resonance_max: int = Field(ge=1, le=10, description="Resonance value at which the effects resolve.")
    resonates_on: Resonator = Field(description="What raises the resonance value.")
    effects: tuple[Effect, ...] = Field(min_length=1, description="What resolves at full resonance.")

    def stats(self) -> str:
        return f"コスト{self.cost} {_ja(f'cards.timing.{self.timing}')} 共鳴値{self.resonance_max}"


Card = Annotated[Arcastella | Spell | SephirotCode | Follower | AuraCompolta, Field(discriminator="type")]
"""Any card, told apart by `type`."""

CARD_TYPES: tuple[str, ...] = ("arcastella", "spell", "sephirot_code", "follower", "aura_compolta")
DECK_CARD_TYPES: tuple[str, ...] = ("spell", "follower", "aura_compolta")
"""Types that go in the deck (山札); Arcastella and Sephirot codes are laid out beside it."""
