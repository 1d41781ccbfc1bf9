"""The durable store (the only importer of sqlite-utils): games, events, rolls, decks, settings."""

from bot.store.errors import (
    CorruptRow,
    DatabaseBusy,
    DatabaseUnusable,
    GameAlreadyRunning,
    IdOutOfRange,
    NoDeck,
    NoGame,
    SchemaTooNew,
    StoreError,
    UnknownGame,
    VersionConflict,
)
from bot.store.interface import TableStore
from bot.store.records import (
    ChannelSettingsRecord,
    DeckRecord,
    EventRecord,
    GameRecord,
    GuildSettingsRecord,
    JsonLike,
    NewRoll,
    RawJson,
    RollRecord,
)
from bot.store.store import Store

__all__ = [
    "ChannelSettingsRecord",
    "CorruptRow",
    "DatabaseBusy",
    "DatabaseUnusable",
    "DeckRecord",
    "EventRecord",
    "GameAlreadyRunning",
    "GameRecord",
    "GuildSettingsRecord",
    "IdOutOfRange",
    "JsonLike",
    "NewRoll",
    "NoDeck",
    "NoGame",
    "RawJson",
    "RollRecord",
    "SchemaTooNew",
    "Store",
    "StoreError",
    "TableStore",
    "UnknownGame",
    "VersionConflict",
]
