"""Whatever text reaches the question path, the answer is a result or the project's own error."""

from __future__ import annotations

import pytest
from hypothesis import HealthCheck, example, given, settings
from hypothesis import strategies as st

from bot.__main__ import main
from bot.errors import RefereeError
from bot.rulings.errors import RulingsError
from bot.rulings.parts import split_parts
from bot.rulings.search import Rulebook

# What argv holds when the shell passes bytes that are not UTF-8 ($'\xff\xfe'): surrogate escapes.
UNDECODABLE = b"\xff\xfe".decode("utf-8", "surrogateescape")


def test_undecodable_bytes_in_a_question_are_a_bilingual_message(
    cli_data_dir: object, capsys: pytest.CaptureFixture[str]
) -> None:
    code = main(["ruling", UNDECODABLE])
    out, err = capsys.readouterr()
    assert code == 2 and out == ""
    assert "UTF-8" in err and " / " in err and "Traceback" not in err


@pytest.mark.parametrize("question", [UNDECODABLE, "DEF\ud800とは", "\udfff"])
def test_the_search_itself_refuses_lone_surrogates(rulebook: Rulebook, question: str) -> None:
    with pytest.raises(RulingsError) as caught:
        rulebook.search(question)
    assert caught.value.message_key == "rulings.bad_text"


_FTS = st.sampled_from(['"', "*", "NEAR(", "AND", "OR", "NOT", ":", "^", "(", ")", "{", "}", "-", "+"])
_TEXT = st.one_of(
    st.text(max_size=200),
    st.text(alphabet=st.characters(codec=None, blacklist_categories=()), max_size=80),
    st.lists(st.one_of(_FTS, st.text(max_size=8), st.sampled_from(["DEF", "エーテル", "Ward", "魔除"]))).map(" ".join),
    st.text(alphabet=st.sampled_from("\x00\x01\x1b\x7f\u200b\ufeff\u3000\n\tア"), max_size=50),
    st.integers(min_value=1_000, max_value=60_000).map(lambda n: "ダメージ" * (n // 4)),
)


@settings(max_examples=60, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture])
@given(question=_TEXT)
@example(question="000:0?000:0?0000:0")  # three parts: a passage for each, no fourth
@example(question='0"00\x00"')  # a NUL in a quote once ended SQLite's full-text query: a traceback
def test_any_text_gives_an_answer_or_our_error(rulebook: Rulebook, question: str) -> None:
    try:
        answer = rulebook.search(question)
    except RefereeError:
        return
    assert answer.question == question
    # k passages, or one per part of a question with more parts than that
    assert len(answer.hits) <= max(3, len(split_parts(question)))
