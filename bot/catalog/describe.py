"""Cards and effects in words, in Japanese or English, for `referee cards show` and the table."""

from __future__ import annotations

from bot.catalog.cards import Arcastella, AuraCompolta, CardBase, Follower, SephirotCode, Skill, Spell
from bot.catalog.effects import (
    ContinuingEffect,
    DamageEffect,
    DrawEffect,
    GainEtherEffect,
    HealEffect,
    ManualEffect,
    ModifyDefEffect,
    SimpleEffect,
    TapEffect,
    UntapEffect,
)
from bot.i18n import t

AnyEffect = SimpleEffect | ContinuingEffect


def describe_effect(effect: AnyEffect, locale: str = "ja") -> str:
    """One effect as a short phrase, e.g. 「選んだ相手のユニット1体に2d6ダメージ」."""

    def target(name: str) -> str:
        return t(f"cards.target.{name}", locale)

    match effect:
        case DamageEffect(amount=amount, dice=dice):
            if dice is not None:
                return t("cards.effect.damage_dice", locale, target=target(effect.target), dice=dice)
            return t("cards.effect.damage_amount", locale, target=target(effect.target), amount=amount)
        case HealEffect():
            return t("cards.effect.heal", locale, target=target(effect.target), amount=effect.amount)
        case DrawEffect():
            return t("cards.effect.draw", locale, player=target(effect.player), count=effect.count)
        case GainEtherEffect():
            return t("cards.effect.gain_ether", locale, player=target(effect.player), amount=effect.amount)
        case TapEffect():
            return t("cards.effect.tap", locale, target=target(effect.target))
        case UntapEffect():
            return t("cards.effect.untap", locale, target=target(effect.target))
        case ModifyDefEffect():
            key = "cards.effect.modify_def_turn" if effect.duration == "turn" else "cards.effect.modify_def_continuing"
            return t(key, locale, target=target(effect.target), amount=f"{effect.amount:+d}", count=effect.count)
        case ContinuingEffect():
            inner = t("cards.effect.joiner", locale).join(describe_effect(e, locale) for e in effect.effects)
            return t("cards.effect.continuing", locale, count=effect.count, effects=inner)
        case ManualEffect():
            text = effect.text_en if locale == "en" and effect.text_en else effect.text
            return t("cards.effect.manual", locale, text=text)
    raise AssertionError(f"unhandled effect {effect!r}")  # the match covers the whole union


def describe_effects(effects: tuple[AnyEffect, ...], locale: str = "ja") -> str:
    return t("cards.effect.joiner", locale).join(describe_effect(e, locale) for e in effects)


def _skill_lines(skill: Skill, locale: str) -> list[str]:
    name = skill.name_en if locale == "en" and skill.name_en else skill.name
    return [
        t(
            "cards.show.skill",
            locale,
            kind=t(f"cards.skill.{skill.kind}", locale),
            name=name,
            id=skill.id,
            cost=skill.cost,
            timing=t(f"cards.timing.{skill.timing}", locale),
            effects=describe_effects(skill.effects, locale),
        )
    ]


def describe_card(card: CardBase, locale: str = "ja") -> list[str]:
    """The card's numbers and effects, one line each (the printed text is in `rules_text()`)."""
    lines: list[str] = []
    label = t(f"cards.type.{getattr(card, 'type', '')}", locale)
    lines.append(t("cards.show.type", locale, type=label, id=card.id))
    if isinstance(card, Arcastella):
        lines.append(t("cards.show.unit", locale, hp=card.hp, defense=card.defense))
        for skill in card.skills:
            lines.extend(_skill_lines(skill, locale))
    elif isinstance(card, Spell):
        lines.append(t("cards.show.cost", locale, cost=card.cost, timing=t(f"cards.timing.{card.timing}", locale)))
        lines.append(t("cards.show.effects", locale, effects=describe_effects(card.effects, locale)))
        if card.ether_effect:
            lines.append(t("cards.show.ether_effect", locale, effects=describe_effects(card.ether_effect, locale)))
    elif isinstance(card, SephirotCode):
        results = ", ".join(str(n) for n in sorted(card.breaks_on))
        lines.append(t("cards.show.breaks", locale, results=results, bonus=card.def_bonus))
        if card.on_break:
            lines.append(t("cards.show.on_break", locale, effects=describe_effects(card.on_break, locale)))
    elif isinstance(card, Follower):
        lines.append(t("cards.show.cost", locale, cost=card.cost, timing=t(f"cards.timing.{card.timing}", locale)))
        lines.append(t("cards.show.unit", locale, hp=card.hp, defense=card.defense))
        if card.effects:
            lines.append(t("cards.show.on_enter", locale, effects=describe_effects(card.effects, locale)))
        for trigger in card.triggers:
            timing = t(f"cards.timing.{trigger.timing}", locale)
            lines.append(
                t("cards.show.trigger", locale, timing=timing, effects=describe_effects(trigger.effects, locale))
            )
    elif isinstance(card, AuraCompolta):
        lines.append(t("cards.show.cost", locale, cost=card.cost, timing=t(f"cards.timing.{card.timing}", locale)))
        lines.append(
            t(
                "cards.show.resonance",
                locale,
                max=card.resonance_max,
                on=t(f"cards.resonator.{card.resonates_on}", locale),
                effects=describe_effects(card.effects, locale),
            )
        )
    return lines
