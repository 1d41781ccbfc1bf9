"""Payloads for subcommands of a group (`/deck save ...`), roles and attachments, as Discord sends them."""

from __future__ import annotations

from typing import Any

from tests.discord.conftest import ALICE, GUILD_ID, Harness, interaction_payload, next_id, option_payloads, user_payload

# The harness's members lack Manage Server; an admin has it too.
MEMBER_PERMISSIONS = 2248473465835073
ADMIN_PERMISSIONS = MEMBER_PERMISSIONS | 0x20
JUDGES = 900000000000000077


def member(user: int, permissions: int) -> dict[str, Any]:
    return {
        "user": user_payload(user),
        "roles": [],
        "joined_at": "2026-01-01T00:00:00+00:00",
        "deaf": False,
        "mute": False,
        "flags": 0,
        "permissions": str(permissions),
    }


def role_payload(role_id: int, name: str = "judges") -> dict[str, Any]:
    return {
        "id": str(role_id),
        "name": name,
        "color": 0,
        "hoist": False,
        "position": 1,
        "permissions": "0",
        "managed": False,
        "mentionable": True,
        "flags": 0,
    }


def group_payload(
    group: str,
    sub: str,
    options: dict[str, Any] | None = None,
    *,
    user: int = ALICE,
    locale: str = "ja",
    focused: str | None = None,
    admin: bool = False,
    typed: list[dict[str, Any]] | None = None,
    resolved: dict[str, Any] | None = None,
) -> dict[str, Any]:
    """`/group sub option:value ...`; `typed` adds options of other types (role 8, attachment 11)."""
    leaf = option_payloads(options or {}, focused) + (typed or [])
    data: dict[str, Any] = {
        "id": str(next_id()),
        "name": group,
        "type": 1,
        "options": [{"name": sub, "type": 1, "options": leaf}],
    }
    if resolved:
        data["resolved"] = resolved
    permissions = ADMIN_PERMISSIONS if admin else MEMBER_PERMISSIONS
    return interaction_payload(4 if focused else 2, data, user=user, locale=locale, member=member(user, permissions))


async def set_judge_role(harness: Harness, role_id: int = JUDGES) -> None:
    """An admin sets the judge role through /settings judge."""
    role = {"name": "role", "type": 8, "value": str(role_id)}
    resolved = {"roles": {str(role_id): role_payload(role_id)}}
    await harness.deliver(group_payload("settings", "judge", typed=[role], resolved=resolved, admin=True))


__all__ = ["GUILD_ID", "group_payload", "member", "role_payload", "set_judge_role"]
