"""Properties: whatever text is typed at the console, the line parser returns a line (or None) or
refuses with the project's own error, and a started table answers or refuses every line (a
RefereeError-backed reply), never raising anything else."""

from __future__ import annotations

import asyncio
import tempfile
from pathlib import Path

from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from bot.cli.console import console_table_id
from bot.console.lines import parse_line
from bot.console.session import OPTIONS, ConsoleSession
from bot.errors import RefereeError
from bot.service import TableService
from bot.store import Store
from tests.console.conftest import START, catalog

COMMANDS = sorted(OPTIONS)
WORDS = [
    "alice", "bob", "carol", "1", "0", "-1", "99999999999999999999", "on", "off", "hp", "tapped", "ether",
    "discard", "deck_top", "confirm", "reject", "火花の矢", "ミズハ", "ハルト", "霧のセイ", "spark-arrow", "3d6",
    "1e9", "", "「", "」", '"', "：", "／", "\u200b", "\u202e", "\x00", "\ud7ff", "ｆｉｒｅ",
]  # fmt: skip
KEYS = sorted({k for keys in OPTIONS.values() for k in keys if k != "*"} | {"bogus"})


@st.composite
def console_lines(draw: st.DrawFn) -> str:
    """Lines built from the console's own words (so commands and options do get reached), or any text."""
    if draw(st.booleans()):
        return draw(st.text(max_size=80))
    actor = draw(st.sampled_from(["", "alice: ", "bob: ", "carol: ", "a\u200bb: ", ": "]))
    command = draw(st.sampled_from(COMMANDS))
    parts = [f"/{command}"]
    for _ in range(draw(st.integers(0, 4))):
        word = draw(st.sampled_from(WORDS) | st.text(max_size=12))
        if draw(st.booleans()):
            parts.append(f"{draw(st.sampled_from(KEYS))}:{word}")
        else:
            parts.append(word)
    return actor + " ".join(parts)


@settings(max_examples=300, deadline=None)
@given(st.text(max_size=120) | console_lines())
def test_parse_line_returns_a_line_or_the_projects_own_error(text: str) -> None:
    try:
        line = parse_line(text)
    except RefereeError as exc:
        assert exc.bilingual()
        return
    assert line is None or line.command


def test_a_started_table_answers_or_refuses_every_line() -> None:
    with tempfile.TemporaryDirectory() as folder:
        store = Store.open(Path(folder) / "props.sqlite3")
        service = TableService(
            store, catalog(), seed_factory=lambda: b"props".ljust(32, b"."), table_id_factory=console_table_id
        )
        loop = asyncio.new_event_loop()
        session = ConsoleSession(service, channel_id=3, locale="en")
        try:

            @settings(max_examples=120, deadline=None, suppress_health_check=[HealthCheck.too_slow])
            @given(st.lists(console_lines(), min_size=1, max_size=4))
            def play(lines: list[str]) -> None:
                async def go() -> None:
                    if await session.current() is None:  # a conceded or ended game: sit down again
                        assert (await session.run(START)).refusal is None
                    for text in lines:
                        reply = await session.run(text)  # anything but a RefereeError escapes and fails
                        if reply.refusal is not None:
                            assert isinstance(reply.refusal, RefereeError) and reply.refusal.bilingual()
                        else:
                            assert all(m.lines or m.title for m in reply.messages) or not reply.messages

                loop.run_until_complete(go())

            play()
        finally:
            loop.close()
            service.close()
            store.close()
