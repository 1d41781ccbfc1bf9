"""`python -m tests.fake_discord --port 0 --shards N`: a fake Discord in its own process.

Prints `READY <port>` on stdout once it listens; the driver API is under http://127.0.0.1:<port>/_fake
(see control.py). Stops on SIGINT or SIGTERM.
"""

from __future__ import annotations

import argparse
import asyncio
import signal

from .server import FakeDiscord


def parse_args(argv: list[str] | None = None) -> argparse.Namespace:
    parser = argparse.ArgumentParser(prog="python -m tests.fake_discord", description=__doc__)
    parser.add_argument("--host", default="127.0.0.1")
    parser.add_argument("--port", type=int, default=0, help="0 picks a free port")
    parser.add_argument("--shards", type=int, default=1, help="shard count GET /gateway/bot recommends")
    parser.add_argument("--token", default="fake-bot-token", help="the bot token the fake accepts")
    parser.add_argument("--interaction-timeout", type=float, default=3.0, help="seconds to the first callback")
    parser.add_argument("--global-limit", type=int, default=50, help="REST requests per second per token")
    return parser.parse_args(argv)


async def serve(args: argparse.Namespace) -> None:
    fake = FakeDiscord(
        token=args.token,
        shard_count=args.shards,
        interaction_timeout=args.interaction_timeout,
        global_limit=args.global_limit,
        control=True,
        host=args.host,
        port=args.port,
    )
    await fake.start()
    stop = asyncio.Event()
    loop = asyncio.get_running_loop()
    for sig in (signal.SIGINT, signal.SIGTERM):
        loop.add_signal_handler(sig, stop.set)
    print(f"READY {fake.port}", flush=True)
    try:
        await stop.wait()
    finally:
        await fake.stop()


def main(argv: list[str] | None = None) -> None:
    try:  # the fake shares the benchmark's two cores with the bots: the less CPU it takes the better
        import uvloop
    except ImportError:
        asyncio.run(serve(parse_args(argv)))
        return
    with asyncio.Runner(loop_factory=uvloop.new_event_loop) as runner:
        runner.run(serve(parse_args(argv)))


if __name__ == "__main__":
    main()
