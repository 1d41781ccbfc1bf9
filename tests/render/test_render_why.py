"""The table says why: the DEF a hit met and how, the house rule that decided a line, the start phase's
header, the card that drew, one word for a knocked-out unit, /adjust in the reader's language, and /help."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest
from pydantic import TypeAdapter

from bot.engine import Adjust, Block, Cast, Charge, Event, GameOptions, NoBlock, Pass, Summon, UseSkill, game_over
from bot.engine import events as ev
from bot.engine.replay import EVENTS
from bot.errors import RefereeError
from bot.render import render_events, render_help, render_log
from tests.engine.conftest import Table, at_main, pass_until, refused, start

# The fields added to events by this change, which older stored logs do not have.
ADDED = {
    "cards_drawn": {"hand_after", "deck_after", "card", "skill"},
    "ether_gained": {"total_after", "capped"},
    "sephirot_checked": {"source"},
    "deck_rebuilt": {"rights_after"},
    "damage_dealt": {"printed_def", "def_parts", "def_rule", "def_applied", "difference"},
    "def_changed": {"card", "skill"},
}
DECK = ("weaken", "bolt", "bolt", "bolt", "bolt") + ("bolt",) * 5
I18N = Path(__file__).resolve().parents[2] / "bot" / "i18n"


def _lines(t: Table, action: Any, *faces: int) -> dict[str, list[str]]:
    before = t.state
    new = t.do(action, *faces)
    return {locale: render_events(new, before, locale) for locale in ("en", "ja")}


def _damage(lines: dict[str, list[str]]) -> tuple[str, str]:
    (en,) = [line for line in lines["en"] if " damage (" in line]
    (ja,) = [line for line in lines["ja"] if "ダメージ（" in line]
    return en, ja


def test_full_def_shows_the_printed_value_and_each_change() -> None:
    t = at_main(DECK)
    _lines(t, Cast(player="alice", card="weaken", caster="p1.sage", target="p2.knight"))  # DEF 4 − 3
    _lines(t, UseSkill(player="alice", unit="p1.knight", skill="slash", target="p2.knight"))
    en, ja = _damage(_lines(t, NoBlock(player="bob")))
    assert en == (
        "knight(Bob) takes 5 damage (attack: 6 − DEF 1 = 5; DEF 1 = printed 4 -3 weaken (this turn), "
        "in full (untapped)) → HP 15."
    )
    assert ja == (
        "knight(Bob)に5ダメージ（攻撃スキル: 6 − DEF 1 = 5。DEF 1 = 印刷値 4 -3 weaken（ターン終了まで）、"
        "アンタップ状態なので全額）→ HP 15。"
    )


def test_a_tapped_unit_s_def_is_halved_with_the_rounding_shown() -> None:
    t = at_main(DECK)
    t.do(Adjust(player="bob", subject="p2.squire", field="tapped", value=1))  # printed DEF 3
    _lines(t, UseSkill(player="alice", unit="p1.knight", skill="slash", target="p2.squire"))
    en, ja = _damage(_lines(t, NoBlock(player="bob")))
    assert en == (
        "squire(Bob) takes 5 damage (attack: 6 − DEF 1 = 5; printed DEF 3, "
        "halved (tapped): 3 ÷ 2 = 1.5 → 1, rounded down) → HP 5."
    )
    assert ja == (
        "squire(Bob)に5ダメージ（攻撃スキル: 6 − DEF 1 = 5。印刷されたDEF 3、"
        "タップ状態なので半減: 3 ÷ 2 = 1.5 → 1（切り捨て））→ HP 5。"
    )


def test_def_larger_than_the_damage_says_0_damage_and_hp_unchanged() -> None:
    t = at_main(DECK)
    _lines(t, UseSkill(player="alice", unit="p1.squire", skill="poke", target="p2.knight"))  # 2 against DEF 4
    before = t.state
    new = t.do(NoBlock(player="bob"))
    (hit,) = [e for e in new if isinstance(e, ev.DamageDealt)]
    assert (hit.def_applied, hit.difference, hit.final, hit.hp_after) == (4, -2, 0, 20)
    en, ja = _damage({loc: render_events(new, before, loc) for loc in ("en", "ja")})
    assert en == (
        "knight(Bob) takes 0 damage (attack: 2 − DEF 4 = −2 → 0, DEF is at least the damage; printed DEF 4, "
        "in full (untapped)) → HP 20, unchanged."
    )
    assert ja == (
        "knight(Bob)に0ダメージ（攻撃スキル: 2 − DEF 4 = −2 → 0（DEFがダメージ以上）。印刷されたDEF 4、"
        "アンタップ状態なので全額）→ HP 20（変化なし）。"
    )


def test_a_blocker_and_a_spell_say_how_def_counted() -> None:
    t = at_main(DECK)
    _lines(t, UseSkill(player="alice", unit="p1.knight", skill="slash", target="p2.sage"))
    en, _ = _damage(_lines(t, Block(player="bob", blocker="p2.squire")))
    assert "6 − DEF 3 = 3; printed DEF 3, in full (a blocker's DEF is not halved)" in en
    en, ja = _damage(_lines(t, Cast(player="alice", card="bolt", caster="p1.sage", target="p2.knight")))
    assert en == (
        "knight(Bob) takes 4 damage (spell: 4; DEF does not apply: only attack skills and astral codes meet DEF)"
        " → HP 16."
    )
    assert "DEFは適用されません" in ja


def test_an_older_log_s_damage_event_still_renders() -> None:
    t = at_main(DECK)
    old = ev.DamageDealt(
        source="attack", card="knight", target="p2.knight", amount=6, reduction=4, final=2, hp_after=18
    )
    assert render_events([old], t.state, "en") == ["knight(Bob) takes 2 damage (attack: 6 − DEF 4) → HP 18."]


def test_an_ether_effect_the_limit_stops_names_the_house_rule() -> None:
    t = start(("bolt",) * 10, ("bolt",) * 10)
    t.do(Charge(player="alice", card="bolt"))  # fires: draws a card
    t.do(Pass(player="bob"))
    lines = _lines(t, Charge(player="alice", card="bolt"))
    assert (
        "The ether effect of bolt does not fire: this player's one ether effect has already been used this turn "
        "(this table's house rule 7, ether_effect_limit:per_player)."
    ) in lines["en"]
    assert "（この卓のハウスルール7、ether_effect_limit:per_player）" in lines["ja"][1]


def test_a_rebuilt_deck_and_the_astral_right_name_their_house_rules() -> None:
    t = start(("study",) * 6, ("bolt",) * 10, options=GameOptions(first_player="first_seat"))
    t.do(Charge(player="alice", card="study"))  # one card in the ether area to rebuild from
    pass_until(t, "main")
    lines = _lines(t, Cast(player="alice", card="study", caster="p1.sage"))  # draws 2 from a 1-card deck
    en = "\n".join(lines["en"])
    assert "Alice draws 1 card(s) by study (hand 4, deck 0)." in en
    assert "Alice's deck ran out and is rebuilt from the cemetery and the ether area (1 cards)" in en
    assert "(this table's house rule 4, deck_out:rebuild)." in en
    assert "Alice earns an astral code right → 1 (this table's house rule 18, astral_right:deck_rebuild)." in en
    assert "Aliceがstudyの効果で1枚ドロー（手札 4・山札 0）。" in lines["ja"]
    assert "Alice draws 1 card(s) by study (hand 5, deck 0)." in en


def test_the_start_phase_has_its_header_and_its_untap_names_house_rule_3() -> None:
    t = at_main(DECK)
    t.do(UseSkill(player="alice", unit="p1.knight", skill="slash", target="p2.sage"))
    t.do(NoBlock(player="bob"))
    pass_until(t, "charge", turn=3)
    lines = render_log(t.events, "en").lines
    text = "\n".join(lines)
    assert (
        "━━ Turn 3: Alice ━━\n── Start phase ──\nUntapped: knight(Alice) (this table's house rule 3, untap:own_turn)."
        in text
    )


def test_untap_every_turn_untaps_the_other_side_at_each_start_phase() -> None:
    t = at_main(DECK, GameOptions(first_player="first_seat", untap="every_turn"))
    t.do(UseSkill(player="alice", unit="p1.knight", skill="slash", target="p2.sage"))
    t.do(NoBlock(player="bob"))
    assert t.unit("p1.knight").tapped
    pass_until(t, "charge", turn=2)  # bob's turn: alice's attacker untaps too, so it could block
    assert not t.unit("p1.knight").tapped
    text = "\n".join(render_log(t.events, "ja").lines)
    assert "アンタップ: knight(Alice)（この卓のハウスルール3、untap:every_turn）。" in text


def test_after_the_game_is_over_an_action_says_who_won_and_how_to_start_again() -> None:
    t = at_main(DECK)
    t.do(Adjust(player="bob", subject="p2.sage", field="hp", value=0))  # bob's leader: alice wins
    err = refused(t, Pass(player="bob"))
    assert err.message("en") == (
        "This game is over (Alice won: the opposing leader was knocked out) — /game start for a new one."
    )
    assert (
        err.message("ja")
        == "この対戦は終わっています（Aliceの勝利: 相手のリーダーが戦闘脱落）。新しい対戦は /game start で始めます。"
    )
    # A table ended without a winner (a front end passes its last state to game_over): said as such.
    unfinished = t.state.model_copy(update={"winner": None, "end_reason": None})
    assert game_over(unfinished).message("en") == (
        "This game is over (it was ended without a winner) — /game start for a new one."
    )


def test_one_word_for_a_knocked_out_unit_in_every_message() -> None:
    """The rulebook's 戦闘脱落 (English: knocked out), never 戦闘不能, 倒れる or "falls"."""
    for path in sorted((I18N / "ja").glob("*.toml")):
        text = path.read_text(encoding="utf-8")
        assert "戦闘不能" not in text and "倒れ" not in text, path
    for path in sorted((I18N / "en").glob("*.toml")):
        text = path.read_text(encoding="utf-8")
        assert " falls " not in text and "defeated" not in text, path


