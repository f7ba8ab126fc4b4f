"""Server CPU per command and SQL per action, against a real Fray server.

    .venv/bin/python bench/commands.py [--rounds N]

Starts a real server in a temp game dir (``tests/e2e/harness.py``, with ``FRAY_BENCH_SQL=1``
so every command's SQL statements and row writes are counted into
``server/logs/fray-sql.log``), logs in the admin as the Storyteller over telnet, and sends
each command many times, one at a time, each after the previous one's answer. The Server's
CPU time is read from ``/proc/<pid>/schedstat`` (nanoseconds, the reactor thread that runs
commands) around each command. Figures are ratios to ``look`` in the same run: the machine
is shared and noisy, so absolute milliseconds move from run to run. Prints a Markdown table
(``docs/performance.md`` keeps the last one).
"""

from __future__ import annotations

import argparse
import os
import statistics
import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from tests.e2e.harness import FrayServer  # noqa: E402

SETTINGS = "MAX_CONNECTION_RATE = 1000\nMAX_COMMAND_RATE = 100000\n"
#: The HUD's last line here: the storyteller declaring order ends with Ann (highest).
HUD_END = r"Declare \(low to high\): [^\n]*Ann"


def cpu_ns(pid: int) -> int:
    """Nanoseconds the Server's main thread has run (``/proc/<pid>/schedstat``)."""
    with open(f"/proc/{pid}/schedstat") as stat:
        return int(stat.read().split()[0])


class Bench:
    def __init__(self, server: FrayServer, client):
        self.server, self.client = server, client
        self.pid = int(server.server_pidfile.read_text().split()[0])
        self.samples: dict[str, list[float]] = {}
        self.extras = 0

    def run(self, label: str, line: str, expect: str, times: int = 1) -> None:
        for _ in range(times):
            before = cpu_ns(self.pid)
            self.client.command(line, expect, timeout=60)
            self.samples.setdefault(label, []).append((cpu_ns(self.pid) - before) / 1e6)
            self.client.read_for(0.05)  # the rest of the answer, if any

    def quiet(self, line: str, expect: str) -> None:
        self.client.command(line, expect, timeout=60)


def sql_counts(server: FrayServer) -> dict[str, tuple[float, float]]:
    """{command label: (statements, row writes)} averaged from fray-sql.log."""
    rows: dict[str, list[tuple[int, int]]] = {}
    path = server.game_dir / "server" / "logs" / "fray-sql.log"
    if not path.exists():  # a Fray from before FRAY_BENCH_SQL
        return {}
    for line in path.read_text().splitlines():
        label, statements, writes = line.split("\t")
        rows.setdefault(label, []).append((int(statements), int(writes)))
    return {label: (statistics.mean(s for s, _ in values), statistics.mean(w for _, w in values))
            for label, values in rows.items()}


def main(argv=None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--rounds", type=int, default=30, help="repetitions of each command (default 30)")
    parser.add_argument("--source", default=None,
                        help="the game to measure (default: this checkout; e.g. a `git worktree` of "
                             "an older commit, to compare)")
    args = parser.parse_args(argv)
    n = args.rounds
    source = {"source_dir": args.source} if args.source else {}
    server = FrayServer(extra_env={"FRAY_BENCH_SQL": "1", "FRAY_TEST_DICE": "0"}, **source)
    try:
        server.start()
        server.wait_for_login()
        st = server.client("st", timeout=60)
        st.login(server.admin_user, server.admin_password, create=False)
        bench = Bench(server, st)
        bench.quiet("+combat/start storyteller", r"start a fight")
        # No forced dice (a test hook that reads and writes its queue around every roll): the
        # fight's own seeded dice, as in play. Ann is sure to act first (20 + d10 against
        # 2 + d10) and, with 20 dice at difficulty 3 (the Storyteller's -3 before each
        # attack), all but sure to hit.
        bench.quiet("+npc/init Ann=10+10", r"Ann rolls initiative")
        bench.quiet("+npc/init Bob=1+1", r"Bob rolls initiative")
        bench.quiet("+npc/set Ann/Brawl=10", r"Brawl")
        bench.run("look", "look", r"Limbo", n)
        bench.run("+roll", "+roll 5 vs 6", r"<Roll>", n)
        bench.run("+sheet", "+sheet", r"Health", n)
        bench.run("+combat (2 fighters)", "+combat", HUD_END, n)
        # The action cycle: Ann punches Bob, Bob does not defend, the ST passes Bob's turn and
        # a new round begins; Bob is healed between rounds.
        for _ in range(n):
            bench.quiet("+heal Bob=all", r"Bob")
            bench.quiet("+combat/diff Ann=-3", r"difficulty")
            bench.run("attack", "attack Ann=Bob", r"Bob may defend")
            bench.run("defend", "defend Bob=none", r"punch at Bob:")
            bench.run("+combat/next", "+combat/next", r"Round \d+: Ann to act")
        for fighters in (10, 20):
            while bench.extras < fighters - 2:
                bench.extras += 1
                name = f"Extra{bench.extras}"
                bench.quiet(f"+npc/init {name}=2+2", rf"{name} rolls initiative")
            bench.run(f"+combat ({fighters} fighters)", "+combat", HUD_END, n)
        counts = sql_counts(server)
    finally:
        server.cleanup()
    look = statistics.median(bench.samples["look"])
    print(f"Server CPU per command (median of {n}, ms) and as a ratio to look; SQL per command (mean)\n")
    print("| command | CPU ms | × look | SQL statements | row writes |")
    print("| --- | ---: | ---: | ---: | ---: |")
    labels = {"attack": "attack", "defend": "defend", "+combat/next": "+combat/next",
              "+roll": "+roll", "+sheet": "+sheet"}
    for label, values in bench.samples.items():
        median = statistics.median(values)
        sql = counts.get(labels.get(label, "+combat" if label.startswith("+combat (") else label))
        sql_text = f"{sql[0]:.1f} | {sql[1]:.1f}" if sql else "- | -"
        print(f"| `{label}` | {median:.2f} | {median / look:.2f} | {sql_text} |")
    print(f"\n{os.cpu_count()} CPUs; {time.strftime('%Y-%m-%d %H:%M UTC', time.gmtime())}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
