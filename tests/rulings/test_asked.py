"""The questions players ask that each passage answers (rules/asked.toml): a question worded as
players word theirs finds its passage through them, the file is checked when the index is built,
and none of them is an evaluation question in other clothes."""

from __future__ import annotations

import contextlib
import shutil
import tomllib
from collections.abc import Callable
from pathlib import Path

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from bot.rulings.corpus import (
    ASKED_FILE,
    CHATTER_FILE,
    TUNING_FILE,
    WRITTEN_FILE,
    load_asked,
    load_chatter,
    load_corpus,
)
from bot.rulings.errors import RulingsError
from bot.rulings.index import index_path
from bot.rulings.models import Label, ParsedDocument
from bot.rulings.search import Rulebook

from .helpers import close_to_evaluation
from .tuning_file import RULES, expected_file, tuning_questions

HN = "horizonnotes-rules"
# Players' words the rules never use: スタフェ is the start phase (スタートフェイズ), 寝かす and 起きる
# are tapping and untapping.
SHORTHAND = "スタフェって何するんだっけ？"
SLANG = "寝かしたユニットっていつ起きるの？"


@pytest.fixture
def rules_copy(rules_dir: Path, tmp_path: Path) -> Path:
    folder = tmp_path / "rules"
    shutil.copytree(rules_dir, folder)
    return folder


def top(folder: Path, cache: Path, question: str) -> list[str]:
    book = Rulebook.open(cache, folder)
    try:
        return [h.id for h in book.search(question).hits]
    finally:
        book.close()


def test_a_players_word_the_rules_never_use_finds_the_passage_it_is_asked_of(rules_copy: Path, tmp_path: Path) -> None:
    """The asked questions are what finds it: the same corpus without them does not."""
    with_them = top(rules_copy, tmp_path / "a", SHORTHAND)
    (rules_copy / ASKED_FILE).unlink()
    without = top(rules_copy, tmp_path / "b", SHORTHAND)
    assert f"{HN}/05/01" in with_them  # the start phase: ターン開始時の処理を行う…フェイズ
    assert f"{HN}/05/01" not in without


def test_a_question_in_players_words_only_is_answered_not_refused(rulebook: Rulebook) -> None:
    """No word of it is the rules' (スタフェ, 何, する): one asked question holds it all, so it is a
    question about the game, answered with the closest passages, not "no word of the corpus"."""
    question = "スタフェって何するんだっけ？"
    assert rulebook.plan(question).empty
    answer = rulebook.search(question)
    assert answer.label is Label.CLOSEST and answer.hits[0].id == f"{HN}/05/01"


def test_slang_for_tapping_finds_the_house_rule_of_untapping(rulebook: Rulebook) -> None:
    """The rulebook never says when a unit untaps; the house rule that does is shown."""
    answer = rulebook.search(SLANG)
    assert [h.id for h in answer.house] == ["house-rules/03/01"]


def test_an_edited_asked_file_builds_a_new_index(rules_copy: Path, tmp_path: Path) -> None:
    before = index_path(tmp_path, rules_copy)
    path = rules_copy / ASKED_FILE
    path.write_text(path.read_text(encoding="utf-8") + '\n["horizonnotes-rules/05/01"]\nja = []\n', encoding="utf-8")
    with pytest.raises(RulingsError):  # the same table twice: TOML says no
        load_asked(rules_copy, load_corpus(rules_copy)[0])
    assert index_path(tmp_path, rules_copy) != before


@pytest.mark.parametrize(
    ("text", "detail"),
    [
        ('["horizonnotes-rules/99/01"]\nja = ["x"]\n', "horizonnotes-rules/99/01"),  # no such passage
        ('["horizonnotes-rules/05/01"]\nfr = ["x"]\n', "fr"),  # only ja and en
        ('["horizonnotes-rules/05/01"]\nja = "x"\n', "ja"),  # a list of questions
        ('["horizonnotes-rules/05/01"\n', ASKED_FILE),  # not TOML
    ],
)
@pytest.mark.parametrize("name", [ASKED_FILE, WRITTEN_FILE, TUNING_FILE])
def test_a_broken_asked_file_is_a_clear_error(rules_copy: Path, text: str, detail: str, name: str) -> None:
    (rules_copy / name).write_text(text, encoding="utf-8")
    documents, _ = load_corpus(rules_copy)
    with pytest.raises(RulingsError) as caught:
        load_asked(rules_copy, documents, name)
    message = str(caught.value)
    assert name in message and (detail if detail != ASKED_FILE else name) in message and " / " in message


