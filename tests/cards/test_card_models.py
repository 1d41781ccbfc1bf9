"""The models refuse what the engine could not play, and read the file field names."""

from __future__ import annotations

from typing import Any

import pytest
from pydantic import TypeAdapter, ValidationError

from bot.catalog import Arcastella, Card, DamageEffect, Deck, Effect, ModifyDefEffect, Skill, Spell

CARD = TypeAdapter[Card](Card)
EFFECT = TypeAdapter[Effect](Effect)


def arcastella(**overrides: Any) -> dict[str, Any]:
    data: dict[str, Any] = {
        "type": "arcastella",
        "id": "test-unit",
        "name": "試験のユニット",
        "hp": 30,
        "def": 2,
        "skills": [
            {
                "id": "hit",
                "name": "一撃",
                "kind": "attack",
                "cost": 2,
                "effects": [{"kind": "damage", "dice": "2d6", "target": "chosen_enemy"}],
                "text": "相手のアルカステラ1体に2d6ダメージ。",
            }
        ],
    }
    data.update(overrides)
    return data


def error_types(exc: ValidationError) -> set[str]:
    return {e["type"] for e in exc.errors()}


def test_def_is_read_from_files_and_settable_by_name() -> None:
    card = CARD.validate_python(arcastella())
    assert isinstance(card, Arcastella)
    assert card.defense == 2
    assert Arcastella(id="x", name="x", hp=10, defense=3, skills=card.skills).defense == 3


def test_cards_are_frozen_and_refuse_unknown_fields() -> None:
    card = CARD.validate_python(arcastella())
    with pytest.raises(ValidationError):
        card.hp = 99  # type: ignore[misc,union-attr]
    with pytest.raises(ValidationError) as info:
        CARD.validate_python(arcastella(colour="red"))
    assert "extra_forbidden" in error_types(info.value)


@pytest.mark.parametrize(
    ("effect", "error"),
    [
        ({"kind": "damage", "amount": 3, "dice": "1d6", "target": "chosen_enemy"}, "damage_amount_or_dice"),
        ({"kind": "damage", "target": "chosen_enemy"}, "damage_amount_or_dice"),
        ({"kind": "damage", "dice": "2d8", "target": "chosen_enemy"}, "string_pattern_mismatch"),
        ({"kind": "damage", "amount": 2, "target": "opponent"}, "literal_error"),
        ({"kind": "modify_def", "amount": 1, "target": "self", "duration": "continuing"}, "count_only_with_continuing"),
        ({"kind": "modify_def", "amount": 1, "target": "self", "count": 2}, "count_only_with_continuing"),
        ({"kind": "modify_def", "amount": 0, "target": "self"}, "zero_def_change"),
        ({"kind": "heal", "amount": 0, "target": "self"}, "greater_than_equal"),
        ({"kind": "explode", "target": "self"}, "union_tag_invalid"),
        (
            {"kind": "continuing", "count": 2, "effects": [{"kind": "continuing", "count": 1, "effects": []}]},
            "union_tag_invalid",
        ),
    ],
)
def test_effects_outside_the_vocabulary_are_refused(effect: dict[str, Any], error: str) -> None:
    with pytest.raises(ValidationError) as info:
        EFFECT.validate_python(effect)
    assert error in error_types(info.value)


def test_effects_of_the_vocabulary_are_read() -> None:
    assert EFFECT.validate_python({"kind": "damage", "amount": 4, "target": "all_enemies"}) == DamageEffect(
        amount=4, target="all_enemies"
    )
    lasting = EFFECT.validate_python(
        {"kind": "modify_def", "amount": -2, "target": "chosen_enemy", "duration": "continuing", "count": 2}
    )
    assert isinstance(lasting, ModifyDefEffect)
    assert lasting.count == 2


def test_an_attack_must_deal_damage_to_a_chosen_enemy() -> None:
    data = arcastella()
    data["skills"][0]["effects"] = [{"kind": "damage", "amount": 3, "target": "all_enemies"}]
    with pytest.raises(ValidationError) as info:
        CARD.validate_python(data)
    assert "attack_without_target" in error_types(info.value)
    data["skills"][0]["kind"] = "support"
    assert CARD.validate_python(data).type == "arcastella"


