"""Position files (docs/positions/README.md): every problem reported with file and field, bad files
refused with the project's own error, and arbitrary bytes or text never escaping as anything else."""

from __future__ import annotations

import contextlib
import subprocess
import sys
import tempfile
from pathlib import Path

from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from bot.errors import RefereeError
from bot.table.position import POSITION_LIMIT, PositionError, load_position, parse_position
from tests.console.conftest import catalog

ROOT = Path(__file__).resolve().parents[2]
GOOD = (ROOT / "docs" / "positions" / "spell-against-def.toml").read_text(encoding="utf-8")


def problems(text: str) -> list[str]:
    try:
        parse_position(text, catalog(), "p.toml")
    except PositionError as exc:
        return [f"{p.field}: {p.key}" for p in exc.problems]
    raise AssertionError("the position was accepted")


def test_every_problem_is_listed_at_once_with_its_field() -> None:
    bad = (
        GOOD.replace('hand = ["blaze-lance"]', 'hand = ["no-such-card", "ignis-hart"]')
        .replace('{ card = "tera-mina" }]', '{ card = "tera-mina", hp = 99 }, { card = "spark-arrow" }]')
        .replace('turn_player = "alice"', 'turn_player = "carol"')
    )
    found = problems(bad)
    assert "players[0].hand[0]: practice.problem.unknown_card" in found
    assert "players[0].hand[1]: practice.problem.not_a_deck_card" in found
    assert "players[1].units[2].hp: practice.problem.hp_above_max" in found
    assert "players[1].units[3].card: practice.problem.wrong_kind" in found
    assert "turn_player: practice.problem.no_such_player" in found


def test_model_problems_name_the_field() -> None:
    found = problems(
        GOOD.replace('phase = "main"', 'phase = "draw"\nsurprise = 1').replace("dice = [5, 4]", "dice = [7]")
    )
    assert "phase: cards.problem.literal_error" in found
    assert "surprise: cards.problem.extra_forbidden" in found
    assert any(f.startswith("dice[0]") for f in found)


def test_a_leader_at_zero_hp_two_leaders_and_hidden_characters_are_refused() -> None:
    assert "players[1].leader: practice.problem.leader_knocked_out" in problems(
        GOOD.replace('{ card = "nox-arden" }', '{ card = "nox-arden", hp = 0 }')
    )
    assert "players[1].name: practice.problem.bad_name" in problems(GOOD.replace('name = "bob"', 'name = "b\u200bob"'))
    assert "players[1].name: practice.problem.same_name" in problems(GOOD.replace('name = "bob"', 'name = "ALICE"'))
    assert "players[1].leader: practice.problem.leader_not_on_board" in problems(
        GOOD.replace('leader = "nox-arden"', 'leader = "ignis-hart"')
    )


def test_card_names_are_read_like_ids() -> None:
    printed = catalog().get("blaze-lance").name
    position = parse_position(GOOD.replace('hand = ["blaze-lance"]', f'hand = ["{printed}"]'), catalog())
    assert position.players[0].hand == ("blaze-lance",)


def test_deep_nesting_and_files_that_are_not_positions_are_the_project_s_error(tmp_path: Path) -> None:
    assert problems("x = " + "[" * 5000 + "]" * 5000) == [": cards.problem.too_deep"]
    big = tmp_path / "big.toml"
    big.write_bytes(b"#" * (POSITION_LIMIT + 1))
    for path in (big, tmp_path / "missing.toml", tmp_path):
        try:
            load_position(path, catalog())
        except PositionError as exc:
            assert exc.problems[0].key.startswith("common.file.")
        else:
            raise AssertionError(path)


@settings(max_examples=60, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(st.binary(max_size=400))
def test_arbitrary_bytes_give_a_position_or_the_project_s_error(data: bytes) -> None:
    with tempfile.TemporaryDirectory() as folder:
        path = Path(folder) / "p.toml"
        path.write_bytes(data)
        with contextlib.suppress(RefereeError):
            load_position(path, catalog())


_LINES = st.sampled_from(
    [*GOOD.splitlines(), "[options]", 'deck_out = "lose"', "dice = [1, 2, 3]", "hp = -1", "[[players]]"]
)


@settings(max_examples=80, deadline=None)
@given(st.one_of(st.text(max_size=300), st.lists(_LINES, max_size=40).map("\n".join)))
def test_arbitrary_text_gives_a_position_or_the_project_s_error(text: str) -> None:
    with contextlib.suppress(RefereeError):
        parse_position(text, catalog())


def test_referee_console_refuses_a_bad_position_before_creating_the_database(tmp_path: Path) -> None:
    bad = tmp_path / "bad.toml"
    bad.write_text(GOOD.replace('turn_player = "alice"', 'turn_player = "carol"'), encoding="utf-8")
    db = tmp_path / "table.sqlite3"
    run = subprocess.run(
        [sys.executable, "-m", "bot", "console", "--position", str(bad), "--db", str(db)],
        capture_output=True, text=True, input="", cwd=ROOT, timeout=120,
    )  # fmt: skip
    assert run.returncode != 0 and "turn_player" in run.stderr and "carol" in run.stderr
    assert not db.exists()


def test_referee_console_plays_a_position_file(tmp_path: Path) -> None:
    script = tmp_path / "s.txt"
    script.write_text("alice: /cast card:blaze-lance caster:ignis-hart target:garde-volk\n", encoding="utf-8")
    run = subprocess.run(
        [sys.executable, "-m", "bot", "console", "--position", str(ROOT / "docs/positions/spell-against-def.toml"),
         "--script", str(script), "--locale", "en", "--strict"],
        capture_output=True, text=True, cwd=ROOT, timeout=120,
    )  # fmt: skip
    assert run.returncode == 0, run.stderr
    assert "PRACTICE TABLE" in run.stdout and "given [5, 4] = 9" in run.stdout and "HP 29" in run.stdout


def test_the_position_schema_for_editors_is_up_to_date() -> None:
    from bot.catalog.schema import schema_text
    from bot.engine.position import Position

    shipped = (ROOT / "docs" / "positions" / "position.schema.json").read_text(encoding="utf-8")
    assert shipped == schema_text(Position), "regenerate docs/positions/position.schema.json (see its README)"
