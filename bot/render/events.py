"""The public log: one line per event a player needs to see, in one locale.

Nothing is folded here: each event carries the values its line needs (HP, ether, hand and deck after
it, the DEF a hit met), and names come from the table the events followed plus what they introduce
(bot/render/names.py). An event of an older log that lacks such a value gets the line without it.
Where the rulebook is silent and this table's house rule decided what happened, the line names the
rule and the table's option value (docs/house-rules.md). Hidden information stays hidden: a draw
says how many cards, never which; a shuffle says how many cards and its draw number, never the
order; a manual reorder of the top of a deck, only how many.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Callable, Iterable
from typing import Any

from bot.catalog.cards import AuraCompolta
from bot.engine import events as ev
from bot.engine.state import GameState
from bot.i18n import t
from bot.render.message import Message
from bot.render.names import Names, card_label
from bot.table.entries import Logged

Line = Callable[[Any, Names], str | None]


def render_events(
    events: Iterable[Logged], before: GameState | None, locale: str, *, practice: bool = False
) -> list[str]:
    """The public lines of `events`, which happened to the table `before` (None: an empty table).

    Table entries of the service (undo, rollback, end) are rendered too. `practice`: the events are of a
    judge's practice table (a `position_loaded` among them says so too), whose dice were given, not rolled.
    """
    names = Names(before, locale)
    lines: list[str] = []
    previous: Any = None
    for event in events:
        kind = type(event)
        if kind in _ENGINE_LINES:
            names.introduce(event)
            practice = practice or kind is ev.PositionLoaded
            if isinstance(event, ev.DiceRolled) and practice:
                line: str | None = _given_dice(event, names)
            elif isinstance(event, ev.Untapped) and isinstance(previous, ev.TurnStarted):
                line = _start_untap(event, names)  # the start phase's own untap: house rule 3
            else:
                line = _ENGINE_LINES[kind](event, names)
        else:
            line = _table_line(event, names)
        previous = event
        if line:
            lines.append(line)
    return lines


def render_log(events: Iterable[Any], locale: str, title: str | None = None) -> Message:
    """A whole game's log from its first event."""
    return Message(title=title, lines=render_events(events, None, locale))


def _l(key: str, names: Names, **args: Any) -> str:
    return t(f"render.log.{key}", names.locale, **args)


def _game_started(e: ev.GameStarted, n: Names) -> str:
    lines = [_l("game_started", n, first=e.players[0].name, second=e.players[1].name)]
    for spec in e.players:
        units = [_l("lineup_leader", n, name=n.card(c)) if c == spec.leader else n.card(c) for c in spec.arcastella]
        joined = t("render.list_joiner", n.locale).join(units)
        lines.append(_l("lineup", n, player=spec.name, units=joined, deck=len(spec.deck)))
    return "\n".join(lines)


def _position_loaded(e: ev.PositionLoaded, n: Names) -> str:
    """A practice table's opening: the position, each side as the board shows it, and the given dice."""
    from bot.render.board import unit_line  # the board's own words for a unit

    locale = n.locale
    title = t("practice.log.title", locale, title=e.title) if e.title else ""
    dice = (
        t("practice.log.given", locale, faces=", ".join(str(f) for f in e.dice))
        if e.dice
        else t("practice.log.no_dice", locale)
    )
    lines = [
        t(
            "practice.log.loaded", locale, title=title, turn=e.turn, player=n.player(e.turn_player),
            phase=t(f"render.phase.{e.phase}", locale), active=n.player(e.active), dice=dice,
        )
    ]  # fmt: skip
    table = GameState(cards=n.cards, players=[p.clone() for p in e.players], def_mods=list(e.def_mods))
    for seat, player in enumerate(e.players):
        units = t("render.list_joiner", locale).join(
            unit_line(table, u, n, leader=player.leader).strip() for u in player.units
        )
        lines.append(
            t(
                "practice.log.side", locale, player=n.player(seat), units=units, hand=len(player.hand),
                deck=len(player.deck), cemetery=len(player.cemetery), ether=player.ether, rights=player.astral_rights,
            )
        )  # fmt: skip
    return "\n".join(lines)


def _given_dice(e: ev.DiceRolled, n: Names) -> str:
    """A practice table's roll: the faces the position gave, never called rolled."""
    return t(
        "practice.log.dice",
        n.locale,
        purpose=t(f"render.purpose.{e.purpose}", n.locale),
        expression=e.expression,
        faces=", ".join(str(f) for f in e.faces),
        total=e.total,
        number=(e.number or 0) + 1,
    )


