"""The driver API over HTTP (JSON in, JSON out) under /_fake, for a fake running in its own process.

Each route maps to one FakeDiscord method; objects are named by their ids (strings, as in Discord's JSON).
`ControlClient` is the matching asyncio client a benchmark or a test uses.
"""

from __future__ import annotations

import contextlib
from collections.abc import Awaitable, Callable, Sequence
from typing import Any

import aiohttp
from aiohttp import web

from .interactions import InteractionHandle, NoSession, message_json
from .rest import ApiError
from .server import FakeDiscord
from .wire import dumps

PREFIX = "/_fake"
ControlHandler = Callable[[FakeDiscord, dict[str, Any], web.Request], Awaitable[Any]]


def add_control_routes(app: web.Application, fake: FakeDiscord) -> None:
    for method, path, handler in ROUTES:

        async def endpoint(request: web.Request, handler: ControlHandler = handler) -> web.Response:
            body: dict[str, Any] = {}
            if request.can_read_body:
                try:
                    body = await request.json()
                except ValueError:
                    return _json({"error": "the body must be JSON"}, 400)
            try:
                return _json(await handler(fake, body, request))
            except ApiError as exc:
                return _json({"error": exc.message, "code": exc.code}, exc.status)
            except NoSession as exc:
                return _json({"error": str(exc)}, 409)
            except (LookupError, ValueError, TypeError) as exc:
                return _json({"error": str(exc)}, 400)
            except TimeoutError:
                return _json({"error": "timed out"}, 504)

        app.router.add_route(method, PREFIX + path, endpoint)


def _json(data: Any, status: int = 200) -> web.Response:
    return web.Response(body=dumps(data), status=status, content_type="application/json")


def _user(fake: FakeDiscord, body: dict[str, Any]) -> Any:
    user = fake.users.get(int(body["user_id"]))
    if user is None:
        raise LookupError(f"unknown user {body['user_id']}")
    return user


async def _info(fake: FakeDiscord, body: dict[str, Any], request: web.Request) -> Any:
    return {
        "url": fake.url,
        "api_base": fake.api_base,
        "gateway_url": fake.gateway_url,
        "token": fake.token,
        "application_id": str(fake.application_id),
        "shard_count": fake.shard_count,
    }


async def _guild(fake: FakeDiscord, body: dict[str, Any], request: web.Request) -> Any:
    guild = await fake.create_guild(
        body.get("name", "guild"), id=body.get("id") and int(body["id"]), locale=body.get("locale", "en-US")
    )
    return {"id": str(guild.id), "name": guild.name, "shard": fake.shard_of(guild)}


async def _channel(fake: FakeDiscord, body: dict[str, Any], request: web.Request) -> Any:
    channel = await fake.create_channel(fake.guild(int(body["guild_id"])), body.get("name", "table"))
    return {"id": str(channel.id), "guild_id": str(channel.guild_id), "name": channel.name}


async def _role(fake: FakeDiscord, body: dict[str, Any], request: web.Request) -> Any:
    role = await fake.create_role(fake.guild(int(body["guild_id"])), body["name"], int(body.get("permissions", 0)))
    return {"id": str(role.id), "name": role.name}


async def _new_user(fake: FakeDiscord, body: dict[str, Any], request: web.Request) -> Any:
    user = fake.create_user(body["name"], locale=body.get("locale", "en-US"))
    return {"id": str(user.id), "name": user.name}


async def _member(fake: FakeDiscord, body: dict[str, Any], request: web.Request) -> Any:
    guild = fake.guild(int(body["guild_id"]))
    roles = [guild.roles[int(r)] for r in body.get("role_ids", [])]
    fake.add_member(guild, _user(fake, body), roles)
    return {"guild_id": str(guild.id), "user_id": str(body["user_id"])}


async def _invoke(fake: FakeDiscord, body: dict[str, Any], request: web.Request) -> Any:
    handle = await fake.invoke(
        _user(fake, body),
        fake.channel(int(body["channel_id"])),
        body["command"],
        body.get("options") or {},
        subcommand=body.get("subcommand"),
        strict=body.get("strict", True),
    )
    return await _maybe_wait(handle, body)


async def _autocomplete(fake: FakeDiscord, body: dict[str, Any], request: web.Request) -> Any:
    handle = await fake.autocomplete(
        _user(fake, body),
        fake.channel(int(body["channel_id"])),
        body["command"],
        body.get("options") or {},
        body["focused"],
        subcommand=body.get("subcommand"),
        strict=body.get("strict", True),
    )
    return await _maybe_wait(handle, body)


