"""Effects and cards in words, in both languages."""

from __future__ import annotations

import pytest
from pydantic import TypeAdapter

from bot.catalog import Catalog, Effect
from bot.catalog.describe import describe_card, describe_effect

EFFECT = TypeAdapter[Effect](Effect)


@pytest.mark.parametrize(
    ("effect", "ja", "en"),
    [
        ({"kind": "damage", "dice": "2d6", "target": "chosen_enemy"}, "選んだ相手のユニット1体に2d6ダメージ",
         "2d6 damage to one chosen enemy unit"),
        ({"kind": "damage", "amount": 3, "target": "all_enemies"}, "相手のユニットすべてに3ダメージ",
         "3 damage to every enemy unit"),
        ({"kind": "heal", "amount": 4, "target": "self"}, "自身のHPを4回復", "heal 4 HP of itself"),
        ({"kind": "draw", "count": 1, "player": "opponent"}, "相手がカードを1枚ドロー",
         "draw 1 card(s) (the opponent)"),
        ({"kind": "gain_ether", "amount": 2}, "自分がエーテルを2点獲得", "gain 2 ether (you)"),
        ({"kind": "tap", "target": "chosen_enemy"}, "選んだ相手のユニット1体をタップ", "tap one chosen enemy unit"),
        ({"kind": "untap", "target": "all_allies"}, "味方のユニットすべてをアンタップ", "untap every allied unit"),
        ({"kind": "modify_def", "amount": -2, "target": "chosen_enemy", "duration": "continuing", "count": 2},
         "選んだ相手のユニット1体のDEF-2（【継続2】の間）", "DEF -2 for one chosen enemy unit (continuing 2)"),
        ({"kind": "continuing", "count": 3, "effects": [{"kind": "heal", "amount": 1, "target": "self"}]},
         "【継続3】自分のスタートフェイズごとに: 自身のHPを1回復",
         "Continuing 3, in each of your start phases: heal 1 HP of itself"),
        ({"kind": "manual", "text": "手札を1枚捨てる。", "text_en": "Discard a card."},
         "手動で処理: 手札を1枚捨てる。", "apply by hand: Discard a card."),
    ],
)  # fmt: skip
def test_every_effect_kind_is_described(effect: dict[str, object], ja: str, en: str) -> None:
    parsed = EFFECT.validate_python(effect)
    assert describe_effect(parsed, "ja") == ja
    assert describe_effect(parsed, "en") == en


def test_every_shipped_card_is_described_in_both_languages(shipped: Catalog) -> None:
    for card in shipped:
        ja, en = describe_card(card, "ja"), describe_card(card, "en")
        assert len(ja) == len(en) >= 2, card.id
        assert card.id in ja[0] and card.id in en[0]
