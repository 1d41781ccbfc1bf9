"""Interactions the fake sends: payloads built like Discord's, and the handle a test awaits for the answer."""

from __future__ import annotations

import asyncio
import time
from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Any

from .world import EPHEMERAL, FakeChannel, FakeGuild, FakeMember, FakeMessage, FakeUser

if TYPE_CHECKING:
    from .server import FakeDiscord

# Interaction types
PING, APPLICATION_COMMAND, MESSAGE_COMPONENT, AUTOCOMPLETE, MODAL_SUBMIT = 1, 2, 3, 4, 5
# Callback types
PONG, CHANNEL_MESSAGE, DEFERRED_CHANNEL_MESSAGE, DEFERRED_UPDATE, UPDATE_MESSAGE, AUTOCOMPLETE_RESULT, MODAL = (
    1,
    4,
    5,
    6,
    7,
    8,
    9,
)
ALLOWED_CALLBACKS: dict[int, set[int]] = {
    APPLICATION_COMMAND: {CHANNEL_MESSAGE, DEFERRED_CHANNEL_MESSAGE, MODAL},
    MESSAGE_COMPONENT: {CHANNEL_MESSAGE, DEFERRED_CHANNEL_MESSAGE, DEFERRED_UPDATE, UPDATE_MESSAGE, MODAL},
    AUTOCOMPLETE: {AUTOCOMPLETE_RESULT},
    MODAL_SUBMIT: {CHANNEL_MESSAGE, DEFERRED_CHANNEL_MESSAGE, DEFERRED_UPDATE, UPDATE_MESSAGE},
}

# Application command option types
SUB_COMMAND, SUB_COMMAND_GROUP, STRING, INTEGER, BOOLEAN, USER, CHANNEL, ROLE, MENTIONABLE, NUMBER = range(1, 11)


class NoSession(LookupError):
    """No gateway session (live or resumable) owns the guild's shard."""


@dataclass
class Callback:
    """One accepted interaction callback (POST /interactions/{id}/{token}/callback)."""

    type: int
    data: dict[str, Any]
    latency: float  # seconds from dispatching the interaction to receiving this callback

    @property
    def flags(self) -> int:
        return int(self.data.get("flags") or 0)

    @property
    def ephemeral(self) -> bool:
        return bool(self.flags & EPHEMERAL)

    @property
    def content(self) -> str | None:
        return self.data.get("content")

    @property
    def embeds(self) -> list[dict[str, Any]]:
        return list(self.data.get("embeds") or [])

    @property
    def components(self) -> list[dict[str, Any]]:
        return list(self.data.get("components") or [])

    @property
    def allowed_mentions(self) -> dict[str, Any] | None:
        return self.data.get("allowed_mentions")

    @property
    def choices(self) -> list[dict[str, Any]]:
        return list(self.data.get("choices") or [])

    def to_json(self) -> dict[str, Any]:
        return {"type": self.type, "data": self.data, "ephemeral": self.ephemeral, "latency": self.latency}


@dataclass
class InteractionHandle:
    """What a test holds after sending an interaction: its payload, the callbacks, follow-ups and edits."""

    fake: FakeDiscord
    payload: dict[str, Any]
    user: FakeUser
    channel: FakeChannel | None
    source_message: FakeMessage | None = None
    dispatched_at: float = field(default_factory=time.monotonic)
    callbacks: list[Callback] = field(default_factory=list)
    rejected: list[dict[str, Any]] = field(default_factory=list)  # refused callbacks: {"type", "status", "error"}
    original: FakeMessage | None = None
    followups: list[FakeMessage] = field(default_factory=list)
    edits: list[dict[str, Any]] = field(default_factory=list)  # bodies of PATCH .../@original, in order
    _answered: asyncio.Event = field(default_factory=asyncio.Event)

    @property
    def id(self) -> int:
        return int(self.payload["id"])

    @property
    def token(self) -> str:
        return str(self.payload["token"])

    @property
    def type(self) -> int:
        return int(self.payload["type"])

    @property
    def acknowledged(self) -> bool:
        return bool(self.callbacks)

    @property
    def first(self) -> Callback | None:
        return self.callbacks[0] if self.callbacks else None

    async def response(self, timeout: float = 5.0) -> Callback:
        """The first callback; raises TimeoutError when none arrives within `timeout` seconds."""
        await asyncio.wait_for(self._answered.wait(), timeout)
        assert self.callbacks
        return self.callbacks[0]

    async def wait_followups(self, count: int, timeout: float = 5.0) -> list[FakeMessage]:
        await self.fake.wait_until(lambda: len(self.followups) >= count, timeout)
        return self.followups[:count]

    async def wait_edits(self, count: int, timeout: float = 5.0) -> list[dict[str, Any]]:
        await self.fake.wait_until(lambda: len(self.edits) >= count, timeout)
        return self.edits[:count]

    def to_json(self) -> dict[str, Any]:
        return {
            "id": str(self.id),
            "token": self.token,
            "type": self.type,
            "channel_id": None if self.channel is None else str(self.channel.id),
            "callbacks": [c.to_json() for c in self.callbacks],
            "rejected": self.rejected,
            "original": None if self.original is None else message_json(self.original),
            "followups": [message_json(m) for m in self.followups],
            "edits": self.edits,
        }


def message_json(msg: FakeMessage) -> dict[str, Any]:
    data = msg.payload()
    data["ephemeral"] = msg.ephemeral
    data["deleted"] = msg.deleted
    data["interaction_id"] = None if msg.interaction_id is None else str(msg.interaction_id)
    return data


