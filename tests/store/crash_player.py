"""The crash test's player (run as `python -m tests.store.crash_player DB CHANNEL`; DB a SQLite file or a
postgresql:// URL).

It loads everything once, then for each line on stdin (a random seed) forks a child that plays random
legal moves through TableService against the database, printing `commit GAME VERSION` after each
acknowledged commit, until the test kills it with SIGKILL. It prints `pid N` when the child starts
and `dead STATUS` when it is gone. Forking keeps a round cheap, so the test can kill 50+ players.
"""

from __future__ import annotations

import asyncio
import os
import random
import sys

from bot.engine import Concede
from bot.service import ServiceError, TableService
from tests.store.conftest import open_target
from tests.store.tables import AKI, BEN, catalog, next_move, start


def say(text: str) -> None:
    os.write(1, (text + "\n").encode())  # one write per line: lines from parent and child never mix


async def play(db: str, channel: int, seed: int) -> None:
    rnd = random.Random(seed)
    with open_target(db) as store:  # the SQLite file, or a postgresql:// URL
        service = TableService(store, catalog)
        while True:
            if await service.on_worker(store.find, channel) is None:  # the worker alone uses the store
                out = await service.start_game(channel, AKI, start())
            elif rnd.random() < 0.15:
                for user in (AKI, BEN):  # only the one who made the last move may undo it
                    try:
                        out = await service.undo(channel, user)
                        break
                    except ServiceError:
                        continue
                else:
                    continue
            else:
                user, action = next_move((await service.status(channel)).state, rnd)
                if rnd.random() < 0.02:  # now and then a game ends, is archived and a new one starts
                    action = Concede(player=str(user))
                out = await service.act(channel, user, action)
            say(f"commit {out.game_id} {out.version}")


def main() -> None:
    db, channel = sys.argv[1], int(sys.argv[2])
    catalog()
    say("ready")
    while line := sys.stdin.readline():
        pid = os.fork()
        if pid == 0:
            try:
                asyncio.run(play(db, channel, int(line)))
            finally:
                os._exit(1)
        say(f"pid {pid}")
        _, status = os.waitpid(pid, 0)
        say(f"dead {status}")


if __name__ == "__main__":
    main()
