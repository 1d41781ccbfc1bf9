"""One handler per action: check everything first (RuleViolation, nothing drawn, nothing emitted), then act."""

from __future__ import annotations

from bot.catalog.cards import Arcastella, AuraCompolta, Follower, Skill, Spell
from bot.catalog.effects import DamageEffect
from bot.engine import actions as act
from bot.engine import events as ev
from bot.engine.context import Ctx, end_game, gain_ether, opponent
from bot.engine.effects import Source, knock_out, raise_resonance, resolve
from bot.engine.errors import RuleViolation
from bot.engine.naming import card_name, printed_name, unit_name
from bot.engine.phases import after_charge_step, after_main_action, after_main_pass, after_window_pass
from bot.engine.state import GameState, PendingAdjust, Unit
from bot.engine.targets import check_targets
from bot.errors import Named
from bot.i18n import t

MAIN_TIMINGS_OWN = frozenset({"own_turn", "any"})
MAIN_TIMINGS_OTHER = frozenset({"opponent_turn", "any"})


# ---- common checks -------------------------------------------------------------------------------


def seat_of(state: GameState, player: str) -> int:
    if not state.started:
        raise RuleViolation("engine.not_started")
    if state.over:
        raise game_over(state)
    seat = state.seat_of(player)
    if seat is None:
        raise RuleViolation("engine.not_a_player", player=player)
    return seat


def game_over(state: GameState) -> RuleViolation:
    """The refusal of any action on a finished table: this game is over, who won and how, and that
    /game start begins a new one. A front end that finds the channel's last game finished raises it too."""
    if state.winner is None or state.end_reason is None:  # ended by /game end: nobody won
        return RuleViolation("engine.game_over_no_winner")
    key = f"engine.end_reason.{state.end_reason}"
    how = Named(t(key, "ja"), t(key, "en"))
    return RuleViolation("engine.game_over", winner=state.players[state.winner].name, how=how)


def field_name(field: str) -> Named:
    """An /adjust field as a player reads it, in both languages."""
    return Named(t(f"engine.field.{field}", "ja"), t(f"engine.field.{field}", "en"))


def _untap(state: GameState) -> Named:
    """The table's untap option, as `/game status` prints it, with its meaning (house rule 3)."""
    key = f"engine.untap.{state.options.untap}"
    return Named(t(key, "ja"), t(key, "en"))


def require_active(state: GameState, seat: int) -> None:
    if state.active != seat:
        if state.phase == "block":
            raise RuleViolation("engine.waiting_for_block")
        raise RuleViolation("engine.not_your_priority")


def in_window(state: GameState) -> bool:
    """The start or end phase is waiting for the turn player's turn-start / turn-end spells."""
    return state.phase in ("start", "end") and state.active is not None


def require_main_or_window(state: GameState) -> None:
    if state.phase == "block":
        raise RuleViolation("engine.waiting_for_block")
    if state.phase != "main" and not in_window(state):
        raise RuleViolation("engine.not_main_phase")


def check_timing(state: GameState, seat: int, timing: str, what: Skill | Spell | Follower | AuraCompolta) -> None:
    """Timing windows: [自分のターン] / [相手のターン] / [好きなタイミング] in the main phase, and house rule 19."""
    if state.phase == "start":
        ok = timing == "turn_start"
    elif state.phase == "end":
        ok = timing == "turn_end"
    elif timing == "knockout":
        ok = state.knockouts_this_turn > 0
    else:
        ok = timing in (MAIN_TIMINGS_OWN if seat == state.turn_player else MAIN_TIMINGS_OTHER)
    if not ok:
        raise RuleViolation(f"engine.wrong_timing.{timing}", what=printed_name(what))


def own_arcastella(state: GameState, seat: int, uid: str) -> tuple[Unit, Arcastella]:
    unit = state.find_unit(uid)
    if unit is None:
        raise RuleViolation("engine.unknown_unit", unit=uid)
    if unit.owner != seat:
        raise RuleViolation("engine.not_your_unit", unit=unit_name(state, uid))
    card = state.cards[unit.card]
    if not isinstance(card, Arcastella):
        raise RuleViolation("engine.not_arcastella", unit=unit_name(state, uid))
    if unit.knocked_out:
        raise RuleViolation("engine.unit_knocked_out", unit=unit_name(state, uid))
    return unit, card


