"""Random play: 1,000 seeded games of uniformly random legal actions with the sample decks, with the
invariants of issue 3 checked after every action. Options vary per game so every house-rule branch runs.

The counts (games finished vs turn limit, actions, events) are printed by
`pytest tests/engine/test_random_play.py -s`, and written as JSON to the file named by
ENGINE_RANDOM_COUNTS when that is set. ENGINE_RANDOM_GAMES changes the number of games.
"""

from __future__ import annotations

import itertools
import json
import os
import random
from collections import Counter
from pathlib import Path
from typing import Any

import pytest

from bot.catalog import Catalog, load_catalog
from bot.dice import FairRandomness
from bot.engine import (
    GameOptions,
    GameState,
    Pass,
    RuleViolation,
    UseSkill,
    apply,
    events_from_json,
    events_to_json,
    legal_actions,
    new_game,
    replay,
    start_action,
)
from bot.engine.fold import fold

GAMES = int(os.environ.get("ENGINE_RANDOM_GAMES", "1000"))
TURN_LIMIT = 14
COUNTS_FILE = os.environ.get("ENGINE_RANDOM_COUNTS")

OPTION_CHOICES: dict[str, list[Any]] = {
    "first_player": ["random", "first_seat", "second_seat"],
    "ether_carry_over": [True, False],
    "ether_cap": [None, 6],
    "charge_rejoin": [True, False],
    "ether_effect_limit": ["per_player", "per_card", "per_table"],
    "priority_after_action": ["keep", "pass"],
    "tapped_may_act": [True, False],
    "block_timing": ["after_roll", "before_roll"],
    "sephirot_check": ["attack_only", "all_damage"],
    "resonance_reset": ["all", "turn_player"],
    "astral_right": ["deck_rebuild", "always"],
    "deck_out": ["rebuild", "lose", "stop"],
}


def _options(r: random.Random, game: int) -> GameOptions:
    if game % 4 == 0:  # a quarter of the games use the defaults
        return GameOptions()
    options = GameOptions(**{k: r.choice(v) for k, v in OPTION_CHOICES.items()})
    # The untap option (house rule 3) by the game's number: no draw from `r`, so the games of the
    # other options (and the fingerprint, which shares OPTION_CHOICES) stay as they were.
    return options.model_copy(update={"untap": "every_turn" if game % 3 == 1 else "own_turn"})


def _cards_in_play(state: GameState) -> Counter[str]:
    """Every card of every zone (the afterglow cards are marked among the cemetery's): an action moves
    cards between zones, never in or out of the game."""
    cards: Counter[str] = Counter()
    for p in state.players:
        cards.update([*p.deck, *p.hand, *p.cemetery, *p.ether_area, *(a.card for a in p.auras)])
        cards.update(u.card for u in p.units)
        cards.update(u.equipment for u in p.units if u.equipment)
    return cards


def _check_invariants(before: GameState, after: GameState, events: list[Any], replica: GameState) -> None:
    """Invariants of issue 3, checked against a replica that folds the same events one by one."""
    for event in events:
        if event.type == "damage_dealt":
            unit = replica.find_unit(event.target)
            assert unit is not None and event.hp_after <= unit.hp, "damage raised HP"
            assert event.final >= 0 and event.final == event.amount - event.reduction
        if event.type == "skill_used" and event.kind in ("attack", "astral") and not event.triggered:
            unit = replica.find_unit(event.unit)
            assert unit is not None and not unit.tapped, "a tapped Arcastella attacked"
        fold(replica, event)
        for player in replica.players:
            assert player.ether >= 0, "negative ether"
    assert replica == after, "folding the events does not give the state apply returned"
    assert _cards_in_play(after) == _cards_in_play(before), "a card left every zone or came from nowhere"
    for player in after.players:
        assert player.ether >= 0
        cap = after.options.ether_cap
        assert cap is None or player.ether <= cap
        for unit in player.units:
            assert 0 <= unit.hp <= unit.max_hp
    if after.over:
        assert after.active is None and after.winner in (0, 1)
    else:
        assert after.active in (0, 1), "nobody has priority"
        assert after.phase in ("charge", "main", "block") or (after.phase in ("start", "end"))
        others = legal_actions(after, after.players[1 - after.active].id)
        assert others == [], "the player without priority has legal actions"


def _probe_refusals(state: GameState, rng: FairRandomness) -> None:
    """Illegal actions are refused with a message key and change nothing (state and dice counter)."""
    if state.over or state.active is None:
        return
    idle = state.players[1 - state.active].id
    number = rng.next_number
    probes: list[Any] = [Pass(player=idle)]
    for unit in state.players[state.active].units:
        if unit.tapped and not unit.knocked_out:
            card = state.cards[unit.card]
            attacks = [s for s in getattr(card, "skills", ()) if s.kind == "attack"]
            if attacks:
                probes.append(UseSkill(player=state.players[state.active].id, unit=unit.uid, skill=attacks[0].id))
    for probe in probes:
        with pytest.raises(RuleViolation) as info:
            apply(state, probe, rng)
        assert info.value.message_key.startswith("engine.")
        assert info.value.bilingual()  # the key exists in both catalogs
    assert rng.next_number == number


def play(catalog: Catalog, game: int) -> dict[str, int]:
    r = random.Random(game)
    decks = sorted(catalog.decks)
    rng = FairRandomness(game.to_bytes(4, "big") + b"random-play", f"table-{game}")
    action = start_action(
        catalog, [("alice", "Alice", r.choice(decks)), ("bob", "Bob", r.choice(decks))], options=_options(r, game)
    )
    state, events = new_game(action, rng)
    replica = replay(events)
    assert replica == state
    actions = 0
    while not state.over and state.turn <= TURN_LIMIT:
        assert state.active is not None
        choices = legal_actions(state, state.players[state.active].id)
        assert choices, "the player with priority cannot act"
        chosen = r.choice(choices)
        if actions % 20 == 0:
            _probe_refusals(state, rng)
        snapshot = state.model_dump_json() if actions % 100 == 0 else None
        before = state
        state, new = apply(state, chosen, rng)
        if snapshot is not None:
            assert before.model_dump_json() == snapshot, "apply changed its input state"
        _check_invariants(before, state, new, replica)
        events.extend(new)
        actions += 1
    # From nothing: the events alone rebuild the table; every tenth game goes through JSON, as stored.
    stored = events_from_json(events_to_json(events)) if game % 10 == 0 else events
    assert replay(stored) == state
    return {"finished": int(state.over), "actions": actions, "events": len(events)}


def test_random_games_keep_every_invariant() -> None:
    catalog = load_catalog()
    totals = {"games": 0, "finished": 0, "turn_limit": 0, "actions": 0, "events": 0}
    failures: list[str] = []
    for game in range(GAMES):
        try:
            result = play(catalog, game)
        except Exception as exc:  # no exception may escape: collect them all with their seed
            failures.append(f"game {game}: {type(exc).__name__}: {exc}")
            continue
        totals["games"] += 1
        totals["finished"] += result["finished"]
        totals["turn_limit"] += 1 - result["finished"]
        totals["actions"] += result["actions"]
        totals["events"] += result["events"]
    print(f"\nrandom play: {json.dumps(totals)}")
    if COUNTS_FILE:
        Path(COUNTS_FILE).write_text(json.dumps(totals, indent=2) + "\n", encoding="utf-8")
    assert not failures, "\n".join(itertools.islice(failures, 20))
    assert totals["games"] == GAMES >= 1
    assert totals["finished"] > 0
