"""The only place a state changes: fold one event into it. `apply` and `replay` both use this.

Every function here trusts its event (the engine decided it); nothing is rolled or chosen here.
Writes go through a `Writer`: during `apply` it copies a player, unit or aura the first time it is
written (copy on write), so the state `apply` was given is never changed; during `replay` it writes
in place.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable
from typing import Any

from bot.catalog.cards import Arcastella, Follower
from bot.engine import build
from bot.engine import events as ev
from bot.engine.state import Aura, DefModifier, GameState, PlayerState, Unit


def arcastella_uid(seat: int, card: str, taken: set[str]) -> str:
    """`p1.<card id>`; a second copy of the same Arcastella on one side gets `#2`."""
    base = f"p{seat + 1}.{card}"
    uid, n = base, 2
    while uid in taken:
        uid, n = f"{base}#{n}", n + 1
    taken.add(uid)
    return uid


class Writer:
    """Hands out writable players, lists, units and auras. `copy_on_write=False` writes in place (replay).

    During `apply` a player is copied on its first write without its lists, and each list (a zone) on
    its own first change in place: most events touch a number or one or two zones of one player.
    """

    __slots__ = ("fresh",)

    def __init__(self, copy_on_write: bool) -> None:
        # ids of objects created during this apply; any other object may be shared with the input state
        self.fresh: set[int] | None = set() if copy_on_write else None

    def player(self, s: GameState, seat: int) -> PlayerState:
        """The player, for assigning its fields (numbers, flags, a whole new list). Its lists may still
        be the input state's: change one in place only through `zone`."""
        p = s.players[seat]
        fresh = self.fresh
        if fresh is None or id(p) in fresh:
            return p
        p = p._shallow()
        s.players[seat] = p
        fresh.add(id(p))
        return p

    def zone(self, s: GameState, seat: int, name: str) -> list[Any]:
        """The player's list field `name` (hand, deck, units, ...), safe to change in place."""
        fields = self.player(s, seat).__dict__
        items: list[Any] = fields[name]
        fresh = self.fresh
        if fresh is None or id(items) in fresh:
            return items
        items = items[:]
        fields[name] = items
        fresh.add(id(items))
        return items

    def unit(self, s: GameState, uid: str) -> Unit:
        for seat, p in enumerate(s.players):
            for i, m in enumerate(p.units):
                if m.uid == uid:
                    fresh = self.fresh
                    if fresh is None or id(m) in fresh:
                        return m
                    m = m.clone()
                    self.zone(s, seat, "units")[i] = m
                    fresh.add(id(m))
                    return m
        raise ValueError(f"event names unknown unit or aura {uid}")  # a corrupt log, never the engine

    def aura(self, s: GameState, uid: str) -> Aura:
        # The same walk as `unit`, written out twice: a zone-picking callback costs a call per member.
        for seat, p in enumerate(s.players):
            for i, m in enumerate(p.auras):
                if m.uid == uid:
                    fresh = self.fresh
                    if fresh is None or id(m) in fresh:
                        return m
                    m = m.clone()
                    self.zone(s, seat, "auras")[i] = m
                    fresh.add(id(m))
                    return m
        raise ValueError(f"event names unknown unit or aura {uid}")  # a corrupt log, never the engine


IN_PLACE = Writer(copy_on_write=False)


def _remove_one(cards: list[str], card: str) -> None:
    cards.remove(card)


def _game_started(s: GameState, e: ev.GameStarted, w: Writer) -> None:
    s.started = True
    s.options = e.options
    s.cards = dict(e.cards)
    s.players = []
    taken: set[str] = set()
    for seat, spec in enumerate(e.players):
        units: list[Unit] = []
        leader = ""
        for card_id in spec.arcastella:
            card = e.cards[card_id]
            assert isinstance(card, Arcastella)
            uid = arcastella_uid(seat, card_id, taken)
            if card_id == spec.leader and not leader:
                leader = uid
            units.append(
                Unit(
                    uid=uid,
                    card=card_id,
                    owner=seat,
                    kind="arcastella",
                    hp=card.hp,
                    max_hp=card.hp,
                    defense=card.defense,
                    equipment=spec.equipment.get(card_id),
                )
            )
        s.players.append(PlayerState(id=spec.id, name=spec.name, leader=leader, deck=list(spec.deck), units=units))
    s.phase = "setup"


