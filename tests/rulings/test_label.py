"""The label says whether the passages shown speak to what the question asks: asked who, the
passage answering must name someone."""

from __future__ import annotations

from bot.rulings.models import Label
from bot.rulings.search import Rulebook


def test_asking_who_needs_a_passage_naming_someone(rulebook: Rulebook) -> None:
    # The resonance value's passages say when it resets, never whose it is.
    assert rulebook.search("共鳴値はいつリセットされる？").label is Label.DIRECT
    assert rulebook.search("共鳴値は誰がリセットするの？").label is Label.CLOSEST
    # The break check's passage names the Arcastella that took the damage: someone.
    assert rulebook.search("Who rolls the dice for the break check?").label is Label.DIRECT


def test_a_word_read_only_through_the_dictionary_is_no_direct_match(rulebook: Rulebook) -> None:
    """了解 is no rules word; the dictionary's synonym 許す is: the passages about what a card allows
    may be the closest, never a direct answer to "了解です"."""
    assert rulebook.search("了解です").label is not Label.DIRECT
    # A player's word the lexicon reads as the rules' word is one: 寝かせる is タップ.
    assert rulebook.search("寝かせたアルカステラはブロックできる？").label is Label.DIRECT
