"""Main phase (メインフェイズ): priority, timing windows, spells, attack and support skills, passing."""

from __future__ import annotations

from bot.engine import Adjust, Cast, GameOptions, Pass, Summon, UseSkill

from .conftest import Table, at_main, pass_until, refused, start

MIXED = ("bolt", "spark", "quick", "weaken", "vengeance") + ("bolt",) * 5


def _main(options: GameOptions | None = None, **seats: object) -> Table:
    return at_main(MIXED, options, **seats)


def test_priority_starts_with_the_turn_player_and_a_pass_hands_it_over() -> None:
    t = _main()
    assert t.state.active == 0
    t.do(Pass(player="alice"))
    assert (t.state.phase, t.state.active) == ("main", 1)
    t.do(Pass(player="bob"))  # both passed in a row: the main phase (and the turn) ends
    assert (t.state.turn, t.state.turn_player, t.state.phase) == (2, 1, "charge")


def test_acting_keeps_priority_and_breaks_the_run_of_passes() -> None:
    t = _main()
    t.do(Pass(player="alice"))
    t.do(Cast(player="bob", card="quick", caster="p2.knight", target="p1.squire"))
    assert t.state.active == 1  # bob acted and keeps priority (house rule 8)
    t.do(Pass(player="bob"))
    assert (t.state.phase, t.state.active) == ("main", 0)
    t.do(Pass(player="alice"))
    assert t.state.turn == 2


def test_priority_can_pass_after_every_action_by_option() -> None:
    t = _main(GameOptions(first_player="first_seat", priority_after_action="pass"))
    t.do(Cast(player="alice", card="bolt", caster="p1.sage", target="p2.squire"))
    assert t.state.active == 1


def test_the_player_without_priority_cannot_act() -> None:
    t = _main()
    err = refused(t, Cast(player="bob", card="spark", caster="p2.sage", target="p1.squire"))
    assert err.message_key == "engine.not_your_priority" and "優先権" in err.bilingual()


def test_timing_windows_own_turn_opponent_turn_and_any() -> None:
    t = _main()
    assert refused(t, Cast(player="alice", card="quick", caster="p1.sage", target="p2.squire")).message_key == (
        "engine.wrong_timing.opponent_turn"
    )
    t.do(Cast(player="alice", card="spark", caster="p1.sage", target="p2.squire"), 4)  # [好きなタイミング]
    t.do(Pass(player="alice"))
    assert refused(t, Cast(player="bob", card="bolt", caster="p2.sage", target="p1.squire")).message_key == (
        "engine.wrong_timing.own_turn"
    )
    t.do(Cast(player="bob", card="spark", caster="p2.sage", target="p1.squire"), 2)
    t.do(Cast(player="bob", card="quick", caster="p2.sage", target="p1.squire"))  # [相手のターン]
    assert t.unit("p1.squire").hp == 10 - 2 - 2


def test_a_spell_costs_ether_names_its_caster_does_not_tap_it_and_goes_to_the_cemetery() -> None:
    t = _main()
    t.do(Cast(player="alice", card="bolt", caster="p1.knight", target="p2.knight"))
    alice = t.player(0)
    assert alice.ether == 9 - 1 and not t.unit("p1.knight").tapped
    assert alice.cemetery == ["bolt"] and "bolt" not in alice.hand[:0]
    cast = next(e for e in t.events if e.type == "spell_cast")
    assert cast.caster == "p1.knight"
    assert t.unit("p2.knight").hp == 20 - 4  # spell damage ignores DEF 4


def test_the_caster_must_be_one_of_your_standing_arcastella() -> None:
    t = _main()
    assert refused(t, Cast(player="alice", card="bolt", caster="p2.knight", target="p2.sage")).message_key == (
        "engine.not_your_unit"
    )
    t.do(Adjust(player="alice", subject="p1.knight", field="hp", value=0))
    assert refused(t, Cast(player="alice", card="bolt", caster="p1.knight", target="p2.sage")).message_key == (
        "engine.unit_knocked_out"
    )


def test_a_cost_that_cannot_be_paid_is_refused_and_says_how_much() -> None:
    t = _main()
    t.do(Adjust(player="alice", subject="alice", field="ether", value=0))
    err = refused(t, Cast(player="alice", card="spark", caster="p1.sage", target="p2.sage"))
    assert err.message("en") == "Not enough ether (need 2, have 0)."
    assert err.message("ja") == "エーテルが足りません（必要 2、所持 0）。"


def test_an_attack_skill_costs_ether_and_taps_its_user_which_then_cannot_attack() -> None:
    t = _main(seat2={"leader": "knight"})
    t.do(Adjust(player="bob", subject="p2.sage", field="tapped", value=1))
    t.do(Adjust(player="bob", subject="p2.squire", field="tapped", value=1))  # no blocker
    t.do(UseSkill(player="alice", unit="p1.knight", skill="slash", target="p2.knight"))
    assert t.unit("p1.knight").tapped and t.player(0).ether == 9 - 1
    assert t.unit("p2.knight").hp == 20 - (6 - 4)
    err = refused(t, UseSkill(player="alice", unit="p1.knight", skill="slash", target="p2.knight"))
    assert err.message_key == "engine.tapped_cannot_attack"
    # Not the rulebook's words: this table's house rules 9 and 3, with where to read them and the option.
    assert "this table's house rule 9" in err.message("en") and "docs/house-rules.md §9" in err.message("en")
    assert "at the start of its owner's turn: untap:own_turn" in err.message("en")
    assert "この卓のハウスルール9" in err.message("ja")


