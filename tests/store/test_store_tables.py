"""Rolls, saved decks and settings: what a player or an admin saved is there after a restart (on both
backends, SQLite and PostgreSQL)."""

from __future__ import annotations

import pytest

from bot.store import NewRoll, NoDeck, TableStore, VersionConflict
from tests.store.conftest import OpenStore


def test_rolls_outside_a_game_are_logged_per_channel(open_store: OpenStore) -> None:
    with open_store() as store:
        store.rolls.record(10, NewRoll(expression="2d6", faces=[[3, 4]], total=7, user_id=5))
        store.rolls.record(11, NewRoll(expression="1d6", faces=[[6]], total=6, user_id=5))
        store.rolls.record(10, NewRoll(expression="1d20+1", faces=[[20]], total=21, user_id=6))
    with open_store() as store:
        rolls = store.rolls.of_channel(10)
        assert [(r.expression, r.total, r.game_id, r.number) for r in rolls] == [
            ("2d6", 7, None, None),
            ("1d20+1", 21, None, None),
        ]
        assert rolls[0].face_list() == [[3, 4]]
        assert [r.expression for r in store.rolls.of_channel(10, limit=1)] == ["1d20+1"]


def test_a_games_rolls_land_with_its_commit_and_keep_their_fair_numbers(store: TableStore) -> None:
    game = store.start(3, {"s": 0}, [], seed=b"\x01" * 32, commitment="abc", next_roll=0)
    roll = NewRoll(expression="3d6", faces=[[1, 2, 3]], total=6, number=0, commitment="abc", user_id=9)
    store.commit(3, {"s": 1}, [{"type": "DiceRolled"}], 1, next_roll=1, rolls=[roll])
    (stored,) = store.rolls.of_game(game.id)
    assert (stored.number, stored.commitment, stored.channel_id, stored.total) == (0, "abc", 3, 6)
    assert store.load(3).next_roll == 1
    assert store.load(3).seed == b"\x01" * 32


def test_a_refused_commit_files_none_of_its_rolls_and_an_accepted_one_files_them_all(store: TableStore) -> None:
    game = store.start(4, {"s": 0}, [], seed=b"\x02" * 32, commitment="c", next_roll=0)
    rolls = [NewRoll(expression="2d6", faces=[[6, 6]], total=12, number=n, commitment="c", user_id=9) for n in (0, 1)]
    with pytest.raises(VersionConflict):  # a stale version: nothing of this move may be kept
        store.commit(4, {"s": 9}, [{"type": "DiceRolled"}], 7, next_roll=2, rolls=rolls)
    assert store.rolls.of_game(game.id) == []
    assert store.load(4).next_roll == 0
    store.commit(4, {"s": 1}, [{"type": "DiceRolled"}], 1, next_roll=2, rolls=rolls)
    assert [(r.number, r.total) for r in store.rolls.of_game(game.id)] == [(0, 12), (1, 12)]


def test_saved_decks_are_per_user_and_can_be_replaced_and_deleted(open_store: OpenStore) -> None:
    with open_store() as store:
        store.decks.save(1, "炎デッキ", ["AC-001", "SP-002"])
        store.decks.save(2, "炎デッキ", ["AC-009"])
        store.decks.save(1, "炎デッキ", ["AC-001", "SP-003"])
    with open_store() as store:
        assert store.decks.get(1, "炎デッキ").card_list() == ["AC-001", "SP-003"]
        assert [d.name for d in store.decks.of_user(2)] == ["炎デッキ"]
        store.decks.delete(2, "炎デッキ")
        with pytest.raises(NoDeck) as info:
            store.decks.get(2, "炎デッキ")
        assert "炎デッキ" in info.value.bilingual()
        with pytest.raises(NoDeck):
            store.decks.delete(2, "炎デッキ")


def test_channel_settings_override_guild_settings(open_store: OpenStore) -> None:
    with open_store() as store:
        store.settings.set_guild(7, locale="ja", options={"ether_cap": 10, "first_player": "random"}, judge_role_id=99)
        store.settings.set_channel(70, guild_id=7, options={"first_player": "first_seat"})
        store.settings.set_guild(7, options={"tapped_may_act": False})  # merges, keeps locale and judge role
    with open_store() as store:
        guild = store.settings.guild(7)
        assert (guild.locale, guild.judge_role_id) == ("ja", 99)
        locale, options = store.settings.effective(70, 7)
        assert locale == "ja"
        assert options == {"ether_cap": 10, "first_player": "first_seat", "tapped_may_act": False}
        assert store.settings.effective(71, None) == (None, {})
        store.settings.set_channel(70, locale="en")
        assert store.settings.effective(70, 7)[0] == "en"
