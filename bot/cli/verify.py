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
import json
import sys
from collections.abc import Sequence
from pathlib import Path
from typing import Any

from bot.dice import REPRODUCIBLE, DiceError, commitment_of, verify_log
from bot.dice.verify import Mismatch, VerifyReport, check_commitment, missing_numbers, parse_seed
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
        return _verify_stored(args.db or settings.database_file, args.channel, args.game, args.commitment)
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


def _verify_stored(path: Path, channel_id: int, game_id: int | None, published: str | None) -> int:
    """Every draw of a finished game: from its events (rolls and shuffles) and from the rolls table.
    `published` is the commitment the players saw at the start: without it the check trusts the file's."""
    from bot.service import TableService
    from bot.store import NoGame, Store

    if not path.exists():  # reading must not create an empty database
        raise NoGame("store.no_games", channel=channel_id)
    with Store.open(path) as store:
        service = TableService(store)
        try:
            game, draws = service.fair_draws(channel_id, game_id=game_id)
            if game.active:
                raise DiceError(
                    "dice.verify.running", game=game.game_id, channel=channel_id, commitment=game.commitment or "-"
                )
            filed = service.filed_rolls(game.game_id)
        finally:
            service.close()
    stored_seed = game.revealed_seed
    if not stored_seed or not game.commitment:
        raise DiceError("dice.verify.no_seed", game=game.game_id)
    seed = bytes.fromhex(stored_seed)
    problems = 0
    reproducible = game.commitment == REPRODUCIBLE
    if reproducible:
        print(bilingual("dice.verify.reproducible"))
    for expected in (None if reproducible else game.commitment, published):
        if expected is not None and not check_commitment(seed, expected):
            problems += 1
            _problem("dice.verify.commitment_mismatch", actual=commitment_of(seed), expected=expected)
    logged = verify_log(seed, [json.dumps(d) for d in draws])
    for bad in logged.mismatches:
        problems += 1
        _name_draw(bad, draws[bad.line - 1])
    on_file = verify_log(seed, [json.dumps(d) for d in filed])
    for bad in on_file.mismatches:
        problems += 1
        row = filed[bad.line - 1]
        _problem(
            "dice.verify.filed_mismatch",
            roll=row["roll"],
            number=bad.number,
            what=bad.what,
            logged=bad.logged,
            recomputed=bad.recomputed,
        )
    for row in filed:
        if row["commitment"] != game.commitment:
            problems += 1
            _problem(
                "dice.verify.filed_commitment",
                roll=row["roll"],
                found=row["commitment"] or "-",
                expected=game.commitment,
            )
    # Draws are numbered 0, 1, 2 ... and never reused: a missing number is a draw nobody can see.
    numbers = {d["number"] for d in draws} | {r["number"] for r in filed}
    first, count = missing_numbers(numbers)
    for number in first:
        _problem("dice.verify.missing_draw", number=number)
    if count > len(first):
        _problem("dice.verify.more_missing", count=count - len(first))
    problems += count
    # Every roll of the log was filed as it was made: a roll the table lacks was deleted from it.
    filed_numbers = {r["number"] for r in filed}
    for draw in draws:
        if "shuffle" not in draw and draw["number"] not in filed_numbers:
            problems += 1
            _problem("dice.verify.filed_missing", number=draw["number"], seq=draw["seq"], what=draw["expression"])
    rolls = sum(1 for d in draws if "shuffle" not in d)
    shuffles = len(draws) - rolls
    if problems:
        print(
            bilingual("dice.verify.game_failed", game=game.game_id, bad=problems, count=len(draws) + len(filed)),
            file=sys.stderr,
        )
        return 1
    print(
        bilingual(
            "dice.verify.game_ok_reproducible" if reproducible else "dice.verify.game_ok",
            game=game.game_id,
            channel=channel_id,
            table=game.table_id or "-",
            rolls=rolls,
            shuffles=shuffles,
            filed=len(filed),
            commitment=game.commitment,
        )
    )
    return 0


def _name_draw(bad: Mismatch, draw: dict[str, Any]) -> None:
    """Name the event of a stored draw the seed does not give, so a judge can find it."""
    if bad.kind == "duplicate":
        _problem("dice.verify.game_duplicate", number=bad.number, seq=draw["seq"])
    elif bad.kind == "shuffle":
        logged, recomputed = json.loads(bad.logged), json.loads(bad.recomputed)
        at = next(
            (i for i, (a, b) in enumerate(zip(logged, recomputed, strict=False)) if a != b),
            min(len(logged), len(recomputed)),
        )
        _problem(
            "dice.verify.game_shuffle_mismatch",
            number=bad.number,
            seq=draw["seq"],
            seat=draw["seat"],
            position=at + 1,
            logged=_at(logged, at),
            recomputed=_at(recomputed, at),
        )
    else:
        _problem(
            "dice.verify.game_roll_mismatch",
            number=bad.number,
            seq=draw["seq"],
            purpose=draw["purpose"],
            what=bad.what,
            logged=bad.logged,
            recomputed=bad.recomputed,
        )


def _at(items: list[Any], index: int) -> str:
    return str(items[index]) if index < len(items) else "-"


def _problem(key: str, **args: Any) -> None:
    print(bilingual(key, **args), file=sys.stderr)
