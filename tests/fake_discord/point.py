"""Point an unmodified discord.py 2.7 at a fake Discord. Both attributes are read late (Route.BASE when each
request is built, DEFAULT_GATEWAY when a socket is opened), but set them before `login()`/`start()`."""

from __future__ import annotations

import discord.gateway
import discord.http
import yarl


def point_discord_py_at(url: str) -> None:
    """`url` is the fake's root, e.g. http://127.0.0.1:PORT. Process-wide: it changes class attributes."""
    root = url.rstrip("/")
    # Every REST call, webhook and interaction callbacks included, is built from Route.BASE.
    discord.http.Route.BASE = f"{root}/api/v10"
    # A Client (and an AutoShardedClient given shard_count) connects to DEFAULT_GATEWAY without asking
    # /gateway/bot, and INVALID_SESSION sends every client back to it.
    discord.gateway.DiscordWebSocket.DEFAULT_GATEWAY = yarl.URL(root.replace("http", "ws", 1) + "/gateway")
