"""The `referee` command line. Each subcommand lives in its own module under bot/cli/."""

from __future__ import annotations

import argparse
import importlib
import os
import sys
from collections.abc import Sequence

from bot.errors import RefereeError

# Explicit list: a module that fails to import fails loudly instead of vanishing from --help.
COMMANDS: tuple[str, ...] = ("run", "roll", "verify", "cards", "ruling", "replay", "console")


def build_parser() -> argparse.ArgumentParser:
    parser = argparse.ArgumentParser(
        prog="referee",
        description="HorizonNotes Referee — ホライゾンノーツの審判ボット / a referee bot for HorizonNotes",
    )
    sub = parser.add_subparsers(dest="command", required=True, metavar="COMMAND")
    for name in COMMANDS:
        importlib.import_module(f"bot.cli.{name}").register(sub)
    return parser


def main(argv: Sequence[str] | None = None) -> int:
    from bot.settings import load_settings

    parser = build_parser()
    args = parser.parse_args(argv)
    try:
        settings = load_settings()
        code: int = args.func(args, settings)
    except RefereeError as exc:
        print(exc.bilingual(), file=sys.stderr)
        return getattr(exc, "exit_code", 2)
    except BrokenPipeError:
        # `referee cards list | head`: the reader left; say nothing more and leave quietly.
        os.dup2(os.open(os.devnull, os.O_WRONLY), sys.stdout.fileno())
        return 0
    return code


if __name__ == "__main__":
    sys.exit(main())
