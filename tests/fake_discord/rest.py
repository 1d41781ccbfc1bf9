"""REST API v10: a small router over the routes a slash-command bot uses, rate limits applied first.

Unknown routes answer 404 like Discord and are recorded, so a test sees what the bot asked for that the fake
does not know.
"""

from __future__ import annotations

import re
import time
from collections.abc import Awaitable, Callable
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any

from aiohttp import web

from .wire import dumps, loads

if TYPE_CHECKING:
    from .server import FakeDiscord

API_PREFIX = "/api/v10"


class ApiError(Exception):
    def __init__(self, status: int, code: int, message: str, errors: dict[str, Any] | None = None) -> None:
        super().__init__(message)
        self.status, self.code, self.message, self.errors = status, code, message, errors

    def body(self) -> dict[str, Any]:
        data: dict[str, Any] = {"message": self.message, "code": self.code}
        if self.errors:
            data["errors"] = self.errors
        return data


def invalid_form(reason: str) -> ApiError:
    return ApiError(400, 50035, "Invalid Form Body", {"_errors": [{"code": "BASE_TYPE_INVALID", "message": reason}]})


@dataclass
class Req:
    method: str
    path: str
    params: dict[str, str]
    query: dict[str, str]
    body: Any


@dataclass
class RequestRecord:
    method: str
    path: str
    status: int
    body: Any
    at: float


Handler = Callable[["FakeDiscord", Req], Awaitable[Any]]


@dataclass
class Route:
    method: str
    template: str
    handler: Handler
    regex: re.Pattern[str]

    @property
    def bucket_route(self) -> str:
        return f"{self.method} {self.template}"


class Router:
    def __init__(self) -> None:
        self.routes: list[Route] = []

    def add(self, method: str, template: str) -> Callable[[Handler], Handler]:
        pattern = (
            "^"
            + re.sub(r"\{(\w+)\}", r"(?P<\1>[^/]+)", re.escape(template).replace(r"\{", "{").replace(r"\}", "}"))
            + "$"
        )

        def register(handler: Handler) -> Handler:
            self.routes.append(Route(method, template, handler, re.compile(pattern)))
            return handler

        return register

    def match(self, method: str, path: str) -> tuple[Route, dict[str, str]] | None:
        for route in self.routes:
            if route.method == method:
                m = route.regex.match(path)
                if m:
                    return route, m.groupdict()
        return None


router = Router()


async def handle(fake: FakeDiscord, request: web.Request) -> web.Response:
    """Entry point for everything under /api/v10."""
    path = request.path[len(API_PREFIX) :] or "/"
    method = request.method
    body = await _read_body(request)
    base_headers = {"Via": "1.1 google"}  # discord.py treats a 429 without Via as a Cloudflare ban
    found = router.match(method, path)
    if found is None:
        fake.unknown_routes.append(f"{method} {path}")
        return _finish(fake, method, path, body, 404, {"message": "404: Not Found", "code": 0}, base_headers)
    route, params = found
    interaction_route = _is_interaction_route(fake, route.template, params)
    if not interaction_route and request.headers.get("Authorization") != f"Bot {fake.token}":
        return _finish(fake, method, path, body, 401, {"message": "401: Unauthorized", "code": 0}, base_headers)
    major = "+".join(params[k] for k in ("channel_id", "guild_id", "webhook_id", "webhook_token") if k in params)
    bucket_route = None if route.template.startswith("/interactions/") else route.bucket_route
    decision = fake.rate_limits.check(method, path, bucket_route, major, global_exempt=interaction_route)
    headers = {**base_headers, **decision.headers}
    if not decision.allowed:
        fake.changed()
        return _finish(fake, method, path, body, 429, decision.body, headers)
    req = Req(method, path, params, dict(request.query), body)
    try:
        result = await route.handler(fake, req)
    except ApiError as exc:
        return _finish(fake, method, path, body, exc.status, exc.body(), headers)
    if result is None:
        return _finish(fake, method, path, body, 204, None, headers)
    return _finish(fake, method, path, body, 200, result, headers)


def _is_interaction_route(fake: FakeDiscord, template: str, params: dict[str, str]) -> bool:
    if template.startswith("/interactions/"):
        return True
    return template.startswith("/webhooks/{webhook_id}/{webhook_token}") and params.get("webhook_id") == str(
        fake.application_id
    )


def _finish(
    fake: FakeDiscord, method: str, path: str, body: Any, status: int, data: Any, headers: dict[str, str]
) -> web.Response:
    fake.requests.append(RequestRecord(method, path, status, body, time.time()))
    fake.changed()
    if data is None:
        return web.Response(status=status, headers=headers)
    # discord.py decodes JSON only when Content-Type is exactly "application/json" (no charset parameter).
    return web.Response(body=dumps(data), status=status, headers={**headers, "Content-Type": "application/json"})


async def _read_body(request: web.Request) -> Any:
    if not request.can_read_body:
        return None
    if request.content_type.startswith("multipart/"):
        form = await request.post()
        raw = form.get("payload_json")
        return loads(raw) if isinstance(raw, str) else {}
    text = await request.text()
    if not text:
        return None
    try:
        return loads(text)
    except ValueError:
        return text


# Routes ---------------------------------------------------------------------------------------------------


@router.add("GET", "/users/@me")
async def get_me(fake: FakeDiscord, req: Req) -> Any:
    return fake.bot_user.payload()


@router.add("GET", "/users/{user_id}")
async def get_user(fake: FakeDiscord, req: Req) -> Any:
    user = fake.users.get(int(req.params["user_id"]))
    if user is None:
        raise ApiError(404, 10013, "Unknown User")
    return user.payload()


