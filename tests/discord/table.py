"""Helpers of the table's cog tests: /game subcommands, selects and autocompletes as Discord sends them,
and a table that two players (alice, bob) start through /game start and the accept button."""

from __future__ import annotations

from typing import Any

from bot.engine import (
    Action,
    Block,
    Cast,
    Charge,
    ConfirmAdjust,
    GameState,
    NoBlock,
    Pass,
    RejectAdjust,
    Summon,
    UseSkill,
)
from bot.service import NoGame
from tests.discord.conftest import (
    ALICE,
    BOB,
    CHANNEL_ID,
    Harness,
    Sent,
    interaction_payload,
    message_payload,
    next_id,
    option_payloads,
    user_payload,
)

NAMES = {ALICE: "alice", BOB: "bob"}


def member_payload(user_id: int) -> dict[str, Any]:
    return {"roles": [], "joined_at": "2026-01-01T00:00:00+00:00", "deaf": False, "mute": False, "flags": 0,
            "permissions": "2248473465835073", "nick": None}  # fmt: skip


def user_with_name(user_id: int) -> dict[str, Any]:
    payload = user_payload(user_id)
    payload["global_name"] = NAMES.get(user_id)
    return payload


def game_payload(
    sub: str, options: dict[str, Any] | None = None, *, user: int = ALICE, locale: str = "ja", **extra: Any
) -> dict[str, Any]:
    """/game <sub> with its options; a `opponent` option is a user (type 6) with its resolved data."""
    inner = []
    resolved: dict[str, Any] = {}
    for name, value in (options or {}).items():
        if name == "opponent":
            inner.append({"name": name, "type": 6, "value": str(value)})
            resolved = {"users": {str(value): user_with_name(value)}, "members": {str(value): member_payload(value)}}
        else:
            inner += option_payloads({name: value})
    data: dict[str, Any] = {"id": str(next_id()), "name": "game", "type": 1,
                            "options": [{"name": sub, "type": 1, "options": inner}]}  # fmt: skip
    if resolved:
        data["resolved"] = resolved
    payload = interaction_payload(2, data, user=user, locale=locale, **extra)
    payload["member"]["user"] = user_with_name(user)
    return payload


def deck_payload(count: int, *, user: int = ALICE, locale: str = "ja") -> dict[str, Any]:
    top = {"name": "top", "type": 1, "options": [{"name": "count", "type": 4, "value": count}]}
    data = {"id": str(next_id()), "name": "deck", "type": 1, "options": [top]}
    return interaction_payload(2, data, user=user, locale=locale)


def component_payload(
    custom_id: str, message: dict[str, Any], *, user: int, locale: str = "ja", values: list[str] | None = None
) -> dict[str, Any]:
    data: dict[str, Any] = {"custom_id": custom_id, "component_type": 2 if values is None else 3}
    if values is not None:
        data["values"] = values
    payload = interaction_payload(3, data, user=user, locale=locale, message=message)
    payload["member"]["user"] = user_with_name(user)
    return payload


def autocomplete_payload(
    name: str, options: dict[str, Any], focused: str, *, user: int = ALICE, locale: str = "ja"
) -> dict[str, Any]:
    data = {"id": str(next_id()), "name": name, "type": 1, "options": option_payloads(options, focused)}
    return interaction_payload(4, data, user=user, locale=locale)


def choices_of(harness: Harness) -> list[dict[str, Any]]:
    """The choices of the last autocomplete answer."""
    [answer] = [s for s in harness.recorder.sent if s.is_callback and s.callback_type == 8][-1:]
    assert answer.payload is not None
    return list(answer.payload["data"]["choices"])


def last(harness: Harness) -> Sent:
    return harness.recorder.messages()[-1]


async def click(harness: Harness, sent: Sent, custom_id: str, *, user: int, values: list[str] | None = None,
                locale: str = "ja") -> Sent:  # fmt: skip
    """Press a component of a message the bot sent; the answer to it."""
    before = len(harness.recorder.messages())
    message = message_payload(sent.message)
    await harness.deliver(component_payload(custom_id, message, user=user, values=values, locale=locale))
    answers = harness.recorder.messages()[before:]
    assert answers, f"no answer to {custom_id}"
    return answers[-1]


async def start_table(harness: Harness, **options: Any) -> Sent:
    """alice invites bob, bob accepts: the start message (with the first player's buttons)."""
    await harness.deliver(game_payload("start", {"opponent": BOB, **options}, user=ALICE))
    invitation = last(harness)
    [accept] = [c for c in invitation.custom_ids if c.startswith("hn:acc:")]
    return await click(harness, invitation, accept, user=BOB, locale="en-US")


async def state_of(harness: Harness) -> tuple[GameState, int]:
    """The channel's table (the running one, else the last finished one) and its version."""
    try:
        view = await harness.bot.service.status(CHANNEL_ID)
    except NoGame:
        view = (await harness.bot.service.log(CHANNEL_ID)).game
    return view.state, view.version


def user_of(state: GameState, seat: int) -> int:
    return int(state.players[seat].id)


def components(sent: Sent) -> list[dict[str, Any]]:
    return [c for row in sent.message.get("components", []) for c in row.get("components", [])]


# -- playing a whole game --------------------------------------------------------------------------


def aggressive(state: GameState, actions: list[Action]) -> int:
    """The index of the action that ends a game soonest: attack the enemy leader, else any attack,
    charge ether, never block; else pass."""
    seat = state.active

    def score(action: Action) -> int:
        if isinstance(action, UseSkill):
            leader = state.players[1 - seat].leader if seat is not None else None
            return 0 if action.target == leader else 1
        if isinstance(action, Charge):
            return 2
        if isinstance(action, NoBlock):
            return 3
        if isinstance(action, Cast) and action.target is not None:
            return 4
        if isinstance(action, Pass):
            return 5
        return 9

    return min(range(len(actions)), key=lambda i: score(actions[i]))


def command_for(action: Action, phase: str) -> tuple[str, dict[str, Any]]:
    """The slash command (name, options) that plays `action`, with ids as autocomplete would fill them."""

    def aimed(a: Any) -> dict[str, Any]:
        out = {}
        if a.target is not None:
            out["target"] = a.target
        if a.ally_target is not None:
            out["ally"] = a.ally_target
        return out

    match action:
        case Charge():
            extra = {} if action.use_ether_effect else {"effect": False}
            return "charge", {"card": action.card, **aimed(action), **extra}
        case Cast():
            return "cast", {"card": action.card, "caster": action.caster, **aimed(action)}
        case UseSkill():
            return "skill", {"unit": action.unit, "skill": action.skill, **aimed(action)}
        case Summon():
            return "summon", {"card": action.card, "caster": action.caster}
        case Block():
            return "block", {"blocker": action.blocker}
        case NoBlock():
            return "noblock", {}
        case Pass():
            return ("next" if phase == "main" else "pass"), {}
        case ConfirmAdjust():
            return "adjust", {"field": "confirm"}
        case RejectAdjust():
            return "adjust", {"field": "reject"}
    raise AssertionError(action)