def check_caster(state: GameState, seat: int, uid: str) -> Unit:
    """The named Arcastella that casts a spell or plays a card (【重要】 the caster must be named)."""
    unit, _ = own_arcastella(state, seat, uid)
    if unit.tapped and not state.options.tapped_may_act:
        raise RuleViolation("engine.tapped_may_not_act", unit=unit_name(state, uid))
    return unit


def card_in_hand(state: GameState, seat: int, card_id: str) -> None:
    if card_id not in state.players[seat].hand:
        raise RuleViolation("engine.card_not_in_hand", card=card_name(state.cards, card_id), card_id=card_id)


def check_ether(state: GameState, seat: int, cost: int) -> None:
    have = state.players[seat].ether
    if cost > have:  # house rule 10: a cost is paid in full or the action is refused
        raise RuleViolation("engine.not_enough_ether", need=cost, have=have)


def ether_effect_allowed(state: GameState, seat: int, card_id: str) -> bool:
    """House rule 7: what "once per turn" of ether effects counts."""
    mode = state.options.ether_effect_limit
    if mode == "per_player":
        return not state.players[seat].ether_effects_used
    if mode == "per_card":
        return card_id not in state.players[seat].ether_effects_used
    return not any(p.ether_effects_used for p in state.players)


# ---- charge phase --------------------------------------------------------------------------------


def charge(ctx: Ctx, a: act.Charge) -> None:
    state = ctx.state
    seat = seat_of(state, a.player)
    if state.phase != "charge":
        raise RuleViolation("engine.not_charge_phase")
    if not state.options.charge_rejoin and state.players[seat].charge_done:
        raise RuleViolation("engine.charge_already_passed")  # house rule 6, charge_rejoin off
    require_active(state, seat)
    card_in_hand(state, seat, a.card)
    card = state.cards[a.card]
    if not isinstance(card, Spell):
        raise RuleViolation("engine.not_a_spell", card=card_name(state.cards, a.card), card_id=a.card)
    wanted = a.use_ether_effect and bool(card.ether_effect)
    fire = wanted and ether_effect_allowed(state, seat, a.card)
    target = ally = None
    if fire:
        try:
            target, ally = check_targets(state, seat, card.ether_effect, a.target, a.ally_target)
        except RuleViolation as exc:
            if exc.message_key not in ("engine.target_required_enemy", "engine.target_required_ally"):
                raise
            # Converting without the effect is also allowed: say so, not just "name a target".
            raise RuleViolation(
                "engine.ether_effect_needs_target", card=card_name(state.cards, a.card), card_id=a.card
            ) from None
    elif a.target is not None or a.ally_target is not None:
        raise RuleViolation("engine.no_target_needed", target=unit_name(state, a.target or a.ally_target))
    ctx.emit(ev.CardConverted(seat=seat, card=a.card, ether=card.cost))
    if wanted and not fire:  # the table's once-per-turn count (house rule 7) is used up: say so
        ctx.emit(ev.EtherEffectNotFired(seat=seat, card=a.card, limit=state.options.ether_effect_limit))
    gain_ether(ctx, seat, card.cost, "conversion")
    raise_resonance(ctx, seat, "ether_conversion")
    if fire and not state.over:
        ctx.emit(ev.EtherEffectFired(seat=seat, card=a.card))
        leader = state.players[seat].leader
        resolve(
            ctx, card.ether_effect, Source(seat, "ether", a.card, self_unit=leader, target=target, ally_target=ally)
        )
    if not state.over:
        after_charge_step(ctx)


def pass_(ctx: Ctx, a: act.Pass) -> None:
    state = ctx.state
    seat = seat_of(state, a.player)
    if state.phase == "block":
        raise RuleViolation("engine.waiting_for_block")
    if state.phase not in ("charge", "main") and not in_window(state):
        raise RuleViolation("engine.nothing_to_pass")
    require_active(state, seat)
    ctx.emit(ev.Passed(seat=seat, phase=state.phase))
    if state.phase == "charge":
        after_charge_step(ctx)
    elif state.phase == "main":
        after_main_pass(ctx)
    else:
        after_window_pass(ctx)


# ---- main phase ----------------------------------------------------------------------------------


