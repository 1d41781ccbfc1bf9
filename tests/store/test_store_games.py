"""The running game of a channel: start, commit with a version check, archive, reopen.

The tests taking `store` or `open_store` run on both backends (SQLite and PostgreSQL, tests/store/conftest.py)."""

from __future__ import annotations

import re
import sqlite3
from datetime import UTC, datetime, timedelta
from pathlib import Path

import pytest

from bot.store import GameAlreadyRunning, NoGame, Store, TableStore, VersionConflict
from tests.store.conftest import OpenStore, RawSql

CHANNEL = 1001


def _start(store: TableStore, channel: int = CHANNEL) -> int:
    game = store.start(
        channel, {"turn": 0, "log": []}, [{"type": "GameStarted", "players": [1, 2]}], guild_id=77, actor=1
    )
    return game.id


def test_the_file_and_its_folder_are_created_on_first_use_in_wal_mode(tmp_path: Path) -> None:
    path = tmp_path / "a" / "b" / "referee.sqlite3"
    with Store.open(path) as store:
        _start(store)
    assert path.is_file()
    with sqlite3.connect(path) as conn:
        assert conn.execute("PRAGMA journal_mode").fetchone()[0] == "wal"


def test_a_commit_writes_state_and_events_together_and_bumps_the_version(store: TableStore) -> None:
    game_id = _start(store)
    game = store.load(CHANNEL)
    assert (game.version, game.guild_id, game.state_dict()) == (1, 77, {"turn": 0, "log": []})
    after = store.commit(CHANNEL, {"turn": 1, "log": ["a"]}, [{"type": "Drew", "n": 1}, {"type": "Passed"}], 1, actor=2)
    assert after.version == 2
    assert store.load(CHANNEL).state_dict() == {"turn": 1, "log": ["a"]}
    events = store.events(game_id)
    assert [(e.seq, e.version, e.type, e.actor) for e in events] == [
        (1, 1, "GameStarted", 1),
        (2, 2, "Drew", 2),
        (3, 2, "Passed", 2),
    ]
    assert events[1].data_dict() == {"type": "Drew", "n": 1}


def test_a_stale_version_is_a_conflict_and_writes_nothing(store: TableStore) -> None:
    game_id = _start(store)
    store.commit(CHANNEL, {"turn": 1}, [{"type": "A"}], 1)
    with pytest.raises(VersionConflict) as info:
        store.commit(CHANNEL, {"turn": 99}, [{"type": "B"}], 1)
    assert "1001" in info.value.bilingual()
    assert store.load(CHANNEL).state_dict() == {"turn": 1}
    assert store.load(CHANNEL).version == 2
    assert [e.type for e in store.events(game_id)] == ["GameStarted", "A"]


def test_two_connections_on_one_database_the_loser_gets_a_conflict(open_store: OpenStore) -> None:
    with open_store() as first, open_store() as second:
        _start(first)
        seen_by_first, seen_by_second = first.load(CHANNEL), second.load(CHANNEL)
        first.commit(CHANNEL, {"by": "first"}, [{"type": "X"}], seen_by_first.version)
        with pytest.raises(VersionConflict):
            second.commit(CHANNEL, {"by": "second"}, [{"type": "Y"}], seen_by_second.version)
        assert second.load(CHANNEL).state_dict() == {"by": "first"}


def test_an_unknown_channel_is_a_clear_error(store: TableStore) -> None:
    with pytest.raises(NoGame) as info:
        store.load(4242)
    assert "4242" in info.value.bilingual()
    with pytest.raises(NoGame):
        store.commit(4242, {}, [{"type": "X"}], 1)
    assert store.find(4242) is None


def test_one_running_game_per_channel(store: TableStore) -> None:
    _start(store)
    with pytest.raises(GameAlreadyRunning):
        _start(store)
    assert len(store.history(CHANNEL)) == 1


def test_a_finished_game_frees_the_channel_and_stays_readable(store: TableStore) -> None:
    old = _start(store)
    store.commit(CHANNEL, {"turn": 1}, [{"type": "A"}], 1)
    done = store.finish(CHANNEL, {"turn": 1, "over": True}, [{"type": "GameEnded"}], 2, result={"winner": 1})
    assert (done.status, done.version) == ("finished", 3)
    assert store.find(CHANNEL) is None
    new = _start(store)
    assert new != old
    assert store.game(old).state_dict() == {"turn": 1, "over": True}
    assert [e.type for e in store.events(old)] == ["GameStarted", "A", "GameEnded"]
    assert [g.id for g in store.history(CHANNEL)] == [old, new]
    assert store.latest(CHANNEL).id == new


