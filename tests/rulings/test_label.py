"""The label says whether the passages shown speak to what the question asks: someone when it asks
who; a card named in full is a card, a lone capitalised word nothing knows may be a keyword."""

from __future__ import annotations

from bot.rulings.models import Label
from bot.rulings.search import Rulebook


def test_asking_who_needs_a_passage_naming_someone(rulebook: Rulebook) -> None:
    # The resonance value's passages say when it resets, never whose it is.
    assert rulebook.search("共鳴値はいつリセットされる？").label is Label.DIRECT
    assert rulebook.search("共鳴値は誰がリセットするの？").label is Label.CLOSEST
    # The break check's passage names the Arcastella that took the damage: someone.
    assert rulebook.search("Who rolls the dice for the break check?").label is Label.DIRECT


def test_a_card_named_in_full_does_not_keep_a_close_match_from_being_direct(rulebook: Rulebook) -> None:
    answer = rulebook.search("Can Ward stop Scar - Mastermind from choosing my character?")
    assert rulebook.plan("Can Ward stop Scar - Mastermind from choosing my character?").unknown_names
    assert answer.label is Label.DIRECT
    # A lone capitalised word nothing knows may be a keyword the corpus never names.
    assert rulebook.search("Can Reckless characters quest?").label is Label.CLOSEST


def test_a_game_name_is_no_unknown_card_name(rulebook: Rulebook) -> None:
    plan = rulebook.plan("Can I choose a character with Ward in Lorcana?")
    assert plan.unknown_names == [] and plan.games == ["lorcana"]
    assert rulebook.search("Can I choose a character with Ward in Lorcana?").label is Label.DIRECT
