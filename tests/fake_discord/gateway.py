"""Gateway v10 over a websocket: HELLO, IDENTIFY -> READY + GUILD_CREATE, heartbeats, RESUME with replay,
and the faults a test asks for (drop, RECONNECT, INVALID_SESSION).

Dispatches go to a session, not a socket: while a session has no socket (dropped, not yet resumed) they wait
in its log and a RESUME replays everything after the sequence the client names, as Discord does.
"""

from __future__ import annotations

import asyncio
import logging
import secrets
import time
import zlib
from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Any

from aiohttp import WSMsgType, web

from .wire import dumps, loads

if TYPE_CHECKING:
    from .server import FakeDiscord

log = logging.getLogger(__name__)

DISPATCH, HEARTBEAT, IDENTIFY, PRESENCE, VOICE, RESUME, RECONNECT, MEMBERS, INVALID_SESSION, HELLO, ACK = (
    0,
    1,
    2,
    3,
    4,
    6,
    7,
    8,
    9,
    10,
    11,
)
GUILD_MESSAGES_INTENT = 1 << 9
LOG_LIMIT = 20_000  # dispatches kept per session for RESUME; an older sequence gets INVALID_SESSION, as on Discord


@dataclass
class Connection:
    ws: web.WebSocketResponse
    request: web.Request
    compress: Any = None  # zlib compressobj when the client asked for zlib-stream
    lock: asyncio.Lock = field(default_factory=asyncio.Lock)

    async def send(self, payload: dict[str, Any]) -> None:
        data = dumps(payload)
        async with self.lock:
            if self.ws.closed:
                raise ConnectionResetError("socket closed")
            if self.compress is not None:
                await self.ws.send_bytes(self.compress.compress(data) + self.compress.flush(zlib.Z_SYNC_FLUSH))
            else:
                await self.ws.send_str(data.decode())


