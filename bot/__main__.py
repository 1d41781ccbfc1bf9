"""The `referee` command line. Each subcommand lives in its own module under bot/cli/.

Only the chosen subcommand's module is imported (start-up time is what a user waits for on every
roll); `referee --help` and a mistyped command load them all, to list them.
"""

from __future__ import annotations

import argparse
import importlib
import os
import sys
from collections.abc import Sequence
from typing import Any, NoReturn

from bot.errors import RefereeError
from bot.i18n import bilingual

# Explicit list: a module that fails to import fails loudly instead of vanishing from --help.
COMMANDS: tuple[str, ...] = ("run", "sync", "game", "db", "roll", "verify", "cards", "ruling", "replay", "console")


class BadArguments(RefereeError):
    key = "common.cli.bad_arguments"


class BadArgumentEncoding(RefereeError):
    key = "common.cli.bad_encoding"


class _Parser(argparse.ArgumentParser):
    """argparse that raises the project's own error (bilingual, exit 2) instead of printing English and exiting."""

    def error(self, message: str) -> NoReturn:
        raise BadArguments(usage=self.format_usage().strip().removeprefix("usage: "), problem=message)


def build_parser(chosen: str | None = None) -> argparse.ArgumentParser:
    parser = _Parser(
        prog="referee",
        description="HorizonNotes Referee — ホライゾンノーツの審判ボット / a referee bot for HorizonNotes",
    )
    sub = parser.add_subparsers(dest="command", required=True, metavar="COMMAND", parser_class=_Parser)
    for name in COMMANDS if chosen is None else (chosen,):
        importlib.import_module(f"bot.cli.{name}").register(sub)
    return parser


def _chosen_command(argv: Sequence[str]) -> str | None:
    """The subcommand named first on the line, when it is one of ours (else None: load them all)."""
    for arg in argv:
        if not arg.startswith("-"):
            return arg if arg in COMMANDS else None
        if arg == "--":
            return None
    return None


def _check_encoding(argv: Sequence[str]) -> None:
    # Bytes that are not UTF-8 arrive as lone surrogates (PEP 383); nothing downstream can print them.
    for position, arg in enumerate(argv, start=1):
        if any("\udc80" <= ch <= "\udcff" for ch in arg):
            raise BadArgumentEncoding(position=position)


def _dash_hint(argv: Sequence[str]) -> str:
    """A hint for `referee roll -1d6`: an expression starting with a dash looks like an option."""
    looks_like_expression = any(len(a) > 1 and a[0] == "-" and (a[1].isdigit() or a[1] in "dD") for a in argv)
    return bilingual("dice.cli.dash_hint") if looks_like_expression else ""


def _settings(*, light: bool) -> Any:
    """The settings, or for a command that reads only its language and log level (`light_settings`
    in its defaults) just those two, gathered the same way without building the settings model."""
    if light:
        from bot.settings_source import light_settings

        found = light_settings()
        if found is not None:
            return found
    from bot.settings import load_settings

    return load_settings()


def main(argv: Sequence[str] | None = None) -> int:
    arguments = list(sys.argv[1:] if argv is None else argv)
    try:
        _check_encoding(arguments)
        args = build_parser(_chosen_command(arguments)).parse_args(arguments)
        settings = _settings(light=getattr(args, "light_settings", False))
        from bot.logs import configure_logging

        configure_logging(settings.log_level)
        code: int = args.func(args, settings)
    except BadArguments as exc:
        print(exc.bilingual(), file=sys.stderr)
        hint = _dash_hint(arguments)
        if hint:
            print(hint, file=sys.stderr)
        return 2
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
