"""Issue 9: a card file nested 5,000 deep (tomllib recurses until RecursionError), a card path that is
/dev/zero (memory runs out) or a FIFO (it hangs): each is the catalog's own problem with the file's
name, or a bilingual refusal with status 2; never a traceback."""

from __future__ import annotations

import os
from pathlib import Path

import pytest

from bot.__main__ import main
from bot.catalog import CatalogError, load_catalog
from bot.catalog.loader import Loader


def test_a_card_file_nested_5000_deep_is_a_problem_of_that_file(copy_dir: Path) -> None:
    (copy_dir / "deep.toml").write_text("cards = " + "[" * 5000 + "]" * 5000 + "\n", encoding="utf-8")
    (copy_dir / "decks" / "deep.toml").write_text("x = " + "{a=" * 5000 + "1" + "}" * 5000, encoding="utf-8")
    with pytest.raises(CatalogError) as info:
        load_catalog(copy_dir)
    deep = [(p.file, p.key) for p in info.value.problems]
    assert deep == [("decks/deep.toml", "cards.problem.too_deep"), ("deep.toml", "cards.problem.too_deep")]
    assert "nests arrays or tables too deeply" in info.value.bilingual()


@pytest.mark.parametrize("kind", ["dev-zero", "fifo"])
def test_a_card_path_that_is_not_a_regular_file_is_refused_at_once(
    tmp_path: Path, capsys: pytest.CaptureFixture[str], kind: str
) -> None:
    if kind == "fifo":
        path = tmp_path / "cards.toml"
        os.mkfifo(path)  # nobody writes: reading would wait for ever
    else:
        path = Path("/dev/zero")
    code = main(["cards", "check", str(path)])
    err = capsys.readouterr().err
    assert code == 2 and "is not a regular file" in err and "Traceback" not in err
    loader = Loader(tmp_path)
    loader.add_card_file(path)
    (problem,) = loader.problems
    assert problem.key == "common.file.not_regular" and "not a regular file" in problem.bilingual()


def test_a_fifo_inside_the_cards_folder_is_reported_not_waited_on(copy_dir: Path) -> None:
    os.mkfifo(copy_dir / "pipe.toml")
    with pytest.raises(CatalogError) as info:
        load_catalog(copy_dir)
    assert [(p.file, p.key) for p in info.value.problems] == [("pipe.toml", "common.file.not_regular")]
