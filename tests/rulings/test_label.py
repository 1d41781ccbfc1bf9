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
