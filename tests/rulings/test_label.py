"""The label says whether the passages shown speak to what the question asks: the verb a sentence
ends on, someone when it asks who, a card named in full against a lone capitalised word."""

from __future__ import annotations

from bot.rulings.models import Label
from bot.rulings.search import Rulebook


def test_a_question_whose_verb_no_passage_carries_is_only_close(rulebook: Rulebook) -> None:
    # The passages explain what ether conversion does to a card; none speaks of taking it back.
    assert rulebook.plan("エーテル変換したカードは戻せるの？").predicates == ["戻す"]
    assert rulebook.search("エーテル変換したカードは戻せるの？").label is Label.CLOSEST
    # Asked what happens to it (a verb that says nothing), the same passages answer it.
    assert rulebook.search("エーテル変換したカードはどうなるの？").label is Label.DIRECT


def test_a_verb_the_corpus_never_uses_is_carried_by_no_passage(rulebook: Rulebook) -> None:
    assert rulebook.plan("デッキが無くなったらどうする？").predicates == ["無くなる"]
    assert rulebook.search("デッキが無くなったらどうする？").label is Label.CLOSEST


def test_a_verb_the_passage_carries_keeps_the_answer_direct(rulebook: Rulebook) -> None:
    assert rulebook.search("スペルカードは手札から捨てるの？").label is Label.DIRECT
    # Written with the verb's kanji in another word (使う, 使用) it is carried too.
    assert rulebook.search("メインフェイズにスペルカードを使える？").label is Label.DIRECT


def test_only_a_verb_at_a_sentence_end_is_what_is_asked(rulebook: Rulebook) -> None:
    # A sentence ending on a noun (攻撃に参加する: the verbal noun) or a stop word asks no verb.
    assert rulebook.plan("タップしたアルカステラは攻撃に参加するの？").predicates == []
    assert rulebook.plan("エーテル変換したカードはどうなるの？").predicates == []
    # Each sentence has its own.
    assert rulebook.plan("エーテル変換したカードは戻せる？スペルカードは捨てるの？").predicates == ["戻す", "捨てる"]


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
