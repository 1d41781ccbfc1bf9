"""The language a guild or a channel fixed for the referee's replies, remembered per channel.

`RefereeBot.locale_for` is synchronous (every cog calls it while building a reply), but the settings
live in the database, which only the service's worker thread reads. So the tree reads a channel's
fixed locale once, before its first command runs (`RefereeBot.load_locale`), and remembers it here;
`/settings locale` forgets everything it may have changed. A bounded memory: a channel not seen for
a long while is read again.
"""

from __future__ import annotations

from collections import OrderedDict

LIMIT = 8192  # channels remembered


class FixedLocales:
    def __init__(self, limit: int = LIMIT) -> None:
        self._known: OrderedDict[int, str | None] = OrderedDict()
        self._limit = limit

    def knows(self, channel_id: int) -> bool:
        return channel_id in self._known

    def get(self, channel_id: int | None) -> str | None:
        """The channel's fixed locale ("ja", "en"), or None: each user's own (or not read yet)."""
        if channel_id is None:
            return None
        return self._known.get(channel_id)

    def put(self, channel_id: int, locale: str | None) -> None:
        self._known[channel_id] = locale if locale in ("ja", "en") else None
        self._known.move_to_end(channel_id)
        if len(self._known) > self._limit:
            self._known.popitem(last=False)

    def forget(self) -> None:
        """A guild's or channel's setting changed: read every channel again when next used."""
        self._known.clear()