def cast(ctx: Ctx, a: act.Cast) -> None:
    state = ctx.state
    seat = seat_of(state, a.player)
    require_main_or_window(state)
    require_active(state, seat)
    card_in_hand(state, seat, a.card)
    card = state.cards[a.card]
    if not isinstance(card, Spell):
        raise RuleViolation("engine.not_a_spell", card=card_name(state.cards, a.card), card_id=a.card)
    check_timing(state, seat, card.timing, card)
    caster = check_caster(state, seat, a.caster)
    check_ether(state, seat, card.cost)
    target, ally = check_targets(state, seat, card.effects, a.target, a.ally_target)
    ctx.emit(ev.SpellCast(seat=seat, card=a.card, caster=caster.uid, cost=card.cost, target=target, ally_target=ally))
    raise_resonance(ctx, seat, "spell_cast")
    resolve(ctx, card.effects, Source(seat, "spell", a.card, self_unit=caster.uid, target=target, ally_target=ally))
    # to the cemetery even when it ended the game: a card never leaves every zone
    ctx.emit(ev.SpellResolved(seat=seat, card=a.card))
    if not state.over:
        _after_action(ctx, seat)


def summon(ctx: Ctx, a: act.Summon) -> None:
    state = ctx.state
    seat = seat_of(state, a.player)
    require_main_or_window(state)
    require_active(state, seat)
    card_in_hand(state, seat, a.card)
    card = state.cards[a.card]
    if not isinstance(card, Follower | AuraCompolta):
        raise RuleViolation("engine.not_playable", card=card_name(state.cards, a.card), card_id=a.card)
    check_timing(state, seat, card.timing, card)
    check_caster(state, seat, a.caster)
    check_ether(state, seat, card.cost)
    prefix = "f" if isinstance(card, Follower) else "a"
    uid = f"p{seat + 1}.{prefix}{state.next_id}"
    ctx.emit(ev.Summoned(seat=seat, card=a.card, uid=uid, caster=a.caster, cost=card.cost))
    if isinstance(card, Follower) and card.effects:
        resolve(ctx, card.effects, Source(seat, "follower", card.id, self_unit=uid, text=card.text))
    _after_action(ctx, seat)


def use_skill(ctx: Ctx, a: act.UseSkill) -> None:
    state = ctx.state
    seat = seat_of(state, a.player)
    if state.phase == "block":
        raise RuleViolation("engine.waiting_for_block")
    if state.phase != "main":
        raise RuleViolation("engine.not_main_phase")
    require_active(state, seat)
    unit, card = own_arcastella(state, seat, a.unit)
    skill = card.skill(a.skill)
    if skill is None:
        raise RuleViolation("engine.unknown_skill", unit=unit_name(state, a.unit), skill=a.skill)
    if skill.timing in ("turn_start", "turn_end", "knockout"):
        raise RuleViolation("engine.skill_triggers_itself", skill=printed_name(skill))
    check_timing(state, seat, skill.timing, skill)
    player = state.players[seat]
    uses_right = False
    if skill.kind in ("attack", "astral"):
        if unit.tapped:  # house rules 9 and 3: no attack while tapped; it untaps at a start phase
            raise RuleViolation("engine.tapped_cannot_attack", unit=unit_name(state, a.unit), untap=_untap(state))
        if skill.kind == "astral" and state.options.astral_right == "deck_rebuild":
            if player.astral_rights <= 0:
                raise RuleViolation("engine.no_astral_right")
            uses_right = True
    else:
        if skill.kind == "leader" and player.leader != unit.uid:
            raise RuleViolation("engine.not_leader", unit=unit_name(state, a.unit))
        if _support_used(card, unit, skill):
            raise RuleViolation("engine.support_used", unit=unit_name(state, a.unit))
        if unit.tapped and not state.options.tapped_may_act:
            raise RuleViolation("engine.tapped_may_not_act", unit=unit_name(state, a.unit))
    check_ether(state, seat, skill.cost)
    target, ally = check_targets(state, seat, skill.effects, a.target, a.ally_target)
    attack = skill.kind in ("attack", "astral")
    ctx.emit(
        ev.SkillUsed(
            seat=seat,
            unit=unit.uid,
            skill=skill.id,
            kind=skill.kind,
            cost=skill.cost,
            taps=attack,
            uses_right=uses_right,
            target=target,
            ally_target=ally,
        )
    )
    raise_resonance(ctx, seat, "skill_used")
    if state.over:
        return
    if attack and target is not None and _can_be_blocked(state, target):
        defender = opponent(seat)
        rolls: dict[int, int] = {}
        if state.options.block_timing == "after_roll":
            for index, effect in enumerate(skill.effects):
                if isinstance(effect, DamageEffect) and effect.dice is not None and effect.target == "chosen_enemy":
                    rolls[index] = ctx.roll(effect.dice, "damage", seat=seat).total
        ctx.emit(
            ev.AttackPending(
                attacker=seat,
                user=unit.uid,
                skill=skill.id,
                source=skill.kind,
                target=target,
                ally_target=ally,
                defender=defender,
                rolls=rolls,
            )
        )
        return
    src = Source(seat, skill.kind, card.id, self_unit=unit.uid, target=target, ally_target=ally, skill=skill.id)
    resolve(ctx, skill.effects, src)
    _after_action(ctx, seat)


