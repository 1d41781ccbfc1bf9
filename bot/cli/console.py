"""`referee console`: two or more players at one terminal, through the same service and renderer as the bot.

referee console                               a prompt (or lines piped on stdin)
referee console --db table.sqlite3            the table lives in that file and resumes next time
referee console --script FILE --seed N        play a scripted game and print the transcript
referee console --script FILE --json          print the final state and the event log as JSON
referee console --position FILE [--script F]  a judge's practice table set up from a position file
"""

from __future__ import annotations

import argparse
import asyncio
import hashlib
import secrets
import signal
import sys
import tempfile
import threading
from collections.abc import Callable, Iterator
from pathlib import Path
from typing import Any, BinaryIO

from bot.errors import RefereeError
from bot.files import InputFileError, read_text
from bot.settings import Settings


def register(sub: Any) -> None:
    parser: argparse.ArgumentParser = sub.add_parser(
        "console",
        help="端末で対戦する / play a game at the terminal",
        description="スラッシュコマンドと同じ言葉で、端末で対戦する（例: alice: /charge card:spark-arrow）/ "
        "play HorizonNotes at the terminal with the words of the slash commands",
    )
    parser.add_argument(
        "--db",
        type=Path,
        default=None,
        metavar="PATH",
        help="卓を保存するデータベース（既定: 一時ファイル）/ "
        "the SQLite file that keeps the table, so a game resumes (default: a temporary file)",
    )
    parser.add_argument("--script", type=Path, default=None, metavar="FILE", help="台本ファイル / a file of lines")
    parser.add_argument(
        "--seed",
        type=int,
        default=None,
        metavar="N",
        help="ダイスとシャッフルの種（同じ種と台本なら同じ結果。誰でも出目を予測できるため公正ではない）/ "
        "seed of the dice and shuffles: the same seed and script give the same transcript; "
        "anyone who knows N knows every roll, so the dice are reproducible, not fair",
    )
    parser.add_argument(
        "--position",
        type=Path,
        default=None,
        metavar="FILE",
        help="局面ファイルから練習卓を始める（docs/positions/）。ダイスは指定値で、公正な対局ではない / "
        "open a judge's practice table from a position file (docs/positions/): its dice are given, not rolled",
    )
    parser.add_argument("--json", action="store_true", help="最終盤面と記録を JSON で / final state and events as JSON")
    parser.add_argument("--strict", action="store_true", help="拒否された行で止まる（終了コード1）/ stop at a refusal")
    parser.add_argument("--channel", type=int, default=1, metavar="ID", help="卓のチャンネル ID / table channel id")
    parser.add_argument("--locale", choices=("ja", "en"), default=None, help="表示言語 / display language")
    parser.set_defaults(func=run)


def run(args: argparse.Namespace, settings: Settings) -> int:
    locale = args.locale or settings.default_locale
    # Read the script (or piped input) before any database is opened, so bad input changes and creates nothing.
    script = read_script(args.script) if args.script is not None else None
    position = read_position(args.position, settings) if args.position is not None else None
    try:
        if args.db is not None:
            return asyncio.run(_play(args, settings, args.db, locale, script, position))
        with tempfile.TemporaryDirectory(prefix="referee-console-") as folder:
            db = Path(folder) / "console.sqlite3"
            return asyncio.run(_play(args, settings, db, locale, script, position))
    except KeyboardInterrupt:  # Ctrl-C at the prompt: every played line is already committed
        return 130


def read_position(path: Path, settings: Settings) -> Any:
    """The checked position of the file (bot/table/position.py), read and checked against the cards
    before any database is opened, so a bad file changes and creates nothing."""
    from bot.catalog import load_catalog
    from bot.table.position import load_position

    return load_position(path, load_catalog(settings.cards_dir))


def read_script(path: Path) -> list[str]:
    """The script's lines, read through bot/files.py: a regular UTF-8 file of bounded size (never
    /dev/zero or a FIFO), else InputFileError before anything is played."""
    return read_text(path).splitlines()


LINE_LIMIT = 64 * 1024  # far beyond any console line; a longer one (say, from /dev/zero) is refused


