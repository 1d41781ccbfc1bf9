"""`referee roll EXPR [--json]`: roll dice offline with the OS CSPRNG."""

from __future__ import annotations

import argparse
import json
from typing import TYPE_CHECKING, Any

from bot.dice import render, roll
from bot.i18n import bilingual
from bot.settings_source import LightSettings

if TYPE_CHECKING:
    from bot.settings import Settings


def register(sub: Any) -> None:
    parser: argparse.ArgumentParser = sub.add_parser(
        "roll",
        help='ダイスを振る / roll dice, e.g. referee roll "3d6+2 炎の一撃"',
        description="ダイスを振る (例: 3d6+2, 2d6>=7, 4d6kh3, ３ｄ６＋２ ラベル) / roll dice",
        # The same words the lead's argument errors print (key dice.cli.dash_hint), so help and error agree.
        epilog=bilingual("dice.cli.dash_hint"),
    )
    parser.add_argument("expression", nargs="+", metavar="EXPR", help="式とラベル / expression and optional label")
    parser.add_argument("--json", action="store_true", help="結果を JSON で出力 / print one JSON object")
    parser.add_argument("--locale", choices=("ja", "en"), default=None, help="表示言語 / display language")
    # A roll reads only the language and the log level: no settings model to build (bench/startup.py).
    parser.set_defaults(func=run, light_settings=True)


def run(args: argparse.Namespace, settings: Settings | LightSettings) -> int:
    # Bad input raises DiceError, which main() prints bilingually on stderr with exit status 2.
    result = roll(" ".join(args.expression))
    if args.json:
        print(json.dumps(result.as_dict(), ensure_ascii=False))
    else:
        print(render(result, args.locale or settings.default_locale))
    return 0
