"""What a player sees for the questions people actually ask: labels instead of refusals, card names,
whole words, typos, terminology rows, the game, questions with several parts, and house rules."""

from __future__ import annotations

import tomllib
from pathlib import Path

import pytest

from bot.rulings.corpus import WRITTEN_FILE, load_asked
from bot.rulings.models import Kind, Label, ParsedDocument, Passage
from bot.rulings.parts import split_parts
from bot.rulings.render import render_answer
from bot.rulings.search import Rulebook

from .helpers import close_to_evaluation

HN, JUDGE, HOUSE = "horizonnotes-rules", "lgi-rules-class-10", "house-rules"
BLIND = Path(__file__).resolve().parent / "blind.toml"
RULES = Path(__file__).resolve().parents[2] / "rules"


def ids(rulebook: Rulebook, question: str, k: int = 3) -> list[str]:
    return [h.id for h in rulebook.search(question, k=k).hits]


# --- names ------------------------------------------------------------------------------------


def test_an_english_card_name_finds_the_passage_about_that_card(rulebook: Rulebook) -> None:
    answer = rulebook.search("Elsa - Spirit of Winter exerted them; can another card ready those characters?")
    assert answer.hits[0].id == f"{JUDGE}/03/04"  # the passage about 《エルサ – 冬の精霊》
    # A long question whose other words point elsewhere (a passage about exerted characters during
    # a turn): the card it names still decides.
    answer = rulebook.search(
        "When I play Elsa - Spirit of Winter and exert two of my opponent's characters, can my opponent"
        " still ready one of them during their own turn with another card, or does the effect stop that too?"
    )
    assert answer.hits[0].id == f"{JUDGE}/03/04"


def test_every_card_of_the_lexicon_is_named_in_the_corpus() -> None:
    """The lexicon's Japanese card names are the corpus's own spellings, or they would find nothing."""
    lexicon = tomllib.loads((RULES / "lexicon.toml").read_text(encoding="utf-8"))
    corpus = "".join(p.read_text(encoding="utf-8") for p in RULES.glob("*.txt"))
    missing = [ja for ja in lexicon["cards"].values() if ja not in corpus]
    assert missing == []


# --- whole words --------------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("question", "not_a_unit"), [("ダウンロードはどこ？", "ダウン"), ("キャラメルは好き？", "キャラ")]
)
def test_synonyms_match_whole_words_only(rulebook: Rulebook, question: str, not_a_unit: str) -> None:
    assert not_a_unit not in rulebook.plan(question).units


def test_a_synonym_typed_as_a_word_still_counts(rulebook: Rulebook) -> None:
    assert "ダウン" in rulebook.plan("ダウンしたアルカステラは？").units


def test_keywords_are_whole_terms(rulebook: Rulebook) -> None:
    lexicon = tomllib.loads((RULES / "lexicon.toml").read_text(encoding="utf-8"))
    whole = {rulebook.vocab.lexicon.prepare(w).lower() for w in lexicon["keywords"]}
    glossary = {row[0] for row in rulebook.db.execute("SELECT term FROM glossary WHERE language = 'ja'")}
    normalised = {t.lower() for t in rulebook.keywords}
    # Each keyword is the normalised form of one whole keyword or glossary term, never a fragment.
    from bot.rulings.tokenize import tokens

    forms = {t.term for w in [*whole, *glossary] for t in tokens(rulebook.vocab.lexicon.prepare(w)) if not t.piece}
    assert normalised <= forms
    assert "値" not in normalised


# --- typos and unknown words ----------------------------------------------------------------------


def test_a_word_read_like_a_rules_term_is_searched_as_it(rulebook: Rulebook) -> None:
    answer = rulebook.search("手札をエーテルに返還するときのルール")  # 返還 reads ヘンカン, as 変換 does
    assert ("返還", "変換") in answer.searched_for
    assert "エーテル変換" in answer.hits[0].text


def test_a_term_typed_in_hiragana_is_searched_as_it_and_named_as_typed(rulebook: Rulebook) -> None:
    answer = rulebook.search("めいんふぇいずで何ができる？")
    typed = [typed for typed, _ in answer.searched_for]
    assert "めいん" in typed and all(word in "めいんふぇいずで何ができる？" for word in typed)
    assert answer.hits[0].id.startswith(f"{HN}/08/")