def _dice(e: ev.DiceRolled, n: Names) -> str:
    number = _l("dice_number", n, number=e.number) if e.number is not None else ""
    return _l(
        "dice",
        n,
        purpose=t(f"render.purpose.{e.purpose}", n.locale),
        expression=e.expression,
        faces=", ".join(str(f) for f in e.faces),
        total=e.total,
        number=number,
    )


def _first(e: ev.FirstPlayerChosen, n: Names) -> str:
    how = _l("first_by_roll" if e.how == "roll" else "first_by_option", n)
    return _l("first_player", n, player=n.player(e.seat), how=how)


def _shuffled(e: ev.DeckShuffled, n: Names) -> str:
    number = _l("shuffle_number", n, number=e.number) if e.number is not None else ""
    return _l("shuffled", n, player=n.player(e.seat), count=len(e.order), number=number)


def _house(n: Names, rule: int, option: str | None = None) -> str:
    """` (this table's house rule N, option:value)`: what decided a line where the rulebook is silent."""
    if option is None:
        return _l("house_rule", n, rule=rule)
    return _l("house_option", n, rule=rule, option=f"{option}:{_value(getattr(n.options, option))}")


def _value(value: object) -> str:
    if isinstance(value, bool):
        return "on" if value else "off"
    return "none" if value is None else str(value)


def _rebuilt(e: ev.DeckRebuilt, n: Names) -> str:
    line = _l("rebuilt", n, player=n.player(e.seat), count=len(e.order), rule=_house(n, 4, "deck_out"))
    if n.options.astral_right != "deck_rebuild":
        return line
    rule = _house(n, 18, "astral_right")
    if e.rights_after is None:
        return line + _l("rebuilt_right", n, player=n.player(e.seat), rule=rule)
    return line + _l("rebuilt_rights", n, player=n.player(e.seat), rights=e.rights_after, rule=rule)


def _drawn(e: ev.CardsDrawn, n: Names) -> str:
    player = n.player(e.seat)
    by = _l("drawn_by", n, card=n.effect_source(e.card, e.skill)) if e.card is not None else ""
    lines = []
    if e.cards:
        if e.hand_after is None or e.deck_after is None:
            lines.append(_l("drawn_plain", n, player=player, count=len(e.cards), by=by))
        else:
            lines.append(_l("drawn", n, player=player, count=len(e.cards), by=by, hand=e.hand_after, deck=e.deck_after))
    if e.short:
        key = "drawn_short_stop" if n.options.deck_out == "stop" else "drawn_short_nothing"
        lines.append(_l(key, n, player=player, short=e.short, rule=_house(n, 4, "deck_out")))
    return "\n".join(lines)


def _ether(e: ev.EtherGained, n: Names) -> str:
    reason = t(f"render.ether_reason.{e.reason}", n.locale)
    if e.total_after is None:
        return _l("ether_gained_plain", n, player=n.player(e.seat), amount=e.amount, reason=reason)
    player = n.player(e.seat)
    if e.capped:
        rule = _house(n, 5, "ether_cap")
        total = e.total_after
        return _l(
            "ether_gained_capped",
            n,
            player=player,
            amount=e.amount,
            reason=reason,
            total=total,
            capped=e.capped,
            rule=rule,
        )
    return _l("ether_gained", n, player=player, amount=e.amount, reason=reason, total=e.total_after)


def _ether_capped(e: ev.EtherCapped, n: Names) -> str:
    reason = t(f"render.ether_reason.{e.reason}", n.locale)
    rule = _house(n, 5, "ether_cap")
    return _l("ether_capped", n, player=n.player(e.seat), amount=e.amount, reason=reason, cap=e.cap, rule=rule)


def _ether_not_fired(e: ev.EtherEffectNotFired, n: Names) -> str:
    limit = t(f"render.ether_limit.{e.limit}", n.locale)
    rule = _l("house_option", n, rule=7, option=f"ether_effect_limit:{e.limit}")
    return _l("ether_effect_not_fired", n, card=n.card(e.card), limit=limit, rule=rule)


def _turn(e: ev.TurnStarted, n: Names) -> str:
    """The turn's header, then the start phase's, like every other phase."""
    start = _l("phase", n, phase=t("render.phase.start", n.locale))
    return _l("turn", n, turn=e.turn, player=n.player(e.seat)) + "\n" + start


def _start_untap(e: ev.Untapped, n: Names) -> str:
    return _l("untapped_start", n, units=n.units(e.units), rule=_house(n, 3, "untap"))


