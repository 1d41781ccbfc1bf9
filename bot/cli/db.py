"""`referee db copy --from sqlite:///PATH --to postgresql://…`: move a table from the SQLite file to
PostgreSQL (docs/scaling.md), then check that every game replays to its stored state over there.

Stop the bot first: the copy reads the file as it is, and refuses a target that already holds data.
"""

from __future__ import annotations

import argparse
from pathlib import Path
from typing import Any

from bot.cli.running import run_async
from bot.errors import RefereeError
from bot.i18n import t
from bot.service import TableService
from bot.service.opening import copy_to_postgres, open_service
from bot.settings import Settings


class BadCopySource(RefereeError):
    key = "store.copy.bad_source"


class BadCopyTarget(RefereeError):
    key = "store.copy.bad_target"


def register(sub: Any) -> None:
    parser: argparse.ArgumentParser = sub.add_parser(
        "db", help="データベースの管理（コピー）/ manage the database (copy it)"
    )
    commands = parser.add_subparsers(dest="db_command", required=True, metavar="COMMAND")
    copy = commands.add_parser(
        "copy",
        help="SQLite から PostgreSQL へコピー / copy the SQLite file to PostgreSQL",
        description="SQLite のデータベースのすべて（対戦、記録、ダイス、デッキ、設定）を空の PostgreSQL へコピーし、"
        "コピー先で全対戦の再現を確かめる / copy every game, event, roll, deck and setting of the SQLite "
        "database into an empty PostgreSQL database, then check that every game replays there",
    )
    copy.add_argument("--from", dest="source", required=True, metavar="sqlite:///PATH", help="コピー元 / source")
    copy.add_argument(
        "--to", dest="target", default=None, metavar="postgresql://…", help="コピー先 / target (REFEREE_DATABASE_URL)"
    )
    copy.add_argument("--locale", choices=("ja", "en"), default=None, help="表示言語 / display language")
    copy.set_defaults(func=run)


def sqlite_path(given: str) -> Path:
    """`sqlite:///data/x.sqlite3` is data/x.sqlite3, `sqlite:////srv/x.sqlite3` is /srv/x.sqlite3."""
    prefix = "sqlite:///"
    if not given.startswith(prefix) or len(given) == len(prefix):
        raise BadCopySource(given=given[:200])
    return Path(given[len(prefix) :])


def run(args: argparse.Namespace, settings: Settings) -> int:
    locale = args.locale or settings.default_locale
    source = sqlite_path(args.source)
    target = args.target or settings.database_url_text
    if not target or not target.startswith(("postgresql://", "postgres://")):
        raise BadCopyTarget()
    copied = copy_to_postgres(source, target)
    rows = copied.rows
    print(
        t(
            "store.copy.copied",
            locale,
            games=rows["games"],
            actions=rows["actions"],
            rolls=rows["rolls"],
            decks=rows["decks"],
            guilds=rows["guild_settings"],
            channels=rows["channel_settings"],
            clocks=rows["clock_settings"],
        )
    )
    bad = _not_replaying(source, target, copied.game_ids)
    if bad:
        print(t("store.copy.mismatch", locale, games=", ".join(f"#{g}" for g in bad)))
        return 1
    print(t("store.copy.checked", locale, games=len(copied.game_ids)))
    return 0


def _not_replaying(source: Path, target: str, game_ids: list[int]) -> list[int]:
    """The games that replay to their stored state in the SQLite file but not on the server (a game
    whose state row was already damaged in the file is not the copy's doing)."""
    with open_service(source, database_url=target) as there, open_service(source) as here:
        failed = [g for g in game_ids if not _replays(there, g)]
        return [g for g in failed if _replays(here, g)]


def _replays(service: TableService, game_id: int) -> bool:
    try:
        return run_async(service.replay_check(game_id)).matches
    except RefereeError:  # a row that does not parse, say: it does not replay to its state
        return False