def test_skill_ids_are_unique_within_an_arcastella() -> None:
    data = arcastella()
    data["skills"] = data["skills"] * 2
    with pytest.raises(ValidationError) as info:
        CARD.validate_python(data)
    assert "duplicate_skill" in error_types(info.value)


def test_a_sephirot_code_breaks_on_die_faces_only() -> None:
    base = {"type": "sephirot_code", "id": "c", "name": "コード", "def_bonus": 1}
    assert CARD.validate_python({**base, "breaks_on": [1, 2]}).type == "sephirot_code"
    for faces in ([0], [7], [], [1, 1], [1, 2, 3, 4, 5, 6]):
        with pytest.raises(ValidationError):
            CARD.validate_python({**base, "breaks_on": faces})


def test_ids_are_ascii_slugs() -> None:
    for bad in ("Fire Ball", "火の玉", "-lead", ""):
        with pytest.raises(ValidationError):
            CARD.validate_python(arcastella(id=bad))


def test_rules_text_has_the_name_numbers_and_skills() -> None:
    card = CARD.validate_python(arcastella(name_en="Test Unit", keywords=["試験"]))
    text = card.rules_text()
    assert text.splitlines()[0] == "試験のユニット (Test Unit) 〔アルカステラ〕 HP 30 DEF 2 〈試験〉"
    assert "《攻撃スキル》一撃 コスト2 [自分のターン]: 相手のアルカステラ1体に2d6ダメージ。" in text


def test_skill_lookup_forgives_kana_and_case() -> None:
    card = CARD.validate_python(arcastella())
    assert isinstance(card, Arcastella)
    assert card.skill("一撃") == card.skills[0]
    assert card.skill("HIT") == card.skills[0]
    assert card.skill("二撃") is None
    assert isinstance(card.skills[0], Skill)


def test_spells_keep_their_ether_effect_apart() -> None:
    spell = CARD.validate_python(
        {
            "type": "spell",
            "id": "s",
            "name": "呪文",
            "cost": 2,
            "timing": "any",
            "effects": [{"kind": "draw", "count": 1}],
            "ether_effect": [{"kind": "gain_ether", "amount": 1}],
        }
    )
    assert isinstance(spell, Spell)
    assert [e.kind for e in spell.effects] == ["draw"]
    assert [e.kind for e in spell.ether_effect] == ["gain_ether"]


@pytest.mark.parametrize(
    ("changes", "error"),
    [
        ({"arcastella": ["a", "b"]}, "arcastella_count"),
        ({"arcastella": ["a", "b", "b"]}, "arcastella_count"),
        ({"arcastella": ["a", "b", "c", "d"]}, "arcastella_count"),
        ({"leader": "z"}, "leader_not_fielded"),
        ({"equipment": [{"arcastella": "z", "code": "k"}]}, "wearer_not_fielded"),
        ({"equipment": [{"arcastella": "a", "code": "k"}, {"arcastella": "a", "code": "j"}]}, "two_codes"),
        ({"cards": [{"id": "x", "count": 1}, {"id": "x", "count": 2}]}, "repeated_entry"),
    ],
)
def test_deck_shape_is_checked(changes: dict[str, Any], error: str) -> None:
    data: dict[str, Any] = {"id": "d", "name": "デッキ", "leader": "a", "arcastella": ["a", "b", "c"]}
    data["cards"] = [{"id": "x", "count": 3}]
    data.update(changes)
    with pytest.raises(ValidationError) as info:
        Deck.model_validate(data)
    assert error in error_types(info.value)


def test_a_deck_expands_to_its_cards() -> None:
    deck = Deck.model_validate(
        {
            "id": "d",
            "name": "デッキ",
            "leader": "b",
            "arcastella": ["a", "b", "c"],
            "equipment": [{"arcastella": "c", "code": "k"}],
            "cards": [{"id": "x", "count": 2}, {"id": "y"}],
        }
    )
    assert deck.card_ids() == ["x", "x", "y"]
    assert deck.size == 3
    assert deck.code_of("c") == "k"
    assert deck.code_of("a") is None
