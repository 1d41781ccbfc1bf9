"""While a service runs, its worker thread alone can use the store's connection (sqlite3 enforces it):
a front end that reached into the store beside the service would fail at once, not race the worker.
The PostgreSQL store keeps the same rule (it refuses any other thread itself)."""

from __future__ import annotations

import pytest

from bot.service import TableService
from bot.store import StoreError
from tests.store.conftest import OpenStore
from tests.store.tables import AKI, catalog, start

CH = 8100


async def test_the_store_is_the_workers_while_the_service_runs_and_free_again_after(open_store: OpenStore) -> None:
    store = open_store()
    service = TableService(store, catalog)
    out = await service.start_game(CH, AKI, start())
    with pytest.raises(StoreError) as refused:
        store.events(out.game_id)  # from the event loop's thread, beside the running service
    assert refused.value.message_key == "store.wrong_thread" and "bug" in refused.value.message("en")
    # The sanctioned way for a tool: ask the worker to look.
    assert len(await service.on_worker(store.events, out.game_id)) == len(out.events)
    service.close()
    assert len(store.events(out.game_id)) == len(out.events)  # given back when the service stopped
    store.close()
