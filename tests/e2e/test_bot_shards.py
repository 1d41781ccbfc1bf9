"""Shards: `referee run --shards … --shard-count N` runs only those shards of the gateway, and several such
processes over one PostgreSQL database share the servers between them as Discord routes them.

- one process for shards 0 and 1 of 4 (SQLite): its sessions are those shards, a server of shard 1 is answered
  and its /game status names the shard, a server of shard 2 has no session (no one answers it), the log names
  the shards it readied;
- two processes, shard 0 and shard 1 of 2, over one PostgreSQL schema: games in servers of both shards, the
  process of shard 0 killed (SIGKILL) in the middle and started again; the games of shard 1 go on meanwhile,
  the buttons of the messages sent before the crash play afterwards, and the log in PostgreSQL holds every
  move answered as played exactly once, by its player, at the version its answer showed.
"""

from __future__ import annotations

import json
import os
from collections.abc import Iterator
from dataclasses import dataclass, field
from pathlib import Path

import pytest

from bot.catalog import load_catalog
from bot.engine import GameState, legal_actions
from bot.settings import BadSetting, load_settings
from tests.discord.table import aggressive, command_for
from tests.fake_discord import FakeChannel, FakeDiscord, FakeGuild, FakeMessage, FakeUser, NoSession

from .conftest import ShardProcess, pg_rows
from .test_bot_commands import ANSWER

PG_URL_VARIABLE = "REFEREE_TEST_DATABASE_URL"


@pytest.fixture
def pg_url() -> Iterator[str]:
    """A URL whose connections work in a fresh schema of the test server (dropped afterwards)."""
    from tests.store.conftest import HOW_TO_RUN, fresh_schema

    url = os.environ.get(PG_URL_VARIABLE)
    if not url:
        pytest.skip(HOW_TO_RUN)
    with fresh_schema(url) as (in_schema, _):
        yield in_schema


async def guilds_on_shards(fake: FakeDiscord, wanted: dict[int, int]) -> dict[int, list[FakeGuild]]:
    """`wanted[shard]` guilds on each shard, with snowflakes whose timestamps Discord's routing puts there
    (`(id >> 22) % shard_count`; the fake itself checks where it sends them)."""
    found: dict[int, list[FakeGuild]] = {shard: [] for shard in range(fake.shard_count)}
    base = 1_300_000_000_000  # milliseconds since Discord's epoch (2025)
    for shard, count in wanted.items():
        for n in range(count):
            moment = base + n * fake.shard_count + shard
            guild = await fake.create_guild(f"club-{shard}-{n}", id=(moment << 22) + 1, locale="ja")
            assert fake.shard_of(guild) == shard
            found[shard].append(guild)
    return found


def make_global(fake: FakeDiscord) -> None:
    """The commands the bot synced to its development guild, global (as `referee sync` leaves them)."""
    fake.sync_commands(str(fake.application_id), None, fake.command_syncs[-1]["payload"])


# -- settings ---------------------------------------------------------------------------------------


