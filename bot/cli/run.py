"""`referee run`: start the Discord bot."""

from __future__ import annotations

import argparse
import sys
from typing import Any

from bot.i18n import bilingual
from bot.settings import Settings


def register(sub: Any) -> None:
    parser: argparse.ArgumentParser = sub.add_parser("run", help="Discord に接続して審判を始める / run the Discord bot")
    parser.set_defaults(func=run)


def run(args: argparse.Namespace, settings: Settings) -> int:
    if settings.discord_token is None or not settings.discord_token.get_secret_value().strip():
        print(bilingual("common.no_token"), file=sys.stderr)
        return 3
    # The Discord front end arrives with its own issue; until then the token is accepted but unused.
    print(bilingual("common.discord_front_missing"), file=sys.stderr)
    return 4