def test_a_support_skill_does_not_tap_and_works_once_per_arcastella_per_turn() -> None:
    t = _main()
    t.do(UseSkill(player="alice", unit="p1.knight", skill="guard"))
    assert not t.unit("p1.knight").tapped and t.state.effective_def(t.unit("p1.knight")) == 6
    err = refused(t, UseSkill(player="alice", unit="p1.knight", skill="aid", target="p1.sage"))
    assert err.message_key == "engine.support_used"  # another support skill of the same Arcastella
    t.do(UseSkill(player="alice", unit="p1.squire", skill="jab", target="p2.sage"))  # another Arcastella may
    pass_until(t, "main", turn=3)
    t.do(UseSkill(player="alice", unit="p1.knight", skill="aid", target="p1.sage"))  # a new turn


def test_a_tapped_arcastella_may_cast_and_support_unless_the_table_says_otherwise() -> None:
    t = _main()
    t.do(Adjust(player="alice", subject="p1.knight", field="tapped", value=1))
    t.do(Cast(player="alice", card="bolt", caster="p1.knight", target="p2.squire"))
    t.do(UseSkill(player="alice", unit="p1.knight", skill="guard"))
    strict = _main(GameOptions(first_player="first_seat", tapped_may_act=False))
    strict.do(Adjust(player="alice", subject="p1.knight", field="tapped", value=1))
    err = refused(strict, Cast(player="alice", card="bolt", caster="p1.knight", target="p2.squire"))
    assert err.message_key == "engine.tapped_may_not_act"
    assert "option tapped_may_act:off" in err.message("en") and "docs/house-rules.md §9" in err.message("ja")


def test_a_triggered_skill_cannot_be_used_by_hand() -> None:
    t = _main()
    err = refused(t, UseSkill(player="alice", unit="p1.sage", skill="dawnlight"))
    assert err.message_key == "engine.skill_triggers_itself"


def test_an_astral_code_needs_a_right_unless_the_table_says_always() -> None:
    t = _main()
    err = refused(t, UseSkill(player="alice", unit="p1.knight", skill="nova", target="p2.squire"))
    assert err.message_key == "engine.no_astral_right"
    t.do(Adjust(player="alice", subject="alice", field="astral_rights", value=1))
    t.do(UseSkill(player="alice", unit="p1.knight", skill="nova", target="p2.squire"))
    assert t.player(0).astral_rights == 0 and t.unit("p1.knight").tapped
    free = _main(GameOptions(first_player="first_seat", astral_right="always"))
    free.do(UseSkill(player="alice", unit="p1.knight", skill="nova", target="p2.squire"))


def test_targets_must_be_named_and_must_be_on_the_right_side() -> None:
    t = _main()
    assert refused(t, Cast(player="alice", card="bolt", caster="p1.sage")).message_key == "engine.target_required_enemy"
    assert refused(t, Cast(player="alice", card="bolt", caster="p1.sage", target="p1.knight")).message_key == (
        "engine.target_not_enemy"
    )
    assert refused(t, Cast(player="alice", card="bolt", caster="p1.sage", target="p9.x")).message_key == (
        "engine.unknown_unit"
    )


def test_a_knockout_spell_can_be_cast_only_after_a_knockout_this_turn() -> None:
    t = _main(seat2={"leader": "knight"})
    err = refused(t, Cast(player="alice", card="vengeance", caster="p1.sage", target="p2.knight"))
    assert err.message_key == "engine.wrong_timing.knockout"
    assert "this table's house rule" in err.message("en") and "この卓のハウスルール" in err.message("ja")
    t.do(Adjust(player="bob", subject="p2.squire", field="hp", value=1))
    t.do(Cast(player="alice", card="bolt", caster="p1.sage", target="p2.squire"))
    t.do(Cast(player="alice", card="vengeance", caster="p1.sage", target="p2.knight"))
    assert t.unit("p2.knight").hp == 15


def test_followers_and_aura_compolta_are_played_for_their_cost_by_a_named_arcastella() -> None:
    t = start(("pup", "choir") + ("bolt",) * 8)
    pass_until(t, "main")
    t.do(Adjust(player="alice", subject="alice", field="ether", value=3))
    t.do(Summon(player="alice", card="pup", caster="p1.sage"))
    t.do(Summon(player="alice", card="choir", caster="p1.sage"))
    alice = t.player(0)
    assert [u.uid for u in alice.units][-1] == "p1.f1" and alice.auras[0].uid == "p1.a2"
    assert alice.ether == 1 and t.unit("p1.f1").hp == 3
    err = refused(t, Summon(player="alice", card="bolt", caster="p1.sage"))
    assert err.message_key == "engine.not_playable"


def test_a_spell_that_knocks_out_the_leader_ends_the_game_and_still_goes_to_the_cemetery() -> None:
    t = _main()
    leader = t.state.players[1].leader
    t.do(Adjust(player="bob", subject=leader, field="hp", value=1))
    t.do(Cast(player="alice", card="bolt", caster="p1.sage", target=leader))
    assert t.state.over and t.state.winner == 0
    assert t.player(0).cemetery == ["bolt"]  # the card that won is on the table, not lost
    assert [e.type for e in t.events][-1] == "spell_resolved"