def _message(fake: FakeDiscord, body: dict[str, Any]) -> Any:
    msg = fake.message(int(body["message_id"]))
    if msg is None:
        raise LookupError(f"unknown message {body['message_id']}")
    return msg


async def _click(fake: FakeDiscord, body: dict[str, Any], request: web.Request) -> Any:
    handle = await fake.click(
        _user(fake, body), _message(fake, body), body["custom_id"], strict=body.get("strict", True)
    )
    return await _maybe_wait(handle, body)


async def _select(fake: FakeDiscord, body: dict[str, Any], request: web.Request) -> Any:
    handle = await fake.select(
        _user(fake, body), _message(fake, body), body["custom_id"], body["values"], strict=body.get("strict", True)
    )
    return await _maybe_wait(handle, body)


async def _raw(fake: FakeDiscord, body: dict[str, Any], request: web.Request) -> Any:
    handle = await fake.send_raw(
        fake.guild(int(body["guild_id"])), body.get("data"), body.get("event", "INTERACTION_CREATE")
    )
    return None if handle is None else handle.to_json()


async def _modal(fake: FakeDiscord, body: dict[str, Any], request: web.Request) -> Any:
    opened_by = fake.interactions.get(int(body["interaction_id"]))
    if opened_by is None:
        raise LookupError("unknown interaction")
    user = _user(fake, body) if body.get("user_id") else None
    return await _maybe_wait(await fake.submit_modal(opened_by, body["values"], user=user), body)


async def _redeliver(fake: FakeDiscord, body: dict[str, Any], request: web.Request) -> Any:
    handle = fake.interactions.get(int(body["interaction_id"]))
    if handle is None:
        raise LookupError("unknown interaction")
    await fake.redeliver(handle)
    return handle.to_json()


async def _maybe_wait(handle: InteractionHandle, body: dict[str, Any]) -> Any:
    """With "wait": seconds, the answer comes back once the first callback arrived (or the wait ran out)."""
    wait = body.get("wait")
    if wait:
        with contextlib.suppress(TimeoutError):
            await handle.response(float(wait))
    return handle.to_json()


async def _interaction(fake: FakeDiscord, body: dict[str, Any], request: web.Request) -> Any:
    handle = fake.interactions.get(int(request.match_info["id"]))
    if handle is None:
        raise LookupError("unknown interaction")
    return await _maybe_wait(handle, {"wait": request.query.get("wait")})


async def _interactions(fake: FakeDiscord, body: dict[str, Any], request: web.Request) -> Any:
    """Compact timing of every interaction: id, type, first callback type and latency (None if unanswered)."""
    return [
        {
            "id": str(h.id),
            "type": h.type,
            "first_type": None if h.first is None else h.first.type,
            "latency": None if h.first is None else h.first.latency,
            "callbacks": len(h.callbacks),
            "rejected": len(h.rejected),
        }
        for h in fake.interactions.values()
    ]


async def _messages(fake: FakeDiscord, body: dict[str, Any], request: web.Request) -> Any:
    return [message_json(m) for m in fake.messages(int(request.match_info["id"]))]


async def _commands(fake: FakeDiscord, body: dict[str, Any], request: web.Request) -> Any:
    guild_id = request.query.get("guild_id")
    return fake.commands(int(guild_id) if guild_id else None)


async def _syncs(fake: FakeDiscord, body: dict[str, Any], request: web.Request) -> Any:
    return [
        {"guild_id": None if s["guild_id"] is None else str(s["guild_id"]), "payload": s["payload"]}
        for s in fake.command_syncs
    ]


async def _stats(fake: FakeDiscord, body: dict[str, Any], request: web.Request) -> Any:
    return fake.stats()


async def _rate_limits(fake: FakeDiscord, body: dict[str, Any], request: web.Request) -> Any:
    return [vars(r) for r in fake.rate_limits.given]


async def _wait_ready(fake: FakeDiscord, body: dict[str, Any], request: web.Request) -> Any:
    sessions = await fake.wait_ready(
        body.get("shards"), float(body.get("timeout", 10)), exclude=body.get("exclude", [])
    )
    return [s.to_json() for s in sessions]


async def _wait_commands(fake: FakeDiscord, body: dict[str, Any], request: web.Request) -> Any:
    guild_id = body.get("guild_id")
    scope = int(guild_id) if guild_id else None
    return await fake.wait_until(lambda: fake.commands(scope), float(body.get("timeout", 10)))