def test_a_word_as_ocr_misreads_it_is_searched_as_the_game_word(rulebook: Rulebook) -> None:
    """Phone OCR reads m as rn: "darnage" is two letters from damage, one misreading."""
    answer = rulebook.search("Scanned the card: how much darnage gets through an untapped Arcastella's DEF?")
    assert ("darnage", "damage") in answer.searched_for
    assert answer.hits[0].id.startswith(f"{HN}/16/")


def test_an_everyday_word_read_like_another_is_no_typo(rulebook: Rulebook) -> None:
    # 買える reads カエル as 変える does, but neither is a game word: nothing is "searched for"
    answer = rulebook.search("サイコロってどこで買える？")
    assert not answer.searched_for


@pytest.mark.parametrize(
    ("question", "typed", "meant"),
    [
        ("Is a single Lorcana song allowed to be sung twice in one turn, or is that impossible?", "single", "sing"),
        ("While playing my turn, if my Arcastella got locked by a spell, can it still attack?", "locked", "block"),
    ],
)
def test_an_everyday_english_word_players_write_is_no_typo(
    rulebook: Rulebook, question: str, typed: str, meant: str
) -> None:
    """Players write "single" meaning single, though it is one letter from the keyword Sing: the answer
    does not claim it searched for Sing. A misspelt word is still corrected beside it."""
    answer = rulebook.search(question)
    assert (typed, meant) not in answer.searched_for
    corrected = rulebook.search(question.replace("turn", "turn with strenght"))
    assert ("strenght", "strength") in corrected.searched_for and (typed, meant) not in corrected.searched_for


def test_unknown_words_weigh_little(rulebook: Rulebook) -> None:
    question = "At my friend's Saturday club, does a tapped Arcastella really lose half of its DEF, grandpa asks?"
    assert ids(rulebook, question)[0] == f"{HN}/16/01"


# --- every kind of passage ------------------------------------------------------------------------


def test_a_terminology_row_is_quotable(rulebook: Rulebook) -> None:
    answer = rulebook.search("How does this translation render the word Challenger?")
    rows = [h for h in answer.hits if h.kind is Kind.TERM]
    assert rows and "果敢" in rows[0].text


def test_a_worked_example_shows_the_rule_it_restates(rulebook: Rulebook) -> None:
    answer = rulebook.search("先に考えてください ヘイヘイ 攻撃力-5 数えられますか", k=1)
    hit = answer.hits[0]
    assert hit.kind is Kind.QUESTION and hit.rule_text.startswith("要となるルール")
    assert "このルールの要点: 「要となるルール" in render_answer(answer, "ja")


# --- the game -----------------------------------------------------------------------------------------


def test_a_question_about_one_game_ranks_that_games_passages_first(rulebook: Rulebook) -> None:
    lorcana = rulebook.search("ロルカナでデッキが足りないときカードを見る効果は？")
    assert lorcana.game == "lorcana" and lorcana.hits[0].game == "lorcana"
    hn = rulebook.search("ホライゾンノーツで山札から何枚引く？")
    assert hn.game == "horizonnotes" and hn.hits[0].game == "horizonnotes"


def test_a_rare_synonym_of_an_everyday_verb_does_not_decide_the_game(rulebook: Rulebook) -> None:
    """効く leads to 利く at half weight, a word only the judge class uses: it weighs as a half-weight
    word there, and DEF, HorizonNotes's word, decides what the question is about."""
    for question in ("DEFってどの攻撃に効くの？", "DEFが効くのってどんなダメージ？"):
        assert rulebook.search(question).hits[0].id == f"{HN}/15/01", question


def test_each_passage_says_which_game_it_is_from(rulebook: Rulebook) -> None:
    text = render_answer(rulebook.search("In Lorcana, when are choices made for a triggered ability?"), "en")
    assert "(Disney Lorcana)" in text


def test_another_game_is_outside_the_corpus(rulebook: Rulebook) -> None:
    answer = rulebook.search("デュエマのシールドトリガーはいつ使える？")
    assert answer.label is Label.OUTSIDE and not answer.hits


