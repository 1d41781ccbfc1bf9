"""FakeDiscord: one aiohttp server on 127.0.0.1 with the REST API, the gateway and (optionally) the control
endpoint, plus the in-process driver API a test calls."""

from __future__ import annotations

import asyncio
import contextlib
import secrets
import time
from collections.abc import Callable, Iterable
from typing import Any

from aiohttp import web

from . import interactions as ix
from .gateway import GUILD_MESSAGES_INTENT, INVALID_SESSION, RECONNECT, Gateway, GatewaySession
from .interactions import Callback, InteractionHandle, NoSession
from .ratelimit import RateLimits
from .rest import API_PREFIX, ApiError, RequestRecord, invalid_form
from .rest import handle as rest_handle
from .validation import check_commands, check_message
from .world import (
    EPHEMERAL,
    EVERYONE_PERMISSIONS,
    LOADING,
    FakeChannel,
    FakeGuild,
    FakeMember,
    FakeMessage,
    FakeRole,
    FakeUser,
    Snowflakes,
    iter_components,
)

BOT_PERMISSIONS = EVERYONE_PERMISSIONS | (1 << 13)  # what the invite would grant: the basics + manage messages
WEBHOOK_TOKEN_LIFETIME = 15 * 60.0


class FakeDiscord:
    """A fake Discord for one bot application. Use `async with FakeDiscord() as fake:` or start()/stop()."""

    def __init__(
        self,
        *,
        token: str = "fake-bot-token",
        shard_count: int = 1,
        interaction_timeout: float = 3.0,
        global_limit: int = 50,
        heartbeat_interval_ms: int = 41_250,
        control: bool = False,
        host: str = "127.0.0.1",
        port: int = 0,
    ) -> None:
        self.token = token
        self.shard_count = shard_count
        self.interaction_timeout = interaction_timeout
        self.heartbeat_interval_ms = heartbeat_interval_ms
        self.host, self.port = host, port
        self.snowflakes = Snowflakes()
        self.rate_limits = RateLimits(global_limit=global_limit)
        self.gateway = Gateway(self)
        self.bot_user = FakeUser(self.snowflakes.next(), "Referee", bot=True)
        self.application_id = self.bot_user.id
        self.application_flags = 1 << 19  # GATEWAY_MESSAGE_CONTENT_LIMITED
        self.owner = FakeUser(self.snowflakes.next(), "owner")
        self.users: dict[int, FakeUser] = {u.id: u for u in (self.bot_user, self.owner)}
        self.guilds: dict[int, FakeGuild] = {}
        self._channels: dict[int, FakeChannel] = {}
        self._messages: dict[int, list[FakeMessage]] = {}
        self._message_index: dict[int, FakeMessage] = {}
        self.command_scopes: dict[int | None, list[dict[str, Any]]] = {}
        self.command_syncs: list[dict[str, Any]] = []  # every PUT: {"guild_id": int | None, "payload": [...]}
        self.interactions: dict[int, InteractionHandle] = {}
        self._by_token: dict[str, InteractionHandle] = {}
        self.requests: list[RequestRecord] = []
        self.unknown_routes: list[str] = []
        self._changed = asyncio.Event()
        self._runner: web.AppRunner | None = None
        self._with_control = control

    # Lifecycle ------------------------------------------------------------------------------------------
    async def start(self) -> None:
        app = web.Application(client_max_size=32 * 1024 * 1024)

        async def api(request: web.Request) -> web.StreamResponse:
            return await rest_handle(self, request)

        app.router.add_route("*", API_PREFIX + "/{tail:.*}", api)
        app.router.add_get("/gateway", self.gateway.handle)
        if self._with_control:
            from .control import add_control_routes

            add_control_routes(app, self)
        self._runner = web.AppRunner(app, access_log=None, shutdown_timeout=1.0)
        await self._runner.setup()
        site = web.TCPSite(self._runner, self.host, self.port)
        await site.start()
        self.port = int(self._runner.addresses[0][1])  # the port the OS picked when port=0

    async def stop(self) -> None:
        for session in list(self.gateway.sessions.values()):
            if session.conn is not None:
                await session.conn.ws.close(code=1001)
        if self._runner is not None:
            await self._runner.cleanup()
            self._runner = None

    async def __aenter__(self) -> FakeDiscord:
        await self.start()
        return self

    async def __aexit__(self, *exc: object) -> None:
        await self.stop()

    @property
    def url(self) -> str:
        return f"http://{self.host}:{self.port}"

    @property
    def api_base(self) -> str:
        return self.url + API_PREFIX

    @property
    def gateway_url(self) -> str:
        return f"ws://{self.host}:{self.port}/gateway"

    # Waiting --------------------------------------------------------------------------------------------
    def changed(self) -> None:
        self._changed.set()
        self._changed = asyncio.Event()

    async def wait_until(self, predicate: Callable[[], Any], timeout: float = 5.0) -> Any:
        """Wait until `predicate()` is truthy (re-checked whenever the fake's state changes); returns its value."""
        deadline = asyncio.get_running_loop().time() + timeout
        while True:
            value = predicate()
            if value:
                return value
            remaining = deadline - asyncio.get_running_loop().time()
            if remaining <= 0:
                raise TimeoutError("condition not met in time")
            # Re-check at least every 0.25 s as a safety net for a change that did not call changed().
            with contextlib.suppress(TimeoutError):
                await asyncio.wait_for(self._changed.wait(), min(remaining, 0.25))

    async def wait_ready(
        self, shards: int | None = None, timeout: float = 10.0, *, exclude: Iterable[str] = ()
    ) -> list[GatewaySession]:
        """Wait until `shards` sessions (default: the fake's shard count) are identified and connected. Sessions
        named in `exclude` do not count: after a bot restart, pass the old session ids to wait for new ones."""
        wanted = self.shard_count if shards is None else shards
        old = set(exclude)

        def ready() -> list[GatewaySession]:
            live = [s for s in self.gateway.live_sessions() if s.connected and s.session_id not in old]
            return live if len(live) >= wanted else []

        return list(await self.wait_until(ready, timeout))

    # World ----------------------------------------------------------------------------------------------
    async def create_guild(self, name: str = "guild", *, id: int | None = None, locale: str = "en-US") -> FakeGuild:
        guild = FakeGuild(id or self.snowflakes.next(), name, self.owner.id, locale)
        guild.roles[guild.id] = FakeRole(guild.id, "@everyone", EVERYONE_PERMISSIONS)
        bot_role = FakeRole(self.snowflakes.next(), self.bot_user.name, BOT_PERMISSIONS, position=1)
        guild.roles[bot_role.id] = bot_role
        guild.members[self.owner.id] = FakeMember(self.owner, guild.id)
        guild.members[self.bot_user.id] = FakeMember(self.bot_user, guild.id, [bot_role.id])
        self.guilds[guild.id] = guild
        session = self.gateway.owner_of(guild.id)
        if session is not None:
            await session.dispatch("GUILD_CREATE", guild.create_payload(guild.members[self.bot_user.id]))
        self.changed()
        return guild

    async def create_channel(self, guild: FakeGuild, name: str = "table") -> FakeChannel:
        channel = FakeChannel(self.snowflakes.next(), guild.id, name, position=len(guild.channels))
        guild.channels[channel.id] = channel
        self._channels[channel.id] = channel
        self._messages[channel.id] = []
        session = self.gateway.owner_of(guild.id)
        if session is not None:
            await session.dispatch("CHANNEL_CREATE", channel.payload())
        self.changed()
        return channel

    async def create_role(self, guild: FakeGuild, name: str, permissions: int) -> FakeRole:
        role = FakeRole(self.snowflakes.next(), name, permissions, position=len(guild.roles))
        guild.roles[role.id] = role
        session = self.gateway.owner_of(guild.id)
        if session is not None:
            await session.dispatch("GUILD_ROLE_CREATE", {"guild_id": str(guild.id), "role": role.payload()})
        return role

    def create_user(self, name: str, *, locale: str = "en-US") -> FakeUser:
        user = FakeUser(self.snowflakes.next(), name, locale=locale)
        self.users[user.id] = user
        return user

    def add_member(self, guild: FakeGuild, user: FakeUser, roles: list[FakeRole] | None = None) -> FakeMember:
        member = FakeMember(user, guild.id, [r.id for r in roles or []])
        guild.members[user.id] = member
        return member

    def guild(self, guild_id: int) -> FakeGuild:
        guild = self.guilds.get(guild_id)
        if guild is None:
            raise ApiError(404, 10004, "Unknown Guild")
        return guild

    def channel(self, channel_id: int) -> FakeChannel:
        channel = self._channels.get(channel_id)
        if channel is None:
            raise ApiError(404, 10003, "Unknown Channel")
        return channel

    def shard_of(self, guild: FakeGuild | int, shard_count: int | None = None) -> int:
        guild_id = guild if isinstance(guild, int) else guild.id
        return (guild_id >> 22) % (shard_count or self.shard_count)

    # Messages -------------------------------------------------------------------------------------------
    def messages(self, channel: FakeChannel | int, *, include_deleted: bool = False) -> list[FakeMessage]:
        channel_id = channel if isinstance(channel, int) else channel.id
        return [m for m in self._messages.get(channel_id, []) if include_deleted or not m.deleted]

    def public_messages(self, channel: FakeChannel | int) -> list[FakeMessage]:
        return [m for m in self.messages(channel) if not m.ephemeral]

    def latest_message(
        self, channel: FakeChannel | int, *, with_components: bool = False, visible_to: FakeUser | None = None
    ) -> FakeMessage | None:
        for msg in reversed(self.messages(channel)):
            if with_components and not msg.custom_ids():
                continue
            if msg.ephemeral and (
                visible_to is None or msg.interaction_user is None or msg.interaction_user.id != visible_to.id
            ):
                continue
            return msg
        return None

    def message(self, message_id: int) -> FakeMessage | None:
        """Any stored message by id (ephemeral and deleted ones included)."""
        return self._message_index.get(message_id)

    def channel_message(self, channel_id: int, message_id: int) -> FakeMessage:
        self.channel(channel_id)
        msg = self._message_index.get(message_id)
        if msg is None or msg.deleted or msg.channel_id != channel_id or msg.ephemeral:
            raise ApiError(404, 10008, "Unknown Message")
        return msg

    def _new_message(self, channel: FakeChannel, body: dict[str, Any], **kw: Any) -> FakeMessage:
        msg = FakeMessage(
            self.snowflakes.next(), channel.id, channel.guild_id, self.bot_user, self.application_id, **kw
        )
        msg.apply(body)
        self._messages.setdefault(channel.id, []).append(msg)
        self._message_index[msg.id] = msg
        return msg

    async def _broadcast(self, event: str, msg: FakeMessage) -> None:
        """MESSAGE_CREATE/UPDATE/DELETE for public messages, to the session of the guild if it asked for them."""
        if msg.ephemeral:
            return
        session = self.gateway.owner_of(msg.guild_id)
        if session is None or not session.intents & GUILD_MESSAGES_INTENT:
            return
        if event == "MESSAGE_DELETE":
            data: dict[str, Any] = {"id": str(msg.id), "channel_id": str(msg.channel_id), "guild_id": str(msg.guild_id)}
        else:
            data = msg.payload()
        await session.dispatch(event, data)

    async def post_channel_message(self, channel_id: int, body: dict[str, Any]) -> dict[str, Any]:
        channel = self.channel(channel_id)
        check_message(body)
        if not body.get("content") and not body.get("embeds") and not body.get("components"):
            raise ApiError(400, 50006, "Cannot send an empty message")
        body = {**body, "flags": int(body.get("flags") or 0) & ~EPHEMERAL}  # a channel post is never ephemeral
        msg = self._new_message(channel, body)
        await self._broadcast("MESSAGE_CREATE", msg)
        self.changed()
        return msg.payload()

    async def edit_message(self, msg: FakeMessage, body: dict[str, Any]) -> dict[str, Any]:
        check_message(body)
        msg.apply(body)
        msg.flags &= ~LOADING
        msg.edits += 1
        msg.edited_at = time.time()
        await self._broadcast("MESSAGE_UPDATE", msg)
        self.changed()
        return msg.payload()

    async def delete_message(self, msg: FakeMessage) -> None:
        msg.deleted = True
        await self._broadcast("MESSAGE_DELETE", msg)
        self.changed()

    # Commands -------------------------------------------------------------------------------------------
    def sync_commands(self, app_id: str, guild_id: int | None, body: Any) -> list[dict[str, Any]]:
        if app_id != str(self.application_id):
            raise ApiError(403, 50001, "Missing Access")
        if guild_id is not None:
            self.guild(guild_id)
        check_commands(body)
        previous = {(c["name"], int(c.get("type", 1))): c["id"] for c in self.command_scopes.get(guild_id, [])}
        stored = []
        for cmd in body:
            kind = int(cmd.get("type", 1))
            data = {
                "type": kind,
                "description": "",
                "options": [],
                "default_member_permissions": None,
                "dm_permission": True,
                "nsfw": False,
                "contexts": None,
                "integration_types": [0],
                "name_localizations": None,
                "description_localizations": None,
                **cmd,
            }
            data["id"] = previous.get((cmd["name"], kind)) or str(self.snowflakes.next())
            data["application_id"] = str(self.application_id)
            data["version"] = str(self.snowflakes.next())
            if guild_id is not None:
                data["guild_id"] = str(guild_id)
            stored.append(data)
        self.command_scopes[guild_id] = stored
        self.command_syncs.append({"guild_id": guild_id, "payload": body})
        self.changed()
        return stored

    def commands(self, guild: FakeGuild | int | None = None) -> list[dict[str, Any]]:
        guild_id = guild.id if isinstance(guild, FakeGuild) else guild
        return list(self.command_scopes.get(guild_id, []))

    # Sending interactions -------------------------------------------------------------------------------
    def _member(self, guild: FakeGuild, user: FakeUser | FakeMember) -> FakeMember:
        if isinstance(user, FakeMember):
            return user
        member = guild.members.get(user.id)
        if member is None:
            raise LookupError(f"{user.name} is not a member of {guild.name}")
        return member

    def _base(
        self, kind: int, data: dict[str, Any], guild: FakeGuild, channel: FakeChannel, member: FakeMember
    ) -> dict[str, Any]:
        bot = guild.members[self.bot_user.id]
        return ix.base_payload(
            interaction_id=self.snowflakes.next(),
            application_id=self.application_id,
            token="aW50ZXJhY3Rpb24" + secrets.token_urlsafe(48),
            kind=kind,
            data=data,
            guild=guild,
            channel=channel,
            member=member,
            app_permissions=guild.permissions_of(bot),
        )

    async def _send(
        self,
        payload: dict[str, Any],
        guild: FakeGuild,
        user: FakeUser,
        channel: FakeChannel | None,
        source: FakeMessage | None = None,
    ) -> InteractionHandle:
        session = self.gateway.owner_of(guild.id)
        if session is None:
            raise NoSession(f"no gateway session owns guild {guild.id} (shard {self.shard_of(guild)})")
        handle = InteractionHandle(self, payload, user, channel, source)
        self.interactions[handle.id] = handle
        self._by_token[handle.token] = handle
        await session.dispatch("INTERACTION_CREATE", payload)
        self.changed()
        return handle

    def _command_data(
        self,
        guild: FakeGuild,
        name: str,
        options: dict[str, Any] | None,
        subcommand: str | None,
        kind: int,
        strict: bool,
        focused: str | None = None,
    ) -> dict[str, Any]:
        command = ix.find_command(self.commands(guild.id), name, kind) or ix.find_command(
            self.commands(None), name, kind
        )
        if command is None and strict:
            raise LookupError(
                f"/{name} was not synced to {guild.name} or globally (pass strict=False to send it anyway)"
            )
        schema = None if command is None else list(command.get("options") or [])
        leaf_schema, path = ix.nest_subcommand(schema, subcommand)
        resolved: dict[str, dict[str, Any]] = {}
        leaf = ix.build_options(leaf_schema, options or {}, guild, resolved, focused=focused)
        data: dict[str, Any] = {
            "id": command["id"] if command else str(self.snowflakes.next()),
            "name": name,
            "type": kind,
            "options": ix.wrap_subcommand(path, leaf),
        }
        if command is not None and command.get("guild_id"):
            data["guild_id"] = command["guild_id"]
        if resolved:
            data["resolved"] = resolved
        return data

    async def invoke(
        self,
        user: FakeUser | FakeMember,
        channel: FakeChannel,
        command_name: str,
        options: dict[str, Any] | None = None,
        *,
        subcommand: str | None = None,
        strict: bool = True,
    ) -> InteractionHandle:
        """A user runs a slash command. `subcommand` is "sub" or "group sub". With strict=False the command
        need not be synced (an unknown command) and option types follow the Python values."""
        guild = self.guild(channel.guild_id)
        member = self._member(guild, user)
        data = self._command_data(guild, command_name, options, subcommand, 1, strict)
        return await self._send(
            self._base(ix.APPLICATION_COMMAND, data, guild, channel, member), guild, member.user, channel
        )

    async def autocomplete(
        self,
        user: FakeUser | FakeMember,
        channel: FakeChannel,
        command_name: str,
        options: dict[str, Any],
        focused: str,
        *,
        subcommand: str | None = None,
        strict: bool = True,
    ) -> InteractionHandle:
        guild = self.guild(channel.guild_id)
        member = self._member(guild, user)
        data = self._command_data(guild, command_name, options, subcommand, 1, strict, focused=focused)
        return await self._send(self._base(ix.AUTOCOMPLETE, data, guild, channel, member), guild, member.user, channel)

    async def _component(
        self,
        user: FakeUser | FakeMember,
        message: FakeMessage,
        custom_id: str,
        types: tuple[int, ...],
        values: list[str] | None,
        strict: bool,
    ) -> InteractionHandle:
        channel = self.channel(message.channel_id)
        guild = self.guild(channel.guild_id)
        member = self._member(guild, user)
        comp = message.find_component(custom_id)
        if strict:
            if message.deleted:
                raise LookupError("the message was deleted")
            if comp is None or int(comp.get("type", 0)) not in types:
                raise LookupError(
                    f"no component {custom_id!r} of type {types} on message {message.id}: {message.custom_ids()}"
                )
            if comp.get("disabled"):
                raise LookupError(f"component {custom_id!r} is disabled")
            if message.ephemeral and (
                message.interaction_user is None or message.interaction_user.id != member.user.id
            ):
                raise LookupError("an ephemeral message is only visible to the user it answered")
        data: dict[str, Any] = {"custom_id": custom_id, "component_type": int(comp["type"]) if comp else types[0]}
        if values is not None:
            data["values"] = values
        payload = self._base(ix.MESSAGE_COMPONENT, data, guild, channel, member)
        payload["message"] = message.payload()
        return await self._send(payload, guild, member.user, channel, message)

    async def click(
        self, user: FakeUser | FakeMember, message: FakeMessage, custom_id: str, *, strict: bool = True
    ) -> InteractionHandle:
        return await self._component(user, message, custom_id, (2,), None, strict)

    async def select(
        self,
        user: FakeUser | FakeMember,
        message: FakeMessage,
        custom_id: str,
        values: list[str],
        *,
        strict: bool = True,
    ) -> InteractionHandle:
        return await self._component(user, message, custom_id, (3, 5, 6, 7, 8), [str(v) for v in values], strict)

    async def submit_modal(
        self, opened_by: InteractionHandle, values: dict[str, str], *, user: FakeUser | FakeMember | None = None
    ) -> InteractionHandle:
        """Type 5: the user fills in the modal that `opened_by` answered with (callback type 9), giving a value
        per text input custom_id. Another `user` may be named to test a refusal."""
        modal = next((c for c in opened_by.callbacks if c.type == ix.MODAL), None)
        if modal is None or opened_by.channel is None:
            raise LookupError("that interaction was not answered with a modal")
        guild = self.guild(opened_by.channel.guild_id)
        member = self._member(guild, user or opened_by.user)
        inputs = [c for c in iter_components(modal.components) if c.get("type") == 4]
        unknown = set(values) - {c["custom_id"] for c in inputs}
        if unknown:
            raise KeyError(f"the modal has no text inputs {sorted(unknown)}")
        rows = [
            {
                "type": 1,
                "components": [{"type": 4, "custom_id": c["custom_id"], "value": values.get(c["custom_id"], "")}],
            }
            for c in inputs
        ]
        data = {"custom_id": modal.data["custom_id"], "components": rows}
        payload = self._base(ix.MODAL_SUBMIT, data, guild, opened_by.channel, member)
        if opened_by.source_message is not None:
            payload["message"] = opened_by.source_message.payload()
        return await self._send(payload, guild, member.user, opened_by.channel, opened_by.source_message)

    async def redeliver(self, handle: InteractionHandle) -> None:
        """Dispatch the same INTERACTION_CREATE again (same id and token), as Discord may after a reconnect.
        The handle keeps collecting; a second callback is refused with 40060 like on Discord."""
        guild_id = handle.payload.get("guild_id")
        session = self.gateway.owner_of(int(guild_id)) if guild_id else None
        if session is None:
            raise NoSession("no gateway session for the interaction's guild")
        await session.dispatch("INTERACTION_CREATE", handle.payload)

    async def send_raw(
        self, guild: FakeGuild, data: Any, event: str = "INTERACTION_CREATE"
    ) -> InteractionHandle | None:
        """Dispatch any payload (malformed ones included) to the session owning the guild. When it carries an
        id and a token, a handle records whatever the bot answers."""
        session = self.gateway.owner_of(guild.id)
        if session is None:
            raise NoSession(f"no gateway session owns guild {guild.id}")
        handle = None
        if isinstance(data, dict) and event == "INTERACTION_CREATE" and "id" in data and "token" in data:
            try:
                handle = InteractionHandle(self, data, self.owner, None)
                self.interactions[int(data["id"])] = handle
                self._by_token[str(data["token"])] = handle
            except (TypeError, ValueError):
                handle = None
        await session.dispatch(event, data)
        return handle

    # Answers from the bot -------------------------------------------------------------------------------
    async def interaction_callback(self, interaction_id: int, token: str, body: Any) -> dict[str, Any]:
        handle = self.interactions.get(interaction_id)
        if handle is None or handle.token != token:
            raise ApiError(404, 10062, "Unknown interaction")
        kind = int(body.get("type", 0)) if isinstance(body, dict) else 0
        data = (body.get("data") if isinstance(body, dict) else None) or {}
        latency = time.monotonic() - handle.dispatched_at
        if handle.acknowledged:
            handle.rejected.append({"type": kind, "status": 400, "error": "already acknowledged"})
            raise ApiError(400, 40060, "Interaction has already been acknowledged.")
        if latency > self.interaction_timeout:
            handle.rejected.append({"type": kind, "status": 404, "error": "expired", "latency": latency})
            raise ApiError(404, 10062, "Unknown interaction")
        if kind not in ix.ALLOWED_CALLBACKS.get(handle.type, set()):
            handle.rejected.append({"type": kind, "status": 400, "error": "callback type not allowed"})
            raise invalid_form(f"callback type {kind} is not valid for interaction type {handle.type}")
        if kind == ix.AUTOCOMPLETE_RESULT and len(data.get("choices") or []) > 25:
            handle.rejected.append({"type": kind, "status": 400, "error": "more than 25 choices"})
            raise invalid_form("choices: Must be 25 or fewer in length.")
        if kind in (ix.CHANNEL_MESSAGE, ix.UPDATE_MESSAGE):
            try:
                check_message(data)
            except ApiError as exc:
                handle.rejected.append({"type": kind, "status": 400, "error": str(exc.errors)})
                raise
        result: dict[str, Any] = {
            "interaction": {"id": str(handle.id), "type": handle.type},
            "resource": {"type": kind},
        }
        message: FakeMessage | None = None
        if kind in (ix.CHANNEL_MESSAGE, ix.DEFERRED_CHANNEL_MESSAGE) and handle.channel is not None:
            flags = int(data.get("flags") or 0) & EPHEMERAL
            if kind == ix.DEFERRED_CHANNEL_MESSAGE:
                flags |= LOADING
            message = self._new_message(
                handle.channel,
                {**data, "flags": None},
                flags=flags,
                interaction_id=handle.id,
                interaction_user=handle.user,
                interaction_type=handle.type,
                via_webhook=True,
            )
            handle.original = message
            result["interaction"].update(
                response_message_id=str(message.id),
                response_message_loading=kind == ix.DEFERRED_CHANNEL_MESSAGE,
                response_message_ephemeral=message.ephemeral,
            )
        elif kind in (ix.DEFERRED_UPDATE, ix.UPDATE_MESSAGE) and handle.source_message is not None:
            message = handle.original = handle.source_message
            if kind == ix.UPDATE_MESSAGE:
                message.apply(data)
                message.edits += 1
                message.edited_at = time.time()
            result["interaction"]["response_message_id"] = str(message.id)
        if message is not None and kind != ix.DEFERRED_UPDATE:
            result["resource"]["message"] = message.payload()
        handle.callbacks.append(Callback(kind, data, latency))
        handle._answered.set()
        self.changed()
        if message is not None and kind in (ix.CHANNEL_MESSAGE, ix.DEFERRED_CHANNEL_MESSAGE):
            await self._broadcast("MESSAGE_CREATE", message)
        elif message is not None and kind == ix.UPDATE_MESSAGE:
            await self._broadcast("MESSAGE_UPDATE", message)
        return result

    def _handle_for_token(self, token: str) -> InteractionHandle:
        handle = self._by_token.get(token)
        if handle is None or time.monotonic() - handle.dispatched_at > WEBHOOK_TOKEN_LIFETIME:
            raise ApiError(404, 10015, "Unknown Webhook")
        return handle

    def webhook_message(self, token: str, message_id: str) -> FakeMessage:
        handle = self._handle_for_token(token)
        if message_id == "@original":
            if handle.original is None or handle.original.deleted:
                raise ApiError(404, 10008, "Unknown Message")
            return handle.original
        msg = next((m for m in handle.followups if str(m.id) == message_id and not m.deleted), None)
        if msg is None and handle.original is not None and str(handle.original.id) == message_id:
            msg = handle.original
        if msg is None:
            raise ApiError(404, 10008, "Unknown Message")
        return msg

    async def edit_webhook_message(self, token: str, message_id: str, body: dict[str, Any]) -> dict[str, Any]:
        handle = self._handle_for_token(token)
        msg = self.webhook_message(token, message_id)
        result = await self.edit_message(msg, body)
        if message_id == "@original" or msg is handle.original:
            handle.edits.append(body)
        self.changed()
        return result

    async def followup(self, token: str, body: dict[str, Any]) -> dict[str, Any]:
        handle = self._handle_for_token(token)
        if not handle.acknowledged or handle.channel is None:
            raise ApiError(404, 10015, "Unknown Webhook")
        check_message(body)
        msg = self._new_message(
            handle.channel,
            {**body, "flags": None},
            flags=int(body.get("flags") or 0) & EPHEMERAL,
            interaction_id=handle.id,
            interaction_user=handle.user,
            interaction_type=handle.type,
            via_webhook=True,
        )
        handle.followups.append(msg)
        await self._broadcast("MESSAGE_CREATE", msg)
        self.changed()
        return msg.payload()

    # Gateway faults -------------------------------------------------------------------------------------
    def session_for(self, shard_id: int = 0) -> GatewaySession:
        sessions = [s for s in self.gateway.live_sessions() if s.shard_id == shard_id]
        if not sessions:
            raise NoSession(f"no session for shard {shard_id}")
        return max(sessions, key=lambda s: s.created)

    async def drop_connection(self, shard_id: int = 0, *, code: int | None = 4000) -> GatewaySession:
        """Close shard's socket (code 4000 by default; None aborts the TCP connection without a close frame).
        The session stays resumable; dispatches meanwhile wait in its log."""
        session = self.session_for(shard_id)
        await self.gateway.drop(session, code)
        return session

    async def send_reconnect(self, shard_id: int = 0) -> GatewaySession:
        session = self.session_for(shard_id)
        await self.gateway.send_op(session, RECONNECT, None)
        return session

    async def invalidate_session(self, shard_id: int = 0, *, resumable: bool = False) -> GatewaySession:
        session = self.session_for(shard_id)
        await self.gateway.send_op(session, INVALID_SESSION, resumable)
        return session

    def hold_resumes(self) -> None:
        """RESUMEs wait until release_resumes(): a test can act while a shard is known to be disconnected."""
        self.gateway.resume_gate.clear()

    def release_resumes(self) -> None:
        self.gateway.resume_gate.set()

    def exhaust_channel_bucket(self, channel: FakeChannel) -> None:
        """Use up the channel's message bucket so the bot's next POST /channels/{id}/messages gets a 429."""
        self.rate_limits.exhaust("POST /channels/{channel_id}/messages", str(channel.id))

    # Stats ----------------------------------------------------------------------------------------------
    def application_payload(self) -> dict[str, Any]:
        return {
            "id": str(self.application_id),
            "name": self.bot_user.name,
            "icon": None,
            "description": "",
            "summary": "",
            "type": None,
            "rpc_origins": [],
            "bot_public": True,
            "bot_require_code_grant": False,
            "bot": self.bot_user.payload(),
            "owner": self.owner.payload(),
            "team": None,
            "verify_key": "0" * 64,
            "flags": self.application_flags,
            "tags": [],
            "redirect_uris": [],
            "interactions_endpoint_url": None,
            "approximate_guild_count": len(self.guilds),
            "integration_types_config": {"0": {}},
        }

    def stats(self) -> dict[str, Any]:
        first = [h.first.latency for h in self.interactions.values() if h.first is not None]
        return {
            "requests": len(self.requests),
            "rate_limited": len(self.rate_limits.given),
            "rate_limited_global": sum(1 for r in self.rate_limits.given if r.scope == "global"),
            "unknown_routes": list(self.unknown_routes),
            "interactions": len(self.interactions),
            "answered": len(first),
            "unanswered": len(self.interactions) - len(first),
            "rejected_callbacks": sum(len(h.rejected) for h in self.interactions.values()),
            "sessions": [s.to_json() for s in self.gateway.sessions.values()],
        }