def stdin_lines(stream: BinaryIO, bad: list[int], limit: int = LINE_LIMIT) -> Iterator[str]:
    """Piped lines, decoded one by one as they come (a program may answer the table line by line).
    A line that is not UTF-8 is not played: it is named on stderr and its number kept in `bad`, so
    the run ends with status 2. A line longer than `limit` ends the run (InputFileError)."""
    number = 0
    while raw := stream.readline(limit + 1):
        number += 1
        if len(raw) > limit:
            raise InputFileError("<stdin>", "too_large", limit=limit)
        try:
            yield raw.decode("utf-8-sig" if number == 1 else "utf-8").rstrip("\r\n")
        except UnicodeDecodeError:
            bad.append(number)
            print(StdinNotUtf8(line=number).bilingual(), file=sys.stderr, flush=True)


class StdinNotUtf8(RefereeError):
    """A line of standard input is not UTF-8 text: `line` is its number; it was not played."""

    key = "console.stdin_not_utf8"


def seeded(seed: int, channel_id: int, games_before: Callable[[], int]) -> Callable[[], bytes]:
    """A seed factory: game n of the channel gets its own seed, all fixed by `seed`.

    Anyone who knows `seed` knows every roll and shuffle, so these are ReproducibleSeeds: the table
    shows its dice as reproducible, not fair, and publishes no commitment."""
    from bot.dice import ReproducibleSeed

    return lambda: ReproducibleSeed(
        hashlib.sha256(f"referee-console/{seed}/{channel_id}/{games_before()}".encode()).digest()
    )


def fair_seed() -> bytes:
    """A fair table's secret seed: from the OS CSPRNG, never from anything a player could know."""
    return secrets.token_bytes(32)


def console_table_id(channel_id: int) -> str:
    """The fair-dice table id of a console game. The service's default adds the start time; a console
    table goes without it, so that `--seed N` replays the very same rolls and shuffles."""
    return f"console-{channel_id}"


async def _play(
    args: argparse.Namespace,
    settings: Settings,
    db: Path,
    locale: str,
    script: list[str] | None,
    position: Any = None,
) -> int:
    from bot.catalog import load_catalog
    from bot.console.session import ConsoleSession
    from bot.console.transcript import final_json, format_reply, play_lines, write_json
    from bot.dice import FairRandomness, Randomness
    from bot.service.opening import open_service

    # The lines are read while the event loop waits, so asyncio's own Ctrl-C handling (cancel the task
    # when the loop runs next) would wait for the next line: Ctrl-C stops the console where it is.
    if threading.current_thread() is threading.main_thread():  # only the main thread sets handlers
        signal.signal(signal.SIGINT, signal.default_int_handler)
    channel: int = args.channel
    catalog = lambda: load_catalog(settings.cards_dir)  # noqa: E731  # loaded when first needed
    with open_service(
        db, catalog=catalog, synchronous=settings.synchronous, seed_factory=fair_seed, table_id_factory=console_table_id
    ) as service:
        dice: Randomness | None = None
        if args.seed is not None:
            # Game n of the channel gets its own seed (counted by the service, on its worker thread);
            # /roll outside the game is numbered on from the rolls already filed.
            service.seed_factory = seeded(args.seed, channel, lambda: service.games_played_now(channel))
            rolls = await service.rolls_outside_games(channel)
            roll_seed = hashlib.sha256(f"referee-console/{args.seed}/rolls".encode()).digest()
            dice = FairRandomness(roll_seed, f"console-{channel}-rolls", next_number=rolls)
        session = ConsoleSession(service, channel_id=channel, locale=locale, dice=dice)
        out = _printer(sys.stderr if args.json else sys.stdout)
        if position is not None:
            reply = await session.start_position(position, args.position.name)
            out(format_reply(reply, locale))
            if reply.refusal is not None:
                return 1
        view = await session.current() if position is None else None  # a new practice table was just shown
        if view is not None:
            out(format_reply(await session.run("/game status"), locale))
        if script is not None:
            code = await play_lines(session, iter(script), out, strict=args.strict)
        elif sys.stdin.isatty():
            code = await play_lines(session, _prompt(), out, echo=False, strict=args.strict)
        else:
            bad: list[int] = []
            code = await play_lines(session, stdin_lines(sys.stdin.buffer, bad), out, strict=args.strict)
            code = 2 if bad else code
        if args.json:
            write_json(await final_json(session), sys.stdout)
    return code


def _printer(stream: Any) -> Callable[[str], None]:
    def out(text: str) -> None:
        print(text, file=stream, flush=True)

    return out


def _prompt() -> Iterator[str]:
    while True:
        try:
            yield input("referee> ")
        except EOFError:
            return