# --- several parts ---------------------------------------------------------------------------------


def test_each_part_of_a_question_gets_a_passage(rulebook: Rulebook) -> None:
    answer = rulebook.search("後攻はエーテルを何点もらえる？それから、ブロックしたアルカステラのDEFは半分になる？")
    shown = {h.id for h in answer.hits} | {r for h in answer.hits for r in h.related}
    assert f"{HN}/03/01" in shown  # the set-up: the second player gains 2 ether
    assert f"{HN}/11/02" in shown  # a blocker's DEF applies in full


def test_a_part_is_ranked_by_how_its_own_words_are_asked(rulebook: Rulebook) -> None:
    """The whole question is worded most like the break check's questions; the part asking whether a
    blocker is tapped still gets the passage that says so (the part's own classifier score, not the
    whole question's, ranks its passages)."""
    question = "ブロックしたユニットってタップされる？あとセフィロトコードの破損判定ってダイス何個振るの？"
    answer = rulebook.search(question)
    shown = {h.id for h in answer.hits} | {r for h in answer.hits for r in h.related}
    assert f"{HN}/11/02" in shown  # a blocker is tapped
    assert f"{HN}/17/02" in shown  # the break check rolls 1d6


def test_a_question_gets_one_passage_per_part_and_no_more(rulebook: Rulebook) -> None:
    """Four parts: four passages, each part's own; never the whole question's best on top of them."""
    question = "手札は何枚？エーテルは何点？DEFはどう引く？セフィロトコードの判定は？"
    assert len(split_parts(question)) == 4
    answer = rulebook.search(question)
    assert len(answer.hits) == 4
    shown = {h.id for h in answer.hits} | {r for h in answer.hits for r in h.related}
    assert {f"{HN}/17/02", f"{HN}/03/01"} <= shown  # the code check, the set-up's ether


def test_the_last_of_many_numbered_questions_is_not_cut_off(rulebook: Rulebook) -> None:
    """A lead-in and its "Please confirm:" come before three numbered questions: five sentences, more
    than the four parts searched. The lead-in joins the part next to it, so the third question keeps
    its own part and gets its own passage (a modifier ends when the card leaves play)."""
    question = (
        "Notes for our league night, Lorcana section. Please confirm:\n"
        "1. Who picks the chosen character for an effect, and when?\n"
        "2. Do two +1 Strength effects on one character add up?\n"
        "3. If a character with +2 Strength returns to its owner's hand, is the +2 still there when it is played again?"
    )
    parts = split_parts(question)
    assert len(parts) == 4 and parts[-1].startswith("3. If a character with +2 Strength")  # with its number
    answer = rulebook.search(question)
    shown = {h.id for h in answer.hits} | {r for h in answer.hits for r in h.related}
    assert f"{JUDGE}/07/04" in shown


def test_questions_quoted_whole_are_parts_of_their_own(rulebook: Rulebook) -> None:
    """A streamer reads out viewers' questions, each in 「…？」: each is a part that asks, and gets its
    passage; a card's text quoted inside a question is still one piece of it."""
    question = (
        "今日の質問コーナー！ Aさん「ブロックできるのはアンタップ状態だけ？」 "
        "Bさん「後攻はエーテル何点もらえる？」 以上です〜"
    )
    parts = split_parts(question)
    assert [p for p in parts if "「" in p] == [
        "Aさん「ブロックできるのはアンタップ状態だけ？」",
        "Bさん「後攻はエーテル何点もらえる？」 以上です〜",
    ]
    answer = rulebook.search(question)
    shown = {h.id for h in answer.hits} | {r for h in answer.hits for r in h.related}
    assert f"{HN}/03/01" in shown and shown & {f"{HN}/11/01", f"{HN}/11/d01"}
    assert len(split_parts("カードに「このターン、ブロックできない？」とあるけどどういう意味？")) == 1


