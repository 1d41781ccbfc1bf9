"""Asked whether something can be done, the passage saying what can, cannot or must be done comes
first (rules/lexicon.toml `asks_can`, `says_can`).

Every question here is written for this file; none is a question of the evaluation sets."""

from __future__ import annotations

import pytest

from bot.rulings.search import Rulebook

from .helpers import HN, close_to_evaluation, top_ids

CAN = [
    "タップ状態のアルカステラってブロックに参加できる？",
    "そのスペル、相手のターンでも撃てますか",
    "対象がいないけどプレイしてもいいの？",
    "Can I pay for it with ether from this turn?",
    "The unit is exerted. So can it still be chosen?",
]
NOT_CAN = [
    "エーテル変換はいつできるんだっけ？",  # when, not whether
    "1ターンに1回って書いてある効果、結局何回使えるの？",  # how many times
    "ブロック役になった子の防御力ってどう扱う？",
    "When can I convert ether?",
    "How many cards can I hold at the end of my turn?",
    "I can see the card, but what does it do?",
]


@pytest.mark.parametrize("question", CAN)
def test_a_question_asking_whether_something_can_be_done_is_read_as_such(rulebook: Rulebook, question: str) -> None:
    assert rulebook.vocab.lexicon.asks_whether_can(rulebook.plan(question).text)


@pytest.mark.parametrize("question", NOT_CAN)
def test_a_question_asking_when_how_or_what_is_not(rulebook: Rulebook, question: str) -> None:
    assert not rulebook.vocab.lexicon.asks_whether_can(rulebook.plan(question).text)


def test_a_passage_says_what_can_be_done_in_its_own_words_not_in_the_card_text_it_quotes(rulebook: Rulebook) -> None:
    says = rulebook.vocab.lexicon.says_what_can
    assert says("他のアンタップ状態のアルカステラは[ブロック]を宣言できます。")
    assert says("プレイヤー自身は自由に選べます。")
    assert says("プレイヤーは選ばなければなりません。")
    assert not says("《ティアナ》は「対戦相手はアクションをプレイできない。」です。")
    assert not says("残りの部分を、できる限り解決します。")


def test_can_a_tapped_unit_block_finds_who_may_block_beside_what_blocking_does(rulebook: Rulebook) -> None:
    """The passage on blocking's effects holds the same words (tapped, block); the one saying which
    units may declare a block answers the question, and is shown beside it. (It came first until the
    blind set's tuning questions taught the classifier: many of them ask both at once.)"""
    assert f"{HN}/11/01" in top_ids(rulebook, "タップ状態のアルカステラってブロックに参加できる？", k=2)


def test_these_questions_are_no_evaluation_questions() -> None:
    assert not close_to_evaluation([*CAN, *NOT_CAN])
