"""Cog tests on real discord.py objects, with a recording fake of the HTTP layer.

How a test talks to the bot:
- The bot is the real `RefereeBot`, built around a real `Store` on a temporary SQLite file, the real
  `TableService`, the shipped catalog and the rulebook. It is not logged in: `async with bot` runs
  discord.py's own loop set-up, then `setup_hook()` loads the cogs exactly as on start.
- discord.py leaves for the network through two doors: `HTTPClient.request` (REST calls made with
  the bot token) and `AsyncWebhookAdapter.request` (the interaction's response and its follow-ups,
  sent through the interaction's webhook). Both are replaced by subclasses that record the Route
  and the JSON payload instead of sending, and answer what Discord answers (a callback response,
  a message). That is the only fake: everything above it is discord.py's and ours.
- An interaction arrives as it does from the gateway: an INTERACTION_CREATE payload dict goes to
  `ConnectionState.parse_interaction_create` (which builds the `discord.Interaction` and hands it
  to the command tree or the view store); `deliver()` then awaits the tasks it started.
"""

from __future__ import annotations

import asyncio
import itertools
from collections.abc import AsyncIterator, Iterator
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any, cast

import pytest
from discord import ClientUser
from discord.http import HTTPClient, Route
from discord.webhook.async_ import AsyncWebhookAdapter, async_context

from bot.app import COGS, RefereeBot
from bot.catalog import Catalog, load_catalog
from bot.paths import data_folder
from bot.rulings.search import Rulebook
from bot.service import TableService
from bot.settings import Settings
from bot.store import RollRecord, Store

APP_ID = 900000000000000001
GUILD_ID = 900000000000000002
CHANNEL_ID = 900000000000000003
ALICE = 900000000000000011
BOB = 900000000000000012
BOT_TOKEN = "MTIzNDU2Nzg5MDEyMzQ1Njc4.Gabcde.bot-token-that-must-never-be-logged"
EPHEMERAL = 1 << 6

_ids = itertools.count(910000000000000000)


def next_id() -> int:
    return next(_ids)


@dataclass
class Sent:
    """One request discord.py made: which door, the route, the JSON body."""

    door: str  # "webhook" (interaction response or follow-up) or "rest"
    method: str
    path: str
    payload: dict[str, Any] | None

    @property
    def is_callback(self) -> bool:
        return self.path.endswith("/callback")

    @property
    def callback_type(self) -> int | None:
        return self.payload.get("type") if self.is_callback and self.payload else None

    @property
    def message(self) -> dict[str, Any]:
        """The message part: a callback's `data`, or a follow-up's body."""
        if self.payload is None:
            return {}
        return dict(self.payload.get("data") or {}) if self.is_callback else self.payload

    @property
    def ephemeral(self) -> bool:
        return bool(int(self.message.get("flags", 0)) & EPHEMERAL)

    @property
    def content(self) -> str:
        return str(self.message.get("content") or "")

    @property
    def embeds(self) -> list[dict[str, Any]]:
        return list(self.message.get("embeds") or [])

    @property
    def text(self) -> str:
        """Everything a reader sees: content, embed titles, descriptions, fields."""
        parts = [self.content]
        for embed in self.embeds:
            parts += [embed.get("title") or "", embed.get("description") or ""]
            parts += [f"{f['name']}\n{f['value']}" for f in embed.get("fields", [])]
        return "\n".join(p for p in parts if p)

    @property
    def custom_ids(self) -> list[str]:
        return [c["custom_id"] for row in self.message.get("components", []) for c in row.get("components", [])]


@dataclass
class Recorder:
    sent: list[Sent] = field(default_factory=list)

    def messages(self) -> list[Sent]:
        """Every message sent (callback responses with a message, follow-ups)."""
        return [s for s in self.sent if s.door == "webhook" and (not s.is_callback or s.callback_type in (4, 7))]

    def public(self) -> list[Sent]:
        return [s for s in self.messages() if not s.ephemeral]

    def private(self) -> list[Sent]:
        return [s for s in self.messages() if s.ephemeral]

    def clear(self) -> None:
        self.sent.clear()


def message_payload(data: dict[str, Any], *, channel_id: int = CHANNEL_ID) -> dict[str, Any]:
    """A message as Discord returns it, carrying what was sent."""
    return {
        "id": str(next_id()),
        "channel_id": str(channel_id),
        "type": 0,
        "author": {"id": str(APP_ID), "username": "referee", "discriminator": "0", "avatar": None, "bot": True},
        "content": data.get("content") or "",
        "embeds": data.get("embeds") or [],
        "components": data.get("components") or [],
        "attachments": [],
        "mentions": [],
        "mention_roles": [],
        "mention_everyone": False,
        "pinned": False,
        "tts": False,
        "flags": int(data.get("flags", 0)),
        "timestamp": "2026-12-01T00:00:00+00:00",
        "edited_timestamp": None,
        "application_id": str(APP_ID),
    }


class RecordingWebhookAdapter(AsyncWebhookAdapter):
    """Interaction responses and follow-ups are recorded, never sent."""

    def __init__(self, recorder: Recorder) -> None:
        super().__init__()  # type: ignore[no-untyped-call]
        self.recorder = recorder

    async def request(self, route: Route, session: Any, *, payload: dict[str, Any] | None = None, **_: Any) -> Any:
        self.recorder.sent.append(Sent("webhook", route.method, route.path, payload))
        if route.path.endswith("/callback"):
            data = (payload or {}).get("data") or {}
            return {
                "interaction": {
                    "id": str(route.webhook_id),
                    "type": 2,
                    "response_message_id": str(next_id()),
                    "response_message_loading": (payload or {}).get("type") == 5,
                    "response_message_ephemeral": bool(int(data.get("flags", 0)) & EPHEMERAL),
                }
            }
        if route.method in ("POST", "PATCH"):
            return message_payload(payload or {})
        return None


