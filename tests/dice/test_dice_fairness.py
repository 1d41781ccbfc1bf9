"""Fair dice: the face mapping is exactly unbiased, faces follow the documented derivation,
and a revealed seed reproduces a table's rolls while any tampering shows."""

from __future__ import annotations

import hashlib
import hmac
import json
from collections import Counter
from itertools import permutations

import pytest

from bot.dice import FairRandomness, SystemRandomness, log_entry, roll, shuffle, shuffle_entry, verify_log
from bot.dice.fair import DOMAIN
from bot.dice.sampling import byte_limit, face_from_byte, face_from_word, word_limit

CHI_SQUARE_999_DF5 = 20.515  # 99.9% critical value, 5 degrees of freedom


@pytest.mark.parametrize("sides", range(1, 257))
def test_every_face_is_given_by_equally_many_accepted_bytes(sides: int) -> None:
    faces = Counter(face_from_byte(b, sides) for b in range(256))
    rejected = faces.pop(None, 0)
    assert set(faces) == set(range(1, sides + 1))
    assert len(set(faces.values())) == 1, f"d{sides} favours some faces: {faces}"
    assert rejected == 256 % sides, "only the incomplete last group of bytes may be rejected"
    assert sum(faces.values()) == byte_limit(sides)


def test_d6_accepts_252_bytes_42_per_face() -> None:
    faces = Counter(face_from_byte(b, 6) for b in range(256))
    assert faces.pop(None) == 4
    assert faces == {face: 42 for face in range(1, 7)}


@pytest.mark.parametrize("sides", [257, 300, 999, 1000, 1 << 20])
def test_every_face_is_given_by_equally_many_accepted_words(sides: int) -> None:
    limit = word_limit(sides)
    # The accepted words are exactly 0 .. limit-1 and limit is a whole number of rounds of `sides`
    # faces, so each face has limit // sides preimages.
    assert limit % sides == 0 and (1 << 32) - limit < sides
    assert face_from_word(0, sides) == 1
    assert face_from_word(sides - 1, sides) == sides
    assert face_from_word(limit - 1, sides) == sides
    assert face_from_word(limit, sides) is None
    assert face_from_word((1 << 32) - 1, sides) is None or limit == 1 << 32


def documented_bytes(seed: bytes, table_id: str, number: int, purpose: str, blocks: int) -> bytes:
    """The byte stream as bot/dice/fair.py's docstring describes it, written out independently."""
    t, p = table_id.encode(), purpose.encode()
    msg = DOMAIN + len(t).to_bytes(4, "big") + t + number.to_bytes(8, "big") + len(p).to_bytes(4, "big") + p
    return b"".join(hmac.new(seed, msg + i.to_bytes(4, "big"), hashlib.sha256).digest() for i in range(blocks))


def test_faces_follow_the_documented_derivation() -> None:
    seed = bytes(range(32))
    table = FairRandomness(seed, "卓-1", next_number=7)
    stream = table.stream("3d6+2")
    stream_bytes = documented_bytes(seed, "卓-1", 7, "3d6+2", blocks=8)
    expected = [f for f in (face_from_byte(b, 6) for b in stream_bytes) if f is not None][:100]
    assert [stream.die(6) for _ in range(100)] == expected
    words = documented_bytes(seed, "卓-1", 8, "1d1000", blocks=4)
    stream = table.stream("1d1000")
    expected_big = [face_from_word(int.from_bytes(words[i : i + 4], "big"), 1000) for i in range(0, 128, 4)]
    assert [stream.die(1000) for _ in range(10)] == [f for f in expected_big if f is not None][:10]


def test_chi_square_of_60000_d6_faces_from_a_fixed_seed() -> None:
    table = FairRandomness(b"horizonnotes chi-square seed", "chi")
    counts: Counter[int] = Counter()
    for _ in range(600):
        counts.update(roll("100d6", table).dice[0])
    assert sum(counts.values()) == 60_000
    expected = 10_000
    chi2 = sum((counts[face] - expected) ** 2 / expected for face in range(1, 7))
    assert chi2 < CHI_SQUARE_999_DF5, (chi2, counts)


def test_the_same_seed_table_number_and_expression_give_the_same_faces() -> None:
    first = roll("10d6", FairRandomness(b"s" * 32, "t", next_number=3))
    again = roll("１０ｄ６ 再現", FairRandomness(b"s" * 32, "t", next_number=3))
    other_table = roll("10d6", FairRandomness(b"s" * 32, "u", next_number=3))
    other_number = roll("10d6", FairRandomness(b"s" * 32, "t", next_number=4))
    assert first.dice == again.dice
    assert first.number == again.number == 3
    assert first.dice != other_table.dice
    assert first.dice != other_number.dice