def test_adjust_lines_name_the_field_in_the_reader_s_language() -> None:
    t = at_main(DECK)
    lines = _lines(t, Adjust(player="bob", subject="p1.knight", field="def_turn", value=2, note="ruling"))
    assert "DEF this turn" in lines["en"][0] and "def_turn" not in lines["en"][0]
    assert "このターンのDEF" in lines["ja"][0] and "def_turn" not in lines["ja"][0]
    t.do(Adjust(player="alice", subject="p1.knight", field="def_turn", value=1))
    lines = _lines(t, Adjust(player="alice", subject="p1.knight", field="def_turn", value=2))
    assert lines["en"][0] == "Alice adjusts knight(Alice) DEF this turn: +1 → +3."  # changes add up
    assert lines["ja"][0] == "Aliceがknight(Alice)のこのターンのDEFを調整: +1 → +3。"
    err = refused(t, Adjust(player="alice", subject="p1.knight", field="tapped", value=1, cards=("bolt",)))
    assert err.message("ja") == "タップ状態 の調整ではカードを指定しません。"
    assert err.message("en") == "Adjusting tapped state does not name cards."


def test_help_explains_one_command_s_options() -> None:
    en = render_help("adjust", "en")
    text = "\n".join(en.lines)
    assert "lasts for this turn: it is added to the printed DEF" in text
    assert "field:hp" in text and "field:def_turn" in text and en.title == "/adjust — its options"
    ja = "\n".join(render_help("/adjust", "ja").lines)
    assert "このターンだけのDEFの変化" in ja and "印刷されたDEFとほかの変化に足され" in ja
    assert render_help("game start", "en").lines[0].startswith("/game start players:")
    assert render_help(None, "en").title == "Console commands (the same words as the slash commands)"
    with pytest.raises(RefereeError) as info:
        render_help("fly", "en")
    assert "There is no command /fly" in info.value.message("en") and "/adjust" in info.value.message("en")


