"""How long ``+roll/odds`` takes to compute, per system and pool size (pure rules, no server).

    .venv/bin/python bench/odds.py [--repeat N]

Each case is computed ``--repeat`` times (default 20) and the median wall time is printed in
milliseconds, with ``+roll``'s own roll_check time for the same pool as the yardstick (a
ratio, since this machine is shared and noisy). The goal: under 10 ms for pools up
to 30 dice. Prints a Markdown table (``docs/performance.md`` keeps the last one).
"""

from __future__ import annotations

import argparse
import random
import statistics
import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from rules.dice import RandomRoller, parse_pool  # noqa: E402
from rules.systems import get_system  # noqa: E402
from rules.systems.base import Combatant  # noqa: E402

CASES = (
    ("storyteller", "Dexterity+Brawl vs 6", 5),
    ("storyteller", "Dexterity+Brawl vs 6", 10),
    ("storyteller", "Dexterity+Brawl vs 6", 20),
    ("storyteller", "Dexterity+Brawl vs 6", 30),
    ("aeon", "Dexterity+Brawl vs 3", 10),
    ("aeon", "Dexterity+Brawl vs 3", 30),
    ("eldritch", "Dexterity+Brawl", 10),
)


def median_ms(work, repeat: int) -> float:
    times = []
    for _ in range(repeat):
        start = time.perf_counter()
        work()
        times.append((time.perf_counter() - start) * 1000)
    return statistics.median(times)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--repeat", type=int, default=20)
    args = parser.parse_args()
    roller = RandomRoller(random.Random(1))
    print("| system | pool | +roll/odds ms | +roll ms | ratio |")
    print("| --- | ---: | ---: | ---: | ---: |")
    for key, text, dice in CASES:
        system = get_system(key)
        half = dice // 2
        actor = Combatant("Bench", traits={"Dexterity": dice - half, "Brawl": half})
        expression = parse_pool(text, system.trait_names)
        odds = median_ms(lambda: system.odds(expression, actor), args.repeat)
        roll = median_ms(lambda: system.roll_check(expression, actor, roller), args.repeat)
        print(f"| {key} | {dice} | {odds:.2f} | {roll:.3f} | {odds / roll:.0f} |")


if __name__ == "__main__":
    main()
