"""English questions in the words players use: any inflection of a lexicon word finds it, a general
rules vocabulary carries English verbs and nouns to the corpus's Japanese terms, and everyday English
neither counts as game vocabulary nor matches by accident.

Every question here is written for this file; none is a question of the evaluation sets."""

from __future__ import annotations

from bot.rulings.models import Label
from bot.rulings.parts import split_parts
from bot.rulings.query import stem_phrase, stem_word
from bot.rulings.search import Rulebook

from .helpers import HN, JUDGE


def test_every_inflection_of_a_word_has_one_stem() -> None:
    assert len({stem_word(w) for w in ("remove", "removes", "removed", "removing")}) == 1
    assert len({stem_word(w) for w in ("ability", "abilities")}) == 1
    assert len({stem_word(w) for w in ("tap", "tapped", "tapping", "taps")}) == 1
    assert len({stem_word(w) for w in ("use", "uses", "used", "using")}) == 1
    assert stem_phrase("golden rules") == stem_phrase("golden rule")
    # Short words and words ending in -ss, -us, -is keep their letters.
    assert stem_word("is") == "is" and stem_word("pass") == "pass" and stem_word("status") == "status"


def test_a_terminology_row_is_found_in_another_inflection(rulebook: Rulebook) -> None:
    """The judge class's table writes "golden rules" and "sequential effects"; a player writes one."""
    plan = rulebook.plan("Which golden rule says what wins when two effects disagree?")
    assert "en:golden rules" in plan.units
    hits = rulebook.search("Which golden rule says what wins when two effects disagree?").hits
    assert any("黄金律" in h.text for h in hits)
    assert "en:sequential effects" in rulebook.plan("how does a sequential effect resolve").units


def test_an_english_verb_in_any_form_reaches_the_japanese_passage(rulebook: Rulebook) -> None:
    """died / dies: the HorizonNotes step where a unit at 0 HP is knocked out."""
    for question in (
        "In HorizonNotes, what happens to my follower after it died?",
        "HorizonNotes: a follower dies, where does the card end up?",
    ):
        assert f"{HN}/17/05" in [h.id for h in rulebook.search(question).hits[:2]], question


def test_general_vocabulary_finds_a_rule_worded_differently(rulebook: Rulebook) -> None:
    """Mana, refill and face-up are not the corpus's words, but the rules they name are there."""
    assert f"{HN}/06/02" in [h.id for h in rulebook.search("In HorizonNotes how do I refill my hand?").hits]
    assert "エーテル" in rulebook.plan("how much mana do I get").terms
    hits = rulebook.search("Lorcana: do the cards below a banished character go to the discard face-up?").hits
    assert hits and hits[0].id.startswith(f"{JUDGE}/08/")


def test_a_stop_word_never_matches_a_key_by_its_stem(rulebook: Rulebook) -> None:
    """time is no timing, apply no applied: only a content word is matched loosely."""
    plan = rulebook.plan("does it apply all the time")
    assert not any(unit.startswith("en:") for unit in plan.units)


def test_everyday_english_is_no_game_vocabulary(rulebook: Rulebook) -> None:
    """search and example translate a rules question, but a question made of them is not
    about the games, and a real word is not read as a typo of a short key."""
    plan = rulebook.plan("Could you search for an example of a good essay?")
    assert {"en:search", "en:example"} <= set(plan.units)
    answer = rulebook.search("Could you search for an example of a good essay?")
    assert answer.label is Label.OUTSIDE and not answer.hits
    assert rulebook.plan("When does the tournament start?").corrections == []
    # pick and how long lead to game words (選ぶ, 持続期間), but a question made of them is still not
    # about the games.
    for question in ("How long should I steam rice for?", "Can you help me pick a good bicycle?"):
        assert not rulebook.search(question).hits, question


