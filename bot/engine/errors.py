"""The one error the engine raises: an action the rules do not allow right now. Nothing changed.

Refusals name cards and units as printed (bot/engine/naming.py): an argument may be a `Named`, whose
Japanese text is the string itself and whose English text adds the English name, so the same template
field reads well in both catalogs.
"""

from __future__ import annotations

from typing import Any, ClassVar

from bot.errors import RefereeError
from bot.i18n import normalize_locale, t


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


class RuleViolation(RefereeError):
    """An illegal action. `message_key` is an `engine.*` key of bot/i18n/*/engine.toml."""

    key: ClassVar[str] = "engine.illegal"

    def message(self, locale: str = "ja") -> str:
        loc = normalize_locale(locale)
        args = {k: v.in_locale(loc) if isinstance(v, Named) else v for k, v in self.args_.items()}
        return t(self.message_key, loc, **args)

    def bilingual(self) -> str:
        """Japanese first, English beside it, each with the names as that language prints them."""
        ja, en = self.message("ja"), self.message("en")
        return ja if ja == en else f"{ja} / {en}"