def base_payload(
    *,
    interaction_id: int,
    application_id: int,
    token: str,
    kind: int,
    data: dict[str, Any],
    guild: FakeGuild,
    channel: FakeChannel,
    member: FakeMember,
    app_permissions: int,
) -> dict[str, Any]:
    member_data = member.payload()
    member_data["permissions"] = str(guild.permissions_of(member))
    return {
        "id": str(interaction_id),
        "application_id": str(application_id),
        "type": kind,
        "data": data,
        "guild": {"id": str(guild.id), "locale": guild.locale, "features": []},
        "guild_id": str(guild.id),
        "channel": {**channel.payload(), "permissions": member_data["permissions"]},
        "channel_id": str(channel.id),
        "member": member_data,
        "token": token,
        "version": 1,
        "locale": member.user.locale,
        "guild_locale": guild.locale,
        "app_permissions": str(app_permissions),
        "entitlements": [],
        "authorizing_integration_owners": {"0": str(guild.id)},
        "context": 0,
        "attachment_size_limit": 10 * 1024 * 1024,
    }


def find_command(commands: list[dict[str, Any]], name: str, kind: int = 1) -> dict[str, Any] | None:
    return next((c for c in commands if c["name"] == name and int(c.get("type", 1)) == kind), None)


def build_options(
    schema: list[dict[str, Any]] | None,
    given: dict[str, Any],
    guild: FakeGuild,
    resolved: dict[str, dict[str, Any]],
    *,
    focused: str | None = None,
) -> list[dict[str, Any]]:
    """Option list as Discord sends it. With a schema (the synced command) each value gets the declared type
    and users, members, channels and roles land in `resolved`; without one the type follows the Python value."""
    by_name = {o["name"]: o for o in schema or []}
    options: list[dict[str, Any]] = []
    for name, value in given.items():
        decl = by_name.get(name)
        if schema is not None and decl is None:
            raise KeyError(f"option {name!r} is not declared by the synced command")
        kind = int(decl["type"]) if decl else _infer_type(value)
        option: dict[str, Any] = {"name": name, "type": kind, "value": _encode(kind, value, guild, resolved)}
        if name == focused:
            option["focused"] = True
            option["value"] = value if isinstance(value, str) else str(value)
        options.append(option)
    return options


def nest_subcommand(
    schema: list[dict[str, Any]] | None, subcommand: str | None
) -> tuple[list[dict[str, Any]] | None, list[str]]:
    """Walk `"group sub"` or `"sub"` down the schema; returns the leaf's option schema and the path."""
    path = subcommand.split() if subcommand else []
    current = schema
    for part in path:
        if current is None:
            break
        decl = next((o for o in current if o["name"] == part and o["type"] in (SUB_COMMAND, SUB_COMMAND_GROUP)), None)
        if decl is None:
            raise KeyError(f"subcommand {part!r} is not declared by the synced command")
        current = list(decl.get("options") or [])
    return current, path


def wrap_subcommand(path: list[str], leaf: list[dict[str, Any]]) -> list[dict[str, Any]]:
    options = leaf
    for depth, part in reversed(list(enumerate(path))):
        kind = SUB_COMMAND if depth == len(path) - 1 else SUB_COMMAND_GROUP
        options = [{"name": part, "type": kind, "options": options}]
    return options


def _infer_type(value: Any) -> int:
    if isinstance(value, bool):
        return BOOLEAN
    if isinstance(value, int):
        return INTEGER
    if isinstance(value, float):
        return NUMBER
    if isinstance(value, FakeUser | FakeMember):
        return USER
    if isinstance(value, FakeChannel):
        return CHANNEL
    return STRING


def _encode(kind: int, value: Any, guild: FakeGuild, resolved: dict[str, dict[str, Any]]) -> Any:
    if kind in (USER, MENTIONABLE) and isinstance(value, FakeUser | FakeMember | int | str):
        user_id = (
            value.user.id if isinstance(value, FakeMember) else value.id if isinstance(value, FakeUser) else int(value)
        )
        member = guild.members.get(user_id)
        if member is not None:
            resolved.setdefault("users", {})[str(user_id)] = member.user.payload()
            m = member.payload(with_user=False)
            m["permissions"] = str(guild.permissions_of(member))
            resolved.setdefault("members", {})[str(user_id)] = m
            return str(user_id)
        if kind == MENTIONABLE and user_id in guild.roles:
            resolved.setdefault("roles", {})[str(user_id)] = guild.roles[user_id].payload()
            return str(user_id)
        raise KeyError(f"user {user_id} is not a member of guild {guild.id}")
    if kind == CHANNEL:
        channel_id = value.id if isinstance(value, FakeChannel) else int(value)
        ch = guild.channels[channel_id]
        resolved.setdefault("channels", {})[str(channel_id)] = {
            "id": str(ch.id),
            "name": ch.name,
            "type": ch.type,
            "permissions": str((1 << 51) - 1),
            "flags": 0,
        }
        return str(channel_id)
    if kind == ROLE:
        role_id = int(getattr(value, "id", value))
        resolved.setdefault("roles", {})[str(role_id)] = guild.roles[role_id].payload()
        return str(role_id)
    if kind == INTEGER and not isinstance(value, bool):
        return int(value)
    if kind == NUMBER:
        return float(value)
    return value
