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
from rules.lines import Line
from rules.systems.base import CombatError, RuleSystem

DIGEST_CHARS = 16


def digest(state: FightState | Mapping[str, Any]) -> str:
    """A short digest of the whole state (its record, given or made, as canonical JSON,
    SHA-256): equal states, equal digests."""
    record = state.to_record() if isinstance(state, FightState) else state
    text = json.dumps(record, sort_keys=True, separators=(",", ":"))
    return hashlib.sha256(text.encode()).hexdigest()[:DIGEST_CHARS]


class Diverged(Exception):
    """The replay of one intent did not go as it went in the fight: ``why``, a ``line.replay_*``
    line ("it draws more dice than the 3 it drew")."""

    def __init__(self, why: Line) -> None:
        super().__init__(why)
        self.why = why


class TapeRoller:
    """A roller giving back the dice one intent drew (``Draw.to_record()`` records), in order;
    a seeded die is recomputed from ``seed`` when it is given."""

    def __init__(self, records: Sequence[Mapping[str, Any]], seed: bytes | None = None) -> None:
        self.records = list(records)
        self.seed = seed
        self.used = 0

    def roll(self, sides: int) -> int:
        if self.used >= len(self.records):
            raise Diverged(Line("line.replay_more_dice", {"count": len(self.records)}))
        record = self.records[self.used]
        self.used += 1
        if int(record["sides"]) != sides:
            raise Diverged(Line("line.replay_other_die", {"die": self.used, "sides": sides, "drawn": record["sides"]}))
        if "counter" in record and self.seed is not None:
            expected = face(self.seed, int(record["counter"]), sides)
            if expected != int(record["face"]):
                raise Diverged(Line("line.replay_not_the_seed", {"die": self.used, "counter": record["counter"],
                                                                  "face": record["face"], "expected": expected}))
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
    and why, a ``line.replay_*`` line; 0 when none did), why the last state is not the one
    stored (None when it is), and whether it is."""

    played: int
    diverged_at: int
    why: Line | None
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
            return Replayed(played, entry.number, error.why, False)
        except CombatError as error:   # the refusal as its own line (or its text), in the fight's system's words
            refusal = error.line if error.line is not None else str(error)
            return Replayed(played, entry.number, Line("line.replay_refused", {"refusal": refusal}), False)
        played += 1
        if roller.used != len(roller.records):
            return Replayed(played, entry.number,
                            Line("line.replay_fewer_dice", {"used": roller.used, "count": len(roller.records)}), False)
        if entry.after and digest(state) != entry.after:
            return Replayed(played, entry.number, Line("line.replay_other_state"), False)
    matches = state.to_record() == stored.to_record()
    return Replayed(played, 0, None if matches else Line("line.replay_not_stored"), matches)
