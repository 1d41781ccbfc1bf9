"""TableService: who may do what, undo, rollback, end, and the log, against the real engine and a real
database: each test taking `service`, `table` or `open_store` runs on SQLite and on PostgreSQL."""

from __future__ import annotations

import asyncio
import hashlib
import random
from collections.abc import AsyncIterator, Iterator
from contextlib import closing
from pathlib import Path

import pytest

from bot.catalog import Deck
from bot.catalog.cards import Arcastella
from bot.catalog.effects import DamageEffect
from bot.engine import Adjust, GameOptions, Pass, RuleViolation, UseSkill, legal_actions, start_action
from bot.engine.state import GameState
from bot.service import (
    BadRollback,
    NothingToUndo,
    NotModerator,
    NotSeated,
    NotYourSeat,
    NotYourUndo,
    Outcome,
    TableService,
    UndoBarrier,
    is_barrier,
)
from bot.store import CorruptRow, GameAlreadyRunning, NoGame, Store, TableStore
from tests.store.conftest import OpenStore, RawSql
from tests.store.tables import AKI, BEN, JUDGE, STRANGER, catalog, next_move, start

CH = 4000


@pytest.fixture
def service(store: TableStore) -> Iterator[TableService]:
    service = TableService(store, catalog)
    yield service
    service.close()


@pytest.fixture
async def table(service: TableService) -> AsyncIterator[TableService]:
    await service.start_game(CH, AKI, start(), guild_id=1)
    yield service


async def _play_until(
    service: TableService, rnd: random.Random, want_barrier: bool
) -> tuple[dict[str, object], Outcome]:
    """Play random legal moves until one whose events do (or do not) stop an undo; return the state
    just before that move and its outcome."""
    for _ in range(500):
        state = (await service.status(CH)).state
        before = state.model_dump()
        user, action = next_move(state, rnd)
        out = await service.act(CH, user, action)
        assert not out.finished, "the game ended before the wanted kind of action came up"
        entries = (await service.on_worker(service.store.events, out.game_id))[-len(out.events) :]
        if any(is_barrier(e) for e in entries) == want_barrier:
            return before, out
    raise AssertionError("no such action in 500 moves")


async def test_only_a_player_who_takes_a_seat_may_start_a_game(service: TableService) -> None:
    with pytest.raises(NotSeated):
        await service.start_game(CH, STRANGER, start())
    assert await service.on_worker(service.store.find, CH) is None
    out = await service.start_game(CH, STRANGER, start(), is_moderator=True)
    assert out.version == 1
    with pytest.raises(GameAlreadyRunning):
        await service.start_game(CH, AKI, start())


async def test_status_is_public_and_keeps_the_seed_secret_until_the_end(table: TableService) -> None:
    view = await table.status(CH)
    assert view.active and view.commitment and view.revealed_seed is None
    assert [p.id for p in view.state.players] == [str(AKI), str(BEN)]
    with pytest.raises(NoGame):
        await table.status(CH + 1)


async def test_only_seated_players_act_and_only_for_themselves(table: TableService) -> None:
    state = (await table.status(CH)).state
    user, action = next_move(state, random.Random(0))
    other = BEN if user == AKI else AKI
    with pytest.raises(NotSeated):
        await table.act(CH, STRANGER, action)
    with pytest.raises(NotYourSeat):
        await table.act(CH, other, action)
    with pytest.raises(RuleViolation):  # the other player is not the one to act now
        await table.act(CH, other, Pass(player=str(other)))
    assert (await table.status(CH)).version == 1
    assert (await table.act(CH, user, action)).version == 2


async def test_a_whole_random_game_is_archived_with_its_seed_and_replays_exactly(table: TableService) -> None:
    rnd = random.Random(7)
    out = None
    for _ in range(3000):
        user, action = next_move((await table.status(CH)).state, rnd)
        out = await table.act(CH, user, action)
        if out.finished:
            break
    assert out is not None and out.finished and out.revealed_seed is not None
    assert hashlib.sha256(bytes.fromhex(out.revealed_seed)).hexdigest() == out.commitment
    assert await table.on_worker(table.store.find, CH) is None  # the channel is free
    log = await table.log(CH)
    assert not log.game.active and log.game.revealed_seed == out.revealed_seed
    assert (await table.replay_check(out.game_id)).matches
    rolls = await table.on_worker(table.store.rolls.of_game, out.game_id)
    assert rolls and len({r.number for r in rolls}) == len(rolls)
    await table.start_game(CH, AKI, start())


