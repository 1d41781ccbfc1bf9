"""From a question to search terms: normalisation, kana variants, synonyms, English, quoting."""

from __future__ import annotations

import re

import pytest
from hypothesis import given
from hypothesis import strategies as st

from bot.rulings.query import phrase_match
from bot.rulings.search import Rulebook
from bot.rulings.tokenize import normalize

from .helpers import top_ids


def terms(rulebook: Rulebook, question: str) -> list[str]:
    return rulebook.plan(question).terms


def test_nfkc_and_symbols_and_dice() -> None:
    assert normalize("ＤＥＦ　２", None) == "DEF 2"
    assert "攻撃力" in normalize("-1{S}する", {"{S}": "攻撃力"})
    assert normalize("2d6のダメージ") == "2個の6面ダイスのダメージ"
    assert normalize("セフィロト・コード") == "セフィロトコード"


@pytest.mark.parametrize(
    ("typed", "read"),
    [
        ("工一テル変換は1ターンに何回？", "エーテル変換は1ターンに何回?"),  # phone OCR: 工 for エ, 一 for ー
        ("キャラクタ一を選ぶ", "キャラクターを選ぶ"),
        ("アル力ステラがブ口ックする", "アルカステラがブロックする"),
        ("力ードを引く", "カードを引く"),
        ("tapped Arcaste1la, a Vi11ain in p1ay", "tapped Arcastella, a Villain in play"),
        # real kanji and digits stay: a word of kanji ending in 力, numerals, a long vowel before a counter
        ("攻撃力マイナス、ドロー力が足りない", "攻撃力マイナス、ドロー力が足りない"),
        ("同一カードを一ターンに二ターン分", "同一カードを一ターンに二ターン分"),
        ("カード一枚、デッキ一つ", "カード一枚、デッキ一つ"),
        ("1st turn, HP10, x10, S1E2", "1st turn, HP10, x10, S1E2"),
    ],
)
def test_look_alike_characters_are_read_as_the_letters_they_stand_for(typed: str, read: str) -> None:
    assert normalize(typed) == read


_LOOKALIKE_TEXT = st.text(alphabet="アカタロトハニエーッン工力口夕卜八二一枚攻撃のをつがAaBlp01 ")


@given(_LOOKALIKE_TEXT)
def test_a_look_alike_is_only_ever_read_as_its_letter(text: str) -> None:
    """Whatever surrounds them, only look-alikes change, each to the letter it looks like."""
    read = normalize(text)
    assert len(read) == len(text)
    for typed, got in zip(text, read, strict=True):
        assert got == typed or (typed, got) in set(zip("工力口夕卜八二一10", "エカロタトハニーlo", strict=True))


def test_a_rules_term_typed_with_look_alikes_finds_its_passage(rulebook: Rulebook) -> None:
    assert top_ids(rulebook, "メインフェイズ中、工一テル変換に回数の上限はある？")[0] == "horizonnotes-rules/07/02"
    assert top_ids(rulebook, "What is a tapped Arcaste1la's DEF?")[0] == "horizonnotes-rules/16/01"


@pytest.mark.parametrize(
    ("typed", "corpus_term"),
    [
        ("まよけ", "魔除け"),
        ("えーてる", "エーテル"),
        ("たいきゅう", "耐久"),
        ("しえん", "支援"),
        ("ダメーじ", "ダメージ"),
    ],
)
def test_kana_spellings_find_corpus_words(rulebook: Rulebook, typed: str, corpus_term: str) -> None:
    plan = rulebook.plan(f"{typed}について")
    assert corpus_term in plan.terms
    assert not plan.unknown  # the pieces Sudachi cut the kana into are not "unknown words"


def test_the_middle_dot_is_ignored_in_names(rulebook: Rulebook) -> None:
    assert terms(rulebook, "セフィロトコード") == terms(rulebook, "セフィロト・コード")


