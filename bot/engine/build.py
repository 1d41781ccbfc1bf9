"""Events, actions and state parts built from values the engine has already checked, without validation.

Every value the engine puts in an event comes from a validated action, a card, the state or a roll, so
pydantic's validation only repeats work on the hot path of `apply` and `legal_actions`. A builder here
fills in defaults and `model_fields_set` exactly as the validating constructor does (the engine tests
compare the two on every event of random games). Events read back from stored JSON are still
validated (bot/engine/replay.py): only the engine's own values are trusted.

For mypy each builder is the model class itself, so every call is type-checked field by field (names,
types, required fields); that is why a builder checks nothing at run time.
"""

from __future__ import annotations

import keyword
from collections.abc import Callable
from typing import TYPE_CHECKING, Any, TypeVar

from pydantic import BaseModel

from bot.engine import actions as _act
from bot.engine import events as _ev
from bot.engine import state as _st

_M = TypeVar("_M", bound=BaseModel)

# BaseModel's slot setters, bound once (a builder runs for every event).
_new = object.__new__
_set_fields_set = BaseModel.__dict__["__pydantic_fields_set__"].__set__
_set_extra = BaseModel.__dict__["__pydantic_extra__"].__set__
_set_private = BaseModel.__dict__["__pydantic_private__"].__set__
_UNSET: Any = object()  # the default of an optional parameter: tells "not given" from a given default


def _builder(cls: type[_M]) -> Callable[..., _M]:
    """A keyword-only constructor of `cls` that trusts its values.

    Its source is generated from the model's fields, like dataclasses do: plain keyword parameters
    bind faster than a **kwargs dict that would then be merged into a template.
    """
    if cls.__private_attributes__ or cls.__pydantic_post_init__ is not None:
        raise TypeError(f"{cls.__name__} needs pydantic's own constructor")
    namespace: dict[str, Any] = {
        "_cls": cls,
        "_new": _new,
        "_UNSET": _UNSET,
        "_set_fields_set": _set_fields_set,
        "_set_extra": _set_extra,
        "_set_private": _set_private,
    }
    params: list[str] = []
    required: list[str] = []
    fill: list[str] = []
    for name, field in cls.model_fields.items():
        if not name.isidentifier() or keyword.iskeyword(name) or name.startswith("_"):
            raise TypeError(f"{cls.__name__}.{name} cannot be a parameter")
        if field.alias is not None and field.alias != name:
            raise TypeError(f"{cls.__name__}.{name} has an alias")
        if field.is_required():
            params.append(name)
            required.append(name)
            continue
        params.append(f"{name}=_UNSET")
        if field.default_factory is not None:
            namespace[f"_make_{name}"] = field.default_factory
            value = f"_make_{name}()"
        else:
            hash(field.default)  # validation would copy a mutable default; none is expected here
            namespace[f"_default_{name}"] = field.default
            value = f"_default_{name}"
        fill += [f"    if {name} is _UNSET:", f"        {name} = {value}", "    else:", f"        _given.add({name!r})"]
    given = "{" + ", ".join(repr(n) for n in required) + "}" if required else "set()"
    fields = [f"    _fields[{name!r}] = {name}" for name in cls.model_fields]  # field order, as validation builds it
    source = "\n".join(
        [
            f"def build(*, {', '.join(params)}):",
            f"    _given = {given}",
            *fill,
            "    _model = _new(_cls)",
            "    _fields = _model.__dict__",
            *fields,
            "    _set_fields_set(_model, _given)",
            "    _set_extra(_model, None)",
            "    _set_private(_model, None)",
            "    return _model",
        ]
    )
    exec(source, namespace)
    build: Callable[..., _M] = namespace["build"]
    build.__name__ = build.__qualname__ = cls.__name__
    return build


if TYPE_CHECKING:

    def trusted(cls: type[_M]) -> type[_M]:
        return cls

else:
    trusted = _builder


# Events.
DiceRolled = trusted(_ev.DiceRolled)
FirstPlayerChosen = trusted(_ev.FirstPlayerChosen)
DeckShuffled = trusted(_ev.DeckShuffled)
DeckRebuilt = trusted(_ev.DeckRebuilt)
CardsDrawn = trusted(_ev.CardsDrawn)
EtherGained = trusted(_ev.EtherGained)
EtherEmptied = trusted(_ev.EtherEmptied)
TurnStarted = trusted(_ev.TurnStarted)
PhaseStarted = trusted(_ev.PhaseStarted)
PriorityGiven = trusted(_ev.PriorityGiven)
Passed = trusted(_ev.Passed)
Untapped = trusted(_ev.Untapped)
Tapped = trusted(_ev.Tapped)
CardConverted = trusted(_ev.CardConverted)
EtherEffectFired = trusted(_ev.EtherEffectFired)
SpellCast = trusted(_ev.SpellCast)
SpellResolved = trusted(_ev.SpellResolved)
SkillUsed = trusted(_ev.SkillUsed)
SkillSkipped = trusted(_ev.SkillSkipped)
AttackPending = trusted(_ev.AttackPending)
BlockDeclared = trusted(_ev.BlockDeclared)
BlockDeclined = trusted(_ev.BlockDeclined)
AttackResolved = trusted(_ev.AttackResolved)
DamageDealt = trusted(_ev.DamageDealt)
SephirotChecked = trusted(_ev.SephirotChecked)
Healed = trusted(_ev.Healed)
KnockedOut = trusted(_ev.KnockedOut)
DefChanged = trusted(_ev.DefChanged)
DefChangesExpired = trusted(_ev.DefChangesExpired)
ContinuingStarted = trusted(_ev.ContinuingStarted)
ContinuingTicked = trusted(_ev.ContinuingTicked)
ManualEffect = trusted(_ev.ManualEffect)
Adjusted = trusted(_ev.Adjusted)
AdjustRequested = trusted(_ev.AdjustRequested)
AdjustRejected = trusted(_ev.AdjustRejected)
DeckLooked = trusted(_ev.DeckLooked)
ResonanceRaised = trusted(_ev.ResonanceRaised)
ResonanceReset = trusted(_ev.ResonanceReset)
Summoned = trusted(_ev.Summoned)
Conceded = trusted(_ev.Conceded)
GameEnded = trusted(_ev.GameEnded)

# Actions that legal_actions offers.
Charge = trusted(_act.Charge)
Pass = trusted(_act.Pass)
Cast = trusted(_act.Cast)
UseSkill = trusted(_act.UseSkill)
Block = trusted(_act.Block)
NoBlock = trusted(_act.NoBlock)
Summon = trusted(_act.Summon)
Concede = trusted(_act.Concede)

# State parts that fold makes from an event's values.
Unit = trusted(_st.Unit)
Aura = trusted(_st.Aura)
DefModifier = trusted(_st.DefModifier)
Continuing = trusted(_st.Continuing)
PendingAttack = trusted(_st.PendingAttack)
PendingAdjust = trusted(_st.PendingAdjust)
DeckLook = trusted(_st.DeckLook)