async def test_the_player_who_acted_can_undo_and_the_opponent_sees_it(table: TableService) -> None:
    with pytest.raises(NothingToUndo):  # the set-up itself is never undone
        await table.undo(CH, AKI)
    before, out = await _play_until(table, random.Random(3), want_barrier=False)
    actor = (await table.on_worker(table.store.events, out.game_id))[-1].actor
    assert actor is not None
    with pytest.raises(NotYourUndo):
        await table.undo(CH, BEN if actor == AKI else AKI)
    undone = await table.undo(CH, actor)
    assert [e.type for e in undone.events] == ["table_undo"]  # what the table shows everyone
    assert undone.version == out.version + 1
    assert undone.state.model_dump() == before
    assert (await table.status(CH)).state.model_dump() == before
    log = await table.log(CH)
    assert log.entries[-1].type == "table_undo" and log.entries[-1].actor == actor
    assert out.version not in [b.version for b in log.in_effect]
    assert (await table.replay_check(out.game_id)).matches


async def test_nothing_is_undone_past_a_draw_a_shuffle_or_a_roll(table: TableService) -> None:
    _, out = await _play_until(table, random.Random(5), want_barrier=True)
    actor = (await table.on_worker(table.store.events, out.game_id))[-1].actor
    assert actor is not None
    with pytest.raises(UndoBarrier) as info:
        await table.undo(CH, actor)
    assert info.value.args_["event"] in {"cards_drawn", "deck_shuffled", "dice_rolled", "sephirot_checked"}
    # Said in words, not as the event's type name.
    assert info.value.message("en").startswith("The last action cannot be undone: ")
    assert "_" not in info.value.bilingual()
    assert (await table.status(CH)).version == out.version


async def test_a_discard_from_hand_shows_a_card_and_cannot_be_undone(table: TableService) -> None:
    state = (await table.status(CH)).state
    seat = next(p for p in state.players if p.id == str(AKI))
    card = seat.hand[0]
    out = await table.act(CH, AKI, Adjust(player=str(AKI), subject=str(AKI), field="discard", value=1, cards=(card,)))
    with pytest.raises(UndoBarrier) as info:
        await table.undo(CH, AKI)
    assert info.value.message("en") == "The last action cannot be undone: it showed a card from a hand."
    assert (await table.status(CH)).version == out.version


async def test_a_moderator_rolls_back_and_the_log_keeps_everything(table: TableService) -> None:
    set_up = (await table.status(CH)).state.model_dump()
    rnd = random.Random(11)
    for _ in range(12):
        user, action = next_move((await table.status(CH)).state, rnd)
        await table.act(CH, user, action)
    with pytest.raises(NotModerator):
        await table.rollback(CH, AKI, is_moderator=False, to_version=1)
    with pytest.raises(BadRollback):
        await table.rollback(CH, JUDGE, is_moderator=True, to_version=999)
    entries_before = len((await table.log(CH)).entries)
    out = await table.rollback(CH, JUDGE, is_moderator=True, to_version=1)
    assert out.state.model_dump() == set_up
    log = await table.log(CH)
    assert [b.version for b in log.in_effect] == [1]
    assert len(log.entries) == entries_before + 1 and log.entries[-1].type == "table_rollback"
    assert (await table.replay_check(out.game_id)).matches
    user, action = next_move(out.state, rnd)  # play goes on from the set-up
    assert (await table.act(CH, user, action)).version == out.version + 1


async def test_a_moderator_ends_a_game_and_it_stays_readable(table: TableService) -> None:
    with pytest.raises(NotModerator):
        await table.end(CH, AKI, is_moderator=False)
    out = await table.end(CH, JUDGE, is_moderator=True, reason="time")
    assert out.finished and out.revealed_seed
    assert await table.on_worker(table.store.find, CH) is None
    log = await table.log(CH)
    assert log.entries[-1].type == "table_ended" and not log.game.active
    assert (await table.replay_check(out.game_id)).matches