def _support_used(card: Arcastella, unit: Unit, skill: Skill) -> bool:
    """Support skills: once per Arcastella per turn; an activated leader skill: once per turn."""
    if skill.kind == "leader":
        return skill.id in unit.support_used
    kinds = {s.id: s.kind for s in card.skills}
    return any(kinds.get(used) == "support" for used in unit.support_used)


def blockers(state: GameState, target: str) -> list[Unit]:
    """The defender's other untapped, standing Arcastella (house rule 11: one of them may block)."""
    unit = state.find_unit(target)
    if unit is None or unit.kind != "arcastella":
        return []
    return [
        u
        for u in state.players[unit.owner].units
        if u.kind == "arcastella" and u.uid != target and not u.tapped and not u.knocked_out
    ]


def _can_be_blocked(state: GameState, target: str) -> bool:
    return bool(blockers(state, target))


def _after_action(ctx: Ctx, seat: int) -> None:
    if ctx.state.phase == "main":
        after_main_action(ctx, seat)


# ---- block ---------------------------------------------------------------------------------------


def block(ctx: Ctx, a: act.Block) -> None:
    state = ctx.state
    seat = seat_of(state, a.player)
    pending = state.pending
    if state.phase != "block" or pending is None:
        raise RuleViolation("engine.no_attack_to_block")
    require_active(state, seat)
    allowed = {u.uid for u in blockers(state, pending.target)}
    unit = state.find_unit(a.blocker)
    if unit is None:
        raise RuleViolation("engine.unknown_unit", unit=a.blocker)
    if unit.owner != seat:
        raise RuleViolation("engine.not_your_unit", unit=unit_name(state, a.blocker))
    if a.blocker == pending.target:
        raise RuleViolation("engine.cannot_block_self", unit=unit_name(state, a.blocker))
    if unit.knocked_out:
        raise RuleViolation("engine.unit_knocked_out", unit=unit_name(state, a.blocker))
    if unit.tapped:  # the rulebook's アンタップ状態; when it untaps again is house rule 3
        raise RuleViolation("engine.tapped_cannot_block", unit=unit_name(state, a.blocker), untap=_untap(state))
    if a.blocker not in allowed:
        raise RuleViolation("engine.not_arcastella", unit=unit_name(state, a.blocker))
    ctx.emit(ev.BlockDeclared(seat=seat, blocker=a.blocker, target=pending.target))
    _resolve_attack(ctx, a.blocker)


def no_block(ctx: Ctx, a: act.NoBlock) -> None:
    state = ctx.state
    seat = seat_of(state, a.player)
    if state.phase != "block" or state.pending is None:
        raise RuleViolation("engine.no_attack_to_block")
    require_active(state, seat)
    ctx.emit(ev.BlockDeclined(seat=seat))
    _resolve_attack(ctx, None)


def _resolve_attack(ctx: Ctx, blocker: str | None) -> None:
    state = ctx.state
    pending = state.pending
    assert pending is not None
    unit = state.find_unit(pending.user)
    assert unit is not None
    card = state.cards[unit.card]
    assert isinstance(card, Arcastella)
    skill = card.skill(pending.skill)
    assert skill is not None
    src = Source(
        pending.attacker,
        pending.source,
        card.id,
        self_unit=unit.uid,
        target=pending.target,
        ally_target=pending.ally_target,
        blocker=blocker,
        rolls=dict(pending.rolls),
        skill=skill.id,
    )
    attacker = pending.attacker
    ctx.emit(ev.AttackResolved())
    resolve(ctx, skill.effects, src)
    if not state.over:
        after_main_action(ctx, attacker)


