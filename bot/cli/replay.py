"""`referee replay CHANNEL_ID`: print a game's log and check that its events rebuild the stored state.

While the game runs, the log shows only what the table has seen: deck orders, drawn cards and the
decks as registered are replaced by their counts; a finished game's replay shows everything.

With `--roll-log FILE` it writes the game's fair draws instead, as the JSON Lines log that
`referee verify --seed HEX --log FILE` reads (the format of bot/dice/verify.py). An existing FILE is
replaced only with `--force`, and never when it is the database being read.
"""

from __future__ import annotations

import argparse
import json
import sys
from pathlib import Path
from typing import Any

from bot.cli.running import run_async
from bot.dice.given import PRACTICE
from bot.files import write_new_text
from bot.i18n import t
from bot.render import render_log, to_text
from bot.service import GameLog, LogEntry, ReplayCheck, TableService
from bot.service.opening import open_service
from bot.settings import Settings


def register(sub: Any) -> None:
    parser: argparse.ArgumentParser = sub.add_parser(
        "replay",
        help="対戦の記録を表示し再現を確認 / print a game's log and check its replay",
        description="チャンネルの対戦（進行中、なければ最後に終わったもの）の記録を表示し、記録から盤面を"
        "作り直して保存された盤面と一致するか確かめる / print the log of a channel's game (the running one, "
        "else the last finished one) and check that its events rebuild the stored state",
    )
    parser.add_argument("channel_id", type=int, metavar="CHANNEL_ID", help="チャンネル ID / channel id")
    parser.add_argument("--game", type=int, default=None, metavar="GAME_ID", help="対戦 ID / a game id")
    parser.add_argument("--db", type=Path, default=None, metavar="PATH", help="データベース / database file")
    parser.add_argument("--locale", choices=("ja", "en"), default=None, help="表示言語 / display language")
    parser.add_argument(
        "--text",
        action="store_true",
        help="有効な手を公開ログの文章で表示（既定は保存された全記録）/ the moves in effect as the public log "
        "in words (default: every stored entry, raw)",
    )
    parser.add_argument(
        "--roll-log",
        type=Path,
        default=None,
        metavar="FILE",
        help="ダイスとシャッフルの記録を JSON Lines で書き出す（referee verify --log 用）/ write the game's rolls "
        "and shuffles as the JSON Lines log that referee verify --log reads",
    )
    parser.add_argument(
        "--force",
        action="store_true",
        help="--roll-log のファイルがあれば置き換える（読んでいるデータベースは決して上書きしない）/ replace the "
        "--roll-log file if it exists (the database being read is never overwritten)",
    )
    parser.set_defaults(func=run)


def public_data(entry: LogEntry, locale: str) -> str:
    """An entry of a running game as the table has seen it: a deck's order (shuffled, rebuilt, or put back
    on top), the cards a player drew and the decks as registered are hidden, each shown as its count.
    Only a finished game's replay shows them (its seed is revealed then too)."""
    if entry.type not in _SECRET_LISTS:
        return entry.data
    data = json.loads(entry.data)

    def hidden(items: list[Any]) -> str:
        return t("store.replay.hidden", locale, count=len(items))

    if entry.type == "game_started":
        data["players"] = [
            {**seat, "deck": hidden(seat.get("deck") or [])} if isinstance(seat, dict) else seat
            for seat in data.get("players") or []
        ]
    elif entry.type == "position_loaded":  # a practice table: its hands and deck orders, as counts
        data["players"] = [
            {**side, "hand": hidden(side.get("hand") or []), "deck": hidden(side.get("deck") or [])}
            if isinstance(side, dict)
            else side
            for side in data.get("players") or []
        ]
    elif entry.type != "adjusted" or data.get("field") == "deck_top":  # a discard shows its cards to all
        name = _SECRET_LISTS[entry.type]
        if isinstance(data.get(name), list):
            data[name] = hidden(data[name])
    return json.dumps(data, ensure_ascii=False, separators=(",", ":"))


# The event types that hold a list only one player (or nobody) has seen, and the field holding it.
_SECRET_LISTS = {
    "deck_shuffled": "order",
    "deck_rebuilt": "order",
    "cards_drawn": "cards",
    "adjusted": "cards",
    "game_started": "players",
    "position_loaded": "players",
}


def run(args: argparse.Namespace, settings: Settings) -> int:
    path: Path = args.db or settings.database_file
    locale = args.locale or settings.default_locale
    url = None if args.db else settings.database_url_text  # --db names a file: it wins
    if args.roll_log is not None:
        return _export(path, args.channel_id, args.game, args.roll_log, locale, force=args.force, url=url)
    with open_service(path, reading_channel=args.channel_id, database_url=url) as service:
        log, check = run_async(_read(service, args.channel_id, args.game))
    game = log.game
    kept = {(e.game_id, e.seq) for action in log.in_effect for e in action.entries}
    status = t("store.replay.running" if game.active else "store.replay.finished", locale)
    print(
        t(
            "store.replay.header",
            locale,
            game=game.game_id,
            channel=game.channel_id,
            status=status,
            version=game.version,
            table=game.table_id or "-",
            commitment=game.commitment or "-",
        )
    )
    if game.commitment == PRACTICE:  # a judge's table: its "seed" is only the given faces, already in the log
        print(t("practice.board.marker", locale))
    elif game.revealed_seed:
        print(t("store.replay.seed", locale, seed=game.revealed_seed))
    if args.text:
        print(to_text(render_log(log.events(), locale)))
    else:
        print(t("store.replay.legend", locale))
        for entry in log.entries:
            mark = " " if (entry.game_id, entry.seq) in kept or entry.is_table_entry else "x"
            actor = entry.actor if entry.actor is not None else "-"
            data = entry.data if not game.active else public_data(entry, locale)
            print(f"{mark} {entry.seq:>5} v{entry.version:<5} {actor!s:>20}  {entry.type:<22} {data}")
    if check.matches:
        print(t("store.replay.ok", locale, events=check.events))
        return 0
    print(t("store.replay.mismatch", locale, game=game.game_id), file=sys.stderr)
    return 1


async def _read(service: TableService, channel_id: int, game_id: int | None) -> tuple[GameLog, ReplayCheck]:
    log = await service.log(channel_id, game_id=game_id)
    return log, await service.replay_check(log.game.game_id)


def _export(
    path: Path, channel_id: int, game_id: int | None, out: Path, locale: str, *, force: bool, url: str | None = None
) -> int:
    """Write the game's draws for `referee verify`. A running game's shuffles (its hidden deck orders)
    and its seed stay out; the commitment is printed either way, the seed only once the game is over."""
    with open_service(path, reading_channel=channel_id, database_url=url) as service:
        game, draws = run_async(service.draws(channel_id, game_id=game_id))
    text = "".join(json.dumps(d, ensure_ascii=False) + "\n" for d in draws)
    # Never over an existing file unless --force, and never over the database itself.
    write_new_text(out, text, force=force, protect=(path,))
    shuffles = sum(1 for d in draws if "shuffle" in d)
    print(
        t(
            "store.replay.exported",
            locale,
            rolls=len(draws) - shuffles,
            shuffles=shuffles,
            game=game.game_id,
            path=str(out),
            commitment=game.commitment or "-",
        )
    )
    if game.active:
        print(t("store.replay.export_running", locale))
    else:
        print(
            t(
                "store.replay.export_verify",
                locale,
                seed=game.revealed_seed or "-",
                path=str(out),
                commitment=game.commitment or "-",
            )
        )
    return 0
