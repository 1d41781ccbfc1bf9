"""Players find a card however they type its name: kana, widths, middle dots, case, English."""

from __future__ import annotations

import pytest

from bot.catalog import Catalog, UnknownDeck, normalize_name


@pytest.mark.parametrize(
    "typed",
    [
        "keter-circlet",
        "ケテル・サークレット",
        "ケテルサークレット",
        "けてる・さーくれっと",
        "ｹﾃﾙ･ｻｰｸﾚｯﾄ",
        "ケテル　サークレット",
        "ケテル·サークレット",
        "Keter Circlet",
        "KETER CIRCLET",
        "ｋｅｔｅｒ－ｃｉｒｃｌｅｔ",
    ],
)
def test_find_forgives_kana_width_dots_and_case(shipped: Catalog, typed: str) -> None:
    card = shipped.find(typed)
    assert card is not None and card.id == "keter-circlet"


def test_find_by_japanese_name_with_and_without_the_dot(shipped: Catalog) -> None:
    for typed in ("氷棺のレイ・グラシア", "氷棺のレイグラシア", "氷棺のれいぐらしあ"):
        card = shipped.find(typed)
        assert card is not None and card.id == "rei-glacia"


def test_find_does_not_guess(shipped: Catalog) -> None:
    assert shipped.find("潮") is None
    assert shipped.find("ケテル") is None
    assert shipped.find("") is None


def test_search_ranks_exact_then_prefix_then_substring(shipped: Catalog) -> None:
    ids = [c.id for c in shipped.search("潮")]
    assert ids[:2] == ["tide-bullet", "tide-sprite"]  # 潮弾, 潮の精 start with 潮
    assert set(ids) == {"tide-bullet", "tide-sprite", "undertow", "whirlpool", "ebb-tide"}
    assert [c.id for c in shipped.search("spark arrow")] == ["spark-arrow"]
    assert len(shipped.search("", limit=5)) == 5


def test_decks_are_found_by_id_and_names(shipped: Catalog) -> None:
    for typed in ("tidal-veil", "潮騒の帳", "Tidal Veil"):
        deck = shipped.find_deck(typed)
        assert deck is not None and deck.id == "tidal-veil"
    with pytest.raises(UnknownDeck):
        shipped.deck("no such deck")


def test_normalisation_rules() -> None:
    assert normalize_name("アルカ・ステラ") == normalize_name("あるかすてら") == "アルカステラ"
    assert normalize_name("ﾎﾗｲｿﾞﾝ") == "ホライゾン"
    assert normalize_name("Ether Flash") == "etherflash"
