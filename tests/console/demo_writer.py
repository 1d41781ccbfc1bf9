"""Write docs/demo-game.txt: a complete game played through the real console, to a knock-out.

    /work/venv/bin/python -m tests.console.demo_writer --seed 7 > docs/demo-game.txt

Each move is chosen from the engine's legal actions by a plain aggressive policy, written as a console
line (bot/console/words.py) and played through ConsoleSession on a fresh database with the seed that
`referee console --seed` uses, so the file replays exactly under `--strict`. Rerun it if the engine's
rules or the sample cards change.
"""

from __future__ import annotations

import argparse
import asyncio
import sys
import tempfile
from pathlib import Path

from bot.catalog import Arcastella, DamageEffect, Spell, load_catalog
from bot.cli.console import console_table_id, seeded
from bot.console.session import ConsoleSession
from bot.engine import Action, Block, Cast, Charge, NoBlock, Pass, Summon, UseSkill, legal_actions
from bot.engine.state import GameState
from bot.service import TableService
from bot.store import Store
from bot.table.words import action_line

START = "alice: /game start players:alice,bob decks:solar-vanguard,tidal-veil first:alice"
CHARGE_UNTIL = 6  # convert cards until this much ether is banked


def _damage(state: GameState, effects: object) -> int:
    total = 0
    for effect in effects if isinstance(effects, tuple) else ():
        if isinstance(effect, DamageEffect):
            total += effect.amount if effect.amount is not None else 4 * int(str(effect.dice).split("d")[0])
    return total


def score(state: GameState, action: Action) -> float:
    """Higher is better; below zero is never chosen (passing scores zero)."""
    seat = state.active
    assert seat is not None
    me, them = state.players[seat], state.players[1 - seat]
    leader = them.leader
    if isinstance(action, Charge):
        return 3 - getattr(state.cards[action.card], "cost", 0) * 0.1 if me.ether < CHARGE_UNTIL else -1
    if isinstance(action, UseSkill):
        unit = state.find_unit(action.unit)
        assert unit is not None
        card = state.cards[unit.card]
        skill = card.skill(action.skill) if isinstance(card, Arcastella) else None
        assert skill is not None
        if skill.kind in ("attack", "astral"):
            return 10 + _damage(state, skill.effects) + (5 if action.target == leader else 0)
        return 1 if seat == state.turn_player and action.target in (None, me.leader) else -1
    if isinstance(action, Cast):
        card = state.cards[action.card]
        hits = _damage(state, card.effects) if isinstance(card, Spell) else 0
        if not hits:
            return -1
        return 8 + hits + (5 if action.target in (None, leader) else 0)
    if isinstance(action, Summon):
        return 5 if seat == state.turn_player else -1
    if isinstance(action, Block):
        pending = state.pending
        assert pending is not None
        blocker = state.find_unit(action.blocker)
        assert blocker is not None
        rolled = sum(pending.rolls.values())
        # Guard the leader from a big roll with a healthy Arcastella; let the rest through.
        return 2 if pending.target == me.leader and rolled >= 9 and blocker.hp > 15 else -1
    if isinstance(action, NoBlock | Pass):
        return 0
    return -1


async def write(seed: int, out: list[str]) -> bool:
    with tempfile.TemporaryDirectory() as folder, Store.open(Path(folder) / "demo.sqlite3") as store:
        channel = 1
        service = TableService(
            store,
            load_catalog,
            seed_factory=seeded(seed, channel, lambda: len(store.history(channel))),
            table_id_factory=console_table_id,
        )
        session = ConsoleSession(service, channel_id=channel, locale="ja")
        try:

            async def play(line: str) -> None:
                reply = await session.run(line)
                if reply.refusal is not None:
                    raise AssertionError(f"{line}: {reply.refusal.bilingual()}")
                out.append(line)

            await play(START)
            await play("/game status")
            await play("alice: /hand")
            await play("bob: /hand")
            shown = False
            for _ in range(600):
                view = await session.current()
                if view is None:
                    await play("/game status")
                    await play("carol: /game log")
                    return True
                state = view.state
                if state.active is None:
                    return False
                name = state.players[state.active].name
                options = legal_actions(state, state.players[state.active].id)
                best = max(options, key=lambda a: score(state, a))
                if score(state, best) < 0:
                    best = next(a for a in options if isinstance(a, Pass | NoBlock))
                if state.turn == 3 and state.phase == "main" and not shown:
                    shown = True
                    await play("carol: /game status")  # a spectator may read the table
                    await play(f"{name}: /hand")
                    await play(f"{name}: /roll 1d6 気合い")
                await play(f"{name}: {action_line(state, best)}")
            return False
        finally:
            service.close()


def main() -> int:
    parser = argparse.ArgumentParser()
    parser.add_argument("--seed", type=int, default=7)
    args = parser.parse_args()
    lines: list[str] = []
    if not asyncio.run(write(args.seed, lines)):
        print("the game did not end within the move limit", file=sys.stderr)
        return 1
    print("# HorizonNotes Referee — a complete demo game (sample decks). Play it with:")
    print(f"#   referee console --script docs/demo-game.txt --seed {args.seed} --strict")
    print("# Written by tests/console/demo_writer.py; every line is played exactly as written.")
    print("\n".join(lines))
    return 0


if __name__ == "__main__":
    sys.exit(main())
