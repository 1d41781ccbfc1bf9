"""The practice positions of docs/positions/, each played through a real console session (real
service, real SQLite file, real engine), checking the numbers the rulebook gives; and the practice
marker: status, log, replay, given dice, and verify's refusal."""

from __future__ import annotations

from pathlib import Path

import pytest

from bot.console.session import ConsoleSession
from bot.dice import DiceError
from bot.dice.given import PRACTICE
from bot.engine.position import Position
from bot.engine.state import GameState, Unit
from bot.table.position import load_position
from tests.console.conftest import catalog, refusal, text

POSITIONS = Path(__file__).resolve().parents[2] / "docs" / "positions"


def position(name: str, **changes: object) -> Position:
    loaded = load_position(POSITIONS / name, catalog())
    return loaded.model_copy(update=changes) if changes else loaded


async def opened(session: ConsoleSession, pos: Position) -> str:
    reply = await session.start_position(pos, "test.toml")
    return text(reply)


async def state(session: ConsoleSession) -> GameState:
    view = await session.service.status(session.channel_id)
    return view.state


def unit(s: GameState, seat: int, card: str) -> Unit:
    found = next(u for u in s.players[seat].units if u.card == card)
    return found


async def test_every_shipped_position_loads_and_is_played_here() -> None:
    shipped = {p.name for p in POSITIONS.glob("*.toml")}
    played = {
        "block-on-tapped-unit.toml", "spell-against-def.toml", "support-skill.toml", "sephirot-break.toml",
        "knockouts.toml", "ether-conversion-opponent-turn.toml", "deck-running-out.toml",
    }  # fmt: skip
    assert shipped == played
    for name in shipped:
        load_position(POSITIONS / name, catalog())


async def test_a_blocker_takes_the_hit_on_a_tapped_unit_with_its_full_def(session: ConsoleSession) -> None:
    await opened(session, position("block-on-tapped-unit.toml"))
    shown = text(await session.run("alice: /skill unit:ignis-hart skill:crimson-slash target:tera-mina"))
    assert "given [4, 3] = 7" in shown and "not rolled" in shown
    legal = text(await session.run("bob: /legal"))
    assert "鉄壁のヴォルク" in legal and "ステラ" not in legal.split("blocker:")[-1]  # tapped Tera-Mina never blocks
    shown = text(await session.run("bob: /block blocker:garde-volk"))
    assert "7 − DEF 4 = 3" in shown and "HP 35" in shown
    s = await state(session)
    volk, mina = unit(s, 1, "garde-volk"), unit(s, 1, "tera-mina")
    assert (volk.hp, volk.tapped, mina.hp) == (35, True, 22)


async def test_without_a_block_a_tapped_unit_halves_its_def_rounded_down(session: ConsoleSession) -> None:
    await opened(session, position("block-on-tapped-unit.toml"))
    await session.run("alice: /skill unit:ignis-hart skill:crimson-slash target:tera-mina")
    shown = text(await session.run("bob: /noblock"))
    assert "HP 15" in shown  # 7 − (1 ÷ 2 → 0) = 7; 22 → 15
    assert unit(await state(session), 1, "tera-mina").hp == 15


async def test_a_spell_ignores_def(session: ConsoleSession) -> None:
    await opened(session, position("spell-against-def.toml"))
    shown = text(await session.run("alice: /cast card:blaze-lance caster:ignis-hart target:garde-volk"))
    assert "given [5, 4] = 9" in shown and "HP 29" in shown
    s = await state(session)
    assert unit(s, 1, "garde-volk").hp == 38 - 9 and s.players[0].ether == 1


async def test_a_support_skill_does_not_tap_and_works_once_per_turn(session: ConsoleSession) -> None:
    await opened(session, position("support-skill.toml"))
    text(await session.run("alice: /skill unit:ignis-hart skill:rallying-spirit target:garde-volk"))
    s = await state(session)
    assert s.effective_def(unit(s, 0, "garde-volk")) == 5
    assert not unit(s, 0, "ignis-hart").tapped and s.players[0].ether == 2
    assert "once per Arcastella per turn" in refusal(
        await session.run("alice: /skill unit:ignis-hart skill:rallying-spirit target:garde-volk")
    )


@pytest.mark.parametrize(("check", "hp", "broken"), [(1, 29, True), (2, 30, False)])
async def test_the_sephirot_check_comes_before_def(session: ConsoleSession, check: int, hp: int, broken: bool) -> None:
    await opened(session, position("sephirot-break.toml", dice=(3, 4, check)))
    shown = text(await session.run("alice: /skill unit:ignis-hart skill:crimson-slash target:nox-arden"))
    assert ("7 − DEF 2 = 5" if broken else "7 − DEF 3 = 4") in shown
    s = await state(session)
    nox = unit(s, 1, "nox-arden")
    assert nox.hp == hp and (nox.equipment is None) == broken
    assert ("keter-circlet" in s.players[1].cemetery) == broken


async def test_a_follower_and_a_leader_are_knocked_out(session: ConsoleSession) -> None:
    await opened(session, position("knockouts.toml"))
    shown = text(await session.run("alice: /cast card:spark-arrow caster:ignis-hart target:shield-squire"))
    assert "HP 0" in shown and "afterglow" in shown
    s = await state(session)
    assert all(u.card != "shield-squire" for u in s.players[1].units)
    assert "shield-squire" in s.players[1].afterglow
    shown = text(await session.run("alice: /skill unit:ignis-hart skill:crimson-slash target:nox-arden"))
    assert "11 − DEF 2 = 9" in shown and "alice wins" in shown
    assert "Revealed seed" not in shown and "PRACTICE TABLE" in shown
    view = (await session.service.log(session.channel_id)).game
    assert view.state.winner == 0 and view.state.end_reason == "leader_knocked_out"


