"""A fight replayed from its intents: every intent the fight's log holds, stepped again
through the engine in order with the dice it drew, must reach the state that was stored after
it (``+combat/verify``; ``docs/architecture.md``, "A fight replays").

Each logged intent keeps the dice it drew (a die from the fight's seed as its counter, a
forced test die as its face) and a digest of the state it left (:func:`digest`). The replay
gives each step exactly those dice, checks a seeded die against the seed when the seed is
known (once the fight has ended), and compares the digest after every step: the first intent
whose replay draws other dice, is refused, or leaves another state is named.
"""

from __future__ import annotations

import hashlib
import json
from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass
from typing import Any

from rules.dice.seeded import face
from rules.engine import step
from rules.engine.intents import Intent
from rules.engine.state import FightState
from rules.systems.base import CombatError, RuleSystem

DIGEST_CHARS = 16


def digest(state: FightState | Mapping[str, Any]) -> str:
    """A short digest of the whole state (its record, given or made, as canonical JSON,
    SHA-256): equal states, equal digests."""
    record = state.to_record() if isinstance(state, FightState) else state
    text = json.dumps(record, sort_keys=True, separators=(",", ":"))
    return hashlib.sha256(text.encode()).hexdigest()[:DIGEST_CHARS]


class Diverged(Exception):
    """The replay of one intent did not go as it went in the fight."""


class TapeRoller:
    """A roller giving back the dice one intent drew (``Draw.to_record()`` records), in order;
    a seeded die is recomputed from ``seed`` when it is given."""

    def __init__(self, records: Sequence[Mapping[str, Any]], seed: bytes | None = None) -> None:
        self.records = list(records)
        self.seed = seed
        self.used = 0

    def roll(self, sides: int) -> int:
        if self.used >= len(self.records):
            raise Diverged(f"it draws more dice than the {len(self.records)} it drew")
        record = self.records[self.used]
        self.used += 1
        if int(record["sides"]) != sides:
            raise Diverged(f"die {self.used} is a d{sides} where a d{record['sides']} was drawn")
        if "counter" in record and self.seed is not None:
            expected = face(self.seed, int(record["counter"]), sides)
            if expected != int(record["face"]):
                raise Diverged(f"die {self.used} (counter {record['counter']}) shows {record['face']}, "
                               f"the seed gives {expected}")
        return int(record["face"])


@dataclass(frozen=True)
class Logged:
    """One logged intent: its ``number``, the ``intent``, its ``dice`` records and the
    ``after`` digest of the state it left ("" when none was kept)."""

    number: int
    intent: Intent
    dice: Sequence[Mapping[str, Any]]
    after: str = ""


@dataclass(frozen=True)
class Replayed:
    """The replay: how many intents were played, the first that went otherwise (its number
    and why; 0 and "" when none did), and whether the last state is the one stored."""

    played: int
    diverged_at: int
    why: str
    matches: bool


def replay(system: RuleSystem, logged: Iterable[Logged], stored: FightState,
           seed: bytes | None = None) -> Replayed:
    """Replay ``logged`` (in order) from a new fight of ``system``; compare every step with its
    digest and the last state with ``stored``."""
    state = FightState(system=system.key)
    played = 0
    for entry in logged:
        roller = TapeRoller(entry.dice, seed)
        try:
            state = step(state, entry.intent, system, roller).state
        except Diverged as error:
            return Replayed(played, entry.number, str(error), False)
        except CombatError as error:
            return Replayed(played, entry.number, f"the rules now refuse it: {error}", False)
        played += 1
        if roller.used != len(roller.records):
            return Replayed(played, entry.number, f"it draws {roller.used} of the {len(roller.records)} dice "
                                                  "it drew", False)
        if entry.after and digest(state) != entry.after:
            return Replayed(played, entry.number, "it leaves another state than the fight kept", False)
    matches = state.to_record() == stored.to_record()
    return Replayed(played, 0, "" if matches else "the stored state is not the one the intents reach", matches)