def test_shards_without_a_count_or_beyond_it_are_refused_by_name(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("REFEREE_SHARDS", "0,1")
    with pytest.raises(BadSetting) as no_count:
        load_settings()
    assert "REFEREE_SHARD_COUNT" in no_count.value.bilingual()
    monkeypatch.setenv("REFEREE_SHARD_COUNT", "2")
    monkeypatch.setenv("REFEREE_SHARDS", "1,2")
    with pytest.raises(BadSetting) as beyond:
        load_settings()
    assert "[2]" in beyond.value.bilingual()
    monkeypatch.setenv("REFEREE_SHARDS", "one")
    with pytest.raises(BadSetting) as words:
        load_settings()
    assert "REFEREE_SHARDS" in words.value.bilingual()
    monkeypatch.setenv("REFEREE_SHARDS", "1, 0")
    settings = load_settings()
    assert settings.shards == [0, 1] and settings.shard_count == 2


# -- one process, some shards -----------------------------------------------------------------------


async def test_a_process_runs_only_its_shards_and_its_status_names_the_shard(tmp_path: Path) -> None:
    async with FakeDiscord(shard_count=4) as fake:
        found = await guilds_on_shards(fake, {1: 1, 2: 1})
        ours, theirs = found[1][0], found[2][0]
        alice, bob = fake.create_user("alice", locale="ja"), fake.create_user("bob", locale="en-US")
        for guild in (ours, theirs):
            fake.add_member(guild, alice)
            fake.add_member(guild, bob)
        bot = ShardProcess(fake, ours, tmp_path / "bot", shards=(0, 1), shard_count=4)
        try:
            await bot.start()
            assert sorted(s.shard_id for s in fake.gateway.live_sessions()) == [0, 1]
            make_global(fake)
            channel = await fake.create_channel(ours, "table")
            invite = await fake.invoke(alice, channel, "game", {"opponent": bob}, subcommand="start")
            await invite.response(ANSWER)
            assert invite.original is not None
            [accept] = [c for c in invite.original.custom_ids() if c.startswith("hn:acc:")]
            await (await fake.click(bob, invite.original, accept)).response(ANSWER)
            status = await fake.invoke(bob, channel, "game", subcommand="status")
            shown = await status.response(ANSWER)
            assert not shown.ephemeral and "shard 1/4" in json.dumps(shown.embeds)

            with pytest.raises(NoSession):  # shard 2 belongs to another process (none here)
                await fake.invoke(alice, await fake.create_channel(theirs, "elsewhere"), "roll", {"dice": "1d6"})
            # The log names each shard it readied, with the servers Discord gave it.
            await fake.wait_until(lambda: "shard 1 of 4 ready" in bot.log(), 20)
        finally:
            await bot.stop()
        log = bot.log()
        assert "shard 0 of 4 ready (0 servers)" in log and "shard 1 of 4 ready (1 servers)" in log


# -- two processes, two shards, one PostgreSQL database ---------------------------------------------


@dataclass
class Game:
    """One channel's game as the players see it, and every move the bot answered as played."""

    channel: FakeChannel
    shard: int
    message: FakeMessage | None = None
    played: list[tuple[int, int]] = field(default_factory=list)  # (version shown after it, player)


def running_state(url: str, channel_id: int) -> tuple[GameState, int] | None:
    rows = pg_rows(url, "SELECT state, version FROM games WHERE channel_id = %s AND status = 'active'", channel_id)
    if not rows:
        return None
    state = GameState.model_validate(json.loads(rows[0]["state"]))
    state.cards = dict(load_catalog().cards)
    return state, int(rows[0]["version"])


async def play(fake: FakeDiscord, url: str, game: Game, players: dict[int, FakeUser], *, by_button: bool) -> bool:
    """One move of the acting player (a button of the last public message when `by_button` and it offers the
    move, else its slash command); False once the game is over."""
    found = running_state(url, game.channel.id)
    if found is None:
        return False
    state, version = found
    user_id = int(state.players[state.active or 0].id)
    actions = legal_actions(state, str(user_id))
    index = aggressive(state, actions)
    ids = game.message.custom_ids() if game.message is not None else []
    offered = [c for c in ids if f":{version}:{user_id}:" in c and not c.startswith("hn:hand:")]
    if by_button:  # whichever move the message offers its player
        assert offered, f"no button for a move at v{version} in {ids}"
        index = int(offered[0].rsplit(":", 1)[1])
    buttons = [c for c in offered if c.endswith(f":{index}")]
    if buttons and game.message is not None:
        handle = await fake.click(players[user_id], game.message, buttons[0])
    else:
        name, options = command_for(actions[index], state.phase)
        handle = await fake.invoke(players[user_id], game.channel, name, options)
    reply = await handle.response(ANSWER)
    assert not reply.ephemeral, f"the move at v{version} in {game.channel.name} was refused: {reply.embeds}"
    game.message = handle.original
    game.played.append((version + 1, user_id))
    return True


async def test_two_processes_with_a_shard_each_survive_a_crash_of_one(tmp_path: Path, pg_url: str) -> None:
    async with FakeDiscord(shard_count=2) as fake:
        found = await guilds_on_shards(fake, {0: 2, 1: 2})
        alice, bob = fake.create_user("alice", locale="ja"), fake.create_user("bob", locale="en-US")
        players = {alice.id: alice, bob.id: bob}
        games: list[Game] = []
        for shard in (0, 1):
            for guild in found[shard][:2]:
                fake.add_member(guild, alice)
                fake.add_member(guild, bob)
                games.append(Game(await fake.create_channel(guild, f"table-{shard}"), shard))
        env = {"REFEREE_DATABASE_URL": pg_url}
        first = ShardProcess(fake, found[0][0], tmp_path / "shard-0", env=env, shards=(0,), shard_count=2)
        second = ShardProcess(fake, found[0][0], tmp_path / "shard-1", env=env, shards=(1,), shard_count=2)
        try:
            await first.start()
            await second.start()
            make_global(fake)
            for game in games:  # alice invites, bob accepts
                invite = await fake.invoke(alice, game.channel, "game", {"opponent": bob}, subcommand="start")
                await invite.response(ANSWER)
                assert invite.original is not None
                [accept] = [c for c in invite.original.custom_ids() if c.startswith("hn:acc:")]
                accepted = await fake.click(bob, invite.original, accept)
                assert not (await accepted.response(ANSWER)).ephemeral
                game.message = accepted.original
            for _ in range(4):
                for game in games:
                    assert await play(fake, pg_url, game, players, by_button=False)

            await first.stop(kill=True)  # a crash of the process of shard 0, games in the middle
            for game in games:
                if game.shard == 1:  # the other shard's games go on meanwhile
                    for _ in range(3):
                        assert await play(fake, pg_url, game, players, by_button=False)
            await first.start()
            for game in games:  # the buttons of the messages sent before the crash play
                assert await play(fake, pg_url, game, players, by_button=True)
            for _ in range(400):  # to the end of every game
                going = [await play(fake, pg_url, g, players, by_button=False) for g in games]
                if not any(going):
                    break
        finally:
            await first.stop()
            await second.stop()

    assert first.starts == 2 and second.starts == 1
    for game in games:
        rows = pg_rows(pg_url, "SELECT id, status, version FROM games WHERE channel_id = %s", game.channel.id)
        assert len(rows) == 1 and rows[0]["status"] == "finished", f"{game.channel.name}: {rows}"
        logged = pg_rows(
            pg_url,
            "SELECT version, actor, types::text AS types FROM actions WHERE game_id = %s ORDER BY version",
            rows[0]["id"],
        )
        moves = [(int(r["version"]), int(r["actor"])) for r in logged if "game_started" not in r["types"]]
        assert moves == game.played, f"{game.channel.name}: the log is not the moves answered as played"
        assert [int(r["version"]) for r in logged] == list(range(1, len(logged) + 1))
    for process in (first, second):
        assert " ERROR " not in process.log()
