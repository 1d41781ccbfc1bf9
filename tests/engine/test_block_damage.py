"""Block ([ブロック]) and the damage pipeline (ダメージ処理のフロー), step by step."""

from __future__ import annotations

from bot.engine import Adjust, Block, Cast, Concede, GameOptions, NoBlock, Pass, Summon, UseSkill

from .conftest import Table, pass_until, refused, start
from .sample_table import sample_table

DECK = ("bolt", "spark", "pup", "bolt", "bolt") + ("bolt",) * 5


def _main(options: GameOptions | None = None, **kw: object) -> Table:
    t = start(DECK, DECK, options=options, **kw)  # type: ignore[arg-type]
    pass_until(t, "main")
    t.do(Adjust(player="alice", subject="alice", field="ether", value=9))
    return t


def _refused(t: Table, action: object) -> str:
    return refused(t, action).message_key


def _tap(t: Table, *uids: str) -> None:
    for uid in uids:
        t.do(Adjust(player="alice" if uid.startswith("p1.") else "bob", subject=uid, field="tapped", value=1))


def test_an_attack_on_an_arcastella_waits_for_the_defenders_block_decision() -> None:
    t = _main()
    t.do(UseSkill(player="alice", unit="p1.knight", skill="slash", target="p2.sage"))
    assert (t.state.phase, t.state.active) == ("block", 1)
    assert _refused(t, Pass(player="bob")) == "engine.waiting_for_block"
    assert _refused(t, Pass(player="alice")) == "engine.waiting_for_block"
    assert t.unit("p2.sage").hp == 15  # nothing resolved yet


def test_the_blocker_takes_the_damage_becomes_tapped_and_still_applies_its_full_def() -> None:
    t = _main()
    t.do(UseSkill(player="alice", unit="p1.knight", skill="slash", target="p2.sage"))
    t.do(Block(player="bob", blocker="p2.squire"))
    squire = t.unit("p2.squire")
    assert squire.tapped and squire.hp == 10 - (6 - 3)  # full DEF 3 although now tapped
    assert t.unit("p2.sage").hp == 15
    assert (t.state.phase, t.state.active) == ("main", 0)  # priority back to the attacker


def test_declining_the_block_lets_the_target_take_the_damage_with_its_def() -> None:
    t = _main()
    t.do(UseSkill(player="alice", unit="p1.knight", skill="slash", target="p2.sage"))
    t.do(NoBlock(player="bob"))
    assert t.unit("p2.sage").hp == 15 - (6 - 2)


def test_only_another_untapped_standing_arcastella_of_the_defender_may_block() -> None:
    t = _main()
    _tap(t, "p2.knight")
    t.do(UseSkill(player="alice", unit="p1.knight", skill="slash", target="p2.sage"))
    assert _refused(t, Block(player="bob", blocker="p2.knight")) == "engine.tapped_cannot_block"
    assert _refused(t, Block(player="bob", blocker="p2.sage")) == "engine.cannot_block_self"
    assert _refused(t, Block(player="bob", blocker="p1.squire")) == "engine.not_your_unit"
    assert _refused(t, Block(player="alice", blocker="p2.squire")) == "engine.waiting_for_block"


def test_no_block_window_without_a_possible_blocker() -> None:
    t = _main()
    _tap(t, "p2.knight", "p2.squire")
    t.do(UseSkill(player="alice", unit="p1.knight", skill="slash", target="p2.sage"))
    assert t.state.phase == "main" and t.unit("p2.sage").hp == 15 - 4


def test_spells_are_never_blocked() -> None:
    t = _main()
    t.do(Cast(player="alice", card="bolt", caster="p1.sage", target="p2.sage"))
    assert t.state.phase == "main" and t.unit("p2.sage").hp == 15 - 4