def test_every_console_command_has_help_in_both_languages() -> None:
    from bot.console.session import OPTIONS

    for command in OPTIONS:
        for locale in ("en", "ja"):
            assert render_help(command, locale).lines, (command, locale)


def test_a_reply_takes_its_counts_from_the_events_not_from_folding_them() -> None:
    """The hand and deck after a draw are the event's: a reply never folds the events again."""
    t = start()
    state = t.state.clone()
    state.players[0].hand = []  # a table that disagrees with the event: the event's numbers win
    drawn = ev.CardsDrawn(seat=0, cards=("bolt",), hand_after=6, deck_after=4)
    gained = ev.EtherGained(seat=0, amount=2, reason="effect", total_after=7)
    assert render_events([drawn, gained], state, "en") == [
        "Alice draws 1 card(s) (hand 6, deck 4).",
        "Alice gains 2 ether (effect) → 7.",
    ]


def test_names_come_from_what_the_events_introduce() -> None:
    """A follower summoned in this very reply is named from its `summoned` event, also once it has fallen."""
    t = at_main(("pup",) * 10)
    before = t.state
    summoned = t.do(Summon(player="alice", card="pup", caster="p1.sage"))
    (uid,) = [e.uid for e in summoned if isinstance(e, ev.Summoned)]
    lines = render_events([*summoned, ev.KnockedOut(unit=uid, afterglow=True)], before, "en")
    number = uid.split(".", 1)[1]
    assert lines[0] == "Alice plays pup with sage(Alice) (cost 1)."
    assert lines[-1] == f"pup〔{number}〕(Alice) is knocked out and goes to the cemetery as an afterglow card."