async def test_ether_conversion_on_the_opponent_s_turn(session: ConsoleSession) -> None:
    await opened(session, position("ether-conversion-opponent-turn.toml"))
    ether = []
    for line in ("bob: /pass", "alice: /charge card:ether-flash", "bob: /pass", "alice: /charge card:ether-flash"):
        text(await session.run(line))
        ether.append((await state(session)).players[0].ether)
    assert ether == [0, 2, 2, 3]  # the second ether effect does not fire (house rule 7)
    text(await session.run("bob: /pass"))
    text(await session.run("alice: /pass"))
    s = await state(session)
    assert (s.phase, s.turn_player, s.active) == ("main", 1, 1)


async def test_a_deck_running_out_is_rebuilt_in_the_given_order(session: ConsoleSession) -> None:
    await opened(session, position("deck-running-out.toml"))
    text(await session.run("alice: /pass"))
    shown = text(await session.run("bob: /pass"))
    assert "deck_out:rebuild" in shown
    bob = (await state(session)).players[1]
    # cemetery then ether area, unshuffled: tide-bullet, spark-arrow drawn; ether-flash left
    assert bob.hand[3:] == ["tide-bullet", "spark-arrow"] and bob.deck == ["ether-flash"]
    assert (bob.astral_rights, bob.cemetery, bob.ether_area) == (1, [], [])


async def test_with_deck_out_lose_the_same_position_ends_the_game(session: ConsoleSession) -> None:
    base = position("deck-running-out.toml")
    await opened(session, base.model_copy(update={"options": base.options.model_copy(update={"deck_out": "lose"})}))
    text(await session.run("alice: /pass"))
    shown = text(await session.run("bob: /pass"))
    assert "alice wins" in shown


async def test_a_practice_table_is_marked_in_status_log_and_replay_and_verify_refuses_it(
    session: ConsoleSession,
) -> None:
    shown = await opened(session, position("spell-against-def.toml"))
    assert "PRACTICE TABLE" in shown and "Fair dice" not in shown
    assert "PRACTICE TABLE" in text(await session.run("/game status"))
    text(await session.run("alice: /cast card:blaze-lance caster:ignis-hart target:garde-volk"))
    log = text(await session.run("/game log"))
    assert "Practice position" in log and "given [5, 4] = 9 (given die #1, not rolled)" in log
    view = await session.service.status(session.channel_id)
    assert view.commitment == PRACTICE
    check = await session.service.replay_check(view.game_id)
    assert check.matches
    text(await session.run("alice: /game end"))
    with pytest.raises(DiceError) as refused:
        await session.service.verify(session.channel_id)
    assert refused.value.message_key == "practice.dice.not_verifiable"
    assert "PRACTICE TABLE" in text(await session.run("/game status"))


async def test_given_dice_that_run_out_refuse_the_roll_and_change_nothing(session: ConsoleSession) -> None:
    await opened(session, position("block-on-tapped-unit.toml", dice=(4,)))
    before = await session.service.status(session.channel_id)
    reply = await session.run("alice: /skill unit:ignis-hart skill:crimson-slash target:tera-mina")
    assert "run out" in refusal(reply)
    after = await session.service.status(session.channel_id)
    assert after.version == before.version and after.state.players[0].ether == 4


async def test_legal_lists_what_each_player_may_do_on_a_loaded_position(session: ConsoleSession) -> None:
    await opened(session, position("block-on-tapped-unit.toml"))
    alice = text(await session.run("/legal alice"))
    assert "alice: /skill" in alice and "alice: /pass" in alice
    bob = text(await session.run("/legal bob"))
    assert "(0)" in bob  # bob holds no priority in alice's main phase
    text(await session.run("alice: /skill unit:ignis-hart skill:crimson-slash target:tera-mina"))
    bob = text(await session.run("/legal bob"))
    assert "bob: /block blocker:鉄壁のヴォルク" in bob and "bob: /noblock" in bob
    assert "(0)" in text(await session.run("/legal alice"))


async def test_a_second_table_is_refused_while_one_runs(session: ConsoleSession) -> None:
    await opened(session, position("support-skill.toml"))
    reply = await session.start_position(position("support-skill.toml"), "again.toml")
    assert reply.refusal is not None


def test_referee_replay_of_a_running_practice_table_says_practice_and_hides_hands_and_decks(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    from bot.__main__ import main

    db = tmp_path / "t.sqlite3"
    script = tmp_path / "s.txt"
    script.write_text("/game status\n", encoding="utf-8")
    file = POSITIONS / "spell-against-def.toml"
    assert main(["console", "--position", str(file), "--db", str(db), "--script", str(script), "--channel", "5"]) == 0
    capsys.readouterr()
    assert main(["replay", "5", "--db", str(db), "--locale", "en"]) == 0
    out = capsys.readouterr().out
    assert "PRACTICE TABLE" in out and "position_loaded" in out
    assert "blaze-lance" not in out.split("position_loaded", 1)[1].split("\n", 1)[0]  # alice's hand stays hidden
    assert "Revealed seed" not in out