def _skill(e: ev.SkillUsed, n: Names) -> str:
    kind = t(f"render.kind.{e.kind}", n.locale)
    skill = n.skill(e.unit, e.skill)
    if e.triggered:
        return _l("skill_triggered", n, unit=n.unit(e.unit), skill=skill, kind=kind)
    return _l("skill_used", n, unit=n.unit(e.unit), skill=skill, kind=kind, cost=e.cost, target=_target(e, n))


def _target(e: ev.SpellCast | ev.SkillUsed, n: Names) -> str:
    chosen = [u for u in (e.target, e.ally_target) if u is not None]
    return _l("target", n, target=n.units(chosen)) if chosen else ""


def _damage(e: ev.DamageDealt, n: Names) -> str:
    """The hit, the DEF it met and how that DEF was made up and applied, and HP after."""
    source = t(f"render.source.{e.source}", n.locale)
    target = n.unit(e.target)
    if e.def_rule is None or e.printed_def is None or e.def_applied is None or e.difference is None:
        reduction = _l("reduction", n, reduction=e.reduction) if e.reduction else ""  # an older log
        return _l(
            "damage",
            n,
            target=target,
            final=e.final,
            source=source,
            amount=e.amount,
            reduction=reduction,
            hp=e.hp_after,
        )
    hp = _l("hp_unchanged" if e.final == 0 else "hp_after", n, hp=e.hp_after)
    if e.def_rule == "ignored":
        return _l("damage_no_def", n, target=target, final=e.final, source=source, amount=e.amount, hp=hp)
    raw = e.printed_def + sum(p.amount for p in e.def_parts)
    total = max(0, raw)
    if e.def_parts:
        parts = " ".join(_def_part(p, n) for p in e.def_parts)
        makeup = _l("def_makeup", n, total=total, printed=e.printed_def, parts=parts)
        if raw < 0:
            makeup += _l("def_not_below_zero", n)
    else:
        makeup = _l("def_printed", n, printed=e.printed_def)
    if e.def_rule == "halved":
        if total % 2:
            half = _l("def_half_rounded", n, exact=f"{total / 2:g}", applied=e.def_applied)
        else:
            half = str(e.def_applied)
        how = _l("def_halved", n, total=total, half=half)
    else:
        how = _l(f"def_{e.def_rule}", n)
    # A hit DEF covers: the difference as it is (0 or below, with the minus sign of the sum), then 0.
    shown = f"−{-e.difference}" if e.difference < 0 else str(e.difference)
    result = str(e.final) if e.difference > 0 else _l("def_covers", n, difference=shown)
    return _l(
        "damage_def",
        n,
        target=target,
        final=e.final,
        source=source,
        amount=e.amount,
        applied=e.def_applied,
        result=result,
        makeup=makeup,
        how=how,
        hp=hp,
    )


def _def_part(part: ev.DefPart, n: Names) -> str:
    amount = f"{part.amount:+d}"
    if part.kind == "code":
        return _l("def_part_code", n, amount=amount, card=n.card(part.card or "?"))
    until = t(f"render.def_until.{part.until or 'turn'}", n.locale)
    if part.kind == "adjust" or part.card is None:
        return _l("def_part_adjust", n, amount=amount, until=until)
    return _l("def_part_effect", n, amount=amount, card=n.effect_source(part.card, part.skill), until=until)


def _sephirot(e: ev.SephirotChecked, n: Names) -> str:
    key = "sephirot_broken" if e.broken else "sephirot_holds"
    line = _l(key, n, code=n.card(e.card), unit=n.unit(e.unit), face=e.face)
    if e.source is not None and e.source not in ("attack", "astral"):  # only sephirot_check:all_damage
        source = t(f"render.source.{e.source}", n.locale)
        line += _l("sephirot_any_damage", n, source=source, rule=_house(n, 13, "sephirot_check"))
    return line


def _attack_pending(e: ev.AttackPending, n: Names) -> str:
    line = _l("attack_pending", n, target=n.unit(e.target), defender=n.player(e.defender))
    if e.rolls:  # block_timing:after_roll: the dice are already on the table when the defender decides
        line += _l("rolled_before_block", n, rule=_house(n, 11, "block_timing"))
    return line


def _def_changed(e: ev.DefChanged, n: Names) -> str:
    key = "def_turn" if e.until == "turn" else "def_starts"
    by = _l("def_by", n, card=n.effect_source(e.card, e.skill)) if e.card is not None else ""
    return _l(key, n, unit=n.unit(e.unit), amount=f"{e.amount:+d}", remaining=e.remaining, by=by)


