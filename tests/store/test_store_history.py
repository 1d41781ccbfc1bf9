"""Undo and rollback entries: the log stays append-only, the actions in effect shrink."""

from __future__ import annotations

from bot.store import Store
from bot.store.history import effective_events, in_effect
from bot.table.entries import TableRollback, TableUndo


def test_undo_and_rollback_leave_the_right_actions_in_effect(store: Store) -> None:
    game = store.start(1, {}, [{"type": "start"}], actor=1)
    for n in range(2, 6):  # versions 2..5, one action each, alternating players
        store.commit(1, {}, [{"type": f"a{n}"}, {"type": f"b{n}"}], n - 1, actor=n % 2)
    store.commit(1, {}, [TableUndo(by=1, undone=5)], 5, actor=1)  # version 6 takes back version 5
    assert [b.version for b in in_effect(store.events(game.id))] == [1, 2, 3, 4]
    store.commit(1, {}, [{"type": "a7"}], 6, actor=0)  # version 7
    store.commit(1, {}, [TableRollback(by=99, to=2)], 7, actor=99)  # back to how it was at version 2
    kept = effective_events(store.events(game.id))
    assert [e.type for e in kept] == ["start", "a2", "b2"]
    assert len(store.events(game.id)) == 1 + 8 + 1 + 1 + 1  # nothing was deleted
