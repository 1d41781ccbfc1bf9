"""Japanese typed in Latin letters: a game word spelled in romaji is searched as that word, and the
answer says so; English words and English typos are not read as romaji.

Every question here is written for this file; none is a question of the evaluation sets."""

from __future__ import annotations

import re

from hypothesis import given
from hypothesis import strategies as st

from bot.rulings.romaji import to_kana
from bot.rulings.search import Rulebook

from .helpers import HN, top_ids

_KANA = re.compile(r"^[\u3041-\u3096ー]+$")


def test_hepburn_and_kunrei_spellings_read_as_the_same_kana() -> None:
    assert to_kana("henkan") == "へんかん"
    assert to_kana("tefuda") == to_kana("tehuda") == "てふだ"
    assert to_kana("shinka") == to_kana("sinka") == "しんか"
    assert to_kana("tsuika") == to_kana("tuika") == "ついか"


def test_a_doubled_consonant_is_a_small_tsu_and_n_stands_before_a_consonant() -> None:
    assert to_kana("burokku") == "ぶろっく"
    assert to_kana("kan'i") == "かんい"
    assert to_kana("kani") == "かに"
    assert to_kana("kyara") == "きゃら"


def test_letters_that_spell_no_syllable_are_no_romaji() -> None:
    for word in ("times", "hello", "block", "strength", "qwerty"):
        assert to_kana(word) is None


@given(st.text(max_size=40))
def test_any_text_reads_as_kana_or_as_nothing(text: str) -> None:
    kana = to_kana(text)
    assert kana is None or _KANA.match(kana)


def test_a_game_word_in_romaji_is_searched_as_that_word(rulebook: Rulebook) -> None:
    question = "sorry no japanese keyboard. after henkan where does the card go, eteru area?"
    answer = rulebook.search(question)
    assert ("henkan", "変換") in answer.searched_for
    assert ("eteru", "エーテル") in answer.searched_for  # a long-vowel mark dropped, as in kana
    assert any(pid.startswith(f"{HN}/07/") for pid in top_ids(rulebook, question))


def test_english_words_are_not_read_as_romaji(rulebook: Rulebook) -> None:
    """The words take, same and made spell kana (たけ, さめ, まで), but no game word: nothing is corrected."""
    answer = rulebook.search("Does the same attack take damage made by a spell?")
    assert not any(typed in ("take", "same", "made") for typed, _ in answer.searched_for)