def _def_expired(e: ev.DefChangesExpired, n: Names) -> str:
    if e.until == "turn":
        return _l("def_expired_turn", n)
    return _l("def_expired_starts", n, player=n.player(e.controller))


def _manual(e: ev.ManualEffect, n: Names) -> str:
    text = e.text_en if n.locale == "en" and e.text_en else e.text
    return _l("manual", n, card=n.card(e.card), text=text)


def _adjusted(e: ev.Adjusted, n: Names) -> str:
    if e.field == "discard":
        return _discarded(e, n)
    if e.field == "deck_top":
        return _reordered(e, n)
    subject = _subject(e.subject, n)
    field = _field(e.field, n)
    note = _l("adjust_note", n, note=e.note) if e.note else ""
    if e.moderator is not None:
        who = _l("adjust_by_moderator", n, moderator=n.player_by_user(e.moderator))
        old, new = _values(e.field, e.old, e.new)
        return _l("adjusted_by", n, who=who, subject=subject, field=field, old=old, new=new, note=note)
    if e.confirmed_by is not None:
        note += _l("adjust_confirmed", n, player=n.player(e.confirmed_by))
    old, new = _values(e.field, e.old, e.new)
    return _l("adjusted", n, player=n.player(e.seat), subject=subject, field=field, old=old, new=new, note=note)


def _values(field: str, old: int, new: int) -> tuple[str, str]:
    """Old and new as the player reads them: a DEF change this turn adds to the changes before it."""
    if field == "def_turn":
        return f"{old:+d}", f"{old + new:+d}"
    return str(old), str(new)


def _field(field: str, n: Names) -> str:
    """An /adjust field in the reader's language (the catalog's engine.field table)."""
    return t(f"engine.field.{field}", n.locale)


def _subject(subject: str, n: Names) -> str:
    return n.unit(subject) if "." in subject else n.player_by_user(subject)


def _adjust_requested(e: ev.AdjustRequested, n: Names) -> str:
    """A request changes nothing yet: say who asked, what, and who must confirm it."""
    note = _l("adjust_note", n, note=e.note) if e.note else ""
    old, new = _values(e.field, e.old, e.new)
    return _l(
        "adjust_requested",
        n,
        player=n.player(e.seat),
        owner=n.player(e.owner),
        subject=_subject(e.subject, n),
        field=_field(e.field, n),
        old=old,
        new=new,
        note=note,
    )


def _adjust_rejected(e: ev.AdjustRejected, n: Names) -> str:
    key = "adjust_withdrawn" if e.by == e.seat else "adjust_rejected"
    subject = _subject(e.subject, n)
    return _l(key, n, player=n.player(e.by), asker=n.player(e.seat), subject=subject, field=_field(e.field, n))


def _discarded(e: ev.Adjusted, n: Names) -> str:
    """A discarded card is public from now on: name it (in English with its printed Japanese name too)."""
    shown = []
    for card_id, count in Counter(e.cards).items():
        card = n.cards.get(card_id)
        name = str(card.name) if card is not None else card_id
        english = card_label(card, n.locale) if card is not None else card_id
        label = _l("discard_card_en", n, name=name, english=english) if english != name else name
        shown.append(label + (f" ×{count}" if count > 1 else ""))
    hand = e.new  # a discard's old/new are the hand sizes before and after it
    note = _l("adjust_note", n, note=e.note) if e.note else ""
    cards = t("render.list_joiner", n.locale).join(shown)
    return _l("discarded", n, player=n.player(e.seat), cards=cards, hand=hand, note=note)


def _reordered(e: ev.Adjusted, n: Names) -> str:
    """The new order of the top of a deck is hidden like a shuffle's: the count only, never the cards."""
    note = _l("adjust_note", n, note=e.note) if e.note else ""
    return _l("reordered", n, player=n.player(e.seat), count=e.new, note=note)


def _resonance(e: ev.ResonanceRaised, n: Names) -> str:
    card = n.card_of(e.aura)
    top = card.resonance_max if isinstance(card, AuraCompolta) else "?"
    return _l("resonance", n, aura=n.unit(e.aura), value=e.value, max=top)


def _resonance_reset(e: ev.ResonanceReset, n: Names) -> str:
    rule = _house(n, 17, "resonance_reset")
    return _l("resonance_reset", n, auras=n.units([uid for uid, _ in e.auras]), rule=rule)


def _game_ended(e: ev.GameEnded, n: Names) -> str:
    return _l("game_ended", n, player=n.player(e.winner), reason=t(f"render.end_reason.{e.reason}", n.locale))


