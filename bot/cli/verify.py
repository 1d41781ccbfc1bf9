"""`referee verify --seed HEX --log FILE [--commitment HEX]`: recompute a fair table's rolls.

The log format is described in bot/dice/verify.py. Exit status: 0 when every record is reproduced
(and the commitment matches, when given), 1 on any mismatch, 2 when the seed or log cannot be read.
"""

from __future__ import annotations

import argparse
import sys
from pathlib import Path
from typing import Any

from bot.dice import DiceError, commitment_of, verify_log
from bot.dice.verify import check_commitment, parse_seed
from bot.i18n import bilingual
from bot.settings import Settings


def register(sub: Any) -> None:
    parser: argparse.ArgumentParser = sub.add_parser(
        "verify",
        help="公開されたシードでダイスの記録を検証 / check a roll log against a revealed seed",
    )
    parser.add_argument("--seed", required=True, metavar="HEX", help="公開されたシード / the revealed seed")
    parser.add_argument("--log", required=True, type=Path, metavar="FILE", help="JSON Lines のログ / the roll log")
    parser.add_argument("--commitment", metavar="HEX", help="対局開始時に公開された sha256(seed) / the published hash")
    parser.set_defaults(func=run)


def run(args: argparse.Namespace, settings: Settings) -> int:
    seed = parse_seed(args.seed)
    try:
        lines = args.log.read_text(encoding="utf-8").splitlines()
    except (OSError, UnicodeDecodeError):
        raise DiceError("dice.verify.missing_log", path=str(args.log)) from None
    failed = False
    if args.commitment is not None:
        if check_commitment(seed, args.commitment):
            print(bilingual("dice.verify.commitment_ok"))
        else:
            failed = True
            print(
                bilingual("dice.verify.commitment_mismatch", actual=commitment_of(seed), expected=args.commitment),
                file=sys.stderr,
            )
    report = verify_log(seed, lines)
    for bad in report.mismatches:
        print(
            bilingual(
                f"dice.verify.{bad.kind}_mismatch" if bad.kind != "duplicate" else "dice.verify.duplicate",
                **bad.model_dump(exclude={"kind"}),
            ),
            file=sys.stderr,
        )
    if report.ok:
        print(bilingual("dice.verify.all_ok", count=report.checked))
    else:
        failed = True
        print(bilingual("dice.verify.failed", count=report.checked, bad=len(report.mismatches)), file=sys.stderr)
    return 1 if failed else 0