def _first_player(s: GameState, e: ev.FirstPlayerChosen, w: Writer) -> None:
    s.turn_player = e.seat


def _shuffled(s: GameState, e: ev.DeckShuffled, w: Writer) -> None:
    w.player(s, e.seat).deck = list(e.order)


def _rebuilt(s: GameState, e: ev.DeckRebuilt, w: Writer) -> None:
    p = w.player(s, e.seat)
    p.cemetery = list(p.afterglow)
    p.ether_area = []
    p.deck = list(e.order)
    p.astral_rights += e.astral_rights


def _drawn(s: GameState, e: ev.CardsDrawn, w: Writer) -> None:
    n = len(e.cards)
    del w.zone(s, e.seat, "deck")[:n]
    w.zone(s, e.seat, "hand").extend(e.cards)


def _ether_gained(s: GameState, e: ev.EtherGained, w: Writer) -> None:
    w.player(s, e.seat).ether += e.amount


def _ether_emptied(s: GameState, e: ev.EtherEmptied, w: Writer) -> None:
    w.player(s, e.seat).ether -= e.amount


def _turn_started(s: GameState, e: ev.TurnStarted, w: Writer) -> None:
    s.turn = e.turn
    s.turn_player = e.seat
    s.phase = "start"
    s.active = None
    s.passes = 0
    s.deck_look = None
    s.knockouts_this_turn = 0
    for seat, p in enumerate(s.players):
        if p.ether_effects_used:
            w.player(s, seat).ether_effects_used = []
        for u in p.units:
            if u.support_used:
                w.unit(s, u.uid).support_used = []


def _phase_started(s: GameState, e: ev.PhaseStarted, w: Writer) -> None:
    s.phase = e.phase
    s.active = None
    s.passes = 0
    s.deck_look = None  # a look a manual effect allowed lasts until its phase ends
    for seat, p in enumerate(s.players):
        if p.charge_done:
            w.player(s, seat).charge_done = False


def _priority(s: GameState, e: ev.PriorityGiven, w: Writer) -> None:
    s.active = e.seat


def _passed(s: GameState, e: ev.Passed, w: Writer) -> None:
    s.passes += 1
    if e.phase == "charge":
        w.player(s, e.seat).charge_done = True


def _untapped(s: GameState, e: ev.Untapped, w: Writer) -> None:
    for uid in e.units:
        w.unit(s, uid).tapped = False


def _tapped(s: GameState, e: ev.Tapped, w: Writer) -> None:
    for uid in e.units:
        w.unit(s, uid).tapped = True


def _converted(s: GameState, e: ev.CardConverted, w: Writer) -> None:
    _remove_one(w.zone(s, e.seat, "hand"), e.card)
    w.zone(s, e.seat, "ether_area").append(e.card)
    s.passes = 0


def _ether_effect(s: GameState, e: ev.EtherEffectFired, w: Writer) -> None:
    w.zone(s, e.seat, "ether_effects_used").append(e.card)


def _spell_cast(s: GameState, e: ev.SpellCast, w: Writer) -> None:
    _remove_one(w.zone(s, e.seat, "hand"), e.card)
    w.player(s, e.seat).ether -= e.cost
    s.passes = 0


def _spell_resolved(s: GameState, e: ev.SpellResolved, w: Writer) -> None:
    w.zone(s, e.seat, "cemetery").append(e.card)


def _skill_used(s: GameState, e: ev.SkillUsed, w: Writer) -> None:
    p = w.player(s, e.seat)
    p.ether -= e.cost
    unit = w.unit(s, e.unit)
    if e.taps:
        unit.tapped = True
    if e.kind in ("support", "leader") and not e.triggered:
        unit.support_used.append(e.skill)
    if e.uses_right:
        p.astral_rights -= 1
    if not e.triggered:
        s.passes = 0


def _attack_pending(s: GameState, e: ev.AttackPending, w: Writer) -> None:
    s.pending = build.PendingAttack(
        attacker=e.attacker,
        user=e.user,
        skill=e.skill,
        source=e.source,
        target=e.target,
        ally_target=e.ally_target,
        defender=e.defender,
        rolls=dict(e.rolls),
    )
    s.phase = "block"
    s.active = e.defender


def _block(s: GameState, e: ev.BlockDeclared, w: Writer) -> None:
    w.unit(s, e.blocker).tapped = True