async def _drop(fake: FakeDiscord, body: dict[str, Any], request: web.Request) -> Any:
    return (await fake.drop_connection(int(body.get("shard_id", 0)), code=body.get("code", 4000))).to_json()


async def _reconnect(fake: FakeDiscord, body: dict[str, Any], request: web.Request) -> Any:
    return (await fake.send_reconnect(int(body.get("shard_id", 0)))).to_json()


async def _invalidate(fake: FakeDiscord, body: dict[str, Any], request: web.Request) -> Any:
    session = await fake.invalidate_session(int(body.get("shard_id", 0)), resumable=bool(body.get("resumable")))
    return session.to_json()


async def _hold(fake: FakeDiscord, body: dict[str, Any], request: web.Request) -> Any:
    fake.hold_resumes()
    return {}


async def _release(fake: FakeDiscord, body: dict[str, Any], request: web.Request) -> Any:
    fake.release_resumes()
    return {}


async def _exhaust(fake: FakeDiscord, body: dict[str, Any], request: web.Request) -> Any:
    fake.exhaust_channel_bucket(fake.channel(int(body["channel_id"])))
    return {}


ROUTES: list[tuple[str, str, ControlHandler]] = [
    ("GET", "/info", _info),
    ("POST", "/guilds", _guild),
    ("POST", "/channels", _channel),
    ("POST", "/roles", _role),
    ("POST", "/users", _new_user),
    ("POST", "/members", _member),
    ("POST", "/invoke", _invoke),
    ("POST", "/autocomplete", _autocomplete),
    ("POST", "/click", _click),
    ("POST", "/select", _select),
    ("POST", "/raw", _raw),
    ("POST", "/redeliver", _redeliver),
    ("POST", "/submit_modal", _modal),
    ("GET", "/interactions", _interactions),
    ("GET", "/interactions/{id}", _interaction),
    ("GET", "/channels/{id}/messages", _messages),
    ("GET", "/commands", _commands),
    ("GET", "/syncs", _syncs),
    ("GET", "/stats", _stats),
    ("GET", "/rate_limits", _rate_limits),
    ("POST", "/wait_ready", _wait_ready),
    ("POST", "/wait_commands", _wait_commands),
    ("POST", "/drop", _drop),
    ("POST", "/reconnect", _reconnect),
    ("POST", "/invalidate", _invalidate),
    ("POST", "/hold_resumes", _hold),
    ("POST", "/release_resumes", _release),
    ("POST", "/exhaust_channel", _exhaust),
]


class ControlError(Exception):
    def __init__(self, status: int, data: Any) -> None:
        super().__init__(f"{status}: {data}")
        self.status, self.data = status, data


