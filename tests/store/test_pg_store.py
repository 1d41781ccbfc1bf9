"""What only the PostgreSQL store has to show: the per-channel advisory lock every write takes, its
versioned SQL migrations, and clear errors for a server it cannot use. (Everything the two stores
share is tested on both, through the `backend` fixture.)"""

from __future__ import annotations

import threading
import time
from collections.abc import Iterator

import psycopg
import pytest
from psycopg import sql

from bot.store import DatabaseBusy, DatabaseUnusable, IdOutOfRange, SchemaTooNew, StoreError
from bot.store.pg import PgStore
from bot.store.pg.migrations import MIGRATIONS_TABLE, known

CH = 9100


@pytest.fixture
def pg(pg_database: tuple[str, str]) -> Iterator[PgStore]:
    with PgStore.open(pg_database[0], lock_timeout_ms=300) as store:
        yield store


def _holding_the_channel_lock(url: str, channel: int) -> psycopg.Connection[tuple[object, ...]]:
    """Another process's transaction, in the middle of a write of `channel`: it holds the channel's lock."""
    other = psycopg.connect(url)
    other.execute(
        "SELECT pg_advisory_xact_lock(hashtextextended('referee:' || current_schema() || ':' || %s, 0))",
        (f"channel:{channel}",),
    )
    return other


def test_a_write_waits_for_another_process_writing_the_same_channel(pg: PgStore, pg_database: tuple[str, str]) -> None:
    game = pg.start(CH, {"turn": 0}, [{"type": "start"}])
    pg.start(CH + 1, {"turn": 0}, [{"type": "start"}])
    other = _holding_the_channel_lock(pg_database[0], CH)
    try:
        with pytest.raises(DatabaseBusy):  # it waited the lock timeout, then gave up writing nothing
            pg.commit(CH, {"turn": 1}, [{"type": "A"}], 1)
        assert pg.commit(CH + 1, {"turn": 1}, [{"type": "B"}], 1).version == 2  # other channels go on
        done: list[int] = []
        slow = PgStore.open(pg_database[0], lock_timeout_ms=10_000)
        waiter = threading.Thread(target=lambda: done.append(slow.commit(CH, {"turn": 1}, [{"type": "A"}], 1).version))
        waiter.start()
        waiter.join(0.5)
        assert done == [], "the write went through while another process held the channel"
    finally:
        other.rollback()  # the other process's write ends: the lock is free
        other.close()
    waiter.join(10)
    slow.close()
    assert done == [2]
    assert [e.type for e in pg.events(game.id)] == ["start", "A"]  # once, not twice, not lost


def test_the_schema_is_migrated_once_even_by_processes_starting_together(pg_database: tuple[str, str]) -> None:
    url, _ = pg_database
    errors: list[BaseException] = []

    def open_and_close() -> None:
        try:
            PgStore.open(url).close()
        except BaseException as exc:
            errors.append(exc)

    starting = [threading.Thread(target=open_and_close) for _ in range(4)]
    for thread in starting:
        thread.start()
    for thread in starting:
        thread.join(30)
    assert errors == []
    with psycopg.connect(url) as conn:
        applied = conn.execute(sql.SQL("SELECT name FROM {}").format(sql.Identifier(MIGRATIONS_TABLE))).fetchall()
    assert [row[0] for row in applied] == [name for name, _ in known()]


@pytest.mark.parametrize("first_missing", [name for name, _ in known()])
def test_a_database_from_every_earlier_version_upgrades_and_keeps_its_rows(
    pg_database: tuple[str, str], first_missing: str
) -> None:
    """Each earlier schema (every migration before `first_missing` applied, as an older referee left it)
    is brought up to date by the next start, its rows kept, and plays on."""
    url, schema = pg_database
    PgStore.open(url, stop_before=first_missing).close()
    count_rows = (
        "SELECT table_name, (xpath('/row/n/text()', query_to_xml(format('SELECT count(*) AS n FROM %%I.%%I', "
        "table_schema, table_name), false, true, '')))[1]::text::int FROM information_schema.tables "
        "WHERE table_schema = %s AND table_type = 'BASE TABLE'"
    )
    with psycopg.connect(url) as conn:
        before: dict[str, int] = dict(conn.execute(count_rows, (schema,)).fetchall())
    with PgStore.open(url) as store:
        game = store.start(CH, {"turn": 0}, [{"type": "start"}])
        assert store.commit(CH, {"turn": 1}, [{"type": "A"}], 1, loaded=game).version == 2
    with psycopg.connect(url) as conn:
        applied = conn.execute(sql.SQL("SELECT name FROM {}").format(sql.Identifier(MIGRATIONS_TABLE))).fetchall()
        after: dict[str, int] = dict(conn.execute(count_rows, (schema,)).fetchall())
    assert sorted(row[0] for row in applied) == [name for name, _ in known()]
    assert all(after.get(table, 0) >= rows for table, rows in before.items())


def test_a_database_from_a_newer_referee_is_refused_untouched(pg_database: tuple[str, str]) -> None:
    url, _ = pg_database
    PgStore.open(url).close()
    with psycopg.connect(url) as conn:
        conn.execute(
            sql.SQL("INSERT INTO {} (name, applied_at) VALUES ('9999_from_the_future', now())").format(
                sql.Identifier(MIGRATIONS_TABLE)
            )
        )
    with pytest.raises(SchemaTooNew) as info:
        PgStore.open(url)
    assert "9999_from_the_future" in info.value.bilingual()


def test_an_id_beyond_64_bits_is_refused_clearly(pg: PgStore) -> None:
    with pytest.raises(IdOutOfRange):
        pg.start(2**64, {"turn": 0})
    with pytest.raises(IdOutOfRange):
        pg.find(-(2**63) - 1)
    assert pg.history(CH) == []


def test_a_server_that_cannot_be_reached_is_a_message_about_the_server_without_the_password() -> None:
    with pytest.raises(StoreError) as info:
        PgStore.open("postgresql://referee:hunter2@127.0.0.1:1/none?connect_timeout=1")
    assert isinstance(info.value, DatabaseUnusable)
    text = info.value.bilingual()
    assert "127.0.0.1" in text and "hunter2" not in text
    # Advice about the server and its URL, not about a data folder that plays no part here.
    assert "REFEREE_DATABASE_URL" in text and "REFEREE_DATA_DIR" not in text


def test_connections_the_server_ended_are_replaced_before_a_command_uses_them(
    pg: PgStore, pg_database: tuple[str, str]
) -> None:
    """As after a restart of PostgreSQL (or an admin ending sessions): the next calls just work."""
    game = pg.start(CH, {"turn": 0}, [{"type": "start"}])
    with psycopg.connect(pg_database[0], autocommit=True) as admin:
        pids = [
            row[0]
            for row in admin.execute(
                "SELECT pid FROM pg_stat_activity WHERE application_name = 'horizonnotes-referee' "
                "AND datname = current_database() AND pid <> pg_backend_pid()"
            ).fetchall()
        ]
        assert pids
        admin.execute("SELECT pg_terminate_backend(pid) FROM unnest(%s::int[]) AS pid", (pids,))
        for _ in range(200):  # gone once each has said goodbye and exited
            left = admin.execute("SELECT count(*) FROM pg_stat_activity WHERE pid = ANY(%s)", (pids,)).fetchone()
            if left is not None and left[0] == 0:
                break
            time.sleep(0.01)
    assert pg.find(CH) is not None
    assert pg.commit(CH, {"turn": 1}, [{"type": "A"}], 1, loaded=game).version == 2
    assert [e.type for e in pg.events(game.id)] == ["start", "A"]
