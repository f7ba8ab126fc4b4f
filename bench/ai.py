"""How long the NPC AI takes to weigh its attacks on one target, per system (pure rules and
the AI's own measuring, no server).

    .venv/bin/python bench/ai.py [--repeat N]

For each system an NPC with a fighting sheet weighs every attack its sheet allows on one
target, as ``world.ai.attack_options`` does on its turn: each option rolled once with middle
dice, then its exact chance to hit (``attack_chance``) and what a hit does (``hit_damage``).
Prints the median wall time of ``--repeat`` runs (default 20) in milliseconds, with one
``attack`` roll of the weapon in hand as the yardstick (a ratio: this machine is shared and
noisy), as a Markdown table (``docs/performance.md`` keeps the last one).
"""

from __future__ import annotations

import argparse
import random
import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from odds import median_ms  # noqa: E402  (bench/odds.py, beside this script)

from rules.dice import RandomRoller  # noqa: E402
from rules.dice.odds import MiddleRoller  # noqa: E402
from rules.systems import get_system  # noqa: E402
from rules.systems.base import Combatant, CombatError  # noqa: E402

TRAITS = {"Dexterity": 3, "Brawl": 3, "Strength": 3, "Stamina": 2, "Dodge": 2, "Melee": 2,
          "Constitution": 3, "Wits": 2}
SHEETS = {
    "storyteller": Combatant("Guard", traits=TRAITS),
    "aeon": Combatant("Guard", traits=TRAITS, kind="Baseline"),
    "eldritch": Combatant("Guard", traits=TRAITS),
}


def weigh(system, me, them) -> int:
    """What the AI measures on its turn (world.ai.attack_options without the game): the number
    of options weighed."""
    weapons = getattr(system, "weapons", None) or {}
    names = ["", *(o for o in system.attack_options()
                   if o not in weapons or getattr(weapons[o], "unarmed", False) or getattr(weapons[o], "clinch", False))]
    weighed = 0
    for option in names:
        try:
            rolled = system.attack(me, them, option, MiddleRoller())
        except (CombatError, KeyError, ValueError):
            continue
        system.attack_chance(me, them, option)
        system.hit_damage(rolled, me)
        weighed += 1
    return weighed


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--repeat", type=int, default=20)
    args = parser.parse_args()
    roller = RandomRoller(random.Random(1))
    print("| system | options weighed | weighing (ms) | one attack roll (ms) | ratio |")
    print("| --- | --- | --- | --- | --- |")
    for key, me in SHEETS.items():
        system = get_system(key)
        them = Combatant("Ann", traits=me.traits, kind=me.kind)
        count = weigh(system, me, them)
        took = median_ms(lambda: weigh(system, me, them), args.repeat)
        one = median_ms(lambda: system.attack(me, them, "", roller), args.repeat * 50)
        print(f"| {key} | {count} | {took:.2f} | {one:.3f} | {took / one:.0f} x |")


if __name__ == "__main__":
    main()