class ControlClient:
    """`async with ControlClient("http://127.0.0.1:PORT") as fake:` then e.g. `await fake.invoke(...)`.
    Every method returns the JSON the control endpoint answered (ids are strings)."""

    def __init__(self, url: str) -> None:
        self.url = url.rstrip("/") + PREFIX
        self._session: aiohttp.ClientSession | None = None

    async def __aenter__(self) -> ControlClient:
        self._session = aiohttp.ClientSession()
        return self

    async def __aexit__(self, *exc: object) -> None:
        if self._session is not None:
            await self._session.close()

    async def call(self, method: str, path: str, body: dict[str, Any] | None = None, **query: Any) -> Any:
        assert self._session is not None, "use ControlClient in `async with`"
        params = {k: str(v) for k, v in query.items() if v is not None}
        async with self._session.request(method, self.url + path, json=body, params=params) as resp:
            data = await resp.json()
            if resp.status >= 400:
                raise ControlError(resp.status, data)
            return data

    async def info(self) -> Any:
        return await self.call("GET", "/info")

    async def create_guild(self, name: str = "guild", *, locale: str = "en-US") -> Any:
        return await self.call("POST", "/guilds", {"name": name, "locale": locale})

    async def create_channel(self, guild_id: str, name: str = "table") -> Any:
        return await self.call("POST", "/channels", {"guild_id": guild_id, "name": name})

    async def create_role(self, guild_id: str, name: str, permissions: int) -> Any:
        return await self.call("POST", "/roles", {"guild_id": guild_id, "name": name, "permissions": permissions})

    async def create_user(self, name: str, *, locale: str = "en-US") -> Any:
        return await self.call("POST", "/users", {"name": name, "locale": locale})

    async def add_member(self, guild_id: str, user_id: str, role_ids: list[str] | None = None) -> Any:
        return await self.call(
            "POST", "/members", {"guild_id": guild_id, "user_id": user_id, "role_ids": role_ids or []}
        )

    async def invoke(
        self,
        user_id: str,
        channel_id: str,
        command: str,
        options: dict[str, Any] | None = None,
        *,
        subcommand: str | None = None,
        strict: bool = True,
        wait: float | None = None,
    ) -> Any:
        return await self.call(
            "POST",
            "/invoke",
            {
                "user_id": user_id,
                "channel_id": channel_id,
                "command": command,
                "options": options or {},
                "subcommand": subcommand,
                "strict": strict,
                "wait": wait,
            },
        )

    async def autocomplete(
        self,
        user_id: str,
        channel_id: str,
        command: str,
        options: dict[str, Any],
        focused: str,
        *,
        subcommand: str | None = None,
        wait: float | None = None,
    ) -> Any:
        return await self.call(
            "POST",
            "/autocomplete",
            {
                "user_id": user_id,
                "channel_id": channel_id,
                "command": command,
                "options": options,
                "focused": focused,
                "subcommand": subcommand,
                "wait": wait,
            },
        )

    async def click(
        self, user_id: str, message_id: str, custom_id: str, *, strict: bool = True, wait: float | None = None
    ) -> Any:
        body = {"user_id": user_id, "message_id": message_id, "custom_id": custom_id, "strict": strict, "wait": wait}
        return await self.call("POST", "/click", body)

    async def select(
        self, user_id: str, message_id: str, custom_id: str, values: list[str], *, wait: float | None = None
    ) -> Any:
        body = {"user_id": user_id, "message_id": message_id, "custom_id": custom_id, "values": values, "wait": wait}
        return await self.call("POST", "/select", body)

    async def send_raw(self, guild_id: str, data: Any, event: str = "INTERACTION_CREATE") -> Any:
        return await self.call("POST", "/raw", {"guild_id": guild_id, "data": data, "event": event})

    async def submit_modal(
        self, interaction_id: str, values: dict[str, str], *, user_id: str | None = None, wait: float | None = None
    ) -> Any:
        body = {"interaction_id": interaction_id, "values": values, "user_id": user_id, "wait": wait}
        return await self.call("POST", "/submit_modal", body)

    async def redeliver(self, interaction_id: str) -> Any:
        return await self.call("POST", "/redeliver", {"interaction_id": interaction_id})

    async def interaction(self, interaction_id: str, *, wait: float | None = None) -> Any:
        return await self.call("GET", f"/interactions/{interaction_id}", wait=wait)

    async def interactions(self) -> Any:
        return await self.call("GET", "/interactions")

    async def messages(self, channel_id: str) -> Any:
        return await self.call("GET", f"/channels/{channel_id}/messages")

    async def commands(self, guild_id: str | None = None) -> Any:
        return await self.call("GET", "/commands", guild_id=guild_id)

    async def syncs(self) -> Any:
        return await self.call("GET", "/syncs")

    async def stats(self) -> Any:
        return await self.call("GET", "/stats")

    async def rate_limits(self) -> Any:
        return await self.call("GET", "/rate_limits")

    async def wait_ready(self, shards: int | None = None, timeout: float = 10.0, *, exclude: Sequence[str] = ()) -> Any:
        return await self.call("POST", "/wait_ready", {"shards": shards, "timeout": timeout, "exclude": list(exclude)})

    async def wait_commands(self, guild_id: str | None = None, timeout: float = 10.0) -> Any:
        return await self.call("POST", "/wait_commands", {"guild_id": guild_id, "timeout": timeout})

    async def drop_connection(self, shard_id: int = 0, code: int | None = 4000) -> Any:
        return await self.call("POST", "/drop", {"shard_id": shard_id, "code": code})

    async def send_reconnect(self, shard_id: int = 0) -> Any:
        return await self.call("POST", "/reconnect", {"shard_id": shard_id})

    async def invalidate_session(self, shard_id: int = 0, *, resumable: bool = False) -> Any:
        return await self.call("POST", "/invalidate", {"shard_id": shard_id, "resumable": resumable})

    async def hold_resumes(self) -> Any:
        return await self.call("POST", "/hold_resumes", {})

    async def release_resumes(self) -> Any:
        return await self.call("POST", "/release_resumes", {})

    async def exhaust_channel_bucket(self, channel_id: str) -> Any:
        return await self.call("POST", "/exhaust_channel", {"channel_id": channel_id})
