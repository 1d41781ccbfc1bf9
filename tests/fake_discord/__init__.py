"""A fake Discord (REST API v10 + gateway v10) on 127.0.0.1 for end-to-end tests and the benchmark."""

from .interactions import Callback, InteractionHandle, NoSession
from .point import point_discord_py_at
from .server import FakeDiscord
from .world import FakeChannel, FakeGuild, FakeMember, FakeMessage, FakeRole, FakeUser

__all__ = [
    "Callback",
    "FakeChannel",
    "FakeDiscord",
    "FakeGuild",
    "FakeMember",
    "FakeMessage",
    "FakeRole",
    "FakeUser",
    "InteractionHandle",
    "NoSession",
    "point_discord_py_at",
]