@dataclass
class GatewaySession:
    session_id: str
    shard_id: int
    shard_count: int
    intents: int
    seq: int = 0
    log: list[tuple[int, dict[str, Any]]] = field(default_factory=list)
    conn: Connection | None = None
    invalid: bool = False
    created: float = field(default_factory=time.monotonic)
    connects: int = 1
    resumes: int = 0
    # Held while a dispatch is logged and sent, and while a RESUME replays, so a socket sees events in order.
    lock: asyncio.Lock = field(default_factory=asyncio.Lock)

    def owns(self, guild_id: int) -> bool:
        return (guild_id >> 22) % self.shard_count == self.shard_id

    @property
    def connected(self) -> bool:
        return self.conn is not None and not self.conn.ws.closed

    async def dispatch(self, event: str, data: Any) -> int:
        async with self.lock:
            return await self.dispatch_locked(event, data)

    async def dispatch_locked(self, event: str, data: Any) -> int:
        self.seq += 1
        payload = {"op": DISPATCH, "t": event, "s": self.seq, "d": data}
        self.log.append((self.seq, payload))
        if len(self.log) > LOG_LIMIT:
            del self.log[: LOG_LIMIT // 2]
        if self.conn is not None:
            try:
                await self.conn.send(payload)
            except (ConnectionResetError, RuntimeError):
                self.conn = None  # stays in the log; a RESUME replays it
        return self.seq

    def to_json(self) -> dict[str, Any]:
        return {
            "session_id": self.session_id,
            "shard": [self.shard_id, self.shard_count],
            "seq": self.seq,
            "connected": self.connected,
            "invalid": self.invalid,
            "resumes": self.resumes,
        }


class Gateway:
    def __init__(self, fake: FakeDiscord) -> None:
        self.fake = fake
        self.sessions: dict[str, GatewaySession] = {}
        self.resume_gate = asyncio.Event()
        self.resume_gate.set()
        self.received: list[dict[str, Any]] = []  # every payload a client sent (tokens masked)

    def live_sessions(self) -> list[GatewaySession]:
        return [s for s in self.sessions.values() if not s.invalid]

    def owner_of(self, guild_id: int) -> GatewaySession | None:
        owners = [s for s in self.live_sessions() if s.owns(guild_id)]
        return max(owners, key=lambda s: s.created) if owners else None

    async def handle(self, request: web.Request) -> web.WebSocketResponse:
        ws = web.WebSocketResponse(max_msg_size=0, autoping=True)
        await ws.prepare(request)
        conn = Connection(ws, request)
        if request.query.get("compress") == "zlib-stream":
            conn.compress = zlib.compressobj()
        session: GatewaySession | None = None
        try:
            await conn.send({"op": HELLO, "d": {"heartbeat_interval": self.fake.heartbeat_interval_ms}})
            async for msg in ws:
                if msg.type is not WSMsgType.TEXT:
                    if msg.type is WSMsgType.BINARY:
                        await ws.close(code=4002, message=b"Decode error")
                    continue
                try:
                    payload = loads(msg.data)
                    op = payload["op"]
                except (ValueError, KeyError, TypeError):
                    await ws.close(code=4002, message=b"Decode error")
                    break
                self.received.append(_masked(payload))
                if op == HEARTBEAT:
                    await conn.send({"op": ACK})
                elif op == IDENTIFY:
                    if session is not None:
                        await ws.close(code=4005, message=b"Already authenticated")
                        break
                    session = await self._identify(conn, payload.get("d") or {})
                elif op == RESUME:
                    session = await self._resume(conn, payload.get("d") or {})
                elif op in (PRESENCE, VOICE, MEMBERS):
                    continue
                else:
                    await ws.close(code=4001, message=b"Unknown opcode")
                    break
                self.fake.changed()
        finally:
            if session is not None and session.conn is conn:
                session.conn = None
            self.fake.changed()
        return ws

    async def _identify(self, conn: Connection, data: dict[str, Any]) -> GatewaySession | None:
        if data.get("token") != self.fake.token:
            await conn.ws.close(code=4004, message=b"Authentication failed")
            return None
        shard = data.get("shard") or [0, 1]
        shard_id, shard_count = int(shard[0]), int(shard[1])
        if shard_count < 1 or not 0 <= shard_id < shard_count:
            await conn.ws.close(code=4010, message=b"Invalid shard")
            return None
        session = GatewaySession(secrets.token_hex(16), shard_id, shard_count, int(data.get("intents") or 0))
        session.conn = conn
        guilds = [g for g in self.fake.guilds.values() if session.owns(g.id)]
        await session.dispatch(
            "READY",
            {
                "v": 10,
                "user": self.fake.bot_user.payload(),
                "user_settings": {},
                "private_channels": [],
                "presences": [],
                "relationships": [],
                "guild_join_requests": [],
                "geo_ordered_rtc_regions": [],
                "session_type": "normal",
                "auth": {},
                "session_id": session.session_id,
                "resume_gateway_url": self.fake.gateway_url,
                "shard": [shard_id, shard_count],
                "application": {"id": str(self.fake.application_id), "flags": self.fake.application_flags},
                "guilds": [{"id": str(g.id), "unavailable": True} for g in guilds],
                "_trace": ["fake-discord"],
            },
        )
        for guild in guilds:
            await session.dispatch("GUILD_CREATE", guild.create_payload(guild.members.get(self.fake.bot_user.id)))
        # Only now can interactions be routed to it: they never overtake the GUILD_CREATE of their guild.
        self.sessions[session.session_id] = session
        return session

    async def _resume(self, conn: Connection, data: dict[str, Any]) -> GatewaySession | None:
        await self.resume_gate.wait()
        session = self.sessions.get(str(data.get("session_id")))
        after = int(data.get("seq") or 0)
        if (
            session is None
            or session.invalid
            or data.get("token") != self.fake.token
            or (session.log and after < session.log[0][0] - 1)
        ):
            await conn.send({"op": INVALID_SESSION, "d": False})
            return None
        async with session.lock:
            old = session.conn
            session.conn = conn
            if old is not None and old is not conn and not old.ws.closed:
                await old.ws.close(code=4000)
            session.resumes += 1
            session.connects += 1
            for seq, payload in list(session.log):
                if seq > after:
                    await conn.send(payload)
            await session.dispatch_locked("RESUMED", {"_trace": ["fake-discord"]})
        return session

    # Faults a test can ask for ------------------------------------------------------------------------
    async def drop(self, session: GatewaySession, code: int | None = 4000) -> None:
        """Close the session's socket with `code`, or abort the TCP connection when `code` is None."""
        conn = session.conn
        session.conn = None
        if conn is None:
            return
        if code is None:
            transport = conn.request.transport
            if transport is not None:
                transport.abort()
        else:
            await conn.ws.close(code=code, message=b"fake-discord drop")
        self.fake.changed()

    async def send_op(self, session: GatewaySession, op: int, data: Any) -> None:
        if session.conn is None:
            raise ConnectionError(f"shard {session.shard_id} has no socket")
        if op == INVALID_SESSION and not data:
            session.invalid = True
        await session.conn.send({"op": op, "d": data})


def _masked(payload: dict[str, Any]) -> dict[str, Any]:
    data = payload.get("d")
    if isinstance(data, dict) and "token" in data:
        return {**payload, "d": {**data, "token": "***"}}
    return payload
