"""One dice limit everywhere: a total that could outgrow the store's 64-bit integers is refused by the
dice themselves, with a dice message, in the parser, in `referee roll` and at the console table."""

from __future__ import annotations

import json
from collections.abc import AsyncIterator
from pathlib import Path

import pytest

from bot.__main__ import main
from bot.console.session import ConsoleSession
from bot.dice import MAX_TOTAL, DiceError, parse, roll
from bot.service import TableService
from bot.store import Store
from tests.console.conftest import catalog, refusal, text
from tests.dice.scripted import Scripted

TOO_LARGE = "dice.error.total_too_large"
HUGE = ["9999999*9999999*9999999", "1d6*9999999*9999999*9999999", "1d1000*9999999*9999999", "200d1000*9999999*9999"]


def _key(text: str) -> str:
    with pytest.raises(DiceError) as caught:
        roll(text)
    return caught.value.message_key


@pytest.mark.parametrize("expression", HUGE)
def test_a_total_beyond_the_limit_is_refused_before_rolling(expression: str) -> None:
    assert _key(expression) == TOO_LARGE


def test_every_intermediate_product_is_bounded_not_only_the_result() -> None:
    # The product passes the limit before the zero brings it back: refused all the same.
    assert _key("1d6*9999999*9999999*9999999*0") == TOO_LARGE


def test_a_sum_of_terms_each_within_the_limit_is_bounded_as_a_whole() -> None:
    term = "9999999*9999999"  # about 1e14 each; eleven of them pass 1e15
    assert roll("1d1+" + "+".join([term] * 10)).total == 1 + 10 * 9999999 * 9999999
    assert _key("1d1+" + "+".join([term] * 11)) == TOO_LARGE
    assert _key("1d1-" + "-".join([term] * 11)) == TOO_LARGE


def test_the_largest_allowed_expressions_still_roll_and_fit_64_bits() -> None:
    plan = parse("1d1000*9999999*99")
    low, high = plan.bounds()
    assert 0 < low <= high <= MAX_TOTAL < 2**63
    result = roll("1d1000*9999999*99", Scripted([1000]))
    assert result.total == 1000 * 9999999 * 99


def test_referee_roll_refuses_it_with_the_dice_message(capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["roll", "9999999*9999999*9999999"]) == 2
    err = capsys.readouterr().err
    assert "at most 1,000,000,000,000,000" in err and "Traceback" not in err


def test_referee_roll_json_still_prints_the_total(capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["roll", "--json", "1d1*9999999*9999999"]) == 0
    assert json.loads(capsys.readouterr().out)["total"] == 9999999 * 9999999


@pytest.fixture
async def console(tmp_path: Path) -> AsyncIterator[ConsoleSession]:
    store = Store.open(tmp_path / "console.sqlite3")
    service = TableService(store, catalog())
    try:
        yield ConsoleSession(service, channel_id=5, locale="en")
    finally:
        service.close()
        store.close()


@pytest.mark.parametrize("expression", HUGE)
async def test_the_console_refuses_it_with_the_dice_message_not_the_store_s(
    console: ConsoleSession, expression: str
) -> None:
    message = refusal(await console.run(f"alice: /roll {expression}"))
    assert "at most 1,000,000,000,000,000" in message
    assert "ID" not in message  # not the store's "that ID is too large"
    # Nothing was filed: the next roll is the channel's first.
    shown = text(await console.run("alice: /roll 1d1*9999999*9999999"))
    assert "99999980000001" in shown
    filed = await console.service.on_worker(lambda: console.service.store.rolls.of_channel(5, limit=10))
    assert len(filed) == 1
