"""Hidden information on Discord (and every play command on legal moves): random games played through
the cogs (slash commands, buttons, the hand menu, status and hands asked at random moments, both
languages), and after every interaction every PUBLIC message is read for the name of a card that sits
unrevealed in a hand or a deck.

"Unrevealed": in a hand or a deck now, and never seen in a public zone of this game (the board, an
equipment, the cemetery, the afterglow, the ether area), since a card that was face up once (a
rebuilt deck, a second copy of a cast spell) may be named by what happened to it then.
"""

from __future__ import annotations

import random

from bot.engine import GameState, legal_actions
from tests.discord.conftest import ALICE, BOB, Harness, Sent, command_payload
from tests.discord.table import aggressive, click, command_for, game_payload, start_table, state_of, user_of

GAMES = 12
ACTIONS = 140  # a game still running after this many is conceded
LOCALES = ("ja", "en-US")


def public_cards(state: GameState) -> set[str]:
    seen: set[str] = set()
    for player in state.players:
        seen.update(player.cemetery, player.afterglow, player.ether_area)
        for unit in player.units:
            seen.add(unit.card)
            if unit.equipment:
                seen.add(unit.equipment)
        seen.update(aura.card for aura in player.auras)
    return seen


def hidden_cards(state: GameState) -> set[str]:
    return {card for player in state.players for card in (*player.hand, *player.deck)}


def names(state: GameState, card_id: str) -> list[str]:
    card = state.cards[card_id]
    return [n for n in (card.name, getattr(card, "name_en", None)) if n]


def shown_text(sent: Sent) -> str:
    """What a reader of the message sees: its text and every label of its components."""
    labels = []
    for row in sent.message.get("components", []):
        for component in row.get("components", []):
            labels.append(component.get("label") or "")
            labels += [o.get("label", "") for o in component.get("options", [])]
    return "\n".join([sent.text, *labels])


def leaked(text: str, state: GameState, ever_public: set[str]) -> list[str]:
    """Names of unrevealed cards found in `text`, after the names of public cards are taken out
    (a public card's name may contain a hidden one's)."""
    secret = hidden_cards(state) - ever_public
    allowed = sorted({n for c in ever_public for n in names(state, c)}, key=len, reverse=True)
    for name in allowed:
        text = text.replace(name, "")
    return [f"{card}: {name}" for card in secret for name in names(state, card) if name in text]


async def test_no_public_message_names_a_card_hidden_in_a_hand_or_a_deck(harness: Harness) -> None:
    rng = random.Random(20261201)
    checked = 0
    kinds: set[str] = set()
    for game in range(GAMES):
        if game:
            await harness.command("concede", user=ALICE)  # closes the last game if it is still running
        message = await start_table(harness)
        state, _version = await state_of(harness)
        ever_public = public_cards(state)
        for _ in range(ACTIONS):
            state, version = await state_of(harness)
            if state.over:
                break
            ever_public |= public_cards(state)
            user = user_of(state, state.active or 0)
            locale = rng.choice(LOCALES)
            actions = legal_actions(state, str(user))
            index = aggressive(state, actions) if rng.random() < 0.5 else rng.randrange(len(actions))
            before = len(harness.recorder.messages())
            roll = rng.random()
            button = [c for c in message.custom_ids if c.endswith(f":{version}:{user}:{index}")]
            if roll < 0.1:
                await harness.deliver(game_payload("status", user=rng.choice([ALICE, BOB]), locale=locale))
                await harness.command("hand", user=rng.choice([ALICE, BOB]), locale=locale)
            elif roll < 0.4 and button and not button[0].startswith("hn:hand:"):
                message = await click(harness, message, button[0], user=user, locale=locale)
            elif roll < 0.6 and [c for c in message.custom_ids if c.startswith("hn:hand:")]:
                hand_id = next(c for c in message.custom_ids if c.startswith("hn:hand:"))
                hand = await click(harness, message, hand_id, user=user, locale=locale)
                menu = [c for c in hand.custom_ids if c.startswith("hn:play:")]
                if menu:
                    await click(harness, hand, menu[0], user=user, values=[str(index)], locale=locale)
            else:
                name, options = command_for(actions[index], state.phase)
                await harness.deliver(command_payload(name, options, user=user, locale=locale))
                played = harness.recorder.messages()[-1]
                assert not played.ephemeral, f"/{name} {options} of a legal move was refused: {played.text}"
                kinds.add(name)
            after, _version = await state_of(harness)
            ever_public |= public_cards(after)
            for sent in harness.recorder.messages()[before:]:
                if sent.ephemeral:
                    continue
                checked += 1
                found = leaked(shown_text(sent), after, ever_public)
                assert not found, f"a public message names hidden cards {found}:\n{sent.text}"
                if sent.custom_ids:
                    message = sent
    assert checked > GAMES * 40  # the games really were played through public replies
    # every play command was used, each one on a legal move, and none was refused
    assert {"charge", "cast", "skill", "summon", "block", "noblock", "pass", "next"} <= kinds, kinds


async def test_the_check_catches_a_hand_card_named_in_public(harness: Harness) -> None:
    await start_table(harness)
    state, _version = await state_of(harness)
    secret = sorted(hidden_cards(state) - public_cards(state))
    assert secret
    for card in secret[:5]:
        for name in names(state, card):
            assert leaked(f"alice plays {name}!", state, public_cards(state)), name
    assert leaked("nothing to see", state, public_cards(state)) == []
