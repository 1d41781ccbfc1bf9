"""`referee verify`: recompute a fair table's rolls and shuffles from its revealed seed.

referee verify --seed HEX --log FILE [--commitment HEX]    a JSON Lines roll log (bot/dice/verify.py)
referee verify --channel ID [--db PATH] [--game ID] [--commitment HEX]
                                                          a stored game, read straight from the database

Exit status: 0 when every draw is reproduced (and the commitment matches), 1 on any mismatch or on a
log that is empty, mixes tables or leaves out a draw number, 2 when the input cannot be read or the
game is still running (its seed is secret until it ends).
"""

from __future__ import annotations

import argparse
import sys
from collections.abc import Sequence
from pathlib import Path
from typing import Any

from bot.cli.running import run_async
from bot.dice import REPRODUCIBLE, DiceError, commitment_of, verify_log
from bot.dice.verify import VerifyReport, check_commitment, parse_seed
from bot.files import read_text
from bot.i18n import bilingual
from bot.settings import Settings


def register(sub: Any) -> None:
    parser: argparse.ArgumentParser = sub.add_parser(
        "verify",
        help="公開されたシードでダイスとシャッフルを検証 / check rolls and shuffles against a revealed seed",
        description="ログファイル（--seed と --log）か、保存された対戦（--channel）のダイスとシャッフルを"
        "すべて再計算する / recompute every roll and shuffle of a roll log (--seed and --log) or of a "
        "stored, finished game (--channel)",
    )
    parser.add_argument("--seed", metavar="HEX", help="公開されたシード / the revealed seed")
    parser.add_argument("--log", type=Path, metavar="FILE", help="JSON Lines のログ / the roll log")
    parser.add_argument("--commitment", metavar="HEX", help="対局開始時に公開された sha256(seed) / the published hash")
    parser.add_argument(
        "--channel", type=int, metavar="ID", help="保存された対戦のチャンネル / a stored game's channel"
    )
    parser.add_argument(
        "--game", type=int, metavar="ID", help="対戦 ID（既定: 最後の対戦）/ a game id (default: latest)"
    )
    parser.add_argument("--db", type=Path, metavar="PATH", help="データベース / database file")
    parser.set_defaults(func=run)


def run(args: argparse.Namespace, settings: Settings) -> int:
    if args.channel is not None and args.seed is None and args.log is None:
        url = None if args.db else settings.database_url_text  # --db names a file: it wins
        return _verify_stored(args.db or settings.database_file, args.channel, args.game, args.commitment, url)
    if args.channel is None and args.seed is not None and args.log is not None:
        return _verify_file(args.seed, args.log, args.commitment)
    raise DiceError("dice.verify.usage")


def _verify_file(seed_text: str, log: Path, commitment: str | None) -> int:
    seed = parse_seed(seed_text)
    # JSON Lines end at "\n" only: str.splitlines() would also cut at U+2028 inside a JSON string.
    lines = [line.removesuffix("\r") for line in read_text(log).split("\n")]
    failed = False
    if commitment is not None and commitment.strip() == REPRODUCIBLE:
        print(bilingual("dice.verify.reproducible"))  # a seeded table published no commitment to check
    elif commitment is not None:
        if check_commitment(seed, commitment):
            print(bilingual("dice.verify.commitment_ok"))
        else:
            failed = True
            _problem("dice.verify.commitment_mismatch", actual=commitment_of(seed), expected=commitment)
    report = verify_log(seed, lines)
    for bad in report.mismatches:
        key = f"dice.verify.{bad.kind}_mismatch" if bad.kind != "duplicate" else "dice.verify.duplicate"
        _problem(key, **bad.model_dump(exclude={"kind"}))
    _whole_log(report)
    if report.ok:
        print(bilingual("dice.verify.all_ok", count=report.checked))
    else:
        failed = True
        problems = len(report.mismatches) + report.missing_count
        print(bilingual("dice.verify.failed", count=report.checked, bad=problems), file=sys.stderr)
    return 1 if failed else 0


def _whole_log(report: VerifyReport) -> None:
    """What is wrong with the log as a whole: empty, more than one table, or draw numbers left out."""
    if report.checked == 0:
        _problem("dice.verify.empty")
    if len(report.tables) > 1:
        _problem("dice.verify.mixed_tables", tables=", ".join(report.tables))
    if report.missing_count:
        _problem(
            "dice.verify.missing_lines",
            numbers=_numbers(report.missing, report.missing_count),
            count=report.missing_count,
            table_id=report.tables[0],
        )


def _numbers(first: Sequence[int], count: int) -> str:
    """The first missing numbers as "#3, #7", then how many more: a message stays readable."""
    text = ", ".join(f"#{n}" for n in first)
    return text if count <= len(first) else f"{text} … (+{count - len(first)})"


def _verify_stored(
    path: Path, channel_id: int, game_id: int | None, published: str | None, url: str | None = None
) -> int:
    """Every draw of a finished game: from its events (rolls and shuffles) and from the rolls table.
    `published` is the commitment the players saw at the start: without it the check trusts the file's."""

    from bot.service.opening import open_service

    with open_service(path, reading_channel=channel_id, database_url=url) as service:
        check = run_async(service.verify(channel_id, game_id=game_id, published=published))
    if check.reproducible:
        print(bilingual("dice.verify.reproducible"))
    for problem in check.problems:
        print(bilingual(problem.key, **problem.args), file=sys.stderr)
    if not check.ok:
        bad, count = len(check.problems), check.rolls + check.shuffles + check.filed
        print(bilingual("dice.verify.game_failed", game=check.game_id, bad=bad, count=count), file=sys.stderr)
        return 1
    print(
        bilingual(
            "dice.verify.game_ok_reproducible" if check.reproducible else "dice.verify.game_ok",
            game=check.game_id,
            channel=channel_id,
            table=check.table_id,
            rolls=check.rolls,
            shuffles=check.shuffles,
            filed=check.filed,
            commitment=check.commitment,
        )
    )
    return 0


def _problem(key: str, **args: Any) -> None:
    print(bilingual(key, **args), file=sys.stderr)