def test_a_laugh_and_a_space_end_a_sentence(rulebook: Rulebook) -> None:
    """A remark ending in a laugh (笑, 草, w) and a space, then the question: two sentences, as after a
    full stop. The remark only sets the scene, so the passage first shown answers the question (what
    the start phase does), not the remark (the order of the draw and charge phases)."""
    question = "チャージフェイズの後にドローフェイズが来ると思い込んでたわ笑 ところでスタートフェイズでは何をする？"
    assert split_parts(question) == [
        "チャージフェイズの後にドローフェイズが来ると思い込んでたわ笑",
        "ところでスタートフェイズでは何をする？",
    ]
    assert rulebook.search(question).hits[0].id.startswith(f"{HN}/05/")
    assert len(split_parts("Elsa - Snow Queen の Freeze って Ward 持ちのキャラに使える？")) == 1  # a w in a name
    assert len(split_parts("HorizonNotes を 始めました。 フェイズは 何個 ありますか？")) == 2  # spaces between words
    assert not close_to_evaluation([question])


def test_or_else_does_not_start_another_part() -> None:
    """「それとも」 joins the two halves of one question; 「それと」 starts another."""
    assert len(split_parts("ダメージはエンドフェイズで消える？それとも次のターンも残る？")) == 2
    assert len(split_parts("ダメージはエンドフェイズで消えるのか、それとも次のターンも残るのか教えて")) == 1
    assert len(split_parts("ダメージは残る？　それと、手札の上限は？")) == 2


# --- where the rulebook is silent -------------------------------------------------------------------


def test_the_house_rule_is_quoted_where_the_rulebook_is_silent(rulebook: Rulebook) -> None:
    answer = rulebook.search("手札が悪いときマリガンはできる？")
    assert answer.label is Label.SILENT
    assert answer.hits and not any(h.house for h in answer.hits)  # the closest rule passage first
    assert answer.house and answer.house[0].id == f"{HOUSE}/02/01" and answer.house[0].house  # the decision
    assert answer.house[0].text.startswith("Decision.") and "no mulligan" in answer.house[0].text
    text = render_answer(answer, "ja")
    assert text.splitlines()[0].startswith("ルールブックにはこの点が書かれていません")
    assert "ハウスルール（公式ルールではありません）" in text
    # A Japanese reader gets the house rule in Japanese (its 要点), an English one the decision as written.
    assert "マリガンはありません" in answer.house[0].summary
    assert "マリガンはありません" in text and "no mulligan" not in text
    assert "no mulligan" in render_answer(answer, "en") and "マリガンはありません" not in render_answer(answer, "en")


def test_a_silent_question_naming_no_game_gets_the_closest_horizonnotes_rule_and_the_house_rule(
    rulebook: Rulebook,
) -> None:
    """A die that fell on the floor: house rule 21 settles it, and the rule passage beside it is the
    HorizonNotes rulebook's (the house rules are HorizonNotes's), not a Lorcana class passage."""
    answer = rulebook.search("サイコロが床に落ちたら、振り直していいの？")
    assert answer.label is Label.SILENT
    assert answer.house and answer.house[0].id.startswith(f"{HOUSE}/21/")
    assert answer.hits and all(h.game == "horizonnotes" for h in answer.hits)


def test_a_house_rule_settling_a_question_comes_after_as_many_rule_passages_as_any_answer(
    rulebook: Rulebook,
) -> None:
    """House rule 8 (when the main phase ends) holds more of a question about the order of the main
    phase's actions than the rule saying they go in any order, which is the third closest: the answer
    shows it, and shows only the HorizonNotes rulebook's passages beside the house rule."""
    answer = rulebook.search("メインフェイズの行動って決まった順番でやらないとダメ？")
    assert answer.house
    assert f"{HN}/10/01" in [i for h in answer.hits for i in (h.id, *h.related)]
    assert all(h.game == "horizonnotes" for h in answer.hits)


def test_every_house_rule_section_has_its_decision_in_japanese(rulebook: Rulebook) -> None:
    rows = rulebook.db.execute("SELECT json FROM passages WHERE kind = 'house_rule'").fetchall()
    passages = [Passage.model_validate_json(row[0]) for row in rows]
    assert passages and all(p.summary and not p.summary.isascii() for p in passages)
    assert not any(p.text.startswith("要点") for p in passages)  # the 要点 is shown, never searched