def test_questions_of_a_document_not_shipped_are_left_out(rules_copy: Path) -> None:
    """An installed copy without docs/ has no house rules: their questions are not an error."""
    (rules_copy / "house-rules.toml").unlink()
    documents, _ = load_corpus(rules_copy)
    asked = load_asked(rules_copy, documents)
    assert asked and not any(pid.startswith("house-rules/") for pid in asked)


@pytest.mark.parametrize(
    ("name", "load"),
    [
        (ASKED_FILE, lambda folder: load_asked(folder, [])),
        (WRITTEN_FILE, lambda folder: load_asked(folder, [], WRITTEN_FILE)),
        (TUNING_FILE, lambda folder: load_asked(folder, [], TUNING_FILE)),
        (CHATTER_FILE, load_chatter),
    ],
)
@settings(max_examples=60, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture])
@given(data=st.binary(max_size=300) | st.text(max_size=300).map(lambda t: t.encode("utf-8", "surrogatepass")))
def test_any_asked_or_chatter_file_loads_or_is_our_error(
    tmp_path: Path, name: str, load: Callable[[Path], object], data: bytes
) -> None:
    folder = tmp_path / "fuzz"
    folder.mkdir(exist_ok=True)
    (folder / name).write_bytes(data)
    with contextlib.suppress(RulingsError):  # our error is fine; any other fails the test
        load(folder)


def test_every_rule_passage_has_questions_in_both_languages(documents: dict[str, ParsedDocument]) -> None:
    with (Path(__file__).resolve().parents[2] / "rules" / ASKED_FILE).open("rb") as fh:
        asked = tomllib.load(fh)
    passages = [p.id for d in documents.values() for p in d.passages]
    assert set(asked) == set(passages)
    empty = [pid for pid, q in asked.items() if not q["ja"] and not q["en"]]
    assert len(empty) <= 2  # pointers to other pages, which answer nothing
    assert all(q["ja"] and q["en"] for pid, q in asked.items() if pid not in empty)


@pytest.mark.parametrize("name", [ASKED_FILE, WRITTEN_FILE])
def test_no_asked_question_is_an_evaluation_question(name: str) -> None:
    """The evaluation is blind: no question the search or the classifier learns from shares half its
    character pairs with a question of tests/rulings/blind.toml or eval.toml (a shorter, reworded or
    typo-fixed copy included)."""
    with (Path(__file__).resolve().parents[2] / "rules" / name).open("rb") as fh:
        asked = [q for entry in tomllib.load(fh).values() for q in [*entry["ja"], *entry["en"]]]
    assert close_to_evaluation(asked) == []


def test_the_tuning_file_is_the_tuning_halves_and_no_held_out_question() -> None:
    """rules/tuning.toml is what tests/rulings/tuning_file.py writes from the blind set's tuning halves:
    every question in it is a tuning question, none shares half its character pairs with a held-out
    question or an old-set one, and the file is not stale (blind.toml edited, the file not written)."""
    assert (RULES / TUNING_FILE).read_text(encoding="utf-8") == expected_file()
    with (RULES / TUNING_FILE).open("rb") as fh:
        texts = [q for entry in tomllib.load(fh).values() for q in [*entry["ja"], *entry["en"]]]
    assert texts and set(texts) <= {q["text"] for q in tuning_questions()}
    assert close_to_evaluation(texts, held_only=True) == []


def test_a_question_worded_like_a_house_rules_gets_it_beside_the_closest_rules(rulebook: Rulebook) -> None:
    """The rulebook says what a block does, not how many may block one attack: the house rule that
    decides it (one) is shown beside the closest rule passages."""
    answer = rulebook.search("ブロックって2体でできる？")
    assert answer.label is Label.CLOSEST
    assert answer.hits and all(h.id.startswith(f"{HN}/") for h in answer.hits)
    assert [h.id for h in answer.house] == ["house-rules/11/01"]


def test_a_direct_answer_gets_no_house_rule_beside_it(rulebook: Rulebook) -> None:
    answer = rulebook.search("タップ状態のアルカステラのDEFはどうなる？")
    assert answer.label is Label.DIRECT and not answer.house