# ---- any time ------------------------------------------------------------------------------------

_ADJUST_UNIT = ("hp", "tapped", "def_turn")


def adjust(ctx: Ctx, a: act.Adjust) -> None:
    """A logged manual correction (house rule on manual effects): on one's own things at once, on the
    other player's things a request that waits for that player's confirmation."""
    state = ctx.state
    seat = seat_of(state, a.player)
    if a.field in act.CARD_FIELDS:
        _adjust_cards(ctx, seat, a)
        return
    if a.cards:
        raise RuleViolation("engine.adjust_no_cards", field=field_name(a.field))
    owner, old = _check_adjust(state, a.subject, a.field, a.value)
    if owner == seat:
        _adjusted(ctx, seat, a.subject, a.field, old, a.value, a.note)
        return
    pending = state.pending_adjust
    if pending is not None:
        raise RuleViolation("engine.adjust_already_pending", player=state.players[pending.owner].name)
    ctx.emit(
        ev.AdjustRequested(seat=seat, owner=owner, subject=a.subject, field=a.field, old=old, new=a.value, note=a.note)
    )


def _waiting(state: GameState, player: str) -> tuple[int, PendingAdjust]:
    """The seat of `player` and the adjustment request that waits for an answer (refused when none does)."""
    pending = state.pending_adjust
    if pending is None:
        raise RuleViolation("engine.no_adjust_pending")
    return seat_of(state, player), pending


def confirm_adjust(ctx: Ctx, a: act.ConfirmAdjust) -> None:
    """The owner of the subject agrees: the request takes effect now, checked against the table as it is."""
    state = ctx.state
    seat, pending = _waiting(state, a.player)
    if pending.owner != seat:
        raise RuleViolation("engine.adjust_owner_confirms", player=state.players[pending.owner].name)
    field: act.AdjustField = pending.field  # type: ignore[assignment]  # it came from an Adjust
    _, old = _check_adjust(state, pending.subject, field, pending.value)
    _adjusted(ctx, pending.seat, pending.subject, field, old, pending.value, pending.note, confirmed_by=seat)


def reject_adjust(ctx: Ctx, a: act.RejectAdjust) -> None:
    """The owner refuses the request, or its asker withdraws it: nothing changes on the board."""
    state = ctx.state
    seat, pending = _waiting(state, a.player)
    if seat not in (pending.owner, pending.seat):  # two seats: always true today, kept for clarity
        raise RuleViolation("engine.adjust_owner_confirms", player=state.players[pending.owner].name)
    field: act.AdjustField = pending.field  # type: ignore[assignment]  # it came from an Adjust
    ctx.emit(ev.AdjustRejected(seat=pending.seat, by=seat, subject=pending.subject, field=field, new=pending.value))


def moderator_adjust(ctx: Ctx, a: act.ModeratorAdjust) -> None:
    """A moderator's correction takes effect at once, on either side; never on hidden cards."""
    state = ctx.state
    if not state.started:
        raise RuleViolation("engine.not_started")
    if state.over:
        raise game_over(state)
    if a.field in act.CARD_FIELDS:
        raise RuleViolation("engine.adjust_own_cards_only")
    owner, old = _check_adjust(state, a.subject, a.field, a.value)
    _adjusted(ctx, owner, a.subject, a.field, old, a.value, a.note, moderator=a.moderator)