def test_a_commit_aimed_at_a_finished_game_does_not_land_in_the_next_one(store: TableStore) -> None:
    old = _start(store)
    store.finish(CHANNEL, {"over": True}, [], 1)
    _start(store)  # the new game is at version 1 too
    with pytest.raises(VersionConflict):
        store.commit(CHANNEL, {"late": True}, [{"type": "Late"}], 1, game_id=old)
    assert store.load(CHANNEL).state_dict() == {"turn": 0, "log": []}


def test_the_game_survives_closing_and_reopening_the_database(open_store: OpenStore) -> None:
    with open_store() as store:
        _start(store)
        store.commit(CHANNEL, {"turn": 5}, [{"type": "A"}], 1, next_roll=3)
    with open_store() as store:
        game = store.load(CHANNEL)
        assert (game.state_dict(), game.version, game.next_roll) == ({"turn": 5}, 2, 3)


def test_the_event_log_is_append_only_in_the_database_itself(store: TableStore, raw_sql: RawSql) -> None:
    game_id = _start(store)
    store.commit(CHANNEL, {"turn": 1}, [{"type": "A"}], 1)
    for statement in (
        f"DELETE FROM events WHERE game_id = {game_id}",
        f"UPDATE events SET data = '{{}}' WHERE game_id = {game_id}",
        f"DELETE FROM actions WHERE game_id = {game_id}",
        f"UPDATE actions SET events = '[]' WHERE game_id = {game_id}",
    ):
        with pytest.raises(Exception, match="append-only"):  # sqlite3's or psycopg's error: the database refused
            raw_sql(statement)
    assert [e.type for e in store.events(game_id)] == ["GameStarted", "A"]


def test_the_configured_database_is_created_where_the_settings_say(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    from bot.settings import Settings

    monkeypatch.setenv("REFEREE_DATA_DIR", str(tmp_path / "fresh" / "data"))
    settings = Settings()
    with Store.open(settings.database_file) as store:
        _start(store)
    assert (tmp_path / "fresh" / "data" / "referee.sqlite3").is_file()
    with Store.open(settings.database_file) as store:
        assert store.load(CHANNEL).version == 1


def test_a_commit_on_the_loaded_record_returns_the_row_exactly_as_stored(store: TableStore) -> None:
    # The service hands the store the record it loaded, and the store builds the returned record from
    # it instead of reading the row back: what it returns must be what a fresh read finds.
    _start(store)
    loaded = store.load(CHANNEL)
    after = store.commit(CHANNEL, {"turn": 1}, [{"type": "A"}, {"type": "B"}], 1, next_roll=4, loaded=loaded)
    assert after == store.load(CHANNEL)
    assert (after.version, after.last_seq, after.next_roll) == (2, 3, 4)
    done = store.finish(CHANNEL, {"over": True}, [{"type": "End"}], 2, result={"winner": 1}, loaded=after)
    assert done == store.game(after.id)
    assert (done.status, done.last_seq, done.result) == ("finished", 4, '{"winner":1}')


def test_a_stale_loaded_record_is_a_conflict_and_writes_nothing(store: TableStore) -> None:
    game_id = _start(store)
    stale = store.load(CHANNEL)
    store.commit(CHANNEL, {"turn": 1}, [{"type": "A"}], 1, loaded=stale)
    with pytest.raises(VersionConflict):
        store.commit(CHANNEL, {"turn": 99}, [{"type": "B"}], 1, loaded=stale)
    assert store.load(CHANNEL).state_dict() == {"turn": 1}
    assert [e.type for e in store.events(game_id)] == ["GameStarted", "A"]


def test_rows_are_stamped_in_utc_to_the_millisecond(store: TableStore) -> None:
    stamp = store.game(_start(store)).created_at
    assert stamp == store.events(store.load(CHANNEL).id)[0].created_at
    assert re.fullmatch(r"\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d\.\d{3}\+00:00", stamp), stamp
    assert abs(datetime.fromisoformat(stamp) - datetime.now(UTC)) < timedelta(seconds=5)
