"""The shipped data loads, and every broken file is reported with file, card and field, all at once."""

from __future__ import annotations

from pathlib import Path

import pytest

from bot.catalog import (
    CARD_TYPES,
    EFFECT_KINDS,
    Arcastella,
    AuraCompolta,
    Catalog,
    CatalogError,
    ContinuingEffect,
    DeckRules,
    Follower,
    SephirotCode,
    Spell,
    UnknownCard,
    WrongCardType,
    load_catalog,
)
from bot.catalog.effects import ModifyDefEffect

from .conftest import edit


def effect_kinds(catalog: Catalog) -> set[str]:
    kinds: set[str] = set()
    for card in catalog:
        groups = []
        if isinstance(card, Arcastella):
            groups = [s.effects for s in card.skills]
        elif isinstance(card, Spell):
            groups = [card.effects, card.ether_effect]
        elif isinstance(card, SephirotCode):
            groups = [card.on_break]
        elif isinstance(card, Follower):
            groups = [card.effects, *(t.effects for t in card.triggers)]
        elif isinstance(card, AuraCompolta):
            groups = [card.effects]
        for group in groups:
            for effect in group:
                kinds.add(effect.kind)
                if isinstance(effect, ContinuingEffect):
                    kinds.update(e.kind for e in effect.effects)
    return kinds


def test_every_shipped_file_loads(shipped: Catalog, cards_dir: Path) -> None:
    files = sorted(p.relative_to(cards_dir).as_posix() for p in cards_dir.rglob("*.toml"))
    sources = {shipped.source(i) for i in [*shipped.cards, *shipped.decks]}
    assert sources == set(files)
    assert len(shipped) >= 40
    assert {card.type for card in shipped} == set(CARD_TYPES)
    assert len(shipped.decks) >= 2


def test_the_sample_set_covers_the_vocabulary(shipped: Catalog) -> None:
    assert effect_kinds(shipped) == set(EFFECT_KINDS)
    assert {c.timing for c in shipped if isinstance(c, Spell)} >= {
        "own_turn",
        "opponent_turn",
        "any",
        "turn_start",
        "turn_end",
        "knockout",
    }
    assert any(c.ether_effect for c in shipped if isinstance(c, Spell))
    arcastella = [c for c in shipped if isinstance(c, Arcastella)]
    assert {s.kind for c in arcastella for s in c.skills} == {"attack", "support", "leader", "astral"}
    assert all(20 <= c.hp <= 40 and 1 <= c.defense <= 5 for c in arcastella)
    durations = {e.duration for c in arcastella for s in c.skills for e in s.effects if isinstance(e, ModifyDefEffect)}
    assert durations == {"turn", "continuing"}


def test_every_shipped_file_is_labelled_sample_data(shipped: Catalog, cards_dir: Path) -> None:
    for path in cards_dir.rglob("*.toml"):
        header = path.read_text(encoding="utf-8")[:600]
        assert "SAMPLE DATA" in header and "NOT official" in header, path
    for item in [*shipped.cards, *shipped.decks]:
        assert "SAMPLE DATA" in (shipped.notice(item) or ""), item
    assert "SAMPLE DATA" in (cards_dir / "README.md").read_text(encoding="utf-8")


def test_sample_decks_are_playable(shipped: Catalog) -> None:
    for deck in shipped.decks.values():
        assert deck.size == DeckRules().size
        assert deck.leader in deck.arcastella
        assert all(isinstance(shipped.get(a), Arcastella) for a in deck.arcastella)
        assert all(isinstance(shipped.get(e.code), SephirotCode) for e in deck.equipment)
        assert sum(isinstance(shipped.get(i), Spell) for i in deck.card_ids()) >= 20  # enough to convert


def test_get_and_typed_get(shipped: Catalog) -> None:
    assert shipped.get("mizuha").name == "水葉のミズハ"
    assert shipped.get_as("mizuha", Arcastella).defense == 2
    with pytest.raises(UnknownCard) as unknown:
        shipped.get("no-such-card")
    assert "no-such-card" in unknown.value.bilingual()
    with pytest.raises(WrongCardType):
        shipped.get_as("mizuha", Spell)


def problems_of(folder: Path) -> list[str]:
    with pytest.raises(CatalogError) as info:
        load_catalog(folder)
    return [p.render("en") for p in info.value.problems]


def test_a_bad_field_names_file_card_and_field(copy_dir: Path) -> None:
    edit(copy_dir / "arcastella.toml", "hp = 28", 'hp = "many"')
    assert problems_of(copy_dir) == ["arcastella.toml: mizuha: hp: Write a whole number."]