@router.add("GET", "/oauth2/applications/@me")
@router.add("GET", "/applications/@me")
async def get_application(fake: FakeDiscord, req: Req) -> Any:
    return fake.application_payload()


@router.add("GET", "/gateway/bot")
async def get_gateway_bot(fake: FakeDiscord, req: Req) -> Any:
    return {
        "url": fake.gateway_url,
        "shards": fake.shard_count,
        "session_start_limit": {"total": 1000, "remaining": 1000, "reset_after": 86_400_000, "max_concurrency": 1},
    }


@router.add("GET", "/gateway")
async def get_gateway(fake: FakeDiscord, req: Req) -> Any:
    return {"url": fake.gateway_url}


@router.add("PUT", "/applications/{app_id}/commands")
async def put_global_commands(fake: FakeDiscord, req: Req) -> Any:
    return fake.sync_commands(req.params["app_id"], None, req.body)


@router.add("GET", "/applications/{app_id}/commands")
async def get_global_commands(fake: FakeDiscord, req: Req) -> Any:
    return fake.commands(None)


@router.add("PUT", "/applications/{app_id}/guilds/{guild_id}/commands")
async def put_guild_commands(fake: FakeDiscord, req: Req) -> Any:
    return fake.sync_commands(req.params["app_id"], int(req.params["guild_id"]), req.body)


@router.add("GET", "/applications/{app_id}/guilds/{guild_id}/commands")
async def get_guild_commands(fake: FakeDiscord, req: Req) -> Any:
    return fake.commands(int(req.params["guild_id"]))


@router.add("POST", "/interactions/{webhook_id}/{webhook_token}/callback")
async def interaction_callback(fake: FakeDiscord, req: Req) -> Any:
    with_response = req.query.get("with_response", "").lower() in ("1", "true")
    result = await fake.interaction_callback(int(req.params["webhook_id"]), req.params["webhook_token"], req.body)
    return result if with_response else None


@router.add("GET", "/webhooks/{webhook_id}/{webhook_token}/messages/{message_id}")
async def get_webhook_message(fake: FakeDiscord, req: Req) -> Any:
    return fake.webhook_message(req.params["webhook_token"], req.params["message_id"]).payload()


@router.add("PATCH", "/webhooks/{webhook_id}/{webhook_token}/messages/{message_id}")
async def edit_webhook_message(fake: FakeDiscord, req: Req) -> Any:
    return await fake.edit_webhook_message(req.params["webhook_token"], req.params["message_id"], req.body or {})


@router.add("DELETE", "/webhooks/{webhook_id}/{webhook_token}/messages/{message_id}")
async def delete_webhook_message(fake: FakeDiscord, req: Req) -> Any:
    await fake.delete_message(fake.webhook_message(req.params["webhook_token"], req.params["message_id"]))
    return None


@router.add("POST", "/webhooks/{webhook_id}/{webhook_token}")
async def execute_webhook(fake: FakeDiscord, req: Req) -> Any:
    msg = await fake.followup(req.params["webhook_token"], req.body or {})
    return msg if req.query.get("wait", "").lower() in ("1", "true") else None


@router.add("POST", "/channels/{channel_id}/messages")
async def create_message(fake: FakeDiscord, req: Req) -> Any:
    return await fake.post_channel_message(int(req.params["channel_id"]), req.body or {})


@router.add("GET", "/channels/{channel_id}/messages/{message_id}")
async def get_message(fake: FakeDiscord, req: Req) -> Any:
    return fake.channel_message(int(req.params["channel_id"]), int(req.params["message_id"])).payload()


@router.add("PATCH", "/channels/{channel_id}/messages/{message_id}")
async def edit_message(fake: FakeDiscord, req: Req) -> Any:
    msg = fake.channel_message(int(req.params["channel_id"]), int(req.params["message_id"]))
    # The bot's own messages, interaction answers included (the only way to edit them once the token expired).
    if msg.author.id != fake.bot_user.id:
        raise ApiError(403, 50005, "Cannot edit a message authored by another user")
    return await fake.edit_message(msg, req.body or {})


@router.add("DELETE", "/channels/{channel_id}/messages/{message_id}")
async def delete_message(fake: FakeDiscord, req: Req) -> Any:
    await fake.delete_message(fake.channel_message(int(req.params["channel_id"]), int(req.params["message_id"])))
    return None


@router.add("GET", "/channels/{channel_id}/messages")
async def list_messages(fake: FakeDiscord, req: Req) -> Any:
    channel_id = int(req.params["channel_id"])
    fake.channel(channel_id)
    limit = min(100, int(req.query.get("limit", "50")))
    visible = [m for m in fake.messages(channel_id) if not m.ephemeral]
    return [m.payload() for m in reversed(visible[-limit:])]


@router.add("GET", "/channels/{channel_id}")
async def get_channel(fake: FakeDiscord, req: Req) -> Any:
    return fake.channel(int(req.params["channel_id"])).payload()


@router.add("GET", "/guilds/{guild_id}")
async def get_guild(fake: FakeDiscord, req: Req) -> Any:
    guild = fake.guild(int(req.params["guild_id"]))
    data = guild.create_payload(None)
    for key in ("members", "channels", "threads", "presences", "voice_states", "joined_at", "large", "member_count"):
        data.pop(key, None)
    return data


@router.add("GET", "/guilds/{guild_id}/members/{user_id}")
async def get_member(fake: FakeDiscord, req: Req) -> Any:
    guild = fake.guild(int(req.params["guild_id"]))
    member = guild.members.get(int(req.params["user_id"]))
    if member is None:
        raise ApiError(404, 10007, "Unknown Member")
    return member.payload()
