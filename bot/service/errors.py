"""The service's refusals: who may not do what at a table, and what cannot be taken back."""

from __future__ import annotations

from bot.errors import RefereeError
from bot.i18n import normalize_locale, t


class ServiceError(RefereeError):
    key = "store.service.refused"


class NotSeated(ServiceError):
    key = "store.service.not_seated"


class NotYourSeat(ServiceError):
    key = "store.service.not_your_seat"


class NotModerator(ServiceError):
    key = "store.service.not_moderator"


class NothingToUndo(ServiceError):
    key = "store.service.nothing_to_undo"


class NotYourUndo(ServiceError):
    key = "store.service.not_your_undo"


class UndoBarrier(ServiceError):
    """`event` is the type of the event in the way; `reason` (a key of store.service.barrier) says it in words."""

    key = "store.service.undo_barrier"

    def message(self, locale: str = "ja") -> str:
        loc = normalize_locale(locale)
        return t(self.message_key, loc, what=t(f"store.service.barrier.{self.args_['reason']}", loc))

    def bilingual(self) -> str:
        ja, en = self.message("ja"), self.message("en")
        return f"{ja} / {en}"


class BadRollback(ServiceError):
    key = "store.service.bad_rollback"
