"""Resolving the effect vocabulary: damage, heal, draw, ether, tap, untap, DEF changes, 【継続】, manual.

Also the consequences that follow from effects: knock-outs (and the leader's loss), knock-out
triggers, Sephirot codes breaking, and resonance of Aura Compolta.
"""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass, field

from bot.catalog.cards import Arcastella, AuraCompolta, Follower, SephirotCode
from bot.catalog.effects import (
    ContinuingEffect,
    DamageEffect,
    DrawEffect,
    Effect,
    GainEtherEffect,
    HealEffect,
    ManualEffect,
    ModifyDefEffect,
    TapEffect,
    UntapEffect,
)
from bot.engine import events as ev
from bot.engine.context import Ctx, draw_cards, end_game, gain_ether, opponent
from bot.engine.damage import deal_damage
from bot.engine.looks import look_count
from bot.engine.state import SourceKind, Unit


@dataclass(slots=True)
class Source:
    """Who controls the effects, where they come from, and the choices made when they were used."""

    controller: int
    kind: SourceKind
    card: str
    self_unit: str | None = None
    target: str | None = None
    ally_target: str | None = None
    blocker: str | None = None  # chosen_enemy effects of a blocked attack reach this unit instead
    rolls: dict[int, int] = field(default_factory=dict)  # effect index -> damage rolled before the block
    text: str = ""  # shown when an effect needs a choice nobody could make (triggers)
    skill: str | None = None  # the skill of `card` whose effects these are (None: the card's own)


def _units(ctx: Ctx, src: Source, target: str) -> list[Unit]:
    """The live units `target` names for this source."""
    state = ctx.state
    if target == "chosen_enemy":
        uid = src.blocker or src.target
    elif target == "chosen_ally":
        uid = src.ally_target
    elif target == "self":
        uid = src.self_unit
    else:
        seat = src.controller if target == "all_allies" else opponent(src.controller)
        return [u for u in state.players[seat].units if not u.knocked_out]
    unit = state.find_unit(uid) if uid is not None else None
    return [unit] if unit is not None and not unit.knocked_out else []


def _player(src: Source, who: str) -> int:
    return src.controller if who == "controller" else opponent(src.controller)


def resolve(ctx: Ctx, effects: Iterable[Effect], src: Source) -> None:
    """Resolve effects in printed order; stop as soon as the game is over."""
    for index, effect in enumerate(effects):
        if ctx.state.over:
            return
        _resolve_one(ctx, index, effect, src)


def _needs_missing_choice(effect: Effect, src: Source) -> bool:
    target = getattr(effect, "target", None)
    return (target == "chosen_enemy" and src.target is None) or (target == "chosen_ally" and src.ally_target is None)


def _resolve_one(ctx: Ctx, index: int, effect: Effect, src: Source) -> None:
    if _needs_missing_choice(effect, src):
        # A trigger cannot ask for a choice: the players apply it by hand (house rule 19).
        ctx.emit(ev.ManualEffect(seat=src.controller, card=src.card, text=src.text or src.card))
        return
    if isinstance(effect, DamageEffect):
        _damage(ctx, index, effect, src)
    elif isinstance(effect, HealEffect):
        for unit in _units(ctx, src, effect.target):
            hp_after = min(unit.max_hp, unit.hp + effect.amount)
            if hp_after > unit.hp:  # a unit at full HP gets no "healed by 0" line
                ctx.emit(ev.Healed(target=unit.uid, amount=hp_after - unit.hp, hp_after=hp_after))
    elif isinstance(effect, DrawEffect):
        draw_cards(ctx, _player(src, effect.player), effect.count, card=src.card, skill=src.skill)
    elif isinstance(effect, GainEtherEffect):
        gain_ether(ctx, _player(src, effect.player), effect.amount, "effect")
    elif isinstance(effect, TapEffect):
        units = tuple(u.uid for u in _units(ctx, src, effect.target) if not u.tapped)
        if units:
            ctx.emit(ev.Tapped(units=units))
    elif isinstance(effect, UntapEffect):
        units = tuple(u.uid for u in _units(ctx, src, effect.target) if u.tapped)
        if units:
            ctx.emit(ev.Untapped(units=units))
    elif isinstance(effect, ModifyDefEffect):
        for unit in _units(ctx, src, effect.target):
            ctx.emit(
                ev.DefChanged(
                    unit=unit.uid,
                    amount=effect.amount,
                    controller=src.controller,
                    until="turn" if effect.duration == "turn" else "starts",
                    remaining=effect.count or 0,
                    card=src.card,
                    skill=src.skill,
                )
            )
    elif isinstance(effect, ContinuingEffect):
        ctx.emit(
            ev.ContinuingStarted(
                id=ctx.state.next_id,
                controller=src.controller,
                source=src.card,
                effects=effect.effects,
                remaining=effect.count,
                self_unit=src.self_unit,
                target=src.blocker or src.target,
                ally_target=src.ally_target,
            )
        )
    elif isinstance(effect, ManualEffect):
        look = look_count(effect.text, effect.text_en)
        ctx.emit(
            ev.ManualEffect(seat=src.controller, card=src.card, text=effect.text, text_en=effect.text_en, look=look)
        )


