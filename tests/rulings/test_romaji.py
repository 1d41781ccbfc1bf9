"""Japanese typed in Latin letters: a game word spelled in romaji is searched as that word, and the
answer says so; English words and English typos are not read as romaji.

Every question here is written for this file; none is a question of the evaluation sets."""

from __future__ import annotations

import re

from hypothesis import given
from hypothesis import strategies as st

from bot.rulings.romaji import as_kana, consonants, long_vowels, romaji_words, syllables, to_kana
from bot.rulings.search import Rulebook

from .helpers import HN, JUDGE, is_answered, is_outside, top_ids

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


@given(st.text(alphabet=st.characters(min_codepoint=0x3041, max_codepoint=0x30FF), max_size=20) | st.text(max_size=20))
def test_any_text_is_syllables_or_nothing(text: str) -> None:
    spelled = syllables(text)
    assert spelled is None or len(consonants(spelled)) == len(spelled)


_WORDS = st.lists(
    st.sampled_from(["doroo", "no", "wa", "kaado", "eeteru", "the", "block", "riidaa", "tte", "n", "X", "-", "ー"]),
    max_size=12,
)


@given(st.text(max_size=80) | _WORDS.map(" ".join))
def test_any_message_reads_as_romaji_or_is_left_as_it_is(text: str) -> None:
    """A message is romaji or not; read as kana, every word that spells kana is kana, and a long vowel
    takes the place of a vowel, never adds one."""
    words = romaji_words(text)
    kana = as_kana(text)
    assert (words is None) == (kana is None)
    if kana is not None:
        assert all(to_kana(word) is None for word in re.findall(r"[A-Za-z][A-Za-z'’-]*", kana))
        for _, read in words or ():
            assert read is None or len(long_vowels(read)) == len(read)


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


def test_a_vowel_typed_twice_is_a_long_one() -> None:
    assert long_vowels(to_kana("riidaa") or "") == "りーだー"
    assert long_vowels(to_kana("kaado") or "") == "かーど"
    assert long_vowels(to_kana("kougeki") or "") == "こうげき"  # ou is two vowels, not one long one


def test_a_loanword_with_its_long_vowel_typed_twice_is_found(rulebook: Rulebook) -> None:
    """doroo is ドロー as players type it without a Japanese keyboard; before, the word read as ドロオ,
    no game word, and the question found nothing at all."""
    question = "doroo no toki kaado wa nanmai?"
    answer = rulebook.search(question)
    assert ("doroo", "ドロー") in answer.searched_for
    assert any(pid.startswith(f"{HN}/06/") for pid in top_ids(rulebook, question))


def test_a_word_in_romaji_without_its_small_tsu_is_found(rulebook: Rulebook) -> None:
    """Spelled by ear, ブロック loses its doubled k (buroku) and タップ its doubled p with the vowel
    drawn out instead (taapu): still the game words, and the blocking rules come first."""
    question = "can my Arcastella buroku when it is tapped?"
    answer = rulebook.search(question)
    assert ("buroku", "ブロック") in answer.searched_for
    assert top_ids(rulebook, question)[0] == f"{HN}/11/01"  # only an untapped Arcastella blocks
    assert ("taapu", "タップ") in rulebook.search("if I taapu my unit, what happens to its DEF?").searched_for


def test_a_long_word_in_romaji_with_a_vowel_heard_wrong_is_found(rulebook: Rulebook) -> None:
    """arukasuteru is アルカステラ with its last vowel heard wrong: its consonants are the word's and one
    vowel differs, so it is searched as アルカステラ and the tapped-DEF rule is among the first three.
    A short word is not guessed at (tepu is no タップ), nor one two vowels away (arukusutero)."""
    question = "what happens to the DEF of an arukasuteru when it gets tapped?"
    assert ("arukasuteru", "アルカステラ") in rulebook.search(question).searched_for
    assert f"{HN}/16/01" in top_ids(rulebook, question)[:3]
    assert not [
        typed for typed, _ in rulebook.search("can my arukusutero block?").searched_for if typed == "arukusutero"
    ]
    assert consonants(syllables("あるかすてる") or ()) == consonants(syllables("アルカステラ") or ())


def test_a_message_in_romaji_is_told_from_chatter_as_japanese_is(rulebook: Rulebook) -> None:
    """Read as kana, a rules question in romaji is a question and a game lost is chatter; a game's
    name typed in romaji is that game (yuugiou: no passage; rorukana: Lorcana's)."""
    assert is_answered(rulebook, "eeteru eria no kaado wa tsugi no taan mo tsukaeru?")
    assert is_outside(rulebook, "kyou wa makete tsukareta, mata ashita yarou")
    assert is_outside(rulebook, "yuugiou de chein wo kumu toki wa dare kara shori suru?")
    assert top_ids(rulebook, "rorukana de kaado wo erabu no wa itsu?")[0].startswith(JUDGE)


def test_the_particles_of_a_message_in_romaji_are_its_grammar(rulebook: Rulebook) -> None:
    answer = rulebook.search("riidaa no HP wa ikutsu kara desu ka?")
    assert answer.hits
    plan = rulebook.plan("riidaa no HP wa ikutsu kara desu ka?")
    assert not {"no", "wa", "kara"} & set(plan.unknown)
