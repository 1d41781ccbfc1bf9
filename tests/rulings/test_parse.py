"""The parser: sections, kinds, citations, names, unverified flags, page artefacts, glossaries."""

from __future__ import annotations

from pathlib import Path

import pytest

from bot.rulings.corpus import load_corpus
from bot.rulings.errors import RulingsError
from bot.rulings.models import DocumentMeta, Kind, ParsedDocument
from bot.rulings.parse import citations_of, parse_document

JUDGE, HN = "lgi-rules-class-10", "horizonnotes-rules"


def by_id(doc: ParsedDocument, passage_id: str) -> str:
    return next(p.text for p in doc.passages if p.id == f"{doc.meta.id}/{passage_id}")


def test_the_judge_class_keeps_its_ten_numbered_sections(documents: dict[str, ParsedDocument]) -> None:
    sections = {p.section for p in documents[JUDGE].passages}
    numbered = sorted(s for s in sections if s[:2].isdigit())
    assert [s[:2] for s in numbered] == [f"{n:02d}" for n in range(1, 11)]
    assert "03 効果のためにカードを選ぶ" in sections


def test_the_rule_page_keeps_its_five_phases(documents: dict[str, ParsedDocument]) -> None:
    sections = {p.section for p in documents[HN].passages}
    for phase in ("1. スタートフェイズ", "2. ドローフェイズ", "4. メインフェイズ", "5. エンドフェイズ"):
        assert phase in sections
    assert "3. チャージフェイズ (エーテル変換)" in sections  # the tooltip inside the heading is gone


def test_kinds_of_passages(documents: dict[str, ParsedDocument]) -> None:
    doc = documents[JUDGE]
    kinds = {p.kind for p in doc.passages}
    assert {Kind.BODY, Kind.KEY_RULE, Kind.QUESTION, Kind.TRANSLATOR_NOTE, Kind.UNVERIFIED} <= kinds
    key_rules = [p for p in doc.passages if p.kind is Kind.KEY_RULE]
    assert len(key_rules) == 9 and all(p.text.startswith("要となるルール") for p in key_rules)
    questions = [p for p in doc.passages if p.kind is Kind.QUESTION]
    assert len(questions) == 4
    assert all("先に考えてください" in q.text and "\n答え:" in q.text for q in questions)


def test_citations_are_numbers_in_order_without_repeats() -> None:
    assert citations_of("…〔22,23〕…〔23〕…〔45, 46〕") == (22, 23, 45, 46)
    assert citations_of("no citation") == ()


def test_passages_carry_their_citations_and_names(documents: dict[str, ParsedDocument]) -> None:
    passage = next(p for p in documents[JUDGE].passages if p.text.startswith("**《モアナ – モトゥヌイ生まれ》**"))
    assert passage.citations == (24, 25)
    assert "モアナ – モトゥヌイ生まれ" in passage.names and "直しましょ" in passage.names


def test_unverified_notes_flag_the_passages_they_concern(documents: dict[str, ParsedDocument]) -> None:
    doc = documents[JUDGE]
    elisa = next(p for p in doc.passages if p.kind is Kind.BODY and "Elisa Maza" in p.text)
    assert elisa.unverified and elisa.unverified_notes
    notes = {p.id: p for p in doc.passages}
    assert all(notes[n].kind is Kind.UNVERIFIED or "要確認" in notes[n].text for n in elisa.unverified_notes)
    moana_note = next(p for p in doc.passages if p.kind is Kind.TRANSLATOR_NOTE and "直しましょ" in p.text)
    assert moana_note.unverified  # a 訳注 that holds a 要確認 is flagged too
    plain = next(p for p in doc.passages if p.kind is Kind.KEY_RULE)
    assert not plain.unverified


def test_tooltips_become_one_term_and_a_glossary_entry(documents: dict[str, ParsedDocument]) -> None:
    doc = documents[HN]
    texts = "\n".join(p.text for p in doc.passages if p.kind is not Kind.DEFINITION)
    assert "エーテル変換エーテル変換" not in texts and "【継続継続" not in texts
    assert "【継続】の効果が発動中" in texts
    assert "≪共鳴値≫リセット" in texts
    assert "セフィロト・コードを装備している場合" in texts
    glossary = {g.term: g.meaning for g in doc.glossary}
    assert glossary["エーテル変換"] == "手札をエーテルエリアに送りコストを獲得する行動。"
    assert glossary["共鳴値"] == "アウラ・コンポルタのリソース。エンドフェイズにリセットされる。"
    assert glossary["セフィロト・コード"] == "装備カード。攻撃スキルを受けると破損判定あり。"
    assert glossary["アストラルコード"] == "デッキ再構築で得た使用権で発動する必殺技。"
    definitions = [p for p in doc.passages if p.kind is Kind.DEFINITION]
    assert len(definitions) == len(glossary) == 7


def test_expand_buttons_are_gone(documents: dict[str, ParsedDocument]) -> None:
    assert all(line.strip() != "+" for p in documents[HN].passages for line in p.text.splitlines())


