"""Set-up, once (ゲーム開始時の準備): first player, decks and Arcastella laid out, shuffle, five cards each,
2 ether for the second player. Also builds the StartGame action from the catalog and two deck choices.
"""

from __future__ import annotations

from bot.catalog import Arcastella, AuraCompolta, Catalog, Deck, Follower, SephirotCode, Spell
from bot.engine import actions as act
from bot.engine import events as ev
from bot.engine.context import Ctx, draw_cards, gain_ether, opponent
from bot.engine.errors import RuleViolation
from bot.engine.naming import card_name
from bot.engine.options import GameOptions
from bot.engine.phases import HAND_SIZE, begin_turn
from bot.names import check_name, normalize_name

SECOND_PLAYER_ETHER = 2
DECK_TYPES = (Spell, Follower, AuraCompolta)


def start_action(
    catalog: Catalog,
    seats: list[tuple[str, str, Deck | str]],
    options: GameOptions | None = None,
    leaders: dict[str, str] | None = None,
) -> act.StartGame:
    """The StartGame action for two (player id, display name, deck or deck name) seats.

    `leaders` may override a deck's leader per player id (house rule 1: the player names the leader).
    """
    if len(seats) != 2:
        raise RuleViolation("engine.two_players", count=len(seats))
    specs: list[act.SeatSpec] = []
    used: dict[str, object] = {}
    for player_id, name, deck_ref in seats:
        name = check_name(name, "player")  # the one rule for names (bot/names.py): what every seat shows
        deck = catalog.deck(deck_ref) if isinstance(deck_ref, str) else deck_ref
        leader = (leaders or {}).get(player_id, deck.leader)
        specs.append(
            act.SeatSpec(
                id=player_id,
                name=name,
                arcastella=(deck.arcastella[0], deck.arcastella[1], deck.arcastella[2]),
                leader=leader,
                deck=tuple(deck.card_ids()),
                equipment={e.arcastella: e.code for e in deck.equipment},
            )
        )
        for card_id in [*deck.arcastella, *deck.card_ids(), *(e.code for e in deck.equipment)]:
            used[card_id] = catalog.get(card_id)
    return act.StartGame(
        players=(specs[0], specs[1]),
        cards={k: v for k, v in used.items()},
        options=options or GameOptions(),
    )


def _check_seat(spec: act.SeatSpec, cards: dict[str, object]) -> None:
    for card_id in spec.arcastella:
        if not isinstance(cards.get(card_id), Arcastella):
            raise RuleViolation(
                "engine.bad_deck_arcastella", card=card_name(cards, card_id), card_id=card_id, player=spec.name
            )
    if spec.leader not in spec.arcastella:
        raise RuleViolation(
            "engine.bad_leader", card=card_name(cards, spec.leader), card_id=spec.leader, player=spec.name
        )
    for card_id in spec.deck:
        if not isinstance(cards.get(card_id), DECK_TYPES):
            raise RuleViolation(
                "engine.bad_deck_card", card=card_name(cards, card_id), card_id=card_id, player=spec.name
            )
    for wearer, code in spec.equipment.items():
        if wearer not in spec.arcastella or not isinstance(cards.get(code), SephirotCode):
            raise RuleViolation("engine.bad_equipment", card=card_name(cards, code), card_id=code, player=spec.name)


def start_game(ctx: Ctx, a: act.StartGame) -> None:
    state = ctx.state
    if state.started:
        raise RuleViolation("engine.already_started")
    first, second = a.players
    if first.id == second.id:
        raise RuleViolation("engine.same_player_twice", player=first.name)
    for spec in a.players:  # a front end may build the action itself: the name rule holds here too
        check_name(spec.name, "player")
    if normalize_name(first.name) == normalize_name(second.name):  # two seats a reader could not tell apart
        raise RuleViolation("engine.same_player_twice", player=first.name)
    cards: dict[str, object] = dict(a.cards)
    for spec in a.players:
        _check_seat(spec, cards)
    ctx.emit(ev.GameStarted(players=a.players, cards=a.cards, options=a.options))
    # 1. ターンプレイヤーを決定します (house rule 1).
    if a.options.first_player == "random":
        face = ctx.roll("1d6", "first_player").total
        seat = 0 if face <= 3 else 1
        ctx.emit(ev.FirstPlayerChosen(seat=seat, how="roll"))
    else:
        seat = 0 if a.options.first_player == "first_seat" else 1
        ctx.emit(ev.FirstPlayerChosen(seat=seat, how="option"))
    # 2. デッキとアルカステラを展開 (laid out by GameStarted); decks are shuffled.
    for s, player in enumerate(state.players):
        order, number = ctx.shuffled(player.deck)
        ctx.emit(ev.DeckShuffled(seat=s, order=order, number=number))
    # 3. お互いに5枚ドロー.
    for s in (seat, opponent(seat)):
        draw_cards(ctx, s, HAND_SIZE)
    # 4. 後攻のプレイヤーは、エーテルを2点獲得.
    gain_ether(ctx, opponent(seat), SECOND_PLAYER_ETHER, "second_player")
    if state.over:  # a deck too small with deck_out = "lose"
        return
    begin_turn(ctx, seat)
