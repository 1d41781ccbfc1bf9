"""What can go wrong with the durable store, each a clear RefereeError with its own message key."""

from __future__ import annotations

from bot.errors import RefereeError


class StoreError(RefereeError):
    """Base of the store's errors: the database could not do what was asked, and nothing changed."""

    key = "store.unexpected"


class VersionConflict(StoreError):
    """Someone else committed first: the state this action was based on is no longer the current one."""

    key = "store.conflict"


class NoGame(StoreError):
    """The channel has no running game."""

    key = "store.no_game"


class UnknownGame(NoGame):
    """No game, running or finished, has this id."""

    key = "store.unknown_game"


class IdOutOfRange(StoreError):
    """A channel, game or user id beyond SQLite's 64-bit integers: no row can have it."""

    key = "store.id_out_of_range"


class GameAlreadyRunning(StoreError):
    key = "store.game_exists"


class CorruptRow(StoreError):
    """A stored row cannot be read back; it is left exactly as it was, for a human to inspect."""

    key = "store.corrupt_row"


class SchemaTooNew(StoreError):
    """The file was written by a newer version of the referee; an older one must not touch it."""

    key = "store.schema_too_new"


class DatabaseUnusable(StoreError):
    """The file or its folder cannot be created, opened or written (missing, read-only, not SQLite)."""

    key = "store.unusable"


class ServerUnusable(DatabaseUnusable):
    """The PostgreSQL server cannot be reached, refuses the login, or fails a call."""

    key = "store.server_unusable"


class ForeignDatabase(DatabaseUnusable):
    """The file is an SQLite database of another application: it is left exactly as it was."""

    key = "store.foreign"


class DatabaseBusy(StoreError):
    """Another process held the database longer than the busy timeout."""

    key = "store.busy"


class NoDeck(StoreError):
    key = "store.no_deck"


class WrongThread(StoreError):
    """The store was used from a thread other than the one its service's worker took it for: a front end
    that reached into the store beside the service. A bug to fix in that code; the file is fine."""

    key = "store.wrong_thread"
