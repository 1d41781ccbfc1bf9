"""Every field of every event carries its real value: each event is folded onto the table it followed
and its fields are checked against what changed (HP, ether, hand and deck counts, DEF, ...).

The events come from seeded random games over every table option, plus a short scripted table for
the events random play does not reach (adjustment requests, a look at the deck, a skipped trigger,
a concession). Every event type of `bot.engine.events.Event` has a check here.
"""

from __future__ import annotations

import random
import typing
from collections.abc import Callable, Iterator
from functools import cache
from typing import Any

from bot.catalog import Arcastella, AuraCompolta, Deck, Follower, SephirotCode, Spell, load_catalog
from bot.dice import FairRandomness
from bot.engine import (
    Adjust,
    Concede,
    GameOptions,
    GameState,
    LookAtDeck,
    RejectAdjust,
    StartGame,
    UseSkill,
    apply,
    legal_actions,
    new_game,
    start_action,
)
from bot.engine import events as ev
from bot.engine.fold import fold
from bot.engine.handlers import ether_effect_allowed

from .conftest import CARD, CARDS, LoadedDice, Table, _arc, pass_until, seat, skill
from .test_deck_look import _stargazing
from .test_random_play import OPTION_CHOICES

Check = Callable[[GameState, GameState, Any], None]


def _unit(state: GameState, uid: str) -> Any:
    unit = state.find_unit(uid)
    assert unit is not None, uid
    return unit


def _game_started(b: GameState, a: GameState, e: ev.GameStarted) -> None:
    assert [p.name for p in a.players] == [s.name for s in e.players] and a.options == e.options
    assert [len(p.deck) for p in a.players] == [len(s.deck) for s in e.players]


def _position_loaded(b: GameState, a: GameState, e: ev.PositionLoaded) -> None:
    assert a.players == list(e.players) and a.players[0] is not e.players[0]  # a copy: later folds leave it be
    assert (a.turn, a.turn_player, a.phase, a.active, a.next_id) == (
        e.turn,
        e.turn_player,
        e.phase,
        e.active,
        e.next_id,
    )
    assert a.def_mods == list(e.def_mods) and a.pending is None and a.passes == 0


def _dice(b: GameState, a: GameState, e: ev.DiceRolled) -> None:
    assert e.total == sum(e.faces) and all(1 <= f <= 6 for f in e.faces) and a == b


def _first(b: GameState, a: GameState, e: ev.FirstPlayerChosen) -> None:
    assert a.turn_player == e.seat


def _shuffled(b: GameState, a: GameState, e: ev.DeckShuffled) -> None:
    assert sorted(e.order) == sorted(b.players[e.seat].deck) and a.players[e.seat].deck == list(e.order)


def _rebuilt(b: GameState, a: GameState, e: ev.DeckRebuilt) -> None:
    before, after = b.players[e.seat], a.players[e.seat]
    assert not before.deck and after.deck == list(e.order)
    assert len(e.order) == len(before.cemetery) - len(before.afterglow) + len(before.ether_area)
    assert after.astral_rights - before.astral_rights == e.astral_rights == 1
    assert e.rights_after == after.astral_rights


def _drawn(b: GameState, a: GameState, e: ev.CardsDrawn) -> None:
    before, after = b.players[e.seat], a.players[e.seat]
    assert list(e.cards) == before.deck[: len(e.cards)] and after.hand == before.hand + list(e.cards)
    assert (e.hand_after, e.deck_after) == (len(after.hand), len(after.deck))
    assert not e.short or not after.deck  # a short draw only from an empty deck
    if e.card is not None:
        assert e.card in a.cards and (e.skill is None or isinstance(a.cards[e.card], Arcastella))


def _ether_gained(b: GameState, a: GameState, e: ev.EtherGained) -> None:
    assert e.amount > 0 and a.players[e.seat].ether - b.players[e.seat].ether == e.amount
    assert e.total_after == a.players[e.seat].ether
    cap = a.options.ether_cap
    assert cap is None or e.total_after <= cap
    assert e.capped == 0 or e.total_after == cap  # the cap kept the rest out


def _ether_capped(b: GameState, a: GameState, e: ev.EtherCapped) -> None:
    assert e.amount > 0 and e.cap == b.options.ether_cap and b.players[e.seat].ether >= e.cap and a == b