def test_terminology_table_becomes_english_glossary(documents: dict[str, ParsedDocument]) -> None:
    entries = {g.term: g.meaning for g in documents[JUDGE].glossary if g.language == "en"}
    assert entries["Ward"] == "魔除" and entries["Support"] == "支援"
    assert entries["Challenger"] == "果敢" and entries["Resist"] == "耐久"
    assert entries["modifier"] == "特性変更能力"
    assert entries["during"] == entries["while"] == "間"
    assert entries["legal"] == "適正"
    # The table rows are glossary, not quotable passages.
    assert not any("\t" in p.text for p in documents[JUDGE].passages)


def test_the_shipped_corpus_places_every_line(documents: dict[str, ParsedDocument]) -> None:
    assert [u for d in documents.values() for u in d.unplaced] == []


def test_passage_ids_are_stable_and_unique(documents: dict[str, ParsedDocument], rules_dir: Path) -> None:
    again, _ = load_corpus(rules_dir)
    assert [p.id for d in again for p in d.passages] == [p.id for d in documents.values() for p in d.passages]
    ids = [p.id for d in documents.values() for p in d.passages]
    assert len(ids) == len(set(ids))
    assert by_id(documents[HN], "15/02").startswith("スペルカードや支援スキルによるダメージは")


META = DocumentMeta(id="house", title="House notes", game="horizonnotes", language="ja", source="test", version="1")


def test_what_cannot_be_placed_is_reported() -> None:
    text = "01 テスト\n\n答え: 質問のない答え。\n\nA / B\tエー／ビー／シー\n重複語重複語が残った文。\n"
    doc = parse_document(META, text)
    reasons = sorted(u.reason for u in doc.unplaced)
    assert reasons == [
        "answer without its question; kept as a body passage",
        "possible inlined tooltip left in the text",
        "terminology row not understood",
    ]
    assert any(p.text.startswith("答え:") for p in doc.passages)  # reported, and still kept


def test_a_new_document_is_parsed_without_code_changes(tmp_path: Path, rules_dir: Path) -> None:
    (tmp_path / "lexicon.toml").write_bytes((rules_dir / "lexicon.toml").read_bytes())
    (tmp_path / "010_house.txt").write_text(
        "01 ハウスルール\n\n先攻はじゃんけんで決める。〔1〕\n\n要となるルール: 勝った方が先攻。〔1〕\n",
        encoding="utf-8",
    )
    (tmp_path / "010_house.toml").write_text(
        'id = "house"\ntitle = "ハウス"\ngame = "horizonnotes"\nlanguage = "ja"\nsource = "club"\nversion = "1"\n',
        encoding="utf-8",
    )
    [doc], _ = load_corpus(tmp_path)
    assert [(p.id, p.kind, p.citations) for p in doc.passages] == [
        ("house/01/01", Kind.BODY, (1,)),
        ("house/01/02", Kind.KEY_RULE, (1,)),
    ]


def test_a_document_without_metadata_is_an_error(tmp_path: Path) -> None:
    (tmp_path / "orphan.txt").write_text("本文。", encoding="utf-8")
    with pytest.raises(RulingsError) as info:
        load_corpus(tmp_path)
    assert "orphan.toml" in info.value.bilingual()


def test_bad_metadata_is_an_error(tmp_path: Path) -> None:
    (tmp_path / "x.txt").write_text("本文。", encoding="utf-8")
    (tmp_path / "x.toml").write_text('id = "Bad Id"\n', encoding="utf-8")
    with pytest.raises(RulingsError) as info:
        load_corpus(tmp_path)
    assert info.value.message_key == "rulings.meta_invalid"


def test_bad_metadata_names_the_field_and_the_problem(tmp_path: Path) -> None:
    (tmp_path / "lexicon.toml").write_text("stopwords = 3\n", encoding="utf-8")
    with pytest.raises(RulingsError) as info:
        load_corpus(tmp_path)
    assert "rules/lexicon.toml is not valid: stopwords: Input should be a valid list" in info.value.bilingual()


@pytest.mark.parametrize(
    ("toml", "field", "pattern"),
    [
        ('[card_name_forms]\nlorcana = "[A-Z"\n', "card_name_forms", "[A-Z"),  # a game's way of naming cards
        ('outside_asks = ["(大会|"]\n', "outside_asks", "(大会|"),  # what a channel asks beside the rules
        ("asks_can = ['(でき|']\n", "asks_can", "(でき|"),  # a question asking whether something can be done
        ("says_can = ['でき(る']\n", "says_can", "でき(る"),  # a passage saying what can be done
    ],
)
def test_a_lexicon_pattern_that_is_no_regular_expression_is_a_clear_error(
    tmp_path: Path, toml: str, field: str, pattern: str
) -> None:
    (tmp_path / "lexicon.toml").write_text(toml, encoding="utf-8")
    with pytest.raises(RulingsError) as info:
        load_corpus(tmp_path)
    assert f"rules/lexicon.toml is not valid: {field}" in info.value.bilingual()
    assert f"bad pattern '{pattern}'" in info.value.bilingual()