def test_quoted_phrases_are_matched_as_phrases(rulebook: Rulebook) -> None:
    plan = rulebook.plan("「ダメージを受けた」ってどういうこと")
    assert ["ダメージ", "受ける"] in plan.phrases
    assert "ダメージを受けた" in plan.literals
    assert '"ダメージ 受ける"' in phrase_match(plan)


@pytest.mark.parametrize(
    "word",
    [
        "Ward", "Resist", "Support", "Challenger", "exert", "ready", "quest", "lore", "strength", "willpower",
        "banish", "cost", "tap", "untap", "block", "DEF", "HP", "ether", "phase", "priority",
    ],
)  # fmt: skip
def test_english_game_words_all_map_to_corpus_words(rulebook: Rulebook, word: str) -> None:
    plan = rulebook.plan(f"what about {word}?")
    assert plan.terms, word
    assert not plan.unknown, (word, plan.unknown)


def test_english_inflections_and_phrases(rulebook: Rulebook) -> None:
    assert "退場" in terms(rulebook, "the character was banished")
    assert "エグザート" in terms(rulebook, "exerted characters")
    assert "破損" in terms(rulebook, "how does the code break check work")
    assert {"支援", "スキル"} <= set(terms(rulebook, "support skill damage"))


def test_japanese_synonyms(rulebook: Rulebook) -> None:
    assert "魔除け" in terms(rulebook, "ウォードを持つキャラ")
    assert "def" in terms(rulebook, "でふはどうなる")


HOSTILE = [
    'AND OR NOT NEAR(a b, 3) "unclosed * ^ :',
    "body : 魔除 AND heading : *",
    "'; DROP TABLE passages; --",
    '""""""""',
    "🎴🃏✨ 魔除 🎲",
    "\x00\x01\x02 制御文字",
    "ア" * 10_000,
]


@pytest.mark.parametrize("question", HOSTILE)
def test_every_term_reaches_fts5_quoted(rulebook: Rulebook, question: str) -> None:
    match = phrase_match(rulebook.plan(question))
    for part in filter(None, match.split(" OR ")):
        assert re.fullmatch(r'"(?:[^"]|"")*"', part), part


def test_kana_inside_grammar_or_a_synonym_is_not_read_as_a_corpus_word(rulebook: Rulebook) -> None:
    assert terms(rulebook, "チャージフェイズでは何をするのでしょうか。") == terms(
        rulebook, "チャージフェイズでは何をするの"
    )
    assert "チャレンジ" not in terms(rulebook, "ちゃれんじゃー+2の効果")  # チャレンジャー is 果敢, a keyword of its own


@pytest.mark.parametrize(
    ("question", "not_a_word"),
    [
        ("俺はそんなルール聞いたことない", "はそん"),  # the は after 俺 and the そん of そんな: no 破損
        ("ただ場から消えるだけなの？", "タダ"),  # ただ "just", spelled as the dictionary spells it: not "free"
        ("引けないときどうする？", "きどう"),  # the き of とき, then どう: no 起動
    ],
)
def test_kana_beginning_with_a_particle_or_spelling_an_adverb_is_no_corpus_word(
    rulebook: Rulebook, question: str, not_a_word: str
) -> None:
    assert not_a_word not in rulebook.plan(question).units


def test_a_katakana_word_typed_in_kana_is_still_read(rulebook: Rulebook) -> None:
    assert "破損" in terms(rulebook, "はそんってどういう意味？")  # at the start of a sentence: a word spelled out
    assert "タダ" in rulebook.plan("これタダで出せる？").units
    assert "起動" in terms(rulebook, "きどうってなに")
    # After hiragana, as a message typed all in kana runs on: the て of のてふだ begins 手札, no particle.
    assert {"手札", "枚数"} <= set(terms(rulebook, "えんどふぇいずのときてふだのまいすうにせいげんある"))


def test_conjugated_synonyms_find_their_corpus_words(rulebook: Rulebook) -> None:
    plan = rulebook.plan("リーダーが倒されたら負け？")
    assert "戦闘脱落" in "".join(plan.terms) and not plan.unknown
    assert "決定" in terms(rulebook, "先攻はどうやって決めるの？")
