"""Card-interaction mode: cards from cards/ join the question and are shown beside the passages."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from bot.__main__ import main
from bot.catalog import Arcastella, Catalog, load_catalog
from bot.rulings.cards import card_notes
from bot.rulings.errors import RulingsError
from bot.rulings.search import Rulebook


@pytest.fixture(scope="module")
def catalog() -> Catalog:
    return load_catalog()


@pytest.fixture(scope="module")
def two_arcastella(catalog: Catalog) -> list[Arcastella]:
    cards = [c for c in catalog if isinstance(c, Arcastella)]
    assert len(cards) >= 2
    return cards[:2]


def test_named_cards_come_with_type_and_text(catalog: Catalog, two_arcastella: list[Arcastella]) -> None:
    notes = card_notes([c.name for c in two_arcastella], catalog)
    assert [n.name for n in notes] == [c.name for c in two_arcastella]
    assert all(n.type == "arcastella" and n.text == c.rules_text() for n, c in zip(notes, two_arcastella, strict=True))
    # The catalog's own name matching applies (ids and English names find the card too).
    assert card_notes([two_arcastella[0].id], catalog)[0].name == two_arcastella[0].name


def test_unknown_and_too_many_cards_are_errors(catalog: Catalog, two_arcastella: list[Arcastella]) -> None:
    with pytest.raises(RulingsError) as info:
        card_notes(["存在しないカード名"], catalog)
    assert info.value.message_key == "rulings.unknown_card"
    with pytest.raises(RulingsError) as info:
        card_notes([c.name for c in two_arcastella] * 2, catalog)
    assert info.value.message_key == "rulings.too_many_cards"


def test_a_partial_card_name_is_answered_with_the_card_it_may_mean(catalog: Catalog) -> None:
    card = next(c for c in catalog if c.name == "焔刃のハルト")
    with pytest.raises(RulingsError) as info:
        card_notes(["ハルト"], catalog)
    assert info.value.message_key == "rulings.unknown_card_close"
    assert card.name in info.value.bilingual()
    with pytest.raises(RulingsError) as info:
        card_notes(["  "], catalog)  # an empty name suggests no card at random
    assert info.value.message_key == "rulings.unknown_card"
    assert "referee cards list" in info.value.bilingual()


def test_cards_join_the_question_without_drowning_it(
    rulebook: Rulebook, catalog: Catalog, two_arcastella: list[Arcastella]
) -> None:
    cards = card_notes([c.name for c in two_arcastella], catalog)
    answer = rulebook.search("支援スキルのダメージにDEFは効く？", cards=cards)
    assert answer.answered and answer.cards == cards
    assert answer.hits[0].id == "horizonnotes-rules/15/02"
    block = rulebook.search("ブロックしたらDEFはどうなる？", cards=cards[:1])
    assert "horizonnotes-rules/11/02" in [h.id for h in block.hits]


def test_card_mode_on_the_command_line(
    cli_data_dir: Path, capsys: pytest.CaptureFixture[str], two_arcastella: list[Arcastella]
) -> None:
    first, second = (c.name for c in two_arcastella)
    assert main(["ruling", "支援スキルのダメージにDEFは効く？", "--card", first, "--card", second, "-k", "1"]) == 0
    out = capsys.readouterr().out
    assert out.startswith("カード:") and f"《{first}》" in out and f"《{second}》" in out
    assert out.index(f"《{second}》") < out.index("[1] 「")
    assert main(["ruling", "DEF", "--card", first, "--json"]) == 0
    data = json.loads(capsys.readouterr().out)
    assert data["cards"][0]["name"] == first
    assert main(["ruling", "DEF", "--card", "存在しないカード名"]) == 2
    assert capsys.readouterr().err.startswith("カード「存在しないカード名」が見つかりません")
