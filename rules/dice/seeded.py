"""Verifiable dice: every die of a fight drawn from a secret seed and a counter.

A fight commits to its seed at the start by showing ``commitment(seed)`` (SHA-256); each die
is ``face(seed, counter, sides)`` for counter 1, 2, 3 ...; once the seed is revealed,
:func:`verify` replays every logged die and says which, if any, do not match.

The face is HMAC-SHA256(key = seed, message = counter as 8 bytes big-endian), read as a
256-bit unsigned integer ``x`` (big-endian), and ``x mod sides + 1``. The modulo is biased by
at most ``sides / 2**256`` in total variation (under 2**-246 for the 1000-sided dice that
+roll allows at most): far below anything a game could ever observe.

>>> face(bytes(32), 1, 10), face(bytes(32), 2, 10), face(bytes(32), 3, 20)
(6, 6, 2)
"""

from __future__ import annotations

import hashlib
import hmac
from collections.abc import Iterable, Sequence
from dataclasses import dataclass
from typing import Any

from rules.lines import Line

MAX_COUNTER = 2 ** 64 - 1


def face(seed: bytes, counter: int, sides: int) -> int:
    """The face (1..sides) of die number ``counter`` (0..2**64-1) drawn from ``seed``.
    Raises ValueError for a counter out of range or fewer than 1 side."""
    if sides < 1:
        raise ValueError(f"A die needs at least one side, not {sides}.")
    if not 0 <= counter <= MAX_COUNTER:
        raise ValueError(f"A die counter is 0 to 2**64-1, not {counter}.")
    digest = hmac.new(seed, counter.to_bytes(8, "big"), hashlib.sha256).digest()
    return int.from_bytes(digest, "big") % sides + 1


def commitment(seed: bytes) -> str:
    """The seed's SHA-256, in lowercase hex: shown when the fight starts."""
    return hashlib.sha256(seed).hexdigest()


@dataclass(frozen=True)
class Draw:
    """One die as drawn: its counter (None for a forced test face), sides and face."""

    counter: int | None
    sides: int
    face: int

    def to_record(self) -> dict:
        if self.counter is None:
            return {"forced": True, "sides": self.sides, "face": self.face}
        return {"counter": self.counter, "sides": self.sides, "face": self.face}


class SeededRoller:
    """A Roller drawing die ``counter + 1``, ``counter + 2`` ... from ``seed``; ``counter``
    (the dice drawn so far) and ``draws`` (every die, in order) grow with each roll.
    ``forced(sides, face)`` records a forced test face, which takes no counter."""

    def __init__(self, seed: bytes, counter: int = 0) -> None:
        self.seed = seed
        self.counter = counter
        self.draws: list[Draw] = []

    def roll(self, sides: int) -> int:
        result = face(self.seed, self.counter + 1, sides)
        self.counter += 1
        self.draws.append(Draw(self.counter, sides, result))
        return result

    def forced(self, sides: int, result: int) -> None:
        self.draws.append(Draw(None, sides, result))


# ------------------------------------------------------------------------------ checking
@dataclass(frozen=True)
class LoggedEntry:
    """A roll-log entry as stored: its number, who, what, and its dice records."""

    number: int
    actor: str
    what: str
    dice: Any


@dataclass(frozen=True)
class Mismatch:
    """A logged die that the seed does not confirm: which entry, which die (from 1), why (a
    ``line.die_*`` line: "shows 9, the seed gives 6")."""

    entry: LoggedEntry
    die: int
    problem: Line


@dataclass(frozen=True)
class Verification:
    """What :func:`verify` found. ``seed_matches``: SHA-256(seed) is the commitment (nothing
    else is checked when it is not); ``missing``: the counters up to the fight's counter
    that no entry records, as (first, last) ranges."""

    seed_matches: bool
    entries: int
    confirmed: int = 0
    forced: int = 0
    mismatches: tuple[Mismatch, ...] = ()
    missing: tuple[tuple[int, int], ...] = ()

    @property
    def missing_count(self) -> int:
        return sum(last - first + 1 for first, last in self.missing)

    @property
    def ok(self) -> bool:
        return self.seed_matches and not self.mismatches


def seed_bytes(seed_hex: str) -> bytes | None:
    """The seed from its hex, or None when it is not 64 hex digits."""
    text = str(seed_hex or "")
    if len(text) != 64:
        return None
    try:
        return bytes.fromhex(text)
    except ValueError:
        return None


def verify(seed_hex: str, commitment_hex: str, counter: int, entries: Iterable[LoggedEntry]) -> Verification:
    """Check a fight's dice: the seed against its commitment, then every logged die (its
    face replayed from the seed and its counter; each counter 1..``counter`` used at most
    once). Forced faces are counted, not checked. Never raises for bad stored data: a die
    record that cannot be read is a mismatch."""
    entries = list(entries)
    seed = seed_bytes(seed_hex)
    if seed is None or not hmac.compare_digest(commitment(seed), str(commitment_hex or "").lower()):
        return Verification(seed_matches=False, entries=len(entries))
    confirmed = forced = 0
    mismatches: list[Mismatch] = []
    used: dict[int, int] = {}
    for entry in entries:
        records = entry.dice if isinstance(entry.dice, list) else [entry.dice]
        for die, record in enumerate(records, start=1):
            problem = _check(seed, counter, record, used, entry.number)
            if problem is None:
                confirmed += 1
            elif problem == FORCED:
                forced += 1
            else:
                mismatches.append(Mismatch(entry, die, problem))
    return Verification(seed_matches=True, entries=len(entries), confirmed=confirmed, forced=forced,
                        mismatches=tuple(mismatches), missing=_gaps(sorted(used), counter))


def _whole(value: Any) -> int | None:
    return value if isinstance(value, int) and not isinstance(value, bool) else None


#: What :func:`_check` gives for a forced test face (a mark, not words): counted, not checked.
FORCED = "forced"


def _check(seed: bytes, counter: int, record: Any, used: dict[int, int], number: int) -> Line | str | None:
    """None when the die is confirmed, :data:`FORCED` for a forced face, else what is wrong
    (a line: "shows 9, the seed gives 6")."""
    if not isinstance(record, dict):
        return Line("line.die_not_a_record")
    sides, shown = _whole(record.get("sides")), _whole(record.get("face"))
    if sides is None or shown is None or sides < 1:
        return Line("line.die_not_a_record")
    if record.get("forced") is True and "counter" not in record:
        return FORCED
    at = _whole(record.get("counter"))
    if at is None or at < 1:
        return Line("line.die_no_counter")
    if at > counter:
        return Line("line.die_never_drawn", {"counter": counter})
    if at in used:
        return Line("line.die_reused", {"counter": at, "entry": used[at]})
    used[at] = number
    expected = face(seed, at, sides)
    if shown != expected:
        return Line("line.die_not_the_seed", {"face": shown, "expected": expected})
    return None


def _gaps(counters: Sequence[int], counter: int) -> tuple[tuple[int, int], ...]:
    """The ranges of 1..counter not in the sorted ``counters``."""
    gaps, expected = [], 1
    for at in counters:
        if at > expected:
            gaps.append((expected, at - 1))
        expected = at + 1
    if counter >= expected:
        gaps.append((expected, counter))
    return tuple(gaps)