async def test_two_services_on_one_database_see_each_others_moves(open_store: OpenStore) -> None:
    # Each service has its own worker thread, holding its own connection to the file.
    with (
        open_store() as one,
        open_store() as two,
        closing(TableService(one)) as first,
        closing(TableService(two)) as second,
    ):
        await first.start_game(CH, AKI, start())
        rnd = random.Random(2)
        for turn in range(10):
            acting = first if turn % 2 else second
            user, action = next_move((await acting.status(CH)).state, rnd)
            await acting.act(CH, user, action)
        assert (await first.status(CH)).version == (await second.status(CH)).version == 11
        game = await first.on_worker(first.store.load, CH)
        assert (await first.replay_check(game.id)).matches


async def test_a_service_holding_an_old_table_plays_on_the_stored_one(open_store: OpenStore) -> None:
    # `first` holds the game in memory; `second`, on the same file, moves it on behind its back. The
    # next move through `first` (legal only on the stored table) is applied there once, not refused or
    # written over the other's move.
    # Each service has its own worker thread, holding its own connection to the file.
    with (
        open_store() as one,
        open_store() as two,
        closing(TableService(one)) as first,
        closing(TableService(two)) as second,
    ):
        await first.start_game(CH, AKI, start())
        rnd = random.Random(3)
        for _ in range(3):
            await first.act(CH, *next_move((await first.status(CH)).state, rnd))
        held = first._cache.get(CH)
        assert held is not None
        for _ in range(4):
            await second.act(CH, *next_move((await second.status(CH)).state, rnd))
        stored = (await second.status(CH)).state
        assert stored.model_dump() != held[1].model_dump()
        out = await first.act(CH, *next_move(stored, rnd))
        assert out.version == 1 + 3 + 4 + 1
        assert (await second.status(CH)).version == out.version
        assert (await second.replay_check(out.game_id)).matches


async def test_a_busy_channel_does_not_hold_up_another(service: TableService) -> None:
    await service.start_game(CH, AKI, start())
    await service.start_game(CH + 1, AKI, start())
    async with service.lock(CH):  # channel CH is in the middle of something
        user, action = next_move((await service.status(CH + 1)).state, random.Random(1))
        out = await asyncio.wait_for(service.act(CH + 1, user, action), timeout=30)
    assert out.version == 2


async def test_refusals_are_clear_in_both_languages(table: TableService) -> None:
    with pytest.raises(NotModerator) as info:
        await table.end(CH, AKI, is_moderator=False)
    assert "moderator" in info.value.message("en") and "モデレーター" in info.value.message("ja")
    assert (await table.status(CH)).active


async def test_a_fixed_seed_and_table_id_replay_a_game_exactly(tmp_path: Path) -> None:
    states = []
    for name in ("one", "two"):
        with Store.open(tmp_path / f"{name}.sqlite3") as store:
            service = TableService(
                store, catalog, seed_factory=lambda: b"\x07" * 32, table_id_factory=lambda c: "fixed"
            )
            out = await service.start_game(CH, AKI, start())
            rnd = random.Random(1)
            for _ in range(15):
                user, action = next_move(out.state, rnd)
                out = await service.act(CH, user, action)
            assert (await service.status(CH)).table_id == "fixed"
            states.append(out.state.model_dump())
            service.close()
    assert states[0] == states[1]


async def test_a_damaged_state_row_stops_play_clearly_and_a_moderator_repairs_it_from_the_log(
    table: TableService, raw_sql: RawSql
) -> None:
    rnd = random.Random(8)
    for _ in range(6):
        user, action = next_move((await table.status(CH)).state, rnd)
        out = await table.act(CH, user, action)
    good = out.state.model_dump()
    raw_sql(f"UPDATE games SET state = '{{\"turn\": ' WHERE channel_id = {CH}")
    table._cache.pop(CH)  # as after a restart: nothing held in memory
    with pytest.raises(CorruptRow) as info:
        await table.status(CH)
    assert f"game {out.game_id}" in info.value.bilingual()
    with pytest.raises(CorruptRow):
        await table.act(CH, *next_move(out.state, rnd))
    repaired = await table.rollback(CH, JUDGE, is_moderator=True, to_version=out.version)
    assert repaired.state.model_dump() == good
    assert (await table.status(CH)).state.model_dump() == good
    assert len((await table.log(CH)).in_effect) == out.version  # no move was dropped