_ENGINE_LINES: dict[type[Any], Line] = {
    ev.GameStarted: _game_started,
    ev.PositionLoaded: _position_loaded,
    ev.DiceRolled: _dice,
    ev.FirstPlayerChosen: _first,
    ev.DeckShuffled: _shuffled,
    ev.DeckRebuilt: _rebuilt,
    ev.CardsDrawn: _drawn,
    ev.EtherGained: _ether,
    ev.EtherCapped: _ether_capped,
    ev.EtherEmptied: lambda e, n: _l(
        "ether_emptied", n, player=n.player(e.seat), amount=e.amount, rule=_house(n, 5, "ether_carry_over")
    ),
    ev.TurnStarted: _turn,
    ev.PhaseStarted: lambda e, n: _l("phase", n, phase=t(f"render.phase.{e.phase}", n.locale)),
    ev.PriorityGiven: lambda e, n: None,  # the board's "to act" line says it once, after the batch
    ev.Passed: lambda e, n: _l("passed", n, player=n.player(e.seat)),
    ev.Untapped: lambda e, n: _l("untapped", n, units=n.units(e.units)),
    ev.Tapped: lambda e, n: _l("tapped", n, units=n.units(e.units)),
    ev.CardConverted: lambda e, n: _l("converted", n, player=n.player(e.seat), card=n.card(e.card)),
    ev.EtherEffectFired: lambda e, n: _l("ether_effect", n, card=n.card(e.card)),
    ev.EtherEffectNotFired: _ether_not_fired,
    ev.SpellCast: lambda e, n: _l(
        "spell_cast",
        n,
        player=n.player(e.seat),
        card=n.card(e.card),
        cost=e.cost,
        caster=n.unit(e.caster),
        target=_target(e, n),
    ),
    ev.SpellResolved: lambda e, n: _l("spell_resolved", n, card=n.card(e.card)),
    ev.SkillUsed: _skill,
    ev.SkillSkipped: lambda e, n: _l(
        "skill_skipped", n, unit=n.unit(e.unit), skill=n.skill(e.unit, e.skill), cost=e.cost
    ),
    ev.AttackPending: _attack_pending,
    ev.BlockDeclared: lambda e, n: _l("block", n, blocker=n.unit(e.blocker), target=n.unit(e.target)),
    ev.BlockDeclined: lambda e, n: _l("no_block", n, player=n.player(e.seat)),
    ev.AttackResolved: lambda e, n: None,
    ev.DamageDealt: _damage,
    ev.SephirotChecked: _sephirot,
    ev.Healed: lambda e, n: _l("healed", n, unit=n.unit(e.target), amount=e.amount, hp=e.hp_after),
    ev.KnockedOut: lambda e, n: _l("afterglow" if e.afterglow else "knocked_out", n, unit=n.unit(e.unit)),
    ev.DefChanged: _def_changed,
    ev.DefChangesExpired: _def_expired,
    ev.ContinuingStarted: lambda e, n: _l("continuing_started", n, source=n.card(e.source), remaining=e.remaining),
    ev.ContinuingTicked: lambda e, n: _l("continuing_ticked", n, source=n.continuing(e.id), remaining=e.remaining),
    ev.ManualEffect: _manual,
    ev.Adjusted: _adjusted,
    ev.AdjustRequested: _adjust_requested,
    ev.AdjustRejected: _adjust_rejected,
    ev.DeckLooked: lambda e, n: _l("deck_looked", n, player=n.player(e.seat), count=e.count, card=n.card(e.card)),
    ev.ResonanceRaised: _resonance,
    ev.ResonanceReset: _resonance_reset,
    ev.Summoned: lambda e, n: _l(
        "summoned", n, player=n.player(e.seat), card=n.card(e.card), caster=n.unit(e.caster), cost=e.cost
    ),
    ev.Conceded: lambda e, n: _l("conceded", n, player=n.player(e.seat)),
    ev.GameEnded: _game_ended,
}


def _table_line(event: Any, n: Names) -> str | None:
    """The service's own log entries (bot.store.history): undo, rollback, a moderator's end, a judge call."""
    kind = getattr(event, "type", None)
    by = n.player_by_user(getattr(event, "by", None))
    if kind == "table_undo":
        return _l("undo", n, player=by)
    if kind == "table_rollback":
        return _l("rollback", n, player=by, version=event.to)
    if kind == "table_judge":
        return _l("judge_called", n, player=by, question=event.question)
    if kind == "table_ended":
        reason = _l("table_ended_reason", n, reason=event.reason) if event.reason else ""
        return _l("table_ended", n, player=by, reason=reason)
    return None
