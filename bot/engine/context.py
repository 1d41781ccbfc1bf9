"""The working context of one `apply`: a private copy of the state, the rng, and the events so far.

`emit` folds each event into the copy as it happens, so the rules read an up-to-date table while they
decide, and the returned events rebuild exactly this copy on replay. Fold changes the copy in place: a
unit or player looked up before an `emit` is the same object, up to date, after it.
"""

from __future__ import annotations

from bot.dice import Randomness, roll, shuffle
from bot.engine import events as ev
from bot.engine.fold import fold
from bot.engine.state import GameState


class Ctx:
    __slots__ = ("events", "rng", "state")

    def __init__(self, state: GameState, rng: Randomness) -> None:
        self.state = state.clone()
        self.rng = rng
        self.events: list[ev.Event] = []

    def emit(self, event: ev.Event) -> None:
        fold(self.state, event)
        self.events.append(event)

    def roll(self, expression: str, purpose: str, seat: int | None = None) -> ev.DiceRolled:
        """Roll publicly through bot.dice and record faces, total and draw number."""
        result = roll(expression, self.rng)
        faces = tuple(f for term in result.dice for f in term)
        event = ev.DiceRolled(
            purpose=purpose,
            expression=result.normalized,
            faces=faces,
            total=result.total,
            number=result.number,
            seat=seat,
        )
        self.emit(event)
        return event

    def shuffled(self, cards: list[str]) -> tuple[tuple[str, ...], int | None]:
        """A shuffled copy of `cards` through bot.dice.shuffle, with the draw number it used."""
        number = self.rng.next_number
        order = tuple(shuffle(cards, self.rng))
        return order, number


def opponent(seat: int) -> int:
    return 1 - seat


def gain_ether(ctx: Ctx, seat: int, amount: int, reason: str) -> None:
    """Add ether, never above the table's cap (house rule 5)."""
    cap = ctx.state.options.ether_cap
    player = ctx.state.players[seat]
    due = amount
    if cap is not None:
        amount = min(amount, max(0, cap - player.ether))
    if amount > 0:
        total = player.ether + amount
        ctx.emit(ev.EtherGained(seat=seat, amount=amount, reason=reason, total_after=total, capped=due - amount))
    elif due > 0:  # the cap took all of it: say so, the table's house rule decided it
        ctx.emit(ev.EtherCapped(seat=seat, amount=due, reason=reason, cap=cap or 0))


def end_game(ctx: Ctx, winner: int, reason: str) -> None:
    if not ctx.state.over:
        ctx.emit(ev.GameEnded(winner=winner, reason=reason))


def draw_cards(ctx: Ctx, seat: int, count: int, card: str | None = None, skill: str | None = None) -> None:
    """Draw `count` cards; an empty deck follows the table's deck_out option (house rules 4, 18, 20).
    `card` (and `skill` of it): whose effect draws (None: the draw phase)."""
    state = ctx.state
    wanted = count
    while wanted > 0 and not state.over:
        player = state.players[seat]
        take = tuple(player.deck[:wanted])
        if take:
            hand, deck = len(player.hand) + len(take), len(player.deck) - len(take)
            ctx.emit(ev.CardsDrawn(seat=seat, cards=take, hand_after=hand, deck_after=deck, card=card, skill=skill))
            wanted -= len(take)
            continue
        mode = state.options.deck_out
        if mode == "lose":
            end_game(ctx, opponent(seat), "deck_out")
            return
        if mode == "rebuild":
            pool = _rebuild_pool(player.cemetery, player.afterglow) + list(player.ether_area)
            if pool:
                order, number = ctx.shuffled(pool)
                rights = player.astral_rights + 1
                ctx.emit(ev.DeckRebuilt(seat=seat, order=order, number=number, astral_rights=1, rights_after=rights))
                continue
        hand, deck = len(player.hand), len(player.deck)
        ctx.emit(
            ev.CardsDrawn(seat=seat, cards=(), short=wanted, hand_after=hand, deck_after=deck, card=card, skill=skill)
        )
        return


def _rebuild_pool(cemetery: list[str], afterglow: list[str]) -> list[str]:
    """The cemetery without its afterglow cards (they stay behind)."""
    left = list(afterglow)
    pool: list[str] = []
    for card in cemetery:
        if card in left:
            left.remove(card)
        else:
            pool.append(card)
    return pool