def _attack_resolved(s: GameState, e: ev.AttackResolved, w: Writer) -> None:
    s.pending = None
    s.phase = "main"


def _damage(s: GameState, e: ev.DamageDealt, w: Writer) -> None:
    w.unit(s, e.target).hp = e.hp_after


def _sephirot(s: GameState, e: ev.SephirotChecked, w: Writer) -> None:
    if e.broken:
        unit = w.unit(s, e.unit)
        unit.equipment = None
        w.zone(s, unit.owner, "cemetery").append(e.card)


def _healed(s: GameState, e: ev.Healed, w: Writer) -> None:
    w.unit(s, e.target).hp = e.hp_after


def _knocked_out(s: GameState, e: ev.KnockedOut, w: Writer) -> None:
    s.knockouts_this_turn += 1
    unit = w.unit(s, e.unit)
    if not e.afterglow:
        unit.knocked_out = True
        return
    w.zone(s, unit.owner, "units").remove(unit)
    w.zone(s, unit.owner, "cemetery").append(unit.card)
    w.zone(s, unit.owner, "afterglow").append(unit.card)
    s.def_mods = [m for m in s.def_mods if m.unit != unit.uid]


def _def_changed(s: GameState, e: ev.DefChanged, w: Writer) -> None:
    s.def_mods.append(
        build.DefModifier(unit=e.unit, amount=e.amount, controller=e.controller, until=e.until, remaining=e.remaining)
    )


def _def_expired(s: GameState, e: ev.DefChangesExpired, w: Writer) -> None:
    if e.until == "turn":
        s.def_mods = [m for m in s.def_mods if m.until != "turn"]
        return
    kept: list[DefModifier] = []
    for m in s.def_mods:
        if m.until == "starts" and m.controller == e.controller:
            if m.remaining <= 1:
                continue
            m = m._shallow(remaining=m.remaining - 1)  # replaced, never changed: it may be shared
        kept.append(m)
    s.def_mods = kept


def _continuing_started(s: GameState, e: ev.ContinuingStarted, w: Writer) -> None:
    s.continuing.append(
        build.Continuing(
            id=e.id,
            controller=e.controller,
            source=e.source,
            effects=e.effects,
            remaining=e.remaining,
            self_unit=e.self_unit,
            target=e.target,
            ally_target=e.ally_target,
        )
    )
    s.next_id = max(s.next_id, e.id + 1)


def _continuing_ticked(s: GameState, e: ev.ContinuingTicked, w: Writer) -> None:
    if e.remaining <= 0:
        s.continuing = [c for c in s.continuing if c.id != e.id]
        return
    s.continuing = [c._shallow(remaining=e.remaining) if c.id == e.id else c for c in s.continuing]


def _manual(s: GameState, e: ev.ManualEffect, w: Writer) -> None:
    if e.look > 0:
        s.deck_look = build.DeckLook(seat=e.seat, card=e.card, count=e.look)


def _deck_looked(s: GameState, e: ev.DeckLooked, w: Writer) -> None:
    if s.deck_look is not None:  # replaced, never changed: it may be shared with the input state
        s.deck_look = s.deck_look._shallow(looked=True)


def _adjust_requested(s: GameState, e: ev.AdjustRequested, w: Writer) -> None:
    s.pending_adjust = build.PendingAdjust(
        seat=e.seat, owner=e.owner, subject=e.subject, field=e.field, value=e.new, note=e.note
    )


def _adjust_rejected(s: GameState, e: ev.AdjustRejected, w: Writer) -> None:
    s.pending_adjust = None


def _adjusted(s: GameState, e: ev.Adjusted, w: Writer) -> None:
    if e.confirmed_by is not None:
        s.pending_adjust = None
    if e.field == "deck_top":
        s.deck_look = None  # the cards looked at are back on the deck: the look is over
    if e.field == "hp":
        w.unit(s, e.subject).hp = e.new
    elif e.field == "tapped":
        w.unit(s, e.subject).tapped = bool(e.new)
    elif e.field == "def_turn":
        unit = w.unit(s, e.subject)
        controller = e.seat if e.moderator is None else unit.owner
        s.def_mods.append(build.DefModifier(unit=unit.uid, amount=e.new, controller=controller, until="turn"))
    elif e.field == "resonance":
        w.aura(s, e.subject).resonance = e.new
    else:
        seat = s.seat_of(e.subject)
        if seat is None:
            raise ValueError(f"event names unknown player {e.subject}")
        if e.field == "ether":
            w.player(s, seat).ether = e.new
        elif e.field == "discard":
            hand, cemetery = w.zone(s, seat, "hand"), w.zone(s, seat, "cemetery")
            for card in e.cards:
                hand.remove(card)
                cemetery.append(card)
        elif e.field == "deck_top":
            w.zone(s, seat, "deck")[: len(e.cards)] = e.cards
        else:
            w.player(s, seat).astral_rights = e.new