def test_dice_damage_is_rolled_publicly_before_the_block_by_default() -> None:
    t = _main()
    new = t.do(UseSkill(player="alice", unit="p1.knight", skill="crash", target="p2.sage"), 6, 5)
    roll = next(e for e in new if e.type == "dice_rolled")
    assert (roll.purpose, roll.expression, roll.faces, roll.total) == ("damage", "2d6", (6, 5), 11)
    assert roll.number is not None
    t.do(Block(player="bob", blocker="p2.knight"))
    assert t.unit("p2.knight").hp == 20 - (11 - 4)


def test_dice_can_be_rolled_after_the_block_by_option() -> None:
    t = _main(GameOptions(first_player="first_seat", block_timing="before_roll"))
    new = t.do(UseSkill(player="alice", unit="p1.knight", skill="crash", target="p2.sage"))
    assert not any(e.type == "dice_rolled" for e in new)
    new = t.do(NoBlock(player="bob"), 1, 2)
    assert [e.faces for e in new if e.type == "dice_rolled"] == [(1, 2)]
    assert t.unit("p2.sage").hp == 15 - (3 - 2)


def test_a_tapped_target_applies_half_its_def_rounded_down() -> None:
    t = _main(seat2={"leader": "knight"})
    _tap(t, "p2.knight", "p2.sage", "p2.squire")
    t.do(UseSkill(player="alice", unit="p1.knight", skill="slash", target="p2.knight"))
    assert t.unit("p2.knight").hp == 20 - (6 - 4 // 2)
    t.do(UseSkill(player="alice", unit="p1.sage", skill="zap", target="p2.squire"))
    assert t.unit("p2.squire").hp == 10 - (3 - 3 // 2)


def test_spell_and_support_damage_ignore_def_even_when_untapped() -> None:
    t = _main()
    t.do(Cast(player="alice", card="bolt", caster="p1.sage", target="p2.knight"))
    t.do(UseSkill(player="alice", unit="p1.squire", skill="jab", target="p2.knight"))
    assert t.unit("p2.knight").hp == 20 - 4 - 2


def test_damage_below_def_is_zero_and_never_heals() -> None:
    t = _main()
    t.do(UseSkill(player="alice", unit="p1.squire", skill="poke", target="p2.knight"))
    t.do(NoBlock(player="bob"))
    dealt = next(e for e in t.events if e.type == "damage_dealt")
    assert (dealt.amount, dealt.reduction, dealt.final, dealt.hp_after) == (2, 2, 0, 20)


def test_the_sephirot_code_break_check_comes_before_reduction_and_a_break_loses_its_bonus() -> None:
    t = _main(seat2={"equipment": {"knight": "amulet"}})
    t.do(UseSkill(player="alice", unit="p1.knight", skill="slash", target="p2.knight"))
    new = t.do(NoBlock(player="bob"), 3)  # 3 is one of amulet's break results
    check = next(e for e in new if e.type == "sephirot_checked")
    assert (check.face, check.broken) == (3, True)
    knight = t.unit("p2.knight")
    assert knight.equipment is None and "amulet" in t.player(1).cemetery
    assert knight.hp == 20 - (6 - 4) + 1  # DEF 4 without the bonus, then the on-break heal of 1


def test_an_intact_sephirot_code_keeps_its_def_bonus() -> None:
    t = _main(seat2={"equipment": {"knight": "amulet"}})
    t.do(UseSkill(player="alice", unit="p1.knight", skill="slash", target="p2.knight"))
    t.do(NoBlock(player="bob"), 5)
    assert t.unit("p2.knight").equipment == "amulet" and t.unit("p2.knight").hp == 20


def test_spell_damage_makes_no_break_check_unless_the_table_says_all_damage() -> None:
    t = _main(seat2={"equipment": {"knight": "amulet"}})
    new = t.do(Cast(player="alice", card="bolt", caster="p1.sage", target="p2.knight"))
    assert not any(e.type == "sephirot_checked" for e in new)
    strict = _main(
        GameOptions(first_player="first_seat", sephirot_check="all_damage"), seat2={"equipment": {"knight": "amulet"}}
    )
    new = strict.do(Cast(player="alice", card="bolt", caster="p1.sage", target="p2.knight"), 6)
    assert [e.face for e in new if e.type == "sephirot_checked"] == [6]


def test_a_blocker_wearing_a_code_makes_the_check() -> None:
    t = _main(seat2={"equipment": {"squire": "amulet"}})
    t.do(UseSkill(player="alice", unit="p1.knight", skill="slash", target="p2.sage"))
    new = t.do(Block(player="bob", blocker="p2.squire"), 4)
    assert [e.unit for e in new if e.type == "sephirot_checked"] == ["p2.squire"]
    assert t.unit("p2.squire").hp == 10 - max(0, 6 - (3 + 2))


def test_an_arcastella_at_zero_hp_stays_on_the_board_knocked_out_and_cannot_be_targeted() -> None:
    t = _main(seat2={"leader": "knight"})
    t.do(Adjust(player="bob", subject="p2.squire", field="hp", value=3))
    t.do(Cast(player="alice", card="bolt", caster="p1.sage", target="p2.squire"))
    squire = t.unit("p2.squire")
    assert squire.hp == 0 and squire.knocked_out  # HP never below zero
    assert _refused(t, Cast(player="alice", card="bolt", caster="p1.sage", target="p2.squire")) == (
        "engine.unit_knocked_out"
    )
    t.do(UseSkill(player="alice", unit="p1.knight", skill="slash", target="p2.sage"))
    assert t.state.phase == "block"
    assert _refused(t, Block(player="bob", blocker="p2.squire")) == "engine.unit_knocked_out"


def test_knockout_triggers_fire_when_an_arcastella_is_knocked_out() -> None:
    t = _main(seat2={"leader": "knight"})
    hand = len(t.player(1).hand)
    t.do(Adjust(player="bob", subject="p2.sage", field="hp", value=2))
    t.do(Cast(player="alice", card="bolt", caster="p1.sage", target="p2.sage"))
    assert t.unit("p2.sage").knocked_out and len(t.player(1).hand) == hand + 1  # farewell: draw one


def test_a_follower_at_zero_hp_becomes_an_afterglow_card_in_the_cemetery_and_its_trigger_fires() -> None:
    t = _main()
    t.do(Summon(player="alice", card="pup", caster="p1.sage"))
    t.do(Pass(player="alice"))
    hand = len(t.player(0).hand)
    t.do(Adjust(player="bob", subject="bob", field="ether", value=5))
    t.do(Cast(player="bob", card="spark", caster="p2.sage", target="p1.f1"), 6)
    alice = t.player(0)
    assert t.state.find_unit("p1.f1") is None and alice.cemetery == ["pup"] and alice.afterglow == ["pup"]
    assert len(alice.hand) == hand + 1  # pup's knock-out trigger: draw one


def test_a_follower_applies_its_def_against_attacks() -> None:
    t = _main()
    t.do(Summon(player="alice", card="pup", caster="p1.sage"))
    pass_until(t, "main", turn=2)
    t.do(Adjust(player="bob", subject="bob", field="ether", value=5))
    t.do(UseSkill(player="bob", unit="p2.sage", skill="zap", target="p1.f1"))
    assert t.unit("p1.f1").hp == 3 - (3 - 1)  # no block window: the target is not an Arcastella


def test_the_leader_at_zero_hp_loses_the_game() -> None:
    t = _main()
    t.do(Adjust(player="bob", subject="p2.sage", field="hp", value=4))
    t.do(Cast(player="alice", card="bolt", caster="p1.sage", target="p2.sage"))
    assert t.state.over and t.state.winner == 0 and t.state.end_reason == "leader_knocked_out"
    assert t.state.active is None
    assert _refused(t, Pass(player="alice")) == "engine.game_over"
    assert _refused(t, Concede(player="bob")) == "engine.game_over"


def test_a_knocked_out_arcastella_is_not_healed_by_effects_on_all_allies() -> None:
    t = start(("dusk",) + ("bolt",) * 9, seat1={"leader": "knight"})
    pass_until(t, "main")
    t.do(Adjust(player="alice", subject="p1.squire", field="hp", value=0))
    t.do(Adjust(player="alice", subject="p1.sage", field="hp", value=5))
    t.do(Pass(player="alice"))
    t.do(Pass(player="bob"))
    t.do(Cast(player="alice", card="dusk", caster="p1.knight"))  # turn-end spell: heal 3 to all allies
    assert t.unit("p1.sage").hp == 5 + 1 + 3  # its own turn-end skill, then the spell
    assert t.unit("p1.squire").hp == 0 and t.unit("p1.squire").knocked_out


def test_a_follower_cannot_block() -> None:
    t = _main()
    pass_until(t, "main", turn=2)
    t.do(Adjust(player="bob", subject="bob", field="ether", value=5))
    t.do(Summon(player="bob", card="pup", caster="p2.sage"))
    pass_until(t, "main", turn=3)
    _tap(t, "p2.knight", "p2.squire")
    t.do(UseSkill(player="alice", unit="p1.knight", skill="slash", target="p2.sage"))
    assert t.state.phase == "main"  # the follower offers no block
    assert _refused(t, Block(player="bob", blocker="p2.f1")) == "engine.no_attack_to_block"


def test_a_leader_knockout_skill_fires_when_another_arcastella_of_its_side_is_knocked_out() -> None:
    # 鉄壁のヴォルク's leader skill 不落の城壁: 味方のアルカステラが戦闘脱落した時、味方全員のDEFを【継続2】の間+1.
    t = sample_table(leader="garde-volk")
    hart, volk = t.state.effective_def(t.unit("p1.ignis-hart")), t.state.effective_def(t.unit("p1.garde-volk"))
    new = t.do(Adjust(player="alice", subject="p1.sola-lyne", field="hp", value=0))
    used = [e for e in new if e.type == "skill_used"]
    assert [(e.unit, e.skill, e.triggered) for e in used] == [("p1.garde-volk", "unyielding-wall", True)]
    assert t.state.effective_def(t.unit("p1.ignis-hart")) == hart + 1
    assert t.state.effective_def(t.unit("p1.garde-volk")) == volk + 1
    assert not any(e.type == "def_changed" and e.unit == "p1.sola-lyne" for e in new)  # knocked out: untouched


def test_a_leader_knockout_skill_of_an_arcastella_that_is_not_the_leader_stays_silent() -> None:
    t = sample_table()  # 焔刃のハルト leads; ヴォルク's 不落の城壁 is a leader skill, so it does not work
    new = t.do(Adjust(player="alice", subject="p1.sola-lyne", field="hp", value=0))
    assert not any(e.type == "skill_used" for e in new)


def test_damage_to_every_enemy_reads_each_unit_as_earlier_triggers_left_it() -> None:
    # storm deals 2 to each of bob's units in board order; martyr falls first and heals its allies 5,
    # so pup (at 1 HP before the storm) is back at 3 when its turn comes and survives with 1.
    t = start(("storm",) * 10, ("martyr", "pup") + ("bolt",) * 8)
    pass_until(t, "main", turn=2)
    t.do(Adjust(player="bob", subject="bob", field="ether", value=5))
    t.do(Summon(player="bob", card="martyr", caster="p2.sage"))
    t.do(Summon(player="bob", card="pup", caster="p2.sage"))
    t.do(Adjust(player="bob", subject="p2.f2", field="hp", value=1))
    pass_until(t, "main", turn=3)
    t.do(Cast(player="alice", card="storm", caster="p1.sage"))
    assert t.state.find_unit("p2.f1") is None and t.player(1).afterglow == ["martyr"]
    assert t.unit("p2.f2").hp == 3 - 2 and not t.unit("p2.f2").knocked_out
    assert t.unit("p2.sage").hp == 15  # 2 from the storm, healed by martyr's trigger