def test_the_tables_option_value_is_shown_with_the_house_rule(rulebook: Rulebook) -> None:
    answer = rulebook.search("If my deck is empty when I must draw, do I lose?", options={"deck_out": "lose"})
    assert answer.house and "deck_out" in answer.house[0].options
    text = render_answer(answer, "en")
    assert "This table's setting: deck_out = lose" in text and "House rule, not a rule of the game" in text


def test_a_question_to_the_bot_is_about_the_game_its_tables_play(rulebook: Rulebook) -> None:
    """ "Ready" is Lorcana's word; asked why the bot does something, a question naming no game is about
    HorizonNotes, whose tables the bot runs: its rules and its house rule."""
    answer = rulebook.search("Why does the bot make me ready my units before start-of-turn effects?")
    assert answer.game == "horizonnotes" and answer.hits[0].game == "horizonnotes"
    assert [h.id for h in answer.house] == [f"{HOUSE}/03/01"]


def test_house_rules_never_answer_a_lorcana_question(rulebook: Rulebook) -> None:
    answer = rulebook.search("In Lorcana, does unspent ink carry over?")
    assert not answer.house and all(h.game == "lorcana" for h in answer.hits)


# --- the blind evaluation set ----------------------------------------------------------------------


def test_the_blind_set_is_well_formed(rulebook: Rulebook) -> None:
    with BLIND.open("rb") as fh:
        questions = tomllib.load(fh)["question"]
    known = {row[0] for row in rulebook.db.execute("SELECT id FROM passages")}
    known |= {pid.rsplit("/", 1)[0] for pid in known}  # a section's id: any passage of it
    assert len(questions) >= 120 and len({q["id"] for q in questions}) == len(questions)
    kinds = [q["kind"] for q in questions]
    assert kinds.count("silent") >= 25 and kinds.count("offtopic") >= 10
    halves = [q["half"] for q in questions]
    # each batch was split once into two halves of about the same size (tune2 and tune6 are whole)
    pairs = {"tune": "held", "tune3": "held2", "tune4": "held3", "tune5": "held4"}
    pairs |= {f"tune{n + 2}": f"held{n}" for n in range(5, 28)}  # tune7/held5 to tune29/held27
    for tune, held in pairs.items():
        assert abs(halves.count(tune) - halves.count(held)) <= (4 if tune == "tune3" else 2), (tune, held)
    for q in questions:
        if q["kind"] == "answer":
            assert q["expect"] and set(q["expect"]) <= known, q["id"]
            for part in q.get("parts", []):
                assert set(part) <= set(q["expect"]), q["id"]
        if q["kind"] == "silent" and q["game"] == "hn":
            # the house-rule sections that settle it; the third batch and later have questions no
            # house rule settles
            assert q.get("expect") or q["half"] not in ("tune", "held", "tune2"), q["id"]
            assert all(e.startswith(f"{HOUSE}/") for e in q.get("expect", [])), q["id"]


def test_the_written_set_is_well_formed(documents: dict[str, ParsedDocument]) -> None:
    """rules/written.toml: questions under the passage they were written for, every passage id a
    passage's, both languages, none given twice nor also an asked question."""
    rules = BLIND.parents[2] / "rules"
    written = load_asked(rules, list(documents.values()), WRITTEN_FILE)
    asked = load_asked(rules, list(documents.values()))
    texts = [t for qs in written.values() for t in (*qs.ja, *qs.en)]
    assert len(texts) > 1000 and len(set(texts)) == len(texts)
    assert all(qs.ja for qs in written.values()) and any(qs.en for qs in written.values())
    assert not set(texts) & {t for qs in asked.values() for t in (*qs.ja, *qs.en)}


def test_a_house_rule_barely_closer_than_the_rule_answering_is_not_shown(rulebook: Rulebook) -> None:
    """House rule 3 (untapping) holds a little more of this question's words than the DEF rule does;
    the rule answers it, and the house rule would only be noise beside it."""
    answer = rulebook.search("タップ状態のアルカステラのDFEはいくつ？")
    assert answer.hits[0].id == f"{HN}/16/01" and not answer.house
