"""End phase (エンドフェイズ), manual effects with logged adjustments, concession, purity and replay."""

from __future__ import annotations

import pytest

from bot.dice import FairRandomness
from bot.engine import (
    Adjust,
    Cast,
    Concede,
    GameOptions,
    NoBlock,
    Pass,
    RuleViolation,
    Summon,
    UseSkill,
    apply,
    events_from_json,
    events_to_json,
    replay,
)
from bot.engine.state import GameState

from .conftest import LoadedDice, Table, at_main, pass_until, start

DECK = ("choir", "bolt", "bolt", "riddle", "dusk") + ("bolt",) * 5


def _main(options: GameOptions | None = None, **seats: object) -> Table:
    return at_main(DECK, options, **seats)


def test_resonance_rises_with_its_trigger_resolves_at_the_max_and_resets_in_the_end_phase() -> None:
    t = _main()
    t.do(Summon(player="alice", card="choir", caster="p1.sage"))
    t.do(Cast(player="alice", card="bolt", caster="p1.sage", target="p2.squire"))
    assert t.player(0).auras[0].resonance == 1
    t.do(Pass(player="alice"))
    t.do(Pass(player="bob"))  # end phase: ≪共鳴値≫ reset
    assert t.player(0).auras[0].resonance == 0
    pass_until(t, "main", turn=3)
    ether = t.player(0).ether
    t.do(Cast(player="alice", card="bolt", caster="p1.sage", target="p2.squire"))
    t.do(Cast(player="alice", card="bolt", caster="p1.sage", target="p2.squire"))
    assert t.player(0).auras[0].resonance == 2 and t.player(0).ether == ether - 2 + 3  # choir: gain 3 at max


def test_only_the_turn_players_resonance_resets_by_option() -> None:
    t = _main(GameOptions(first_player="first_seat", resonance_reset="turn_player"))
    t.do(Summon(player="alice", card="choir", caster="p1.sage"))
    t.do(Cast(player="alice", card="bolt", caster="p1.sage", target="p2.squire"))
    pass_until(t, "main", turn=2)
    assert t.player(0).auras[0].resonance == 0  # alice's own end phase reset it
    t.do(Adjust(player="alice", subject="p1.a1", field="resonance", value=1))
    pass_until(t, "main", turn=3)
    assert t.player(0).auras[0].resonance == 1  # bob's end phase did not


def test_turn_end_skills_resolve_in_the_end_phase() -> None:
    t = _main()
    t.do(Adjust(player="alice", subject="p1.sage", field="hp", value=10))
    pass_until(t, "charge", turn=2)
    assert t.unit("p1.sage").hp == 11  # sage's dusk-prayer: heal 1 at its controller's turn end


def test_a_turn_end_spell_is_cast_in_a_window_of_the_end_phase() -> None:
    t = _main()
    t.do(Adjust(player="alice", subject="p1.knight", field="hp", value=10))
    t.do(Pass(player="alice"))
    t.do(Pass(player="bob"))
    assert (t.state.phase, t.state.active) == ("end", 0)
    t.do(Cast(player="alice", card="dusk", caster="p1.sage"))
    assert t.unit("p1.knight").hp == 13
    t.do(Pass(player="alice"))
    assert (t.state.turn, t.state.phase) == (2, "charge")


def test_def_changes_for_the_turn_end_in_the_end_phase() -> None:
    t = _main()
    t.do(UseSkill(player="alice", unit="p1.knight", skill="guard"))
    assert t.state.effective_def(t.unit("p1.knight")) == 6
    pass_until(t, "charge", turn=2)
    assert t.state.effective_def(t.unit("p1.knight")) == 4 and t.state.def_mods == []


def test_unspent_ether_carries_over_by_default_and_can_empty_by_option() -> None:
    t = _main()
    pass_until(t, "charge", turn=2)
    assert t.player(0).ether == 9
    empty = _main(GameOptions(first_player="first_seat", ether_carry_over=False))
    pass_until(empty, "charge", turn=2)
    assert empty.player(0).ether == 0 and empty.player(1).ether == 0 + 1  # bob's dawnlight after the reset


def test_a_manual_effect_shows_its_text_and_any_seated_player_may_adjust_with_a_log() -> None:
    t = _main()
    new = t.do(Cast(player="alice", card="riddle", caster="p1.sage"))
    manual = next(e for e in new if e.type == "manual_effect")
    assert manual.text == "相手は手札を1枚捨てる。" and manual.text_en == "The opponent discards a card."
    new = t.do(Adjust(player="bob", subject="p2.knight", field="hp", value=12, note="riddle"))
    assert [(e.seat, e.old, e.new, e.note) for e in new] == [(1, 20, 12, "riddle")]
    with pytest.raises(RuleViolation) as info:
        apply(t.state, Adjust(player="carol", subject="p2.knight", field="hp", value=1), LoadedDice())
    assert info.value.message_key == "engine.not_a_player"
    with pytest.raises(RuleViolation) as info:
        apply(t.state, Adjust(player="bob", subject="p2.knight", field="hp", value=21), LoadedDice())
    assert info.value.message("en") == "The adjusted value must be from 0 to 20."


def test_adjusting_the_leader_to_zero_hp_loses_the_game() -> None:
    t = _main()
    t.do(Adjust(player="alice", subject="p1.sage", field="hp", value=0))
    assert t.state.over and t.state.winner == 1