def test_a_version_name_is_part_of_a_card_name_not_rules_words(rulebook: Rulebook) -> None:
    """Ready and Support in a card's version name ask nothing about readying or supporting; a dash
    before a question is no card name."""
    plan = rulebook.plan("Moana - Ready to Support Everyone gets +1 lore this turn: when does that end?")
    assert "en:ready" not in plan.units and "en:support" not in plan.units
    assert {"ready", "support"} <= set(plan.unknown)
    assert "en:ward" in rulebook.plan("Lorcana - Does Ward stop a song from choosing it?").units
    # A card of the lexicon is still its card, version name and all.
    assert "en:elsa spirit of winter" in rulebook.plan("Elsa - Spirit of Winter exerts two characters").units


def test_another_version_of_a_character_is_another_card(rulebook: Rulebook) -> None:
    """The judge class discusses Rapunzel - Ready for Adventure; Rapunzel with another version name is
    another card, so the rule asked about comes before that card's passage."""
    question = "Rapunzel - Friend of the Forest tells me to choose up to 2 characters. May I choose none?"
    assert "rapunzel" in rulebook.plan(question).other_versions
    hits = [h.id for h in rulebook.search(question).hits]
    assert hits[0] != f"{JUDGE}/10/04"
    assert f"{JUDGE}/04/03" in hits


def test_an_english_question_the_rules_answer_is_not_called_silent(rulebook: Rulebook) -> None:
    """The English house rules hold many of an English question's words (and the lexicon's glosses of
    them): carrying more of the question with a weaker match does not make the rulebook silent."""
    answer = rulebook.search("Does DEF reduce the damage from a spell card?")
    assert answer.label is not Label.SILENT
    assert len(answer.hits) == 3
    assert {f"{HN}/15/01", f"{HN}/15/02"} & {h.id for h in answer.hits}
    # Where the house rule carries more and matches as strongly, the rulebook is still silent.
    assert rulebook.search("In HorizonNotes, can a player concede the game?").label is Label.SILENT


def test_an_english_question_joined_by_and_has_two_parts() -> None:
    """ "… and when does …" asks a second question, with or without a comma before it."""
    assert split_parts("How is the lore counted and when does the bonus end?") == [
        "How is the lore counted",
        "when does the bonus end?",
    ]
    assert len(split_parts("Who picks the target and when?")) == 1  # no second question, only its word


def test_a_capitalised_name_holding_an_unknown_word_is_a_name(rulebook: Rulebook) -> None:
    """A card named without its version ("Glimmering Shift") is a name: its known word is no rules
    word. Capitalised rules words alone ("Does Ward …") and a name joined to a rules word by "and"
    stay rules words."""
    plan = rulebook.plan("Glimmering Shift says ready chosen character. Does it work?")
    assert "en:shift" not in plan.units and "en:ready" in plan.units
    assert "glimmering" in plan.unknown and "shift" in plan.unknown
    assert "en:ward" in rulebook.plan("Does Ward Stop a song?").units
    plan = rulebook.plan("Lantern Keeper - Night Watch and Ward: can it be chosen?")
    assert "en:ward" in plan.units and "night" in plan.unknown


def test_a_translation_of_several_words_is_carried_in_part_by_one_of_them(rulebook: Rulebook) -> None:
    """once per turn is ターンに1度: a passage that only says ターン carries a small part of it, not all of
    it; one that says ターンに1度 carries it whole. The same for a synonym of several words."""
    plan = rulebook.plan("once per turn")
    assert rulebook._coverage(plan, frozenset({"ターン"})) < 0.5  # it was the whole of it
    assert rulebook._coverage(plan, frozenset({"ターン", "1", "度"})) > 0.95
    plan = rulebook.plan("先攻はどうやって決める？")
    assert "先攻" in plan.units
    whole = rulebook._coverage(plan, frozenset({"ターン", "プレーヤー", "決定", "先攻"}))
    assert rulebook._coverage(plan, frozenset({"ターン"})) < whole / 3


def test_also_inside_a_sentence_does_not_cut_it() -> None:
    """ "Does it also apply …" is one question; ", also …" and "and also …" start another, and a
    sentence ending in a quote ends there."""
    assert len(split_parts("Does a bonus also apply on my opponent's turn?")) == 1
    assert len(split_parts("Is the bonus counted twice, also does it stack with Support?")) == 2
    assert split_parts("A card says 'this turn'. Does the bonus last?") == [
        "A card says 'this turn'.",
        "Does the bonus last?",
    ]