def test_a_nested_bad_field_gets_its_full_path(copy_dir: Path) -> None:
    edit(copy_dir / "arcastella.toml", 'kind = "damage", amount = 5,', 'kind = "damage", amount = 5, dice = "1d6",')
    assert problems_of(copy_dir) == [
        "arcastella.toml: rei-glacia: skills[0].effects[0]: Give exactly one of amount (fixed damage) and dice."
    ]


def test_every_problem_is_reported_at_once(copy_dir: Path) -> None:
    edit(copy_dir / "spells.toml", 'timing = "opponent_turn"', 'timing = "whenever"')
    edit(copy_dir / "followers.toml", "hp = 6", "hp = 0")
    edit(copy_dir / "decks" / "tidal_veil.toml", 'id = "undertow"', 'id = "undertoe"')
    edit(copy_dir / "arcastella.toml", 'kind = "suppor', 'kind = "suport')
    problems = problems_of(copy_dir)
    assert len(problems) == 4, problems
    assert any(p.startswith("spells.toml: counter-flame: timing: The value must be one of") for p in problems)
    assert "followers.toml: ember-fox: hp: It must be at least 1." in problems
    assert any(p.startswith("arcastella.toml: ignis-hart: skills[1].kind:") for p in problems)
    assert (
        "decks/tidal_veil.toml: tidal-veil: cards[1].id: deck tidal-veil: card undertoe is not in the catalog."
        in problems
    )


def test_an_unknown_id_in_a_deck_is_refused_with_the_reason(copy_dir: Path) -> None:
    edit(copy_dir / "decks" / "solar_vanguard.toml", '"sola-lyne",', '"sola-lyna",')
    edit(copy_dir / "decks" / "solar_vanguard.toml", 'id = "blaze-lance"', 'id = "blaze-lancer"')
    assert problems_of(copy_dir) == [
        "decks/solar_vanguard.toml: solar-vanguard: arcastella[1]: deck solar-vanguard: card sola-lyna is not in "
        "the catalog.",
        "decks/solar_vanguard.toml: solar-vanguard: cards[1].id: deck solar-vanguard: card blaze-lancer is not in "
        "the catalog.",
    ]


def test_a_deck_with_shape_errors_still_has_its_ids_checked(copy_dir: Path) -> None:
    deck = copy_dir / "decks" / "tidal_veil.toml"
    edit(deck, 'leader = "mizuha"', 'leader = "mizuha"\ncolour = "blue"')
    edit(deck, 'id = "whirlpool"', 'id = "whirlpol"')
    assert problems_of(copy_dir) == [
        "decks/tidal_veil.toml: tidal-veil: colour: This field is not allowed (check the spelling).",
        "decks/tidal_veil.toml: tidal-veil: cards[4].id: deck tidal-veil: card whirlpol is not in the catalog.",
    ]


def test_a_deck_naming_a_broken_card_is_not_told_the_card_is_missing(copy_dir: Path) -> None:
    edit(copy_dir / "arcastella.toml", "hp = 28", "hp = -1")
    assert problems_of(copy_dir) == ["arcastella.toml: mizuha: hp: It must be at least 1."]


def test_duplicate_card_ids_are_refused(copy_dir: Path) -> None:
    edit(copy_dir / "followers.toml", 'id = "mist-owl"', 'id = "tide-bullet"')
    problems = problems_of(copy_dir)
    assert "spells.toml: tide-bullet: id: The card id 'tide-bullet' is already used (followers.toml)." in problems
    # the deck that used mist-owl now refers to a card that is gone
    assert any("card mist-owl is not in the catalog" in p for p in problems)


def test_duplicate_deck_ids_are_refused(copy_dir: Path) -> None:
    text = (copy_dir / "decks" / "tidal_veil.toml").read_text(encoding="utf-8")
    (copy_dir / "decks" / "tidal_veil_copy.toml").write_text(text, encoding="utf-8")
    assert problems_of(copy_dir) == [
        "decks/tidal_veil_copy.toml: tidal-veil: id: The deck id 'tidal-veil' is already used (decks/tidal_veil.toml)."
    ]


