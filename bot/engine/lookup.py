"""Look-ups on card definitions, worked out once per card object instead of on every action.

Cards and their effect tuples are frozen, so an answer computed for one object stays right for as long
as that object lives. Entries are keyed by `id()` and hold the object itself, so an id is never reused
while its entry exists; the tables are emptied when they grow large (a long-running bot loads many
games, each with its own card objects), which only costs recomputing.
"""

from __future__ import annotations

from collections.abc import Callable

from bot.catalog.cards import Arcastella, Skill
from bot.catalog.effects import Effect

_Effects = tuple[Effect, ...]

_LIMIT = 4096  # entries per table before it is emptied
_NAMES_PER_CARD = 64  # typed skill names cached per card; more are looked up every time

_skills: dict[int, tuple[Arcastella, dict[str, Skill | None], frozenset[str]]] = {}
_needs: dict[int, tuple[_Effects, tuple[bool, bool]]] = {}


def _entry(card: Arcastella) -> tuple[Arcastella, dict[str, Skill | None], frozenset[str]]:
    entry = _skills.get(id(card))
    if entry is None or entry[0] is not card:
        if len(_skills) >= _LIMIT:
            _skills.clear()
        # Built like handlers' former per-call dict, so a repeated skill id keeps its last kind.
        kinds = {s.id: s.kind for s in card.skills}
        entry = (card, {}, frozenset(k for k, v in kinds.items() if v == "support"))
        _skills[id(card)] = entry
    return entry


def skill_of(card: Arcastella, name: str) -> Skill | None:
    """`card.skill(name)`, remembered: it normalises every skill name, which is slow in a hot path."""
    found = _entry(card)[1]
    if name in found:
        return found[name]
    skill = card.skill(name)
    if len(found) < _NAMES_PER_CARD:
        found[name] = skill
    return skill


def support_skill_ids(card: Arcastella) -> frozenset[str]:
    """Ids of the card's support skills."""
    return _entry(card)[2]


def needs_of(effects: _Effects, compute: Callable[[_Effects], tuple[bool, bool]]) -> tuple[bool, bool]:
    """`compute(effects)`, remembered for this tuple of frozen effects."""
    entry = _needs.get(id(effects))
    if entry is not None and entry[0] is effects:
        return entry[1]
    answer = compute(effects)
    if len(_needs) >= _LIMIT:
        _needs.clear()
    _needs[id(effects)] = (effects, answer)
    return answer
