"""Domain errors carry a message key and its arguments, never finished text or Discord markup.

Front ends turn them into words through the catalogs of bot.i18n. An argument may be a `Named`: a
printed name whose Japanese text is the string itself and whose English text adds the English name,
so one template field reads well in both catalogs.
"""

from __future__ import annotations

from typing import Any, ClassVar


class Named(str):
    """A printed name: the Japanese form as the string, the English form in `.en`."""

    en: str

    def __new__(cls, ja: str, en: str | None = None) -> Named:
        self = super().__new__(cls, ja)
        self.en = en if en is not None else ja
        return self

    def __reduce__(self) -> tuple[Any, ...]:
        return (Named, (str(self), self.en))

    def in_locale(self, locale: str) -> str:
        return self.en if locale == "en" else str(self)


class RefereeError(Exception):
    """Base of every error a user may see. Subclasses set `key`, or pass one explicitly."""

    key: ClassVar[str] = "common.unexpected"

    def __init__(self, key: str | None = None, /, **args: Any) -> None:
        self.message_key = key or type(self).key
        self.args_ = args
        super().__init__(self.message_key, args)

    def message(self, locale: str = "ja") -> str:
        return self._sentence(locale)

    def bilingual(self) -> str:
        """Japanese first, English beside it: the form used where no locale is known (CLI, logs)."""
        ja, en = self._sentence("ja"), self._sentence("en")
        return ja if ja == en else f"{ja} / {en}"

    def _sentence(self, locale: str) -> str:
        """The message of `message_key` alone, with each Named argument as `locale` prints it."""
        from bot.i18n import normalize_locale, t

        loc = normalize_locale(locale)
        args = {k: v.in_locale(loc) if isinstance(v, Named) else v for k, v in self.args_.items()}
        return t(self.message_key, loc, **args)

    def __str__(self) -> str:
        return self.bilingual()