def test_a_whole_game_s_log_from_older_events_without_the_new_fields() -> None:
    """Events stored before these fields existed: the log prints what it can and never fails."""
    t = at_main(DECK)
    t.do(UseSkill(player="alice", unit="p1.knight", skill="slash", target="p2.knight"))
    t.do(NoBlock(player="bob"))
    raw = json.loads(EVENTS.dump_json(t.events))
    stripped = [{k: v for k, v in d.items() if k not in ADDED.get(d["type"], ())} for d in raw]
    old = TypeAdapter(list[Event]).validate_python(stripped)
    text = "\n".join(render_log(old, "en").lines)
    assert "Alice draws 5 card(s)." in text and "knight(Bob) takes 2 damage (attack: 6 − DEF 4) → HP 18." in text


def test_the_ether_cap_says_what_it_kept_out() -> None:
    t = start(("bolt",) * 10, ("bolt",) * 10, options=GameOptions(first_player="first_seat", ether_cap=2))
    assert t.player(0).ether == 1  # the leader sage's dawnlight
    lines = _lines(t, Charge(player="alice", card="bolt", use_ether_effect=False))  # bolt: 1 → 2
    assert "Alice gains 1 ether (conversion) → 2." in lines["en"]
    t.do(Pass(player="bob"))
    lines = _lines(t, Charge(player="alice", card="bolt", use_ether_effect=False))
    assert (
        "Alice gains no ether (conversion): the pool is already at the cap of 2, so 1 is kept out"
        " (this table's house rule 5, ether_cap:2)."
    ) in lines["en"]
    assert "（この卓のハウスルール5、ether_cap:2）。" in lines["ja"][-1]


def test_a_partly_capped_gain_says_how_much_the_cap_kept_out() -> None:
    t = start(("big",) * 10, ("bolt",) * 10, options=GameOptions(first_player="first_seat", ether_cap=3))
    lines = _lines(t, Charge(player="alice", card="big"))  # big: 5 ether, 2 fit on the 1 she has
    assert (
        "Alice gains 2 ether (conversion) → 3; 3 more is kept out by the ether cap"
        " (this table's house rule 5, ether_cap:3)."
    ) in lines["en"]


def test_a_spell_s_sephirot_check_names_the_option_that_asked_for_it() -> None:
    options = GameOptions(first_player="first_seat", sephirot_check="all_damage")
    t = start(DECK, DECK, options=options, seat2={"equipment": {"sage": "amulet"}})
    pass_until(t, "main")
    t.do(Adjust(player="alice", subject="alice", field="ether", value=9))
    lines = _lines(t, Cast(player="alice", card="bolt", caster="p1.sage", target="p2.sage"), 5)
    (check,) = [line for line in lines["en"] if line.startswith("Sephirot check")]
    assert check.endswith(
        "— it holds. spell damage makes the check too (this table's house rule 13, sephirot_check:all_damage)."
    )


def test_dice_rolled_before_the_block_name_house_rule_11() -> None:
    t = at_main(DECK)
    lines = _lines(t, UseSkill(player="alice", unit="p1.knight", skill="crash", target="p2.sage"), 3, 4)
    assert lines["en"][-1].endswith(
        "The damage dice were rolled before the block decision (this table's house rule 11, block_timing:after_roll)."
    )