def _ether_emptied(b: GameState, a: GameState, e: ev.EtherEmptied) -> None:
    assert b.players[e.seat].ether == e.amount > 0 and a.players[e.seat].ether == 0


def _turn(b: GameState, a: GameState, e: ev.TurnStarted) -> None:
    assert e.turn == b.turn + 1 == a.turn and a.turn_player == e.seat and a.phase == "start"


def _phase(b: GameState, a: GameState, e: ev.PhaseStarted) -> None:
    assert a.phase == e.phase != b.phase


def _priority(b: GameState, a: GameState, e: ev.PriorityGiven) -> None:
    assert a.active == e.seat


def _passed(b: GameState, a: GameState, e: ev.Passed) -> None:
    assert b.active == e.seat and b.phase == e.phase and a.passes == b.passes + 1


def _untapped(b: GameState, a: GameState, e: ev.Untapped) -> None:
    assert e.units and all(_unit(b, u).tapped and not _unit(a, u).tapped for u in e.units)


def _tapped(b: GameState, a: GameState, e: ev.Tapped) -> None:
    assert e.units and all(not _unit(b, u).tapped and _unit(a, u).tapped for u in e.units)


def _converted(b: GameState, a: GameState, e: ev.CardConverted) -> None:
    card = a.cards[e.card]
    assert isinstance(card, Spell) and e.ether == card.cost  # the ether the card is worth, not 0
    assert e.card in b.players[e.seat].hand and a.players[e.seat].ether_area[-1] == e.card


def _ether_effect(b: GameState, a: GameState, e: ev.EtherEffectFired) -> None:
    assert a.players[e.seat].ether_area[-1] == e.card and ether_effect_allowed(b, e.seat, e.card)


def _ether_effect_not_fired(b: GameState, a: GameState, e: ev.EtherEffectNotFired) -> None:
    assert e.limit == b.options.ether_effect_limit and not ether_effect_allowed(b, e.seat, e.card)
    card = a.cards[e.card]
    assert isinstance(card, Spell) and card.ether_effect and a == b


def _spell_cast(b: GameState, a: GameState, e: ev.SpellCast) -> None:
    card = a.cards[e.card]
    assert isinstance(card, Spell) and e.cost == card.cost == b.players[e.seat].ether - a.players[e.seat].ether
    assert _unit(b, e.caster).owner == e.seat


def _spell_resolved(b: GameState, a: GameState, e: ev.SpellResolved) -> None:
    assert a.players[e.seat].cemetery[-1] == e.card


def _skill_used(b: GameState, a: GameState, e: ev.SkillUsed) -> None:
    card = a.cards[_unit(b, e.unit).card]
    assert isinstance(card, Arcastella)
    printed = card.skill(e.skill)
    assert printed is not None and (printed.kind, printed.cost) == (e.kind, e.cost)
    assert b.players[e.seat].ether - a.players[e.seat].ether == e.cost
    assert e.taps == (e.kind in ("attack", "astral")) and (not e.taps or _unit(a, e.unit).tapped)
    assert a.players[e.seat].astral_rights == b.players[e.seat].astral_rights - int(e.uses_right)


def _skill_skipped(b: GameState, a: GameState, e: ev.SkillSkipped) -> None:
    card = a.cards[_unit(b, e.unit).card]
    printed = card.skill(e.skill) if isinstance(card, Arcastella) else None
    assert printed is not None and printed.cost == e.cost > b.players[e.seat].ether and a == b


def _attack_pending(b: GameState, a: GameState, e: ev.AttackPending) -> None:
    assert a.pending is not None and a.pending.target == e.target and a.phase == "block"
    assert e.defender == 1 - e.attacker == _unit(b, e.target).owner == a.active


def _block(b: GameState, a: GameState, e: ev.BlockDeclared) -> None:
    assert b.pending is not None and b.pending.target == e.target and b.pending.defender == e.seat
    assert not _unit(b, e.blocker).tapped and _unit(a, e.blocker).tapped


def _no_block(b: GameState, a: GameState, e: ev.BlockDeclined) -> None:
    assert b.pending is not None and b.pending.defender == e.seat


def _attack_resolved(b: GameState, a: GameState, e: ev.AttackResolved) -> None:
    assert b.pending is not None and a.pending is None


