"""Discord's REST rate limits as the fake enforces them.

- Global: `global_limit` requests per second per bot token (sliding window). Interaction endpoints (the
  callback and the webhook routes of an interaction token) are exempt, as on Discord.
- Per route bucket and major parameter (channel, guild, webhook): a fixed window that opens with the
  first request. New channel messages and message edits: 5 per 5 s per channel; other routes 50 per second.
Every answer carries the bucket headers; a 429 carries the JSON body and headers discord.py reads.
"""

from __future__ import annotations

import hashlib
import math
import time
from collections import deque
from dataclasses import dataclass, field
from typing import Any


def _ms_up(seconds: float) -> float:
    """Rounded up to the millisecond: a client that waits exactly `retry_after` is then let through."""
    return math.ceil(seconds * 1000) / 1000


@dataclass
class Window:
    limit: int
    period: float
    count: int = 0
    reset_at: float = 0.0

    def refresh(self, now: float) -> None:
        if now >= self.reset_at:
            self.count = 0
            self.reset_at = now + self.period

    def remaining(self) -> int:
        return max(0, self.limit - self.count)


@dataclass
class Decision:
    allowed: bool
    headers: dict[str, str]
    body: dict[str, Any] | None = None
    scope: str = ""


@dataclass
class RateLimitRecord:
    method: str
    path: str
    scope: str  # "global" or "user" (a route bucket)
    bucket: str
    retry_after: float
    at: float


@dataclass
class RateLimits:
    global_limit: int = 50
    message_limit: int = 5
    message_period: float = 5.0
    route_limit: int = 50
    route_period: float = 1.0
    _global: deque[float] = field(default_factory=deque)
    _windows: dict[tuple[str, str], Window] = field(default_factory=dict)
    given: list[RateLimitRecord] = field(default_factory=list)

    def spec(self, bucket_route: str) -> tuple[int, float]:
        if bucket_route in (
            "POST /channels/{channel_id}/messages",
            "PATCH /channels/{channel_id}/messages/{message_id}",
        ):
            return self.message_limit, self.message_period
        return self.route_limit, self.route_period

    def window(self, bucket_route: str, major: str) -> Window:
        key = (bucket_route, major)
        win = self._windows.get(key)
        if win is None:
            limit, period = self.spec(bucket_route)
            win = self._windows[key] = Window(limit, period)
        return win

    def exhaust(self, bucket_route: str, major: str) -> None:
        """Use up a bucket now (as if requests had been made), so the next request gets a real 429."""
        win = self.window(bucket_route, major)
        win.refresh(time.monotonic())
        win.count = win.limit

    def check(self, method: str, path: str, bucket_route: str | None, major: str, *, global_exempt: bool) -> Decision:
        now = time.monotonic()
        if not global_exempt:
            while self._global and now - self._global[0] >= 1.0:
                self._global.popleft()
            if len(self._global) >= self.global_limit:
                retry = max(0.001, 1.0 - (now - self._global[0])) if self._global else 1.0
                self.given.append(RateLimitRecord(method, path, "global", "global", retry, time.time()))
                headers = {
                    "X-RateLimit-Global": "true",
                    "X-RateLimit-Scope": "global",
                    "Retry-After": str(math.ceil(retry)),
                }
                body = {"message": "You are being rate limited.", "retry_after": _ms_up(retry), "global": True}
                return Decision(False, headers, body, "global")
            self._global.append(now)
        if bucket_route is None:
            return Decision(True, {})
        win = self.window(bucket_route, major)
        win.refresh(now)
        bucket = hashlib.sha1(bucket_route.encode()).hexdigest()[:16]
        if win.count >= win.limit:
            retry = max(0.001, win.reset_at - now)
            self.given.append(RateLimitRecord(method, path, "user", bucket, retry, time.time()))
            headers = self._headers(win, bucket, now)
            headers.update({"X-RateLimit-Scope": "user", "Retry-After": str(math.ceil(retry))})
            body = {"message": "You are being rate limited.", "retry_after": _ms_up(retry), "global": False}
            return Decision(False, headers, body, "user")
        win.count += 1
        return Decision(True, self._headers(win, bucket, now))

    @staticmethod
    def _headers(win: Window, bucket: str, now: float) -> dict[str, str]:
        reset_after = max(0.0, win.reset_at - now)
        return {
            "X-RateLimit-Limit": str(win.limit),
            "X-RateLimit-Remaining": str(win.remaining()),
            "X-RateLimit-Reset": f"{time.time() + reset_after:.3f}",
            "X-RateLimit-Reset-After": f"{reset_after:.3f}",
            "X-RateLimit-Bucket": bucket,
        }
