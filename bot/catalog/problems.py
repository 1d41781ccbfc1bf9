"""Problems found in card and deck files, and the error that lists all of them at once."""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from typing import Any

from pydantic import BaseModel, ConfigDict, Field
from pydantic_core import ErrorDetails

from bot.catalog.cards import CARD_TYPES
from bot.catalog.effects import EFFECT_KINDS
from bot.errors import RefereeError
from bot.i18n import catalog, t

# Discriminator values pydantic puts into error locations; they are not fields a file author writes.
_TAGS = frozenset(CARD_TYPES) | frozenset(EFFECT_KINDS)


class Problem(BaseModel):
    """One problem: where it is (file, card or deck id, field) and what it is (a message key and its args)."""

    model_config = ConfigDict(frozen=True)

    file: str = Field(description="The file, relative to the cards folder when inside it.")
    item: str = Field(default="", description="The card or deck id, or #N (its position) when it has none.")
    field: str = Field(default="", description='The field, e.g. "skills[0].effects[1].amount"; empty for the whole.')
    key: str = Field(description="Message key in the cards catalogs.")
    args: dict[str, str] = Field(default_factory=dict, description="Values for the message.")

    @classmethod
    def duplicate(cls, kind: str, file: str, item: str, other: str) -> Problem:
        """The id `item` (a "card" or a "deck") was already defined in `other`."""
        key = f"cards.problem.duplicate_{kind}"
        return cls(file=file, item=item, field="id", key=key, args={"id": item, "other": other})

    def message(self, locale: str = "ja") -> str:
        return t(self.key, locale, **self.args)

    def where(self) -> str:
        return ": ".join(part for part in (self.file, self.item, self.field) if part)

    def render(self, locale: str = "ja") -> str:
        return f"{self.where()}: {self.message(locale)}"

    def bilingual(self) -> str:
        ja, en = self.message("ja"), self.message("en")
        return f"{self.where()}: {ja}" if ja == en else f"{self.where()}: {ja} / {en}"


class CatalogError(RefereeError):
    """The card or deck files have problems; `problems` lists every one of them, not just the first."""

    key = "cards.invalid"

    def __init__(self, problems: Sequence[Problem]) -> None:
        self.problems = tuple(problems)
        super().__init__(count=len(self.problems))

    def message(self, locale: str = "ja") -> str:
        return "\n".join([super().message(locale), *(p.render(locale) for p in self.problems)])

    def bilingual(self) -> str:
        return "\n".join([super().bilingual(), *(p.bilingual() for p in self.problems)])


def format_location(loc: Iterable[int | str], tagged: bool = True) -> str:
    """("arcastella", "skills", 0, "effects", 1, "damage", "amount") -> "skills[0].effects[1].amount".

    With `tagged` (card files), the discriminator values pydantic inserts for unions are left out.
    """
    out = ""
    previous: int | str | None = None
    for part in loc:
        if isinstance(part, int):
            out += f"[{part}]"
        elif tagged and part in _TAGS and (previous is None or isinstance(previous, int)):
            pass  # the discriminator pydantic inserts after a union member
        else:
            out += f".{part}" if out else part
        previous = part
    return out


def from_pydantic(file: str, item: str, error: ErrorDetails, tagged: bool = True) -> Problem:
    """Turn one pydantic error into a Problem with a message key of our catalogs."""
    context: dict[str, Any] = dict(error.get("ctx") or {})
    loc: list[int | str] = list(error["loc"])
    if error["type"].startswith("union_tag") and "discriminator" in context:
        loc.append(str(context["discriminator"]).strip("'"))
    field = format_location(loc, tagged)
    if "field" in context:  # our model checks name the field they are about
        named = str(context.pop("field"))
        field = f"{field}.{named}" if field else named
    key = f"cards.problem.{error['type']}"
    if key not in catalog("ja"):
        key = "cards.problem.other"
    args = {name: str(value).strip("'") if name == "discriminator" else str(value) for name, value in context.items()}
    args["detail"] = error["msg"]
    return Problem(file=file, item=item, field=field, key=key, args=args)
