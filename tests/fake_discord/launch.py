"""Run a bot process against a fake Discord without changing the bot:

    python -m tests.fake_discord.launch http://127.0.0.1:PORT -m bot run [args...]

points discord.py at the fake (point.py), then runs the module as `python -m` would. The bot still needs its
usual settings, e.g. DISCORD_TOKEN set to the fake's token.
"""

from __future__ import annotations

import runpy
import sys

from .point import point_discord_py_at

USAGE = "usage: python -m tests.fake_discord.launch URL -m MODULE [ARGS...]"


def main(argv: list[str] | None = None) -> None:
    args = sys.argv[1:] if argv is None else argv
    if len(args) < 3 or args[1] != "-m":
        sys.exit(USAGE)
    url, module, rest = args[0], args[2], args[3:]
    point_discord_py_at(url)
    sys.argv = [module, *rest]
    runpy.run_module(module, run_name="__main__", alter_sys=True)


if __name__ == "__main__":
    main()