def _resonance(s: GameState, e: ev.ResonanceReset, w: Writer) -> None:
    for uid, value in e.auras:
        w.aura(s, uid).resonance = value


def _resonance_raised(s: GameState, e: ev.ResonanceRaised, w: Writer) -> None:
    w.aura(s, e.aura).resonance = e.value


def _summoned(s: GameState, e: ev.Summoned, w: Writer) -> None:
    _remove_one(w.zone(s, e.seat, "hand"), e.card)
    w.player(s, e.seat).ether -= e.cost
    card = s.cards[e.card]
    if isinstance(card, Follower):
        w.zone(s, e.seat, "units").append(
            build.Unit(
                uid=e.uid, card=e.card, owner=e.seat, kind="follower", hp=card.hp, max_hp=card.hp, defense=card.defense
            )
        )
    else:
        w.zone(s, e.seat, "auras").append(build.Aura(uid=e.uid, card=e.card, owner=e.seat, resonance=0))
    s.next_id += 1
    s.passes = 0


def _game_ended(s: GameState, e: ev.GameEnded, w: Writer) -> None:
    s.phase = "over"
    s.active = None
    s.pending = None
    s.winner = e.winner
    s.end_reason = e.reason
    s.pending_adjust = None
    s.deck_look = None


def _nothing(s: GameState, e: Any, w: Writer) -> None:
    """Events that only inform (dice, manual effects, ...): the state does not change."""


FOLD: dict[type[Any], Callable[[GameState, Any, Writer], None]] = {
    ev.GameStarted: _game_started,
    ev.DiceRolled: _nothing,
    ev.FirstPlayerChosen: _first_player,
    ev.DeckShuffled: _shuffled,
    ev.DeckRebuilt: _rebuilt,
    ev.CardsDrawn: _drawn,
    ev.EtherGained: _ether_gained,
    ev.EtherEmptied: _ether_emptied,
    ev.TurnStarted: _turn_started,
    ev.PhaseStarted: _phase_started,
    ev.PriorityGiven: _priority,
    ev.Passed: _passed,
    ev.Untapped: _untapped,
    ev.Tapped: _tapped,
    ev.CardConverted: _converted,
    ev.EtherEffectFired: _ether_effect,
    ev.SpellCast: _spell_cast,
    ev.SpellResolved: _spell_resolved,
    ev.SkillUsed: _skill_used,
    ev.SkillSkipped: _nothing,
    ev.AttackPending: _attack_pending,
    ev.BlockDeclared: _block,
    ev.BlockDeclined: _nothing,
    ev.AttackResolved: _attack_resolved,
    ev.DamageDealt: _damage,
    ev.SephirotChecked: _sephirot,
    ev.Healed: _healed,
    ev.KnockedOut: _knocked_out,
    ev.DefChanged: _def_changed,
    ev.DefChangesExpired: _def_expired,
    ev.ContinuingStarted: _continuing_started,
    ev.ContinuingTicked: _continuing_ticked,
    ev.ManualEffect: _manual,
    ev.Adjusted: _adjusted,
    ev.AdjustRequested: _adjust_requested,
    ev.AdjustRejected: _adjust_rejected,
    ev.DeckLooked: _deck_looked,
    ev.ResonanceRaised: _resonance_raised,
    ev.ResonanceReset: _resonance,
    ev.Summoned: _summoned,
    ev.Conceded: _nothing,
    ev.GameEnded: _game_ended,
}


def fold(state: GameState, event: Any, writer: Writer = IN_PLACE) -> None:
    """Apply one event to `state` (in place, or copy on write with a Writer of `apply`)."""
    FOLD[type(event)](state, event, writer)


def fold_all(state: GameState, events: Iterable[Any]) -> GameState:
    for event in events:
        FOLD[type(event)](state, event, IN_PLACE)
    return state
