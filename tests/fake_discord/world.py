"""The fake's world: users, guilds, roles, channels, members and the messages posted in channels.

Payload builders return dicts shaped like Discord's API v10 objects, complete enough for discord.py to parse.
"""

from __future__ import annotations

import datetime as dt
import itertools
import time
from dataclasses import dataclass, field
from typing import Any

DISCORD_EPOCH_MS = 1_420_070_400_000

# Permission bits used by the fake (https://discord.com/developers/docs/topics/permissions).
ADMINISTRATOR = 1 << 3
MANAGE_GUILD = 1 << 5
ADD_REACTIONS = 1 << 6
VIEW_CHANNEL = 1 << 10
SEND_MESSAGES = 1 << 11
MANAGE_MESSAGES = 1 << 13
EMBED_LINKS = 1 << 14
ATTACH_FILES = 1 << 15
READ_MESSAGE_HISTORY = 1 << 16
USE_EXTERNAL_EMOJIS = 1 << 18
USE_APPLICATION_COMMANDS = 1 << 31
ALL_PERMISSIONS = (1 << 51) - 1
EVERYONE_PERMISSIONS = (
    ADD_REACTIONS
    | VIEW_CHANNEL
    | SEND_MESSAGES
    | EMBED_LINKS
    | ATTACH_FILES
    | READ_MESSAGE_HISTORY
    | USE_EXTERNAL_EMOJIS
    | USE_APPLICATION_COMMANDS
)

# Message flags.
EPHEMERAL = 1 << 6
LOADING = 1 << 7


class Snowflakes:
    """Discord ids: milliseconds since 2015 in the high bits. Every id gets its own millisecond, so the
    guild -> shard assignment ((id >> 22) % shards) spreads guilds over shards as on Discord."""

    def __init__(self) -> None:
        self._last_ms = 0
        self._counter = itertools.count()

    def next(self) -> int:
        ms = max(int(time.time() * 1000) - DISCORD_EPOCH_MS, self._last_ms + 1)
        self._last_ms = ms
        return (ms << 22) | (1 << 17) | (next(self._counter) & 0xFFF)


def iso(when: float | None = None) -> str:
    return dt.datetime.fromtimestamp(time.time() if when is None else when, dt.UTC).isoformat()


def snowflake_time(snowflake: int) -> float:
    return ((snowflake >> 22) + DISCORD_EPOCH_MS) / 1000


@dataclass
class FakeUser:
    id: int
    name: str
    bot: bool = False
    locale: str = "en-US"

    def payload(self) -> dict[str, Any]:
        return {
            "id": str(self.id),
            "username": self.name,
            "global_name": None if self.bot else self.name,
            "discriminator": "0000" if self.bot else "0",
            "avatar": None,
            "bot": self.bot,
            "public_flags": 0,
            "flags": 0,
        }


@dataclass
class FakeRole:
    id: int
    name: str
    permissions: int
    position: int = 0

    def payload(self) -> dict[str, Any]:
        return {
            "id": str(self.id),
            "name": self.name,
            "color": 0,
            "colors": {"primary_color": 0, "secondary_color": None, "tertiary_color": None},
            "hoist": False,
            "icon": None,
            "unicode_emoji": None,
            "position": self.position,
            "permissions": str(self.permissions),
            "managed": False,
            "mentionable": False,
            "flags": 0,
        }


@dataclass
class FakeChannel:
    id: int
    guild_id: int
    name: str
    position: int = 0
    type: int = 0  # GUILD_TEXT

    def payload(self) -> dict[str, Any]:
        return {
            "id": str(self.id),
            "type": self.type,
            "guild_id": str(self.guild_id),
            "name": self.name,
            "position": self.position,
            "permission_overwrites": [],
            "topic": None,
            "nsfw": False,
            "last_message_id": None,
            "rate_limit_per_user": 0,
            "parent_id": None,
            "flags": 0,
        }


@dataclass
class FakeMember:
    user: FakeUser
    guild_id: int
    roles: list[int] = field(default_factory=list)
    nick: str | None = None
    joined_at: float = field(default_factory=time.time)

    def payload(self, *, with_user: bool = True) -> dict[str, Any]:
        data: dict[str, Any] = {
            "roles": [str(r) for r in self.roles],
            "nick": self.nick,
            "avatar": None,
            "banner": None,
            "joined_at": iso(self.joined_at),
            "premium_since": None,
            "deaf": False,
            "mute": False,
            "flags": 0,
            "pending": False,
            "communication_disabled_until": None,
        }
        if with_user:
            data["user"] = self.user.payload()
        return data


