"""English questions against the Japanese corpus: every card the judge class names is findable by its
English name, a named card tells the game, and the English rules' everyday wording reaches the
class's Japanese terms.

Every question here is written for this file; none is a question of the evaluation sets."""

from __future__ import annotations

import re
import tomllib
from pathlib import Path

import pytest

from bot.rulings.query import retrieval_terms
from bot.rulings.search import Rulebook
from bot.rulings.tokenize import tokens

from .helpers import JUDGE, close_to_evaluation, top_ids

RULES = Path(__file__).resolve().parents[2] / "rules"
# Cards of the class whose English card name could not be confirmed: findable by their Japanese name only.
UNCONFIRMED = {
    "サリー＆ブー – 怖がらせコンビ",
    "セリア・メイ – フレンドリーな受付嬢",
    "ヘイヘイ – おやつ見っけ！",
    "ホンモノはただひとり",
}


def test_every_card_the_class_names_has_its_english_name() -> None:
    """Each 《card》 of the judge class (its full name, or its character's name when the class gives
    only that) is a key of the lexicon's [cards], or is listed as unconfirmed."""
    text = next(RULES.glob("000_*.txt")).read_text(encoding="utf-8")
    lexicon = tomllib.loads((RULES / "lexicon.toml").read_text(encoding="utf-8"))["cards"]
    known = set(lexicon.values()) | {re.split(r"\s+[-–—]\s+", ja, maxsplit=1)[0] for ja in lexicon.values()}
    named = set(re.findall(r"《([^》]+)》", text))
    latin = {n for n in named if n.isascii()}  # written in English by the class itself
    unconfirmed = UNCONFIRMED | {n.split(" – ")[0] for n in UNCONFIRMED}
    missing = sorted(n for n in named - latin - unconfirmed if n not in known and n.split(" – ")[0] not in known)
    assert missing == []


@pytest.mark.parametrize(
    ("question", "passage"),
    [
        ("Scar - Vicious Cheater banished a character in a challenge; can he ready and quest again?", "05/11"),
        ("Sorcerer's Hat: I name a card and reveal the top card. Does a partial name match?", "09/02"),
        ("Develop Your Brain with only one card left in my deck: what happens?", "02/05"),
        ("Mickey Mouse - Bob Cratchit has cards under him; where do they go when he is banished?", "08/08"),
    ],
)
def test_an_english_card_name_finds_the_passage_about_the_card(rulebook: Rulebook, question: str, passage: str) -> None:
    answer = rulebook.search(question)
    assert answer.game == "lorcana"
    assert answer.hits[0].id == f"{JUDGE}/{passage}"


def test_a_named_card_tells_the_game_when_the_words_are_shared(rulebook: Rulebook) -> None:
    """Support, effect and play are words of both games; the card is the judge class's."""
    plan = rulebook.plan("Moana - Born Leader: if I use Support with this effect, what does it do?")
    assert rulebook._game_of(plan) == "lorcana"


@pytest.mark.parametrize(
    ("english", "japanese"),
    [
        ("wears off", "持続期間"),
        ("gains", "得る"),
        ("ready step", "レディステップ"),
        ("active player", "アクティブ・プレイヤー"),
        ("for free", "コストを支払わずに"),
        ("the remaining part", "残り"),
    ],
)
def test_english_rules_wording_reaches_the_class_terms(rulebook: Rulebook, english: str, japanese: str) -> None:
    plan = rulebook.plan(f"what about {english} here")
    wanted = {t.term for t in tokens(japanese)}
    assert wanted & set(plan.terms), (english, plan.units)


def test_a_word_of_an_unknown_card_name_is_no_katakana_term(rulebook: Rulebook) -> None:
    """Little is the リトル of リトル・グリーン・メン only by its sound; Forever is quoted in Latin letters."""
    assert "リトル" not in rulebook.plan("Goofy - Little Helper: does his bonus stay?").terms
    assert "フォーエバー" in rulebook.plan("What does Forever Strong do?").terms


def test_retrieval_keeps_the_weighty_rare_terms_before_light_ones(rulebook: Rulebook) -> None:
    """English prose words weigh little: the rule words of a long question are what is retrieved."""
    plan = rulebook.plan("Mickey Mouse - Bob Cratchit gives strength bonus, says the card, until counted; how?")
    assert "攻撃力" in retrieval_terms(plan, rulebook.vocab, 0.15)


def test_their_next_turn_is_the_turn_of_the_player_it_names(rulebook: Rulebook) -> None:
    """Card text says "their next turn"; the class says it as そのプレイヤーの次のターン (the player whose
    character it is), which the class's freezing example rules on."""
    assert top_ids(rulebook, "their next turn: whose turn?")[0] == f"{JUDGE}/03/04"
    assert f"{JUDGE}/03/04" in top_ids(rulebook, "Does 'their next turn' mean my opponent's turn or mine?")[:3]
    assert not close_to_evaluation(
        ["their next turn: whose turn?", "Does 'their next turn' mean my opponent's turn or mine?"]
    )


def test_an_ability_named_in_english_finds_the_passage_quoting_it(rulebook: Rulebook) -> None:
    """Elsa's Deep Freeze is 瞬間凍結 in the class: named in English alone, it finds the passage
    that quotes and rules on it, rather than nothing."""
    question = "What exactly does Deep Freeze stop?"
    assert top_ids(rulebook, question)[0] == f"{JUDGE}/03/04"
    assert not close_to_evaluation([question])
