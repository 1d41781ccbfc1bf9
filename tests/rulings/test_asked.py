"""rules/asked.toml: questions players ask, filed under the passage that answers them."""

from __future__ import annotations

import shutil
from pathlib import Path

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from bot.rulings.asked import ASKED_FILE
from bot.rulings.corpus import load_corpus
from bot.rulings.errors import RulingsError
from bot.rulings.search import Rulebook

from .helpers import HN

QUESTION = "呪文で焼かれた時も守りの数値って効くの？"  # 呪文, 焼く, 守り: no word of the rule page's


def _corpus(tmp_path: Path, rules_dir: Path, asked: str) -> Path:
    """The HorizonNotes rule page and the lexicon, with `asked` as its asked.toml."""
    folder = tmp_path / "rules"
    folder.mkdir(parents=True)
    for path in [*rules_dir.glob("001_*"), rules_dir / "lexicon.toml"]:
        shutil.copy(path, folder / path.name)
    (folder / ASKED_FILE).write_text(asked, encoding="utf-8")
    return folder


def _first(tmp_path: Path, rules_dir: Path, asked: str) -> str:
    folder = _corpus(tmp_path, rules_dir, asked)
    book = Rulebook.open(tmp_path / "cache", folder)
    try:
        return book.search(QUESTION).hits[0].id
    finally:
        book.close()


def test_a_question_filed_under_a_passage_finds_it(tmp_path: Path, rules_dir: Path) -> None:
    """Spell damage is not reduced by DEF (15/02); asked in a player's words, the DEF rule for attacks
    comes first, until a question in those words is filed under 15/02."""
    assert _first(tmp_path / "without", rules_dir, "") != f"{HN}/15/02"
    filed = f'["{HN}/15/02"]\nja = ["{QUESTION}"]\n'
    assert _first(tmp_path / "with", rules_dir, filed) == f"{HN}/15/02"


def test_what_is_asked_of_a_passage_does_not_make_its_answer_direct(tmp_path: Path, rules_dir: Path) -> None:
    """The label is decided by what the passage itself states: a filed question only ranks it."""
    folder = _corpus(tmp_path, rules_dir, f'["{HN}/15/02"]\nja = ["{QUESTION}"]\n')
    book = Rulebook.open(tmp_path / "cache", folder)
    try:
        assert book.search(QUESTION).label.value != "direct"
    finally:
        book.close()


def test_a_filed_question_naming_no_passage_is_reported_by_the_check(tmp_path: Path, rules_dir: Path) -> None:
    folder = _corpus(tmp_path, rules_dir, f'["{HN}/99/01"]\nja = ["消えた節への質問"]\n["nowhere/01/01"]\nen = ["?"]\n')
    documents, _ = load_corpus(folder)
    reported = {u.text for d in documents for u in d.unplaced}
    assert reported == {f"{HN}/99/01", "nowhere/01/01"}


def test_every_question_filed_in_the_corpus_names_a_passage(rules_dir: Path) -> None:
    documents, _ = load_corpus(rules_dir)
    assert not [u for d in documents for u in d.unplaced if ASKED_FILE in u.reason]
    assert sum(1 for d in documents for p in d.passages if p.asked) >= 100


@pytest.mark.parametrize(
    ("text", "field"),
    [('["x/01/01"]\nja = "one question"\n', "ja"), ('["x/01/01"]\nfr = ["question"]\n', "fr"), ('"x" = 3\n', "")],
)
def test_a_malformed_file_is_a_bilingual_error_naming_it(
    tmp_path: Path, rules_dir: Path, text: str, field: str
) -> None:
    folder = _corpus(tmp_path, rules_dir, text)
    with pytest.raises(RulingsError) as info:
        load_corpus(folder)
    assert info.value.message_key == "rulings.meta_invalid"
    assert ASKED_FILE in info.value.bilingual() and field in info.value.bilingual()


@settings(max_examples=40, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture])
@given(content=st.one_of(st.text(max_size=200).map(str.encode), st.binary(max_size=200)))
def test_any_file_content_loads_or_is_our_error_naming_it(
    tmp_path_factory: pytest.TempPathFactory, rules_dir: Path, content: bytes
) -> None:
    folder = tmp_path_factory.mktemp("rules")
    shutil.copy(rules_dir / "lexicon.toml", folder / "lexicon.toml")
    (folder / ASKED_FILE).write_bytes(content)
    try:
        load_corpus(folder)
    except RulingsError as error:
        assert ASKED_FILE in error.bilingual()
