"""A table with the shipped sample cards (real printed names), played through the real engine.

Decks are drawn in listed order (LoadedDice), so each test knows the hands. Alice plays first.
"""

from __future__ import annotations

from collections.abc import Sequence
from functools import cache

from bot.catalog import Card, load_catalog
from bot.engine import GameOptions, SeatSpec, StartGame, new_game

from .conftest import LoadedDice, Table

ALICE_ARC = ("ignis-hart", "sola-lyne", "garde-volk")  # 焔刃のハルト (leader), 陽光のライネ, 鉄壁のヴォルク
BOB_ARC = ("mizuha", "kiri-no-sei", "rei-glacia")  # 水葉のミズハ (leader), 霧のセイ, 氷棺のレイ・グラシア


@cache
def sample_cards() -> dict[str, Card]:
    return {card.id: card for card in load_catalog()}


def sample_table(
    deck1: Sequence[str] = ("spark-arrow", "counter-flame", "spark-arrow", "counter-flame", "spark-arrow") * 2,
    deck2: Sequence[str] = ("tide-bullet",) * 10,
    *faces: int,
    equipment: dict[str, str] | None = None,
    leader: str = ALICE_ARC[0],
    arcastella: tuple[str, str, str] = ALICE_ARC,
) -> Table:
    dice = LoadedDice(*faces)
    seats = (
        SeatSpec(
            id="alice",
            name="alice",
            arcastella=arcastella,
            leader=leader,
            deck=tuple(deck1),
            equipment=equipment or {},
        ),
        SeatSpec(id="bob", name="bob", arcastella=BOB_ARC, leader=BOB_ARC[0], deck=tuple(deck2)),
    )
    action = StartGame(players=seats, cards=sample_cards(), options=GameOptions(first_player="first_seat"))
    state, events = new_game(action, dice)
    return Table(state, events, dice)