def _damage(ctx: Ctx, index: int, effect: DamageEffect, src: Source) -> None:
    targets = _units(ctx, src, effect.target)
    if index in src.rolls:
        amount = src.rolls[index]
    elif effect.dice is not None:
        amount = ctx.roll(effect.dice, "damage", seat=src.controller).total
    else:
        amount = effect.amount or 0
    hit_enemy = False
    for listed in targets:
        if ctx.state.over:
            return
        # Again for each unit: a knock-out trigger of an earlier one may have healed, hurt or removed it.
        unit = ctx.state.find_unit(listed.uid)
        if unit is None or unit.knocked_out:
            continue
        blocker = src.blocker is not None and unit.uid == src.blocker
        outcome = deal_damage(ctx, unit, amount, src.kind, src.card, blocker=blocker)
        hit_enemy = hit_enemy or (outcome.final > 0 and unit.owner != src.controller)
        if outcome.broken_code is not None:
            _code_broke(ctx, unit, outcome.broken_code)
        current = ctx.state.find_unit(unit.uid)
        if outcome.knocked_out and current is not None and current.hp == 0 and not current.knocked_out:
            knock_out(ctx, current)
    if hit_enemy and not ctx.state.over:
        raise_resonance(ctx, src.controller, "damage_dealt")


def _code_broke(ctx: Ctx, wearer: Unit, code: SephirotCode) -> None:
    if code.on_break:
        resolve(ctx, code.on_break, Source(wearer.owner, "sephirot", code.id, self_unit=wearer.uid, text=code.text))


def knock_out(ctx: Ctx, unit: Unit) -> None:
    """Step 5: knocked out; the leader's loss; then knock-out triggers (戦闘脱落時)."""
    state = ctx.state
    card = state.cards[unit.card]
    follower = isinstance(card, Follower)
    ctx.emit(ev.KnockedOut(unit=unit.uid, afterglow=follower))
    if not follower and state.players[unit.owner].leader == unit.uid:
        end_game(ctx, opponent(unit.owner), "leader_knocked_out")
        return
    if isinstance(card, Arcastella):
        fire_skills(ctx, unit, "knockout")
        _leader_sees_knockout(ctx, unit)
    elif isinstance(card, Follower):
        for trigger in card.triggers:
            if trigger.timing == "knockout" and not state.over:
                resolve(
                    ctx, trigger.effects, Source(unit.owner, "knockout", card.id, self_unit=unit.uid, text=card.text)
                )


def _leader_sees_knockout(ctx: Ctx, fallen: Unit) -> None:
    """A leader skill at 戦闘脱落時 fires when another Arcastella of its side is knocked out (house rule
    15): the leader's own knock-out ends the game before any trigger, so it could never fire otherwise."""
    state = ctx.state
    leader = state.find_unit(state.players[fallen.owner].leader)
    if leader is not None and leader.uid != fallen.uid and not leader.knocked_out and not state.over:
        fire_skills(ctx, leader, "knockout", only_leader=True)


def fire_skills(ctx: Ctx, unit: Unit, timing: str, *, only_leader: bool = False) -> None:
    """Triggered skills of one Arcastella at `timing`: paid when affordable, skipped otherwise."""
    state = ctx.state
    card = state.cards[unit.card]
    if not isinstance(card, Arcastella):
        return
    player = state.players[unit.owner]
    for skill in card.skills:
        if state.over:
            return
        if skill.timing != timing or (skill.kind == "leader" and player.leader != unit.uid):
            continue
        if only_leader and skill.kind != "leader":
            continue
        if skill.cost > player.ether:
            ctx.emit(ev.SkillSkipped(seat=unit.owner, unit=unit.uid, skill=skill.id, cost=skill.cost))
            continue
        ctx.emit(
            ev.SkillUsed(
                seat=unit.owner,
                unit=unit.uid,
                skill=skill.id,
                kind=skill.kind,
                cost=skill.cost,
                taps=False,
                triggered=True,
            )
        )
        kind: SourceKind = "knockout" if timing == "knockout" else skill.kind
        resolve(
            ctx, skill.effects, Source(unit.owner, kind, card.id, self_unit=unit.uid, text=skill.text, skill=skill.id)
        )


def fire_followers(ctx: Ctx, seat: int, timing: str) -> None:
    state = ctx.state
    for unit in list(state.players[seat].units):
        card = state.cards[unit.card]
        if not isinstance(card, Follower) or state.find_unit(unit.uid) is None:
            continue
        for trigger in card.triggers:
            if trigger.timing == timing and not state.over:
                resolve(ctx, trigger.effects, Source(seat, "follower", card.id, self_unit=unit.uid, text=card.text))


def raise_resonance(ctx: Ctx, seat: int, what: str) -> None:
    """One `what` of this player raises each of their matching Aura Compolta by one (stops at the max)."""
    state = ctx.state
    player = state.players[seat]
    for uid in [a.uid for a in player.auras]:
        aura = state.find_aura(uid)  # again each time: a resolved aura may have raised another
        if state.over or aura is None:
            return
        card = state.cards[aura.card]
        if not isinstance(card, AuraCompolta) or card.resonates_on != what or aura.resonance >= card.resonance_max:
            continue
        value = aura.resonance + 1
        ctx.emit(ev.ResonanceRaised(aura=aura.uid, value=value))
        if value == card.resonance_max:
            resolve(ctx, card.effects, Source(seat, "aura", card.id, self_unit=player.leader, text=card.text))
