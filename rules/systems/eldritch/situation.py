"""What the fight tracks about one eldritch fighter this turn (``Situation``), read from
the snapshot's ``conditions`` by the system (``rules.systems.eldritch``) and its checks
(``rules.systems.eldritch.checks``), which both import it from here."""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, fields
from typing import Any

from rules.systems.base import Combatant


@dataclass(frozen=True)
class Situation:
    """What the fight tracks about one fighter this turn, for one rules call.

    ``actions_used``: offensive/movement actions already taken this turn; ``defenses_used``:
    defenses already rolled this turn; ``space``: the ST's yards of room (None: plenty);
    ``prone``; ``wall``: a wall is at hand (Wall Flip); ``grappling``/``neck``: whom this
    fighter holds grappled, and whether by the neck; ``sleeper_sls``: Sleeper Hold SLs
    accumulated on them; ``whirl_turns``: earlier consecutive turns of Whirling Sword;
    ``whirling``: already whirling this turn; ``whirl_roll``: that turn's one Whirling Sword
    roll (a record), used "to attack and defend for the entire turn"; ``flipped_over``: Wall Flip's +3 to the next
    attack on that one; ``flip_defense``: Wall Flip's +3 to defenses.

    The states the game keeps on the one they befall (``condition_after``), read the same
    way: ``held_by`` (who grapples this fighter) and ``by_neck``; ``atemi_grip`` (the
    numbness penalty left); ``wrestling_hold`` (``{"by", "penalty"}``, while still held by
    them); ``sleeper_hold`` (``{"by", "sls", "needed"}``); ``stunned``; ``passed_out``
    (turns left, or True: until woken); ``drama_point`` (spent on the next defense).

    From the game's schedule: ``actions_left``, this fighter's unused action slots this turn
    (None: no initiative rolled yet).
    """

    actions_used: int = 0
    defenses_used: int = 0
    space: int | None = None
    prone: bool = False
    wall: bool = False
    grappling: str = ""
    neck: bool = False
    sleeper_sls: int = 0
    whirl_turns: int = 0
    whirling: bool = False
    whirl_roll: Mapping[str, Any] | None = None
    flipped_over: str = ""
    flip_defense: bool = False
    held_by: str = ""
    by_neck: bool = False
    atemi_grip: int = 0
    wrestling_hold: Mapping[str, Any] | None = None
    sleeper_hold: Mapping[str, Any] | None = None
    stunned: str = ""
    passed_out: int | bool = False
    drama_point: bool = False
    actions_left: int | None = None

    @property
    def pinned(self) -> int:
        """Wrestling Hold's penalty (negative), while the one who applied it still holds."""
        hold = self.wrestling_hold or {}
        return int(hold.get("penalty", 0)) if self.held_by and hold.get("by") == self.held_by else 0

    @classmethod
    def of(cls, fighter: Combatant) -> Situation:
        """From the snapshot's ``conditions`` (keys as the fields; others ignored)."""
        conditions = getattr(fighter, "conditions", None) or {}
        known = {f.name for f in fields(cls)}
        return cls(**{key: value for key, value in conditions.items() if key in known})