class RecordingHTTP(HTTPClient):
    """REST calls with the bot token are recorded, never sent (the cogs should need none)."""

    def __init__(self, loop: Any, recorder: Recorder) -> None:
        super().__init__(loop)
        self.recorder = recorder
        self.token = BOT_TOKEN

    async def request(self, route: Route, *, files: Any = None, form: Any = None, **kwargs: Any) -> Any:
        self.recorder.sent.append(Sent("rest", route.method, route.path, kwargs.get("json")))
        return {}


@dataclass
class Harness:
    bot: RefereeBot
    recorder: Recorder
    store: Store

    async def deliver(self, payload: dict[str, Any]) -> None:
        """Hand `payload` to the bot as the gateway would, and wait until it has been answered."""
        async_context.set(RecordingWebhookAdapter(self.recorder))
        before = asyncio.all_tasks()
        self.bot._connection.parse_interaction_create(payload)  # type: ignore[arg-type]
        for _ in range(10):  # the tasks it started, and the ones those start (not a view's expiry timer)
            pending = [
                t
                for t in asyncio.all_tasks() - before
                if not t.done() and t is not asyncio.current_task() and "timeout_task" not in repr(t.get_coro())
            ]
            if not pending:
                break
            await asyncio.gather(*pending, return_exceptions=True)

    async def command(self, name: str, /, *, user: int = ALICE, locale: str = "ja", **options: Any) -> None:
        await self.deliver(command_payload(name, options, user=user, locale=locale))

    async def filed_rolls(self, channel_id: int = CHANNEL_ID) -> list[RollRecord]:
        """The channel's dice log as the file holds it, read on the service's worker (the one thread
        that may use the store while the bot runs)."""
        return await self.bot.service.on_worker(self.store.rolls.of_channel, channel_id)


def user_payload(user_id: int) -> dict[str, Any]:
    return {"id": str(user_id), "username": f"user{user_id % 100}", "discriminator": "0", "avatar": None}


def option_payloads(options: dict[str, Any], focused: str | None = None) -> list[dict[str, Any]]:
    out = []
    for name, value in options.items():
        kind = 5 if isinstance(value, bool) else 4 if isinstance(value, int) else 3
        entry: dict[str, Any] = {"name": name, "type": kind, "value": value}
        if name == focused:
            entry["focused"] = True
        out.append(entry)
    return out


def interaction_payload(kind: int, data: dict[str, Any], *, user: int, locale: str, **extra: Any) -> dict[str, Any]:
    """An INTERACTION_CREATE payload in a guild text channel, as Discord sends it."""
    interaction_id = extra.pop("interaction_id", None) or next_id()
    return {
        "id": str(interaction_id),
        "application_id": str(APP_ID),
        "type": kind,
        "token": f"interaction-token-{interaction_id}",
        "version": 1,
        "guild_id": str(GUILD_ID),
        "channel_id": str(CHANNEL_ID),
        "channel": {"id": str(CHANNEL_ID), "type": 0, "guild_id": str(GUILD_ID), "name": "table", "position": 0},
        "member": {
            "user": user_payload(user),
            "roles": [],
            "joined_at": "2026-01-01T00:00:00+00:00",
            "deaf": False,
            "mute": False,
            "flags": 0,
            "permissions": "2248473465835073",
        },
        "locale": locale,
        "guild_locale": "ja",
        "app_permissions": "2248473465835073",
        "entitlements": [],
        "authorizing_integration_owners": {"0": str(GUILD_ID)},
        "context": 0,
        "attachment_size_limit": 10485760,
        "data": data,
        **extra,
    }


def command_payload(
    name: str, options: dict[str, Any], *, user: int = ALICE, locale: str = "ja", focused: str | None = None
) -> dict[str, Any]:
    data = {"id": str(next_id()), "name": name, "type": 1, "options": option_payloads(options, focused)}
    return interaction_payload(4 if focused else 2, data, user=user, locale=locale)


def button_payload(custom_id: str, message: dict[str, Any], *, user: int = ALICE, locale: str = "ja") -> dict[str, Any]:
    data = {"custom_id": custom_id, "component_type": 2}
    return interaction_payload(3, data, user=user, locale=locale, message=message)


@pytest.fixture(scope="session")
def catalog() -> Catalog:
    return load_catalog()


@pytest.fixture(scope="session")
def index_dir(tmp_path_factory: pytest.TempPathFactory) -> Path:
    return tmp_path_factory.mktemp("rulings-index")


@pytest.fixture
def settings(tmp_path: Path) -> Settings:
    return Settings(_env_file=None, REFEREE_DATA_DIR=tmp_path)


@pytest.fixture
def store(settings: Settings) -> Iterator[Store]:
    with Store.open(settings.database_file) as opened:
        yield opened


@pytest.fixture
async def harness(settings: Settings, store: Store, catalog: Catalog, index_dir: Path) -> AsyncIterator[Harness]:
    service = TableService(store, catalog)
    rulebook = Rulebook.open(index_dir, data_folder("rules"))
    bot = RefereeBot(settings, service, catalog, rulebook, cogs=COGS)
    recorder = Recorder()
    bot.http = RecordingHTTP(bot.http.loop, recorder)
    bot._connection.http = bot.http
    bot._connection.application_id = APP_ID
    bot._connection.user = ClientUser(
        state=bot._connection, data=cast(Any, {**user_payload(APP_ID), "bot": True})
    )  # as login does
    async with bot:
        await bot.setup_hook()
        yield Harness(bot, recorder, store)