@pytest.mark.parametrize(
    ("old", "new", "expected"),
    [
        (
            'arcastella = ["mizuha", "kiri-no-sei", "rei-glacia"]',
            'arcastella = ["mizuha", "kiri-no-sei"]',
            "arcastella: Name exactly three different Arcastella (got 2).",
        ),
        (
            'arcastella = ["mizuha", "kiri-no-sei", "rei-glacia"]',
            'arcastella = ["mizuha", "kiri-no-sei", "rei-glacia", "nox-arden"]',
            "arcastella: Name exactly three different Arcastella (got 4).",
        ),
        (
            'leader = "mizuha"',
            'leader = "nox-arden"',
            "leader: The leader nox-arden is not among the three Arcastella.",
        ),
        (
            'arcastella = ["mizuha", "kiri-no-sei", "rei-glacia"]',
            'arcastella = ["mizuha", "kiri-no-sei", "tide-bullet"]',
            "arcastella[2]: The card tide-bullet is of type spell; this place needs arcastella.",
        ),
        (
            '{ id = "undertow", count = 3 }',
            '{ id = "undertow", count = 4 }',
            "cards[1].count: The card undertow appears 4 times; at most 3 copies are allowed.",
        ),
        (
            '{ id = "whirlpool", count = 2 }',
            '{ id = "whirlpool", count = 1 }',
            "cards: The deck has 29 cards; it must have exactly 30.",
        ),
        (
            '{ id = "whirlpool", count = 2 }',
            '{ id = "keter-circlet", count = 2 }',
            "cards[4].id: The card keter-circlet is of type sephirot_code; this place needs spell / follower / "
            "aura_compolta.",
        ),
        (
            'code = "keter-circlet"',
            'code = "mist-veil"',
            "equipment[0].code: The card mist-veil is of type spell; this place needs sephirot_code.",
        ),
    ],
)
def test_deck_rules(copy_dir: Path, old: str, new: str, expected: str) -> None:
    edit(copy_dir / "decks" / "tidal_veil.toml", old, new)
    problems = problems_of(copy_dir)
    assert f"decks/tidal_veil.toml: tidal-veil: {expected}" in problems, problems


def test_a_broken_toml_file_is_reported_with_the_others(copy_dir: Path) -> None:
    edit(copy_dir / "followers.toml", 'name = "火狐"', 'name = "火狐')
    edit(copy_dir / "spells.toml", "cost = 5", "cost = 11")
    problems = problems_of(copy_dir)
    assert any(p.startswith("followers.toml: Not valid TOML") for p in problems)
    assert "spells.toml: astral-echo: cost: It must be at most 10." in problems


def test_the_deck_rules_can_be_changed(cards_dir: Path) -> None:
    with pytest.raises(CatalogError) as info:
        load_catalog(cards_dir, DeckRules(size=40))
    assert len(info.value.problems) == 3
    assert load_catalog(cards_dir, DeckRules(size=30, max_copies=3)).rules.size == 30


def test_the_error_lists_problems_in_both_languages(copy_dir: Path) -> None:
    edit(copy_dir / "arcastella.toml", "hp = 28", 'hp = "many"')
    with pytest.raises(CatalogError) as info:
        load_catalog(copy_dir)
    assert info.value.bilingual().splitlines() == [
        "カードデータに 1 件の問題があります。 / The card data has 1 problem(s).",
        "arcastella.toml: mizuha: hp: 整数を書いてください。 / Write a whole number.",
    ]


def test_a_catalog_built_in_code_is_checked_the_same_way(shipped: Catalog) -> None:
    deck = shipped.decks["tidal-veil"]
    cards = [shipped.get(i) for i in {*deck.arcastella, *deck.card_ids(), "keter-circlet"}]
    assert Catalog.build(cards, [deck]).get("mizuha").name == "水葉のミズハ"
    with pytest.raises(CatalogError) as info:
        Catalog.build([c for c in cards if c.id != "undertow"], [deck])
    assert [p.render("en") for p in info.value.problems] == [
        "tidal-veil: cards[1].id: deck tidal-veil: card undertow is not in the catalog."
    ]
    with pytest.raises(CatalogError):
        Catalog.build([*cards, cards[0]])


def test_malformed_card_files_are_reported_per_entry(tmp_path: Path) -> None:
    (tmp_path / "a.toml").write_text("cards = [1]\n[[extra]]\nx = 1\n", encoding="utf-8")
    (tmp_path / "b.toml").write_text("notice = 3\n", encoding="utf-8")
    (tmp_path / "c.toml").write_text('[[cards]]\nid = "q"\n', encoding="utf-8")
    assert problems_of(tmp_path) == [
        "a.toml: extra: This field is not allowed (check the spelling).",
        "a.toml: #1: Write a table.",
        "b.toml: notice: Write a string.",
        "b.toml: cards: There is no [[cards]] table.",
        "c.toml: q: type: Write the type.",
    ]


def test_an_empty_folder_is_a_problem_not_an_empty_catalog(tmp_path: Path) -> None:
    assert problems_of(tmp_path) == [f"{tmp_path}: There are no card files (*.toml)."]
