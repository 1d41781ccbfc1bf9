"""Questions about what a word is called in the other language, about a state's opposite, and about
the opening hand (rules/lexicon.toml `opposites`, `english`; bot/rulings/search.py `_ASKS_TERM`).

Every question here is written for this file; none is a question of the evaluation sets."""

from __future__ import annotations

import pytest

from bot.rulings.models import Label
from bot.rulings.search import Rulebook

from .helpers import HN, JUDGE, close_to_evaluation, top_ids

# Asked what a Lorcana word is called in the Japanese class: the class's note on its words (the
# terminology section) comes first, although it cites no rule.
TERM = [
    "willpowerって日本語版のカードだとなんて書いてあるの？",
    "英語のinkは日本語のカードではなんて書かれてる？",
    "How is willpower written in Japanese in this class?",
]
# A question about a tapped piece being allowed to act finds the rule on what untapped ones may do.
OPPOSITE = [
    "Our Arcastella got tapped by an effect; is it still allowed to block?",
    "タップされたままのうちのアルカステラ、ブロック宣言していい？",
]
OPENING = [
    "Starting hand size for HorizonNotes, please?",
    "HorizonNotesで初手は何枚？",
]


@pytest.mark.parametrize("question", TERM)
def test_asked_what_a_word_is_called_the_terminology_note_comes_first(rulebook: Rulebook, question: str) -> None:
    assert top_ids(rulebook, question)[0] == f"{JUDGE}/12/01"


@pytest.mark.parametrize("question", OPPOSITE)
def test_whether_a_tapped_piece_can_act_finds_what_untapped_ones_may_do(rulebook: Rulebook, question: str) -> None:
    assert f"{HN}/11/01" in top_ids(rulebook, question)


def test_a_state_s_opposite_is_searched_only_when_asked_whether_something_can_be_done(rulebook: Rulebook) -> None:
    asked = rulebook.plan("Can a tapped Arcastella block?")
    told = rulebook.plan("A tapped Arcastella takes how much damage?")
    assert "アンタップ" in asked.terms and "アンタップ" not in told.terms
    # The opposite finds and ranks the rule; it is never what makes a direct match.
    assert any("アンタップ" in related for related in asked.related.values())


def test_an_opposite_is_the_corpus_s_own_term_and_no_typo_of_the_player_s(rulebook: Rulebook) -> None:
    """Lorcana's opposite of exerted is written レディ in the lexicon and read レディー in the corpus: it
    is searched as the corpus's term, and the answer never says the player typed a word they did not."""
    answer = rulebook.search("Can I choose an opposing character that is already exerted?")
    assert answer.searched_for == []
    plan = rulebook.plan("Can I choose an opposing character that is already exerted?")
    assert any("レディー" in related for related in plan.related.values())
    # And the other way round: asked about a ready character, the rule about exerted ones answers too.
    assert any(
        "エグザート" in related for related in rulebook.plan("レディ状態のキャラはチャレンジできる？").related.values()
    )


def test_an_opposite_alone_makes_no_direct_match(rulebook: Rulebook) -> None:
    answer = rulebook.search("Can a tapped Arcastella block?")
    assert answer.hits[0].id != f"{HN}/11/01" or answer.label is not Label.DIRECT


@pytest.mark.parametrize("question", OPENING)
def test_the_opening_hand_is_the_setup(rulebook: Rulebook, question: str) -> None:
    assert f"{HN}/03/01" in top_ids(rulebook, question)


UP_TO = "The card says choose up to 2 characters. Is picking just one of them fine?"


def test_up_to_is_searched_as_the_class_words_it_n_characters(rulebook: Rulebook) -> None:
    """ "Up to two characters" is 2体まで in the class's card texts: the wording is matched, and the
    rule on "up to" comes first."""
    assert "体まで" in rulebook.plan(UP_TO).soft_literals
    assert top_ids(rulebook, UP_TO)[0] == f"{JUDGE}/04/03"


def test_these_questions_are_no_evaluation_questions() -> None:
    assert not close_to_evaluation([*TERM, *OPPOSITE, *OPENING, UP_TO])
