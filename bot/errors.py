"""Domain errors carry a message key and its arguments, never finished text or Discord markup.

Front ends turn them into words through the catalogs of bot.i18n.
"""

from __future__ import annotations

from typing import Any, ClassVar


class RefereeError(Exception):
    """Base of every error a user may see. Subclasses set `key`, or pass one explicitly."""

    key: ClassVar[str] = "common.unexpected"

    def __init__(self, key: str | None = None, /, **args: Any) -> None:
        self.message_key = key or type(self).key
        self.args_ = args
        super().__init__(self.message_key, args)

    def message(self, locale: str = "ja") -> str:
        from bot.i18n import t

        return t(self.message_key, locale, **self.args_)

    def bilingual(self) -> str:
        """Japanese first, English beside it: the form used where no locale is known (CLI, logs)."""
        from bot.i18n import bilingual

        return bilingual(self.message_key, **self.args_)

    def __str__(self) -> str:
        return self.bilingual()