@dataclass
class FakeGuild:
    id: int
    name: str
    owner_id: int
    locale: str = "en-US"
    roles: dict[int, FakeRole] = field(default_factory=dict)
    channels: dict[int, FakeChannel] = field(default_factory=dict)
    members: dict[int, FakeMember] = field(default_factory=dict)

    def permissions_of(self, member: FakeMember) -> int:
        """Guild-level permissions (no channel overwrites in the fake); the owner and admins get all."""
        if member.user.id == self.owner_id:
            return ALL_PERMISSIONS
        value = self.roles[self.id].permissions
        for role_id in member.roles:
            value |= self.roles[role_id].permissions
        return ALL_PERMISSIONS if value & ADMINISTRATOR else value

    def create_payload(self, bot_member: FakeMember | None) -> dict[str, Any]:
        """The GUILD_CREATE payload (available guild, as after READY)."""
        members = [bot_member.payload()] if bot_member else []
        return {
            "id": str(self.id),
            "name": self.name,
            "icon": None,
            "splash": None,
            "discovery_splash": None,
            "owner_id": str(self.owner_id),
            "afk_channel_id": None,
            "afk_timeout": 300,
            "verification_level": 0,
            "default_message_notifications": 0,
            "explicit_content_filter": 0,
            "roles": [r.payload() for r in self.roles.values()],
            "emojis": [],
            "stickers": [],
            "features": [],
            "mfa_level": 0,
            "application_id": None,
            "system_channel_id": None,
            "system_channel_flags": 0,
            "rules_channel_id": None,
            "max_members": 500000,
            "vanity_url_code": None,
            "description": None,
            "banner": None,
            "premium_tier": 0,
            "premium_subscription_count": 0,
            "preferred_locale": self.locale,
            "public_updates_channel_id": None,
            "nsfw_level": 0,
            "premium_progress_bar_enabled": False,
            "safety_alerts_channel_id": None,
            "joined_at": iso(),
            "large": False,
            "unavailable": False,
            "member_count": len(self.members),
            "voice_states": [],
            "members": members,
            "channels": [c.payload() for c in self.channels.values()],
            "threads": [],
            "presences": [],
            "stage_instances": [],
            "guild_scheduled_events": [],
            "soundboard_sounds": [],
        }


@dataclass
class FakeMessage:
    """A message as the fake stores it. `interaction_id` is the interaction whose response or follow-up
    created it (None for a plain channel post); ephemeral messages are kept but marked."""

    id: int
    channel_id: int
    guild_id: int
    author: FakeUser
    application_id: int
    content: str = ""
    embeds: list[dict[str, Any]] = field(default_factory=list)
    components: list[dict[str, Any]] = field(default_factory=list)
    allowed_mentions: dict[str, Any] | None = None
    flags: int = 0
    interaction_id: int | None = None
    interaction_user: FakeUser | None = None
    interaction_type: int | None = None
    via_webhook: bool = False
    edits: int = 0
    edited_at: float | None = None
    deleted: bool = False

    @property
    def ephemeral(self) -> bool:
        return bool(self.flags & EPHEMERAL)

    @property
    def loading(self) -> bool:
        return bool(self.flags & LOADING)

    def custom_ids(self) -> list[str]:
        return [c["custom_id"] for c in iter_components(self.components) if "custom_id" in c]

    def find_component(self, custom_id: str) -> dict[str, Any] | None:
        return next((c for c in iter_components(self.components) if c.get("custom_id") == custom_id), None)

    def apply(self, body: dict[str, Any]) -> None:
        """Apply a create or edit body (only the fields it names change, as on Discord)."""
        if "content" in body:
            self.content = body["content"] or ""
        if "embeds" in body:
            self.embeds = list(body["embeds"] or [])
        elif "embed" in body:
            self.embeds = [body["embed"]] if body["embed"] else []
        if "components" in body:
            self.components = list(body["components"] or [])
        if "allowed_mentions" in body:
            self.allowed_mentions = body["allowed_mentions"]
        if "flags" in body and body["flags"] is not None:
            # Only the ephemeral bit (set at creation) and the loading bit survive edits.
            self.flags = (self.flags & EPHEMERAL) | (int(body["flags"]) & ~(EPHEMERAL | LOADING))

    def payload(self) -> dict[str, Any]:
        data: dict[str, Any] = {
            "id": str(self.id),
            "channel_id": str(self.channel_id),
            "guild_id": str(self.guild_id),
            "author": self.author.payload(),
            "content": self.content,
            "timestamp": iso(snowflake_time(self.id)),
            "edited_timestamp": None if self.edited_at is None else iso(self.edited_at),
            "tts": False,
            "mention_everyone": False,
            "mentions": [],
            "mention_roles": [],
            "attachments": [],
            "embeds": self.embeds,
            "components": self.components,
            "pinned": False,
            "type": 0 if self.interaction_type in (None, 3) else 20,
            "flags": self.flags,
        }
        if self.via_webhook:
            data["webhook_id"] = str(self.application_id)
            data["application_id"] = str(self.application_id)
        if self.interaction_id is not None and self.interaction_user is not None:
            data["interaction_metadata"] = {
                "id": str(self.interaction_id),
                "type": self.interaction_type or 2,
                "user": self.interaction_user.payload(),
                "authorizing_integration_owners": {"0": str(self.guild_id)},
            }
        return data


def iter_components(rows: list[dict[str, Any]]) -> list[dict[str, Any]]:
    """Every component in a message's component tree (action rows, containers, sections)."""
    found: list[dict[str, Any]] = []
    stack = list(rows)
    while stack:
        comp = stack.pop(0)
        found.append(comp)
        stack.extend(comp.get("components", []) or [])
        if isinstance(comp.get("accessory"), dict):
            stack.append(comp["accessory"])
    return found
