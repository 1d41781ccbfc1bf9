"""`referee verify --db` over the harder logs: a moderator's rollback past a roll (the roll was made
and its number is never reused, so it is still checked), and a deck rebuilt from the cemetery and ether
area mid-game (its shuffle started from cards that only the folded table knows)."""

from __future__ import annotations

import json
from collections.abc import AsyncIterator
from functools import cache
from pathlib import Path

import pytest

from bot.__main__ import main
from bot.catalog import Catalog, Deck, load_catalog
from bot.cli.console import console_table_id, seeded
from bot.console.session import ConsoleSession, user_id
from bot.engine import Charge, GameOptions, NoBlock, Pass, legal_actions, start_action
from bot.service import TableService
from bot.store import Store

DEMO = Path(__file__).resolve().parents[2] / "docs" / "demo-game.txt"
CHANNEL = 1


@cache
def catalog() -> Catalog:
    return load_catalog()


@pytest.fixture
async def service(tmp_path: Path) -> AsyncIterator[TableService]:
    store = Store.open(tmp_path / "game.sqlite3")
    table = TableService(
        store,
        catalog(),
        seed_factory=seeded(7, CHANNEL, lambda: len(store.history(CHANNEL))),
        table_id_factory=console_table_id,
    )
    try:
        yield table
    finally:
        table.close()
        store.close()


def _verify(service: TableService, capsys: pytest.CaptureFixture[str]) -> tuple[int, str, str]:
    capsys.readouterr()
    code = main(["verify", "--db", str(service.store.path), "--channel", str(CHANNEL)])
    captured = capsys.readouterr()
    return code, captured.out, captured.err


async def _types(service: TableService) -> list[str]:
    game = await service.on_worker(service.store.latest, CHANNEL)
    return [e.type for e in await service.on_worker(service.store.events, game.id)]


async def test_a_rolled_back_roll_is_still_verified(service: TableService, capsys: pytest.CaptureFixture[str]) -> None:
    session = ConsoleSession(service, channel_id=CHANNEL, locale="en")
    lines = [line for line in DEMO.read_text(encoding="utf-8").splitlines() if line and not line.startswith("#")]
    for line in lines:
        assert (await session.run(line)).refusal is None, line
        if "dice_rolled" in await _types(service):
            break
    else:
        pytest.fail("the demo never rolled a die")
    alice = user_id("alice")
    await service.rollback(CHANNEL, alice, is_moderator=True)  # takes the roll's action back
    assert (await session.run(line)).refusal is None  # and plays it again: a new roll, a new number
    await service.end(CHANNEL, alice, is_moderator=True, reason="test")

    log = await service.log(CHANNEL)
    in_effect = [e.type for b in log.in_effect for e in b.entries]
    rolls = (await _types(service)).count("dice_rolled")
    assert rolls == 2 and in_effect.count("dice_rolled") == 1, "one roll was rolled back, one stands"
    code, out, err = _verify(service, capsys)
    assert code == 0, err
    assert f"{rolls} rolls and 2 shuffles" in out


async def test_a_rebuilt_deck_is_verified_from_the_cards_it_was_built_from(
    service: TableService, capsys: pytest.CaptureFixture[str]
) -> None:
    alice, bob = user_id("alice"), user_id("bob")
    seats: list[tuple[str, str, Deck | str]] = [
        (str(alice), "alice", "solar-vanguard"),
        (str(bob), "bob", "tidal-veil"),
    ]
    start = start_action(catalog(), seats, GameOptions(first_player="first_seat"))
    # Five different spells: alice draws them all at once, converts them, and her deck is rebuilt from them.
    five = tuple(dict.fromkeys(start.players[0].deck))[:5]
    short = start.players[0].model_copy(update={"deck": five})
    await service.start_game(CHANNEL, alice, start.model_copy(update={"players": (short, start.players[1])}))
    for _ in range(300):
        if "deck_rebuilt" in await _types(service):
            break
        state = (await service.status(CHANNEL)).state
        assert state.active is not None
        player = state.players[state.active].id
        actions = legal_actions(state, player)
        # Alice converts everything she can (it all goes back into her rebuilt deck); the rest pass.
        charges = [a for a in actions if isinstance(a, Charge)]
        quiet = [a for a in actions if isinstance(a, Pass | NoBlock)]
        action = (charges if player == str(alice) else []) or quiet or actions
        await service.act(CHANNEL, int(player), action[0])
    else:
        pytest.fail("alice's deck was never rebuilt")
    await service.end(CHANNEL, alice, is_moderator=True, reason="test")

    game = await service.on_worker(service.store.latest, CHANNEL)
    events = await service.on_worker(service.store.events, game.id)
    rebuilt = next(e for e in events if e.type == "deck_rebuilt")
    assert len(json.loads(rebuilt.data)["order"]) >= 3, "a shuffle whose order depends on the cards it started from"
    code, out, err = _verify(service, capsys)
    assert code == 0, err
    assert "and 3 shuffles" in out