def test_a_concession_ends_the_game_at_once_for_the_other_player() -> None:
    t = _main()
    t.do(Concede(player="bob"))
    assert t.state.over and (t.state.winner, t.state.end_reason) == (0, "concession")


def test_a_refused_action_changes_nothing_and_rolls_nothing() -> None:
    rng = FairRandomness(b"refused", "t")
    t = _main()
    before = t.state.model_dump_json()
    with pytest.raises(RuleViolation):
        apply(t.state, UseSkill(player="alice", unit="p1.knight", skill="crash", target="p1.sage"), rng)
    assert rng.next_number == 0 and t.state.model_dump_json() == before


def test_apply_never_changes_the_state_it_was_given() -> None:
    t = _main()
    before_state = t.state
    before = before_state.model_dump_json()
    t.do(UseSkill(player="alice", unit="p1.knight", skill="slash", target="p2.sage"))
    t.do(NoBlock(player="bob"))
    t.do(Cast(player="alice", card="bolt", caster="p1.sage", target="p2.knight"))
    assert t.state.model_dump_json() != before and before_state.model_dump_json() == before


def test_the_state_and_the_events_survive_json_and_the_events_alone_rebuild_the_game() -> None:
    t = _main()
    t.do(UseSkill(player="alice", unit="p1.knight", skill="crash", target="p2.sage"), 3, 4)
    t.do(NoBlock(player="bob"))
    again = events_from_json(events_to_json(t.events))
    assert replay(again) == t.state
    assert GameState.model_validate_json(t.state.model_dump_json()) == t.state
    middle = replay(t.events, upto=len(t.events) // 2)
    assert middle != t.state and middle.started


def test_every_refusal_the_engine_can_raise_has_a_japanese_and_an_english_message() -> None:
    import re
    from pathlib import Path

    import bot.engine
    from bot.i18n import catalog

    folder = Path(bot.engine.__file__).parent
    source = "\n".join(p.read_text(encoding="utf-8") for p in folder.glob("*.py"))
    keys = set(re.findall(r'"(engine\.[a-z_]+)"', source))
    keys |= {
        f"engine.wrong_timing.{t}" for t in ("own_turn", "opponent_turn", "any", "turn_start", "turn_end", "knockout")
    }
    assert len(keys) > 30
    for locale in ("ja", "en"):
        missing = sorted(k for k in keys if k not in catalog(locale))
        assert not missing, f"{locale}: {missing}"


def test_a_trigger_that_needs_a_choice_is_shown_as_a_manual_effect() -> None:
    t = start(("imp",) + ("bolt",) * 9)
    pass_until(t, "main")
    t.do(Summon(player="alice", card="imp", caster="p1.sage"))
    pass_until(t, "charge", turn=3)
    manual = [e for e in t.events if e.type == "manual_effect"]
    assert [(m.seat, m.card, m.text) for m in manual] == [(0, "imp", "ターン開始時、相手のユニット1体に1ダメージ。")]
    assert all(u.hp == u.max_hp for u in t.player(1).units)  # nothing was chosen for the players


def test_folding_into_a_clone_leaves_the_original_and_later_states_alone() -> None:
    """Front ends fold events onto `clone()` of an earlier state to describe them (bot/render)."""
    from bot.engine.fold import fold

    t = _main()
    before = t.state
    new = t.do(Cast(player="alice", card="bolt", caster="p1.sage", target="p2.knight"))
    after_json, before_json = t.state.model_dump_json(), before.model_dump_json()
    copy = before.clone()
    for event in new:
        fold(copy, event)
    assert copy == t.state
    assert before.model_dump_json() == before_json and t.state.model_dump_json() == after_json


def test_the_rules_coverage_map_names_only_code_and_tests_that_exist() -> None:
    import re
    from pathlib import Path

    import bot.engine

    root = Path(bot.engine.__file__).parents[2]
    doc = (root / "docs" / "rules-coverage.md").read_text(encoding="utf-8")
    tests = set(re.findall(r"`(test_[a-z_]+\.py)::(test_[a-z0-9_]+)`", doc))
    assert len(tests) > 50
    for file, name in tests:
        assert f"def {name}(" in (root / "tests" / "engine" / file).read_text(encoding="utf-8"), name
    for module, function in set(re.findall(r"`([a-z]+):([A-Za-z_][A-Za-z_.]*)`", doc)):
        source = (root / "bot" / "engine" / f"{module}.py").read_text(encoding="utf-8")
        last = function.split(".")[-1]
        assert re.search(
            rf"(def|class) {re.escape(last)}\b|^\s*{re.escape(last)}\b|{re.escape(last)} =", source, re.M
        ), f"{module}:{function}"


def test_a_heal_that_changes_nothing_leaves_no_line_in_the_log() -> None:
    from bot.render.events import render_events

    t = _main()
    t.do(Adjust(player="alice", subject="p1.knight", field="hp", value=10))
    pass_until(t, "end")  # sage's own turn-end heal found it at full HP
    before = t.state
    new = t.do(Cast(player="alice", card="dusk", caster="p1.sage"))  # heal 3 to all allies
    healed = [(e.target, e.amount) for e in new if e.type == "healed"]
    assert healed == [("p1.knight", 3)]  # sage and squire are at full HP: no event for them
    lines = render_events(new, before, "ja")
    assert any("HPが3回復" in line for line in lines) and not any("HPが0回復" in line for line in lines)
