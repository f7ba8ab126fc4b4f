"""A fight 1000 rounds long against a new one: Server CPU per action, against a real Fray server.

    .venv/bin/python bench/long_fight.py [--rounds 1000] [--times 30]

Starts a real server in a temp game dir (``tests/e2e/harness.py``, ``FRAY_TEST_DICE=0``: the
fight's own seeded dice, as in play) and logs the admin in over telnet as the Storyteller.
In Limbo it starts a storyteller fight with ``bench/commands.py``'s NPCs (Ann, 20 + d10
initiative and Brawl 10; Bob, 2 + d10) and plays ``--rounds`` rounds of it: each round
``+heal Bob=all``, ``attack Ann=Bob``, ``defend Bob=none`` (sent together), then, once Bob's
turn is seen, ``+combat/next``, so the fight's state, roll log and intent log are
those of a long fight. It then digs a second room and starts the same fight there, new.

Then, in turn in the long fight and in the new one (``@tel`` between them), twice each,
``--times`` / 2 times: ``look`` and ``bench/commands.py``'s action cycle (``+heal Bob=all``,
``+combat/diff Ann=-3``, then measured ``attack Ann=Bob``, ``defend Bob=none``,
``+combat/next``). The Server's main-thread CPU around each measured command is read from
``/proc/<pid>/schedstat`` (as ``bench/commands.py``). Printed: the median CPU of each command
in each fight, each as a ratio to ``look`` in the same fight, and the long fight's over the
new one's. The machine is shared: ratios in the same run, with the load average. Exits 0
(a benchmark, not a test).
"""

from __future__ import annotations

import argparse
import os
import re
import statistics
import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from bench.commands import SETTINGS, Bench  # noqa: E402
from bench.load import log, start_server  # noqa: E402
from tests.e2e.harness import FrayServer  # noqa: E402

ACTIONS = (("attack", "attack Ann=Bob", r"Bob may defend"),
           ("defend", "defend Bob=none", r"punch at Bob:"),
           ("+combat/next", "+combat/next", r"Round \d+: Ann to act"))


def start_fight(bench: Bench) -> None:
    """``bench/commands.py``'s fight in the Storyteller's room: Ann acts first, Brawl 10."""
    bench.quiet("+combat/start storyteller", r"start a fight")
    bench.quiet("+npc/init Ann=10+10", r"Ann rolls initiative")
    bench.quiet("+npc/init Bob=1+1", r"Bob rolls initiative")
    bench.quiet("+npc/set Ann/Brawl=10", r"Brawl")
    bench.client.read_for(0.3)


def play_rounds(bench: Bench, rounds: int) -> int:
    """Play rounds until the fight is at round ``rounds``; returns the round reached."""
    client = bench.client
    reached, t0 = 1, time.monotonic()
    while reached < rounds:
        client.send("+heal Bob=all")
        client.send("attack Ann=Bob")
        client.send("defend Bob=none")
        client.expect(rf"Round {reached}: (?:Bob to act|everyone has acted)", timeout=120)
        client.send("+combat/next")  # refused if sent before the turn it passes is seen
        got = client.expect(rf"Round {reached + 1}: Ann to act", timeout=120)
        reached = int(re.findall(r"Round (\d+): Ann to act", got)[-1])
        if reached % 100 == 0:
            log(f"  round {reached} ({time.monotonic() - t0:.0f}s)")
            client.buffer, client.transcript = "", ""  # keep the client small
    client.read_for(0.5)
    return reached


def measure(bench: Bench, label: str, room: str, times: int) -> None:
    bench.run(f"{label}:look", "look", rf"^{room}\b", times)
    for _ in range(times):
        bench.quiet("+heal Bob=all", r"Bob")
        bench.quiet("+combat/diff Ann=-3", r"difficulty")
        bench.client.read_for(0.05)
        for name, line, expect in ACTIONS:
            bench.run(f"{label}:{name}", line, expect)


def main(argv=None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--rounds", type=int, default=1000, help="rounds of the long fight (default 1000)")
    parser.add_argument("--times", type=int, default=30, help="measurements of each command in each fight (default 30)")
    parser.add_argument("--source", default=None,
                        help="the game to measure (default: this checkout; e.g. a `git worktree` of an older commit)")
    args = parser.parse_args(argv)
    source = {"source_dir": args.source} if args.source else {}
    server = FrayServer(extra_env={"FRAY_TEST_DICE": "0"}, extra_settings=SETTINGS, startup_timeout=90, **source)
    loads = []
    try:
        log(f"starting a server in {server.game_dir}")
        start_server(server)
        st = server.client("st", timeout=60)
        st.login(server.admin_user, server.admin_password, create=False)
        bench = Bench(server, st)
        got = st.command("@dig Fresh", r"Created room Fresh\(#\d+\)")
        fresh = re.search(r"Fresh\(#(\d+)\)", got).group(1)
        start_fight(bench)
        t0 = time.monotonic()
        log(f"playing {args.rounds} rounds in Limbo")
        reached = play_rounds(bench, args.rounds)
        log(f"round {reached} reached in {time.monotonic() - t0:.0f}s; a new fight in Fresh")
        st.command(f"@tel #{fresh}", r"Fresh")
        st.read_for(0.5)
        start_fight(bench)
        loads.append(open("/proc/loadavg").read().split()[0])
        half = max(1, args.times // 2)
        for _ in range(2):
            for label, room, target in (("long", "Limbo", "#2"), ("new", "Fresh", f"#{fresh}")):
                st.command(f"@tel {target}", room)
                st.read_for(0.5)
                measure(bench, label, room, half)
        loads.append(open("/proc/loadavg").read().split()[0])
        hud = st.command("+combat", r"^Round \d+ +Storyteller:")
        new_round = re.findall(r"Round (\d+)", hud)[-1]
        st.command("@tel #2", "Limbo")
        st.read_for(0.5)
        hud = st.command("+combat", r"^Round \d+ +Storyteller:")
        long_round = re.findall(r"Round (\d+)", hud)[-1]
    finally:
        log("stopping the server, removing its temp dir")
        server.cleanup()
    median = {label: statistics.median(values) for label, values in bench.samples.items()}
    print(f"Server CPU per command (median of {2 * half} in each fight, ms): a fight played to round "
          f"{reached} (round {long_round} at the end) against a new one (round {new_round} at the end), "
          f"same run; load average {loads[0]} before the measurements, {loads[1]} after; {os.cpu_count()} CPUs; "
          f"{time.strftime('%Y-%m-%d %H:%M UTC', time.gmtime())}.\n")
    print("| command | long fight: CPU ms | × look | new fight: CPU ms | × look | long / new (× look) |")
    print("| --- | ---: | ---: | ---: | ---: | ---: |")
    for name in ("look", *(name for name, _, _ in ACTIONS)):
        long_ms, new_ms = median[f"long:{name}"], median[f"new:{name}"]
        long_x, new_x = long_ms / median["long:look"], new_ms / median["new:look"]
        print(f"| `{name}` | {long_ms:.2f} | {long_x:.2f} | {new_ms:.2f} | {new_x:.2f} | {long_x / new_x:.2f} |")
    return 0


if __name__ == "__main__":
    sys.exit(main())
