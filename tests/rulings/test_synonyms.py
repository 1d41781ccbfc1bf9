"""The dictionary's synonyms: SudachiDict files words under synonym groups (費用 and コスト share
one), and a question's word whose group holds other corpus terms gets them as alternatives, at a
lower weight. They never make a question about the games, never lead to a game keyword, and alone
never make a match direct.

Every question here is written for this file; none is a question of the evaluation sets."""

from __future__ import annotations

import pytest

from bot.rulings.search import Rulebook
from bot.rulings.tokenize import tokens

from .helpers import HN, is_outside


def _groups(word: str) -> tuple[int, ...]:
    return next(t.groups for t in tokens(word) if not t.piece)


def test_a_dictionary_synonym_of_the_corpus_word_finds_its_passage(rulebook: Rulebook) -> None:
    """費用 is nowhere in the corpus nor in the lexicon; the rule page says コスト, which the
    dictionary files in one of 費用's synonym groups."""
    lexicon = rulebook.vocab.lexicon
    assert "費用" not in rulebook.vocab.df
    assert not any("費用" in key or "費用" in " ".join(values) for key, values in lexicon.synonyms.items())
    assert set(_groups("費用")) & set(_groups("コスト"))
    question = "スキルの費用はどこから出すの？"
    plan = rulebook.plan(question)
    assert "コスト" in plan.units["費用"] and "費用" not in plan.unknown
    assert plan.weights["コスト"] < 1.0  # a synonym weighs less than the word typed
    answer = rulebook.search(question)
    assert answer.hits and answer.hits[0].id == f"{HN}/10/01"  # skills are paid with ether (コスト)


def test_a_corpus_word_gets_the_corpus_synonyms_as_alternatives(rulebook: Rulebook) -> None:
    """選ぶ is in the corpus, and so is 選択: a passage saying either carries the word, the synonym
    for part of it."""
    plan = rulebook.plan("どれを選ぶかは誰が決める？")
    assert "選択" in plan.units["選ぶ"]
    assert plan.own("選ぶ") == ["選ぶ"]


def test_an_everyday_word_does_not_become_a_game_word_through_its_synonym(rulebook: Rulebook) -> None:
    """コスト is a game word; 費用 of a dinner leads to it, but a question made of everyday words
    stays outside the corpus."""
    assert "コスト" in rulebook.game_words
    plan = rulebook.plan("晩ご飯の費用はいくら？")
    assert plan.units["費用"] == ["コスト"] and plan.own("費用") == []
    assert is_outside(rulebook, "晩ご飯の費用はいくら？")


def test_no_synonym_leads_to_a_game_keyword(rulebook: Rulebook) -> None:
    """The dictionary files 引き分け (a drawn game) with ドロー, which the rules use for drawing a
    card, a game keyword: a synonym never lands on a keyword."""
    assert "ドロー" in rulebook.vocab.keyword_terms and "ドロー" in rulebook.vocab.df
    assert set(_groups("引き分け")) & set(_groups("ドロー"))
    plan = rulebook.plan("引き分けになったらどうする？")
    assert "ドロー" not in plan.weights


def test_words_in_latin_letters_and_numbers_have_no_synonyms(rulebook: Rulebook) -> None:
    """Sudachi reads English words as katakana (start → スタート): the English house rules' words and
    a question's English are no entry to the dictionary's synonyms, nor are numerals (1 and ワン)."""
    assert _groups("start") == () and _groups("スタート")
    assert _groups("1") == () and _groups("一") == ()
    assert all(term.isascii() is False for terms in rulebook.vocab.synonym_groups.values() for term in terms)


@pytest.mark.parametrize(
    ("question", "section"),
    [("使わなかったエーテルは次のターンに持ち越せる？", "05"), ("さっきの行動を取り消してもいい？", "23")],
)
def test_a_compound_verb_of_the_lexicon_in_another_form_finds_its_house_rule(
    rulebook: Rulebook, question: str, section: str
) -> None:
    """持ち越す and 取り消す are lexicon words; 持ち越せる and 取り消して are cut by the segmenter as
    持ち + 越せる, so only the verb's stem and a kana ending tell them."""
    answer = rulebook.search(question)
    assert answer.house and answer.house[0].id.startswith(f"house-rules/{section}/")


def test_the_first_thing_in_a_turn_is_its_start(rulebook: Rulebook) -> None:
    """ターンの最初 is how players say the turn's start (the rules' ターン開始時): the start phase's
    passage answers, not a passage that only shares the turn's other words. 最初 alone stays an
    everyday word (tests/rulings/test_generalise.py)."""
    question = "ターンの最初って、アンタップのほかに何する？"
    assert "開始" in rulebook.plan(question).terms
    assert rulebook.search(question).hits[0].id.startswith(f"{HN}/05/")
