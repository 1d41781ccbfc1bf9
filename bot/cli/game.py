"""`referee game end CHANNEL_ID`: an admin ends a channel's running game without a winner.

For the admin who holds the database file: it works even when the game's state row no longer parses
(the console cannot open such a table), keeping that row as it was for inspection.
"""

from __future__ import annotations

import argparse
from pathlib import Path
from typing import Any

from bot.cli.running import run_async
from bot.i18n import t
from bot.service.opening import open_service
from bot.settings import Settings


def register(sub: Any) -> None:
    parser: argparse.ArgumentParser = sub.add_parser(
        "game", help="対戦の管理（終了）/ manage a channel's game (end it)"
    )
    commands = parser.add_subparsers(dest="game_command", required=True, metavar="COMMAND")
    end = commands.add_parser(
        "end",
        help="進行中の対戦を勝者なしで終える / end the running game without a winner",
        description="チャンネルの進行中の対戦を勝者なしで終え、保管する（盤面の記録が壊れていても終えられ、壊れた"
        "記録はそのまま残す）/ end a channel's running game without a winner and archive it (even when its "
        "stored state is damaged; the damaged row is kept as it was)",
    )
    end.add_argument("channel_id", type=int, metavar="CHANNEL_ID", help="チャンネル ID / channel id")
    end.add_argument("--db", type=Path, default=None, metavar="PATH", help="データベース / database file")
    end.add_argument("--reason", default="", help="記録に残す理由 / the reason, kept in the log")
    end.add_argument(
        "--by", type=int, default=0, metavar="USER_ID", help="記録する管理者の ID（既定 0）/ the admin's id (default 0)"
    )
    end.add_argument("--locale", choices=("ja", "en"), default=None, help="表示言語 / display language")
    end.set_defaults(func=run)


def run(args: argparse.Namespace, settings: Settings) -> int:
    path: Path = args.db or settings.database_file
    locale = args.locale or settings.default_locale
    # Ending nothing must not create an empty database (reading_channel); the admin at the file is the
    # moderator of every table in it.
    url = None if args.db else settings.database_url_text  # --db names a file: it wins
    with open_service(
        path, synchronous=settings.synchronous, reading_channel=args.channel_id, database_url=url
    ) as service:
        out = run_async(service.end(args.channel_id, args.by, is_moderator=True, reason=args.reason))
    print(t("store.game.ended", locale, game=out.game_id, channel=out.channel_id, seed=out.revealed_seed or "-"))
    return 0