async def test_a_game_decided_at_set_up_is_filed_as_finished_and_frees_the_channel(service: TableService) -> None:
    from bot.engine import GameOptions

    normal = start()
    short = normal.model_copy(
        update={
            "players": (normal.players[0].model_copy(update={"deck": normal.players[0].deck[:2]}), normal.players[1]),
            "options": GameOptions(deck_out="lose", first_player="first_seat"),
        }
    )
    out = await service.start_game(CH, AKI, short)
    assert out.finished and out.state.over and out.revealed_seed
    assert await service.on_worker(service.store.find, CH) is None
    assert (await service.replay_check(out.game_id)).matches
    assert (await service.start_game(CH, AKI, start())).version == 1


async def test_games_read_back_after_a_restart_share_the_catalogs_cards_unless_a_card_changed(
    open_store: OpenStore,
) -> None:
    with open_store() as store:
        first = TableService(store, catalog)
        await first.start_game(CH, AKI, start())
        await first.start_game(CH + 1, AKI, start())
        first.close()
        cards = catalog().cards
        code = next(iter(first.status_now(CH).state.cards))
        edited = dict(cards, **{code: cards[code].model_copy(update={"name": "改訂版"})})
        changed = type("Edited", (), {"cards": edited})()
        for source, same in ((catalog, True), (changed, False)):
            after_restart = TableService(store, source)
            one, two = (after_restart.status_now(ch).state.cards for ch in (CH, CH + 1))
            if same:  # one object for every game (and the catalog)
                assert one[code] is two[code] is cards[code]
            else:  # the game keeps the card it was played with, not the edited one
                assert one[code] == cards[code] != edited[code]
            after_restart.close()


def _attack(state: GameState) -> tuple[int, UseSkill] | None:
    """A legal attack with dice damage of the player who must act, if they have one (a fixed-damage
    attack rolls nothing when declared, whatever the table's block timing)."""
    assert state.active is not None
    player = state.players[state.active].id
    for action in legal_actions(state, player):
        if isinstance(action, UseSkill):
            card = state.cards[next(u.card for u in state.players[state.active].units if u.uid == action.unit)]
            if isinstance(card, Arcastella) and any(
                k.id == action.skill
                and k.kind == "attack"
                and any(isinstance(e, DamageEffect) and e.dice for e in k.effects)
                for k in card.skills
            ):
                return int(player), action
    return None


@pytest.mark.parametrize("timing", ["after_roll", "before_roll"])
async def test_a_declared_attack_is_withdrawn_only_before_its_dice_are_rolled(
    service: TableService, timing: str
) -> None:
    """House rule 23: an attack's dice are rolled when it is declared unless the table rolls them
    after the block; only then may the attacker take the declaration back."""
    seats: list[tuple[str, str, Deck | str]] = [(str(AKI), "Aki", "solar-vanguard"), (str(BEN), "Ben", "tidal-veil")]
    options = GameOptions.model_validate({"block_timing": timing})
    await service.start_game(CH, AKI, start_action(catalog(), seats, options), guild_id=1)
    rnd = random.Random(11)
    for _ in range(500):
        state = (await service.status(CH)).state
        found = _attack(state)
        if found is not None:
            break
        await service.act(CH, *next_move(state, rnd))
    else:
        pytest.fail("no attack came up")
    user, attack = found
    declared = await service.act(CH, user, attack)
    assert (any(e.type == "dice_rolled" for e in declared.events)) == (timing == "after_roll")
    if timing == "after_roll":
        with pytest.raises(UndoBarrier):
            await service.undo(CH, user)
        assert (await service.status(CH)).version == declared.version
    else:
        await service.undo(CH, user)
        assert (await service.status(CH)).state.model_dump() == state.model_dump()
