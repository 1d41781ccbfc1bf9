"""The fake's own rules without a bot: rate-limit buckets and headers, command and message validation."""

from __future__ import annotations

from typing import Any

import pytest

from tests.fake_discord.ratelimit import RateLimits
from tests.fake_discord.rest import ApiError
from tests.fake_discord.validation import check_commands, check_message

POST = "POST /channels/{channel_id}/messages"


def test_five_messages_per_channel_then_a_429_with_the_headers_discord_sends() -> None:
    limits = RateLimits()
    answers = [limits.check("POST", "/channels/1/messages", POST, "1", global_exempt=False) for _ in range(6)]

    assert [a.allowed for a in answers] == [True] * 5 + [False]
    assert [a.headers["X-RateLimit-Remaining"] for a in answers[:5]] == ["4", "3", "2", "1", "0"]
    refused = answers[5]
    assert refused.body is not None and refused.body["global"] is False
    assert 0 < refused.body["retry_after"] <= 5
    for header in (
        "X-RateLimit-Limit",
        "X-RateLimit-Reset",
        "X-RateLimit-Reset-After",
        "X-RateLimit-Bucket",
        "Retry-After",
        "X-RateLimit-Scope",
    ):
        assert header in refused.headers
    other_channel = limits.check("POST", "/channels/2/messages", POST, "2", global_exempt=False)
    assert (
        other_channel.allowed and other_channel.headers["X-RateLimit-Bucket"] == refused.headers["X-RateLimit-Bucket"]
    )
    assert [(r.scope, r.path) for r in limits.given] == [("user", "/channels/1/messages")]


def test_the_global_limit_counts_every_route_but_spares_interaction_endpoints() -> None:
    limits = RateLimits(global_limit=3)
    routes = [
        limits.check("GET", f"/channels/{i}", "GET /channels/{channel_id}", str(i), global_exempt=False)
        for i in range(4)
    ]
    callback = limits.check("POST", "/interactions/1/t/callback", None, "1+t", global_exempt=True)

    assert [r.allowed for r in routes] == [True, True, True, False]
    assert routes[3].body is not None and routes[3].body["global"] is True
    assert routes[3].headers["X-RateLimit-Global"] == "true" and routes[3].headers["X-RateLimit-Scope"] == "global"
    assert callback.allowed


def _command(**overrides: Any) -> dict[str, Any]:
    return {"name": "roll", "description": "Rolls dice", "type": 1, "options": [], **overrides}


@pytest.mark.parametrize(
    "command",
    [
        _command(name="Roll"),
        _command(name="x" * 33),
        _command(description=""),
        _command(description="d" * 101),
        _command(name_localizations={"ja": "ダイス ロール"}),
        _command(options=[{"name": f"o{i}", "description": "d", "type": 3} for i in range(26)]),
        _command(
            options=[
                {"name": "a", "description": "d", "type": 3},
                {"name": "b", "description": "d", "type": 3, "required": True},
            ]
        ),
        _command(
            options=[
                {
                    "name": "a",
                    "description": "d",
                    "type": 3,
                    "choices": [{"name": str(i), "value": str(i)} for i in range(26)],
                }
            ]
        ),
    ],
)
def test_command_definitions_discord_would_refuse_are_refused(command: dict[str, Any]) -> None:
    with pytest.raises(ApiError) as refused:
        check_commands([command])
    assert refused.value.status == 400 and refused.value.code == 50035


def test_japanese_localisations_and_subcommands_pass() -> None:
    game = _command(
        name="game",
        name_localizations={"ja": "ゲーム"},
        options=[
            {
                "name": "start",
                "description": "Start",
                "type": 1,
                "name_localizations": {"ja": "開始"},
                "options": [{"name": "opponent", "description": "Who", "type": 6, "required": True}],
            }
        ],
    )
    check_commands([game, _command()])


@pytest.mark.parametrize(
    "body",
    [
        {"content": "x" * 2001},
        {"embeds": [{"title": "t"}] * 11},
        {"embeds": [{"description": "d" * 4097}]},
        {"embeds": [{"fields": [{"name": "n", "value": "v"}] * 26}]},
        {"embeds": [{"description": "d" * 4000}, {"description": "d" * 2001}]},
        {"components": [{"type": 1, "components": [{"type": 2, "custom_id": str(i)} for i in range(6)]}]},
        {"components": [{"type": 1, "components": []}] * 6},
    ],
)
def test_messages_over_discords_limits_are_refused(body: dict[str, Any]) -> None:
    with pytest.raises(ApiError):
        check_message(body)