def test_each_draw_takes_the_next_number() -> None:
    table = FairRandomness(b"k" * 32, "t")
    numbers = [roll("1d6", table).number for _ in range(3)]
    shuffle([1, 2, 3], table)
    assert numbers == [0, 1, 2]
    assert table.next_number == 4
    assert roll("1d6", SystemRandomness()).number is None


def test_commitment_is_sha256_of_the_seed_and_repr_hides_the_seed() -> None:
    table = FairRandomness.generate("t")
    assert len(table.seed) == 32
    assert table.commitment == hashlib.sha256(table.seed).hexdigest()
    assert table.seed.hex() not in repr(table)


def test_shuffle_is_a_permutation_with_every_order_equally_likely() -> None:
    table = FairRandomness(b"shuffle seed", "t")
    counts = Counter(tuple(shuffle("abc", table)) for _ in range(6000))
    assert set(counts) == set(permutations("abc"))
    chi2 = sum((n - 1000) ** 2 / 1000 for n in counts.values())
    assert chi2 < CHI_SQUARE_999_DF5, counts
    assert sorted(shuffle(list(range(40)), table)) == list(range(40))


EXPRESSIONS = ["3d6+2", "1d6", "2d6>=7", "4d6kh3", "2d6kl1 様子見", "３ｄ６＋２", "1d1000", "2*1d6-1"]


def play_a_game(table: FairRandomness) -> list[str]:
    log = [json.dumps(log_entry(roll(EXPRESSIONS[i % len(EXPRESSIONS)], table), table.table_id)) for i in range(100)]
    deck = ["炎の剣", "氷の盾", "炎の剣", "星の欠片"]
    number = table.next_number
    log.append(json.dumps(shuffle_entry(table.table_id, number, deck, shuffle(deck, table)), ensure_ascii=False))
    log.append(
        json.dumps({"table_id": table.table_id, "number": 101, "shuffle": 10, "order": shuffle(range(10), table)})
    )
    return log


def test_commit_reveal_round_trip_verifies() -> None:
    table = FairRandomness.generate("table-42")
    published = table.commitment
    log = play_a_game(table)
    revealed = table.seed
    assert hashlib.sha256(revealed).hexdigest() == published
    report = verify_log(revealed, log)
    assert report.ok and report.checked == 102


def test_a_log_with_one_face_changed_fails_at_that_roll() -> None:
    table = FairRandomness.generate("table-42")
    log = play_a_game(table)
    entry = json.loads(log[40])
    entry["dice"][0][0] = entry["dice"][0][0] % 6 + 1
    log[40] = json.dumps(entry)
    report = verify_log(table.seed, log)
    assert [(m.line, m.number, m.kind) for m in report.mismatches] == [(41, 40, "roll")]


def test_a_changed_shuffle_or_a_reused_number_fails() -> None:
    # A fixed seed: with a random one the real shuffle of this deck (two equal cards) comes out
    # looking unshuffled one time in twelve, and the forged "unshuffled" claim would then be true.
    table = FairRandomness(b"a fixed seed for the forged shuffles", "t")
    log = play_a_game(table)
    entry = json.loads(log[-1])
    entry["order"][0], entry["order"][1] = entry["order"][1], entry["order"][0]
    deck = json.loads(log[-2])
    assert deck["order"] != deck["shuffle"], "the seed must give a deck order that differs from the unshuffled one"
    deck["order"] = deck["shuffle"]  # claims the deck came out unshuffled
    report = verify_log(table.seed, [*log[:-2], json.dumps(deck), json.dumps(entry), log[5]])
    assert [(m.kind, m.number) for m in report.mismatches] == [("shuffle", 100), ("shuffle", 101), ("duplicate", 5)]


def test_faces_may_be_logged_flat_as_engine_events_carry_them() -> None:
    table = FairRandomness(b"flat", "t")
    result = roll("2d6+1d4", table)
    entry = {"table_id": "t", "number": 0, "expression": "2d6+1d4", "total": result.total}
    faces = [f for term in result.dice for f in term]
    assert verify_log(table.seed, [json.dumps({**entry, "faces": faces})]).ok
    faces[2] = faces[2] % 4 + 1
    assert not verify_log(table.seed, [json.dumps({**entry, "faces": faces})]).ok


def test_another_seed_reproduces_almost_nothing() -> None:
    log = play_a_game(FairRandomness(b"the real seed", "t"))
    report = verify_log(b"not the seed", log)
    # A 1d6 matches by chance one time in six, so a few of the 101 records may agree; most cannot.
    assert len(report.mismatches) >= 90