def _damage(b: GameState, a: GameState, e: ev.DamageDealt) -> None:
    unit = _unit(b, e.target)
    assert e.hp_after == _unit(a, e.target).hp == max(0, unit.hp - e.final)
    # The DEF the hit met, as the table stood when it landed.
    assert e.printed_def == unit.defense
    assert max(0, unit.defense + sum(p.amount for p in e.def_parts)) == b.effective_def(unit)
    mods = [m for m in b.def_mods if m.unit == unit.uid]
    assert [(p.amount, p.card, p.skill) for p in e.def_parts if p.kind != "code"] == [
        (m.amount, m.card, m.skill) for m in mods
    ]
    code = b.cards[unit.equipment] if unit.equipment is not None else None
    assert [p.card for p in e.def_parts if p.kind == "code"] == (
        [unit.equipment] if isinstance(code, SephirotCode) and code.def_bonus else []
    )
    total = b.effective_def(unit)
    assert e.def_applied is not None and e.difference is not None
    if e.source in ("attack", "astral"):
        assert e.def_rule in ("full", "blocking", "halved")
        assert e.def_applied == (total // 2 if e.def_rule == "halved" else total)
        assert (e.def_rule == "halved") == (unit.tapped and e.def_rule != "blocking")
    else:
        assert (e.def_rule, e.def_applied) == ("ignored", 0)
    assert e.difference == e.amount - e.def_applied and e.final == max(0, e.difference)
    assert e.reduction == min(e.def_applied, e.amount)


def _sephirot(b: GameState, a: GameState, e: ev.SephirotChecked) -> None:
    code = a.cards[e.card]
    assert isinstance(code, SephirotCode) and _unit(b, e.unit).equipment == e.card
    assert e.broken == (e.face in code.breaks_on) and (_unit(a, e.unit).equipment is None) == e.broken
    assert e.source in ("attack", "astral") or (e.source is not None and b.options.sephirot_check == "all_damage")


def _healed(b: GameState, a: GameState, e: ev.Healed) -> None:
    assert e.amount > 0 and e.hp_after == _unit(a, e.target).hp == _unit(b, e.target).hp + e.amount


def _knocked_out(b: GameState, a: GameState, e: ev.KnockedOut) -> None:
    unit = _unit(b, e.unit)
    assert unit.hp == 0 and e.afterglow == isinstance(a.cards[unit.card], Follower)
    assert (a.find_unit(e.unit) is None) == e.afterglow


def _def_changed(b: GameState, a: GameState, e: ev.DefChanged) -> None:
    mod = a.def_mods[-1]
    assert (mod.unit, mod.amount, mod.until, mod.card, mod.skill) == (e.unit, e.amount, e.until, e.card, e.skill)
    assert e.card is not None and e.card in a.cards


def _def_expired(b: GameState, a: GameState, e: ev.DefChangesExpired) -> None:
    assert len(a.def_mods) <= len(b.def_mods)
    assert not any(m.until == "turn" for m in a.def_mods) if e.until == "turn" else e.controller is not None


def _continuing(b: GameState, a: GameState, e: ev.ContinuingStarted) -> None:
    assert e.id == b.next_id and a.continuing[-1].id == e.id and e.source in a.cards and e.remaining > 0


def _ticked(b: GameState, a: GameState, e: ev.ContinuingTicked) -> None:
    (before,) = [c for c in b.continuing if c.id == e.id]
    assert e.remaining == before.remaining - 1


def _manual(b: GameState, a: GameState, e: ev.ManualEffect) -> None:
    assert e.card in a.cards and e.text and 0 <= e.look <= 10


def _adjust_value(state: GameState, subject: str, field: str) -> int:
    if field == "hp":
        return int(_unit(state, subject).hp)
    if field == "tapped":
        return int(_unit(state, subject).tapped)
    if field == "def_turn":
        return sum(m.amount for m in state.def_mods if m.unit == subject and m.until == "turn")
    if field == "resonance":
        aura = state.find_aura(subject)
        assert aura is not None
        return aura.resonance
    seat_ = state.seat_of(subject)
    assert seat_ is not None
    player = state.players[seat_]
    return {"ether": player.ether, "astral_rights": player.astral_rights, "discard": len(player.hand)}.get(
        field, len(player.deck)
    )


def _adjusted(b: GameState, a: GameState, e: ev.Adjusted) -> None:
    if e.field == "deck_top":
        return
    if e.field == "def_turn":  # old: the changes this turn so far; new: the change it adds
        assert e.old == _adjust_value(b, e.subject, e.field)
        assert _adjust_value(a, e.subject, e.field) - e.old == e.new
        return
    assert (e.old, e.new) == (_adjust_value(b, e.subject, e.field), _adjust_value(a, e.subject, e.field))


def _adjust_requested(b: GameState, a: GameState, e: ev.AdjustRequested) -> None:
    assert e.old == _adjust_value(b, e.subject, e.field) and a.pending_adjust is not None
    assert (a.pending_adjust.value, a.pending_adjust.owner) == (e.new, e.owner) != (e.new, e.seat)


def _adjust_rejected(b: GameState, a: GameState, e: ev.AdjustRejected) -> None:
    assert b.pending_adjust is not None and (b.pending_adjust.seat, b.pending_adjust.value) == (e.seat, e.new)
    assert a.pending_adjust is None


def _deck_looked(b: GameState, a: GameState, e: ev.DeckLooked) -> None:
    assert b.deck_look is not None and (b.deck_look.seat, b.deck_look.card) == (e.seat, e.card)
    assert 1 <= e.count <= b.deck_look.count


def _resonance(b: GameState, a: GameState, e: ev.ResonanceRaised) -> None:
    before = b.find_aura(e.aura)
    assert before is not None and e.value == before.resonance + 1


def _resonance_reset(b: GameState, a: GameState, e: ev.ResonanceReset) -> None:
    assert all(a.find_aura(uid).resonance == value == 0 for uid, value in e.auras)  # type: ignore[union-attr]


def _summoned(b: GameState, a: GameState, e: ev.Summoned) -> None:
    assert b.find_unit(e.uid) is None and b.find_aura(e.uid) is None
    assert (a.find_unit(e.uid) or a.find_aura(e.uid)) is not None
    card = a.cards[e.card]
    assert isinstance(card, Follower | AuraCompolta)
    assert e.cost == card.cost == b.players[e.seat].ether - a.players[e.seat].ether


def _conceded(b: GameState, a: GameState, e: ev.Conceded) -> None:
    assert not b.over and a == b


def _ended(b: GameState, a: GameState, e: ev.GameEnded) -> None:
    assert a.over and a.winner == e.winner and a.end_reason == e.reason


CHECKS: dict[type[Any], Check] = {
    ev.GameStarted: _game_started,
    ev.PositionLoaded: _position_loaded,
    ev.DiceRolled: _dice,
    ev.FirstPlayerChosen: _first,
    ev.DeckShuffled: _shuffled,
    ev.DeckRebuilt: _rebuilt,
    ev.CardsDrawn: _drawn,
    ev.EtherGained: _ether_gained,
    ev.EtherCapped: _ether_capped,
    ev.EtherEmptied: _ether_emptied,
    ev.TurnStarted: _turn,
    ev.PhaseStarted: _phase,
    ev.PriorityGiven: _priority,
    ev.Passed: _passed,
    ev.Untapped: _untapped,
    ev.Tapped: _tapped,
    ev.CardConverted: _converted,
    ev.EtherEffectFired: _ether_effect,
    ev.EtherEffectNotFired: _ether_effect_not_fired,
    ev.SpellCast: _spell_cast,
    ev.SpellResolved: _spell_resolved,
    ev.SkillUsed: _skill_used,
    ev.SkillSkipped: _skill_skipped,
    ev.AttackPending: _attack_pending,
    ev.BlockDeclared: _block,
    ev.BlockDeclined: _no_block,
    ev.AttackResolved: _attack_resolved,
    ev.DamageDealt: _damage,
    ev.SephirotChecked: _sephirot,
    ev.Healed: _healed,
    ev.KnockedOut: _knocked_out,
    ev.DefChanged: _def_changed,
    ev.DefChangesExpired: _def_expired,
    ev.ContinuingStarted: _continuing,
    ev.ContinuingTicked: _ticked,
    ev.ManualEffect: _manual,
    ev.Adjusted: _adjusted,
    ev.AdjustRequested: _adjust_requested,
    ev.AdjustRejected: _adjust_rejected,
    ev.DeckLooked: _deck_looked,
    ev.ResonanceRaised: _resonance,
    ev.ResonanceReset: _resonance_reset,
    ev.Summoned: _summoned,
    ev.Conceded: _conceded,
    ev.GameEnded: _ended,
}


def _random_games() -> Iterator[list[Any]]:
    catalog = load_catalog()
    decks = sorted(catalog.decks)
    for game in range(40):
        r = random.Random(game)
        options = GameOptions(**{k: r.choice(v) for k, v in OPTION_CHOICES.items()})
        if game % 2:
            options = options.model_copy(update={"untap": "every_turn"})
        rng = FairRandomness(game.to_bytes(4, "big") + b"event-fields", f"event-fields-{game}")
        players: list[tuple[str, str, Deck | str]] = [
            ("alice", "Alice", r.choice(decks)),
            ("bob", "Bob", r.choice(decks)),
        ]
        state, events = new_game(start_action(catalog, players, options), rng)
        while not state.over and state.turn <= 20:
            assert state.active is not None
            state, new = apply(state, r.choice(legal_actions(state, state.players[state.active].id)), rng)
            events.extend(new)
        yield events


def _scripted() -> list[list[Any]]:
    """Adjustments and their requests, a look at the deck, a trigger nobody can pay for, a concession."""
    t = _stargazing()
    t.do(LookAtDeck(player="alice", count=2))
    t.do(Adjust(player="bob", subject="p1.ignis-hart", field="hp", value=3))
    t.do(RejectAdjust(player="alice"))
    t.do(Adjust(player="alice", subject="p1.ignis-hart", field="def_turn", value=2))
    t.do(Adjust(player="alice", subject="p1.ignis-hart", field="def_turn", value=-1))  # old: +2 so far
    t.do(Adjust(player="alice", subject="alice", field="discard", value=1, cards=(t.player(0).hand[0],)))
    miser = CARD.validate_python(
        _arc("miser", 12, 1, [skill("hoard", "support", 5, [{"kind": "gain_ether", "amount": 1}], "turn_start")])
    )
    action = StartGame(
        players=(seat("alice", ("bolt",) * 10, ("miser", "knight", "squire")), seat("bob", ("bolt",) * 10)),
        cards={**CARDS, "miser": miser},
        options=GameOptions(first_player="second_seat"),
    )
    state, events = new_game(action, LoadedDice())
    m = Table(state, events, LoadedDice())
    pass_until(m, "main", turn=2)  # alice's first start phase: 5 ether for hoard, she has 2
    m.do(UseSkill(player="alice", unit="p1.knight", skill="guard"))
    m.do(Concede(player="bob"))
    return [t.events, m.events, _practice()]


def _practice() -> list[Any]:
    """A judge's practice position (docs/positions/): its game_started and position_loaded."""
    from pathlib import Path

    from bot.engine.position import position_events
    from bot.table.position import load_position

    catalog = load_catalog()
    path = Path(__file__).resolve().parents[2] / "docs" / "positions" / "knockouts.toml"
    position = load_position(path, catalog)
    cards = {c: catalog.get(c) for side in position.players for u in side.units for c in (u.card, u.code) if c}
    cards |= {c: catalog.get(c) for side in position.players for c in (*side.hand, *side.deck)}
    return position_events(position, ("alice", "bob"), cards)


@cache
def _checked() -> frozenset[type[Any]]:
    seen: set[type[Any]] = set()
    for events in [*_random_games(), *_scripted()]:
        state = GameState()
        for event in events:
            before = state.clone()
            fold(state, event)
            CHECKS[type(event)](before, state, event)
            seen.add(type(event))
    return frozenset(seen)


def test_every_event_type_has_a_check() -> None:
    union = typing.get_args(typing.get_args(ev.Event)[0])
    assert set(CHECKS) == set(union)


def test_each_event_s_fields_match_what_folding_it_changed() -> None:
    union = set(typing.get_args(typing.get_args(ev.Event)[0]))
    assert _checked() == union  # every type was met and checked at least once


def test_events_carry_their_new_values_never_the_older_logs_none() -> None:
    """The fields older logs lack (None there) are always filled in by today's engine."""
    for events in [*_random_games(), *_scripted()]:
        for event in events:
            if isinstance(event, ev.CardsDrawn):
                assert event.hand_after is not None and event.deck_after is not None
            elif isinstance(event, ev.EtherGained):
                assert event.total_after is not None
            elif isinstance(event, ev.DamageDealt):
                assert None not in (event.printed_def, event.def_rule, event.def_applied, event.difference)
            elif isinstance(event, ev.DeckRebuilt):
                assert event.rights_after is not None
            elif isinstance(event, ev.SephirotChecked):
                assert event.source is not None
            elif isinstance(event, ev.DefChanged):
                assert event.card is not None
