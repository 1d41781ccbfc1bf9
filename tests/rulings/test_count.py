"""Asked how often or in what order something is done, the passage saying it (何度でも, 任意の順序)
comes first (rules/lexicon.toml `asks_count`, `says_count`).

Every question here is written for this file; none is a question of the evaluation sets."""

from __future__ import annotations

import pytest

from bot.rulings.search import Rulebook

from .helpers import HN, close_to_evaluation, top_ids

ANY_ORDER = "Can I do things in the main phase in any order, or is it attack first?"
COUNT = [
    "メインフェイズ中の行動って回数の上限ある？",
    "スペルとアタック、好きな順でやっていいんですか？",
    "攻撃の順番は決まってる？",
    ANY_ORDER,
    "How often can the same Arcastella use its skill?",
]
NOT_COUNT = [
    "ダメージ処理の順番を一から教えて",  # the order of a procedure's steps, not a limit
    "スタートフェイズの処理を順番通りに並べると？",
    "I block in order to protect my leader. What DEF does the blocker use?",
    "ブロックしたユニットのDEFってどう計算するの？",
]


@pytest.mark.parametrize("question", COUNT)
def test_a_question_asking_how_often_or_in_what_order_is_read_as_such(rulebook: Rulebook, question: str) -> None:
    assert rulebook.vocab.lexicon.asks_how_often(rulebook.plan(question).text)


@pytest.mark.parametrize("question", NOT_COUNT)
def test_a_question_about_the_steps_of_a_procedure_is_not(rulebook: Rulebook, question: str) -> None:
    assert not rulebook.vocab.lexicon.asks_how_often(rulebook.plan(question).text)


def test_a_passage_says_how_often_in_its_own_words_not_in_the_card_text_it_quotes(rulebook: Rulebook) -> None:
    says = rulebook.vocab.lexicon.says_how_often
    assert says("ターンプレイヤーは以下の行動を、ターン中何度でも任意の順序で実行できます。")
    assert says("各アルカステラにつき1ターンに1回しか発動できません。")
    assert not says("《ミッキー》は「各ターンに1回、カードを1枚引く。」です。")
    assert not says("ブロックしたアルカステラがダメージを肩代わりします。")


def test_asked_whether_the_main_phase_has_an_order_the_rule_saying_any_order_comes_first(rulebook: Rulebook) -> None:
    """The main phase's own passage (what the phase is for) shares the question's words; the rule
    that its actions go in any order, any number of times, answers it."""
    assert top_ids(rulebook, ANY_ORDER, k=1) == [f"{HN}/10/01"]


def test_these_questions_are_no_evaluation_questions() -> None:
    assert not close_to_evaluation([*COUNT, *NOT_COUNT])