def _check_adjust(state: GameState, subject: str, field: act.AdjustField, value: int) -> tuple[int, int]:
    """The seat that owns the subject and the subject's value now; refuses a subject or value out of range."""
    if field in _ADJUST_UNIT:
        unit = state.find_unit(subject)
        if unit is None:
            raise RuleViolation("engine.unknown_unit", unit=subject)
        if unit.knocked_out:
            raise RuleViolation("engine.unit_knocked_out", unit=unit_name(state, subject))
        if field == "hp":
            _in_range(value, 0, unit.max_hp)
            return unit.owner, unit.hp
        if field == "tapped":
            _in_range(value, 0, 1)
            return unit.owner, int(unit.tapped)
        if value == 0:
            raise RuleViolation("engine.adjust_out_of_range", low=-10, high=10)
        _in_range(value, -10, 10)
        # DEF changes add up: `old` is the unit's DEF change this turn so far, the value is added to it.
        return unit.owner, sum(m.amount for m in state.def_mods if m.unit == unit.uid and m.until == "turn")
    if field == "resonance":
        aura = state.find_aura(subject)
        if aura is None:
            raise RuleViolation("engine.unknown_unit", unit=subject)
        card = state.cards[aura.card]
        assert isinstance(card, AuraCompolta)
        _in_range(value, 0, card.resonance_max)
        return aura.owner, aura.resonance
    target_seat = state.seat_of(subject)
    if target_seat is None:
        raise RuleViolation("engine.not_a_player", player=subject)
    player = state.players[target_seat]
    if field == "ether":
        _in_range(value, 0, state.options.ether_cap or 99)
        return target_seat, player.ether
    _in_range(value, 0, 9)
    return target_seat, player.astral_rights


def _adjusted(
    ctx: Ctx,
    seat: int,
    subject: str,
    field: act.AdjustField,
    old: int,
    new: int,
    note: str,
    *,
    confirmed_by: int | None = None,
    moderator: str | None = None,
) -> None:
    ctx.emit(
        ev.Adjusted(
            seat=seat,
            subject=subject,
            field=field,
            old=old,
            new=new,
            note=note,
            confirmed_by=confirmed_by,
            moderator=moderator,
        )
    )
    if field == "hp" and new == 0:
        unit = ctx.state.find_unit(subject)
        assert unit is not None
        knock_out(ctx, unit)


def look_at_deck(ctx: Ctx, a: act.LookAtDeck) -> None:
    """Only while a manual effect that says so is applied, by its controller, up to the number it names."""
    state = ctx.state
    seat = seat_of(state, a.player)
    look = state.deck_look
    if look is None or look.seat != seat:
        raise RuleViolation("engine.no_deck_look")
    most = min(look.count, len(state.players[seat].deck))
    if not 1 <= a.count <= most:
        raise RuleViolation("engine.deck_look_count", most=most, card=card_name(state.cards, look.card))
    ctx.emit(ev.DeckLooked(seat=seat, count=a.count, card=look.card))


def _adjust_cards(ctx: Ctx, seat: int, a: act.Adjust) -> None:
    """Discard from hand / reorder the top of the deck: only a player's own hidden cards, by that player."""
    state = ctx.state
    owner = state.seat_of(a.subject)
    if owner is None:
        raise RuleViolation("engine.not_a_player", player=a.subject)
    if owner != seat:
        raise RuleViolation("engine.adjust_own_cards_only")
    player = state.players[seat]
    if a.field == "discard":
        if len(a.cards) != 1:
            raise RuleViolation("engine.discard_names_one_card")
        card_in_hand(state, seat, a.cards[0])
        _in_range(a.value, 1, player.hand.count(a.cards[0]))
        old, new, cards = len(player.hand), len(player.hand) - a.value, a.cards * a.value
    else:
        look = state.deck_look
        if look is None or look.seat != seat or not look.looked:  # only cards an effect let them see
            raise RuleViolation("engine.deck_top_needs_look")
        _in_range(a.value, 1, min(look.count, len(player.deck)))
        top = player.deck[: a.value]
        if len(a.cards) != a.value or sorted(a.cards) != sorted(top):
            raise RuleViolation("engine.deck_top_same_cards", count=a.value)
        old, new, cards = a.value, a.value, a.cards
    ctx.emit(ev.Adjusted(seat=seat, subject=a.subject, field=a.field, old=old, new=new, note=a.note, cards=cards))


def _in_range(value: int, low: int, high: int) -> None:
    if not low <= value <= high:
        raise RuleViolation("engine.adjust_out_of_range", low=low, high=high)


def concede(ctx: Ctx, a: act.Concede) -> None:
    state = ctx.state
    seat = seat_of(state, a.player)
    ctx.emit(ev.Conceded(seat=seat))
    end_game(ctx, opponent(seat), "concession")
