"""Verifiable dice (rules.dice.seeded): the face of die n of a seed, the roller drawing them,
and the check that replays a fight's logged dice. The pinned faces were checked against
``openssl dgst -sha256 -mac HMAC`` (HMAC-SHA256 of the counter as 8 big-endian bytes, the
digest as a big-endian integer, mod sides, + 1)."""

import hashlib

import pytest

from rules.dice import QueuedRoller, roll_dice
from rules.dice.seeded import (
    Draw,
    LoggedEntry,
    SeededRoller,
    commitment,
    face,
    seed_bytes,
    verify,
)
from tests.rules.wording import english

ZERO = bytes(32)


def test_faces_are_pinned_for_fixed_seeds():
    assert [face(ZERO, n, 10) for n in range(1, 9)] == [6, 6, 2, 2, 9, 1, 3, 3]
    assert [face(b"fray", n, 6) for n in range(1, 7)] == [4, 1, 6, 4, 2, 3]
    assert [face(b"fray", n, 20) for n in range(1, 4)] == [10, 11, 18]
    assert face(b"fray", 2 ** 64 - 1, 1000) == 6   # the last counter there is
    assert face(b"fray", 0, 100) == 16


def test_a_face_fits_its_die_and_a_one_sided_die_shows_one():
    assert {face(ZERO, n, 6) for n in range(1, 200)} == {1, 2, 3, 4, 5, 6}
    assert face(ZERO, 7, 1) == 1


@pytest.mark.parametrize("counter, sides", [(-1, 10), (2 ** 64, 10), (1, 0), (1, -3)])
def test_bad_counters_and_sides_are_refused(counter, sides):
    with pytest.raises(ValueError):
        face(ZERO, counter, sides)


def test_the_commitment_is_the_seeds_sha256():
    assert commitment(ZERO) == hashlib.sha256(ZERO).hexdigest()
    assert commitment(ZERO) == "66687aadf862bd776c8fc18b8e9f8e20089714856ee233b3902a591d0d5f2925"
    assert seed_bytes(ZERO.hex()) == ZERO
    assert seed_bytes("xyz") is None and seed_bytes("g" * 64) is None and seed_bytes("") is None


def test_the_roller_draws_the_next_counters_and_records_each_die():
    roller = SeededRoller(ZERO, counter=4)
    assert roll_dice(3, 10, roller) == (9, 1, 3)   # counters 5, 6, 7
    assert roller.counter == 7
    assert roller.draws == [Draw(5, 10, 9), Draw(6, 10, 1), Draw(7, 10, 3)]
    assert roller.draws[0].to_record() == {"counter": 5, "sides": 10, "face": 9}


def test_forced_faces_come_first_take_no_counter_and_are_recorded_as_forced():
    seeded = SeededRoller(ZERO)
    roller = QueuedRoller([10, 7], seeded, on_forced=seeded.forced)
    assert roll_dice(3, 10, roller) == (10, 7, 6)   # then counter 1
    assert seeded.counter == 1
    assert [draw.to_record() for draw in seeded.draws] == [
        {"forced": True, "sides": 10, "face": 10}, {"forced": True, "sides": 10, "face": 7},
        {"counter": 1, "sides": 10, "face": 6}]


def logged(roller_draws, number=1, actor="Bob", what="attack"):
    return LoggedEntry(number, actor, what, [draw.to_record() for draw in roller_draws])


def test_verify_confirms_every_die_and_counts_forced_and_unlogged_ones():
    roller = SeededRoller(ZERO)
    roll_dice(2, 10, roller)
    first = logged(roller.draws)
    roller.draws.clear()
    roll_dice(1, 6, roller)     # counter 3: drawn, never logged
    roller.draws.clear()
    roller.forced(10, 8)
    roll_dice(2, 20, roller)    # counters 4, 5
    second = logged(roller.draws, number=2)
    result = verify(ZERO.hex(), commitment(ZERO), roller.counter, [first, second])
    assert result.seed_matches and result.ok
    assert (result.entries, result.confirmed, result.forced) == (2, 4, 1)
    assert result.missing == ((3, 3),) and result.missing_count == 1


def test_verify_names_a_changed_face_a_reused_counter_and_a_counter_never_drawn():
    roller = SeededRoller(ZERO)
    roll_dice(3, 10, roller)    # 6 6 2
    records = [draw.to_record() for draw in roller.draws]
    records[1]["face"] = 9
    entries = [LoggedEntry(7, "Bob", "attack", records),
               LoggedEntry(8, "Ann", "roll", [{"counter": 1, "sides": 10, "face": 6}]),
               LoggedEntry(9, "Ann", "roll", [{"counter": 99, "sides": 10, "face": 1}, "junk"])]
    result = verify(ZERO.hex(), commitment(ZERO), 3, entries)
    assert result.seed_matches and not result.ok
    assert [(m.entry.number, m.die, english(m.problem)) for m in result.mismatches] == [
        (7, 2, "shows 9, the seed gives 6"), (8, 1, "reuses counter 1 (entry #7)"),
        (9, 1, "has a counter never drawn (the fight drew 3)"), (9, 2, "is not a die record")]
    assert result.confirmed == 2


def test_verify_refuses_a_seed_that_is_not_the_committed_one():
    other = bytes([1]) * 32
    result = verify(other.hex(), commitment(ZERO), 0, [])
    assert not result.seed_matches and not result.ok
    assert not verify("not hex", commitment(ZERO), 0, []).seed_matches
