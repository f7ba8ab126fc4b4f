"""A long game under load: memory and CPU per command over an hour, against a real Fray server.

    .venv/bin/python bench/soak.py [--clients 200] [--rooms 20] [--minutes 60] [--plots docs/img]

The plots need the ``bench`` extra (``pip install -e '.[bench]'``); without it the figures are
still printed.

The clients and their commands are ``bench/load.py``'s (its setup, its telnet client, its
closed loops, ~2 s of thinking between an answer and the next command), with one change: each
Storyteller ends its fight with ``+combat/end`` after a random 5 to 15 rounds (``--rounds``)
and starts a new one with its two NPCs (``+combat/start``, ``+npc/init A=3+3``, ``+npc/init
B=2+2`` and, until A acts first, ``+npc/remove B`` and again), so fights start and end all
through the run. Those commands are timed and counted like the others; between two fights a
watcher's ``+combat`` is refused (no fight here) and counted as refused.

Every ``--sample`` seconds (default 60) from the start: the Server's and the Portal's resident
memory (``VmRSS``, ``/proc/<pid>/status``), their CPU seconds (utime + stime, all threads),
the commands answered, unanswered (no answer within 30 s) and refused so far, the fights
started and ended, the load average. Printed: a table by minute, then memory after the first
``--window`` minutes (default 10) and at the end with the growth between them, and the
Server's CPU per answered command (CPU seconds / commands) in the first and in the last
``--window`` minutes and their ratio. Targets: memory growth after the first 10 minutes under
10 % (Server and Portal); CPU per command in the last 10 minutes within 10 % of the first 10.
With ``--plots DIR``, three PNGs: ``soak-memory.png``, ``soak-cpu-per-command.png`` and
``soak-commands.png``. Exits 0 (a benchmark, not a test); the machine is shared, so the load
average is printed with every minute.
"""

from __future__ import annotations

import argparse
import asyncio
import os
import random
import sys
import time
from dataclasses import dataclass
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from bench.load import (  # noqa: E402
    ORDER,
    SETTINGS,
    THINK,
    Conn,
    Fights,
    Run,
    log,
    percentile,
    proc_cpu_s,
    setup_clients,
    start_server,
    storyteller_loop,
    watcher_loop,
)
from tests.e2e.harness import FrayServer  # noqa: E402


def rss_kb(pid: int) -> int:
    """Resident memory of a process in kB (``VmRSS``, ``/proc/<pid>/status``)."""
    with open(f"/proc/{pid}/status") as f:
        for line in f:
            if line.startswith("VmRSS:"):
                return int(line.split()[1])
    return 0


@dataclass
class Tick:
    """One sample, cumulative from the start of the soak."""
    at: float  # seconds since the start
    server_rss: int  # kB
    portal_rss: int
    server_cpu: float  # CPU seconds
    portal_cpu: float
    answered: int
    unanswered: int
    refused: int
    started: int
    ended: int
    load: float  # 1-minute load average


def tick(start: float, server_pid: int, portal_pid: int, run: Run, fights: Fights) -> Tick:
    answered = sum(1 for s in run.samples if s.latency is not None)
    return Tick(time.monotonic() - start, rss_kb(server_pid), rss_kb(portal_pid), proc_cpu_s(server_pid),
                proc_cpu_s(portal_pid), answered, len(run.samples) - answered,
                sum(1 for s in run.samples if s.refused), fights.started, fights.ended,
                float(open("/proc/loadavg").read().split()[0]))


async def soak(server: FrayServer, args) -> tuple[Run, Fights, list[Tick]]:
    members, conns = await setup_clients(server, args)
    fights = Fights(rounds=args.rounds, started=len(members))
    server_pid = int(server.server_pidfile.read_text().split()[0])
    portal_pid = int(server.portal_pidfile.read_text().split()[0])
    now = time.monotonic()
    run = Run(start=now, end=now + args.minutes * 60, wall=time.time() - now)
    ticks: list[Tick] = []
    tasks = []
    for room, names in members.items():
        for name in names:
            conns[name].take()
            if name == names[0]:
                tasks.append(storyteller_loop(conns[name], run, fights))
            else:
                tasks.append(watcher_loop(conns[name], run, room))

    async def sampler():
        ticks.append(tick(run.start, server_pid, portal_pid, run, fights))
        n = 1
        while run.start + n * args.sample <= run.end + 0.5:
            await asyncio.sleep(max(0.0, run.start + n * args.sample - time.monotonic()))
            ticks.append(tick(run.start, server_pid, portal_pid, run, fights))
            last = ticks[-1]
            log(f"{last.at / 60:5.1f} min: Server {last.server_rss / 1024:.1f} MB, Portal "
                f"{last.portal_rss / 1024:.1f} MB, {last.answered} answered, {last.unanswered} unanswered, "
                f"fights {last.started} started / {last.ended} ended, load {last.load:.2f}")
            n += 1

    log(f"{len(tasks)} clients running for {args.minutes:g} min")
    results = await asyncio.gather(sampler(), *tasks, return_exceptions=True)
    run.errors = [f"{type(r).__name__}: {r}" for r in results if isinstance(r, BaseException)]
    for conn in conns.values():
        conn.close()
    return run, fights, ticks


# --------------------------------------------------------------------------- report


def at_minute(ticks: list[Tick], seconds: float) -> Tick:
    """The sample nearest ``seconds`` after the start."""
    return min(ticks, key=lambda t: abs(t.at - seconds))


def cpu_per_command_ms(a: Tick, b: Tick) -> float:
    commands = b.answered - a.answered
    return (b.server_cpu - a.server_cpu) / commands * 1000 if commands else float("nan")


def report(run: Run, fights: Fights, ticks: list[Tick], args) -> dict:
    print(f"Soak: {args.clients} telnet clients in {args.rooms} storyteller fights for {args.minutes:g} min; "
          f"each fight ended after {args.rounds[0]}-{args.rounds[1]} rounds and a new one started; think time "
          f"{THINK[0]}-{THINK[1]} s (closed loop); {os.cpu_count()} CPUs; ended "
          f"{time.strftime('%Y-%m-%d %H:%M UTC', time.gmtime())}.\n")
    print("| min | Server MB | Portal MB | Server CPU % | Portal CPU % | answered | per s "
          "| Server CPU ms / command | unanswered | refused | fights started | ended | load |")
    print("| ---: | ---: | ---: | ---: | ---: | ---: | ---: | ---: | ---: | ---: | ---: | ---: | ---: |")
    for a, b in zip(ticks, ticks[1:]):
        span = b.at - a.at
        print(f"| {round(b.at / 60, 1):g} | {b.server_rss / 1024:.1f} | {b.portal_rss / 1024:.1f} "
              f"| {(b.server_cpu - a.server_cpu) / span * 100:.0f} | {(b.portal_cpu - a.portal_cpu) / span * 100:.0f} "
              f"| {b.answered - a.answered} | {(b.answered - a.answered) / span:.1f} "
              f"| {cpu_per_command_ms(a, b):.2f} | {b.unanswered - a.unanswered} | {b.refused - a.refused} "
              f"| {b.started - a.started} | {b.ended - a.ended} | {b.load:.2f} |")

    kinds = {}
    for s in run.samples:
        kinds.setdefault(s.kind, []).append(s)
    print("\n| command | answered | unanswered | refused | p50 ms | p99 ms |")
    print("| --- | ---: | ---: | ---: | ---: | ---: |")
    for kind in sorted(kinds, key=lambda k: ORDER.index(k) if k in ORDER else len(ORDER)):
        lat = sorted(s.latency * 1000 for s in kinds[kind] if s.latency is not None)
        lost = sum(1 for s in kinds[kind] if s.latency is None)
        refused = sum(1 for s in kinds[kind] if s.refused)
        p50, p99 = (f"{percentile(lat, 50):.0f}", f"{percentile(lat, 99):.0f}") if lat else ("-", "-")
        print(f"| `{kind}` | {len(lat)} | {lost} | {refused} | {p50} | {p99} |")

    window = args.window * 60
    first, settled, end = ticks[0], at_minute(ticks, window), ticks[-1]
    before_last = at_minute(ticks, end.at - window)
    growth = {name: (getattr(end, f"{name}_rss") - getattr(settled, f"{name}_rss"))
              / getattr(settled, f"{name}_rss") * 100 for name in ("server", "portal")}
    cpu_first, cpu_last = cpu_per_command_ms(first, settled), cpu_per_command_ms(before_last, end)
    ratio = cpu_last / cpu_first
    answered = sum(1 for s in run.samples if s.latency is not None)
    unanswered = len(run.samples) - answered
    memory_ok = all(g < 10 for g in growth.values())
    cpu_ok = abs(ratio - 1) <= 0.10
    figures = {
        "window_min": settled.at / 60, "end_min": end.at / 60,
        "server_mb": (settled.server_rss / 1024, end.server_rss / 1024),
        "portal_mb": (settled.portal_rss / 1024, end.portal_rss / 1024), "growth": growth,
        "cpu_first_ms": cpu_first, "cpu_last_ms": cpu_last, "ratio": ratio,
    }
    print(f"\nMemory after {settled.at / 60:.0f} min → at the end ({end.at / 60:.0f} min): Server "
          f"{settled.server_rss / 1024:.1f} → {end.server_rss / 1024:.1f} MB ({growth['server']:+.1f} %), Portal "
          f"{settled.portal_rss / 1024:.1f} → {end.portal_rss / 1024:.1f} MB ({growth['portal']:+.1f} %); "
          f"at the start {first.server_rss / 1024:.1f} and {first.portal_rss / 1024:.1f} MB.")
    print(f"Server CPU per answered command: minutes 0-{settled.at / 60:.0f} {cpu_first:.2f} ms, minutes "
          f"{before_last.at / 60:.0f}-{end.at / 60:.0f} {cpu_last:.2f} ms: {ratio:.3f} × (load average "
          f"{first.load:.2f} at the start, {settled.load:.2f} at {settled.at / 60:.0f} min, {end.load:.2f} at the end).")
    print(f"Commands: {answered} answered, {unanswered} unanswered (no answer within 30 s), "
          f"{sum(1 for s in run.samples if s.refused)} refused; fights: {fights.started} started "
          f"({args.rooms} before the clock), {fights.ended} ended, {fights.not_started} new ones refused; "
          f"Server restarts seen by clients: {Conn.restarts_seen}.")
    if run.errors:
        print(f"Client errors ({len(run.errors)}): " + "; ".join(run.errors[:5]))
    print(f"\n**Summary**: memory growth after {settled.at / 60:.0f} min Server {growth['server']:+.1f} %, Portal "
          f"{growth['portal']:+.1f} % (target < 10 %: {'met' if memory_ok else 'NOT met'}); CPU per command "
          f"last/first {ratio:.3f} (target within 10 %: {'met' if cpu_ok else 'NOT met'}); {unanswered} unanswered.")
    return figures


def plot(ticks: list[Tick], out: Path) -> list[Path]:
    """The three PNGs (memory, CPU per command, commands/s, by minute) in ``out``."""
    try:
        import matplotlib
    except ImportError:
        print("\nNo plots: matplotlib is missing (pip install -e '.[bench]').")
        return []
    matplotlib.use("Agg")
    from matplotlib import pyplot

    out.mkdir(parents=True, exist_ok=True)
    minutes = [t.at / 60 for t in ticks]
    mid = [(a.at + b.at) / 120 for a, b in zip(ticks, ticks[1:])]
    loads = ", ".join(f"{t.load:.1f}" for t in ticks[:: max(1, len(ticks) // 6)])
    note = f"load average (1 min) through the run: {loads}"
    made = []

    def save(fig, name):
        fig.text(0.01, 0.01, note, fontsize=7, color="gray")
        fig.tight_layout(rect=(0, 0.03, 1, 1))
        path = out / name
        fig.savefig(path, dpi=100)
        pyplot.close(fig)
        made.append(path)

    fig, ax = pyplot.subplots(figsize=(8, 4))
    ax.plot(minutes, [t.server_rss / 1024 for t in ticks], label="Server", marker=".")
    ax.plot(minutes, [t.portal_rss / 1024 for t in ticks], label="Portal", marker=".")
    ax.set(xlabel="minutes", ylabel="resident memory (MB)", title="Memory (VmRSS)", ylim=(0, None))
    ax.legend()
    ax.grid(alpha=0.3)
    save(fig, "soak-memory.png")

    fig, ax = pyplot.subplots(figsize=(8, 4))
    ax.plot(mid, [cpu_per_command_ms(a, b) for a, b in zip(ticks, ticks[1:])], marker=".")
    ax.set(xlabel="minutes", ylabel="Server CPU ms / answered command", title="Server CPU per command, by minute",
           ylim=(0, None))
    ax.grid(alpha=0.3)
    save(fig, "soak-cpu-per-command.png")

    fig, ax = pyplot.subplots(figsize=(8, 4))
    ax.plot(mid, [(b.answered - a.answered) / (b.at - a.at) for a, b in zip(ticks, ticks[1:])],
            label="answered", marker=".")
    ax.plot(mid, [(b.unanswered - a.unanswered) / (b.at - a.at) for a, b in zip(ticks, ticks[1:])],
            label="unanswered", marker=".")
    ax.set(xlabel="minutes", ylabel="commands / s", title="Commands per second, by minute", ylim=(0, None))
    ax.legend()
    ax.grid(alpha=0.3)
    save(fig, "soak-commands.png")
    return made


def rounds_range(text: str) -> tuple[int, int]:
    low, _, high = text.partition("-")
    return int(low), int(high or low)


def main(argv=None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--clients", type=int, default=200, help="telnet clients (default 200)")
    parser.add_argument("--rooms", type=int, default=20, help="fights, one room each (default 20)")
    parser.add_argument("--minutes", type=float, default=60, help="length of the soak (default 60)")
    parser.add_argument("--window", type=float, default=10,
                        help="minutes compared at the start and the end (default 10; at most a third of --minutes)")
    parser.add_argument("--sample", type=float, default=60, help="seconds between samples (default 60)")
    parser.add_argument("--rounds", type=rounds_range, default=(5, 15),
                        help="rounds before a Storyteller ends its fight, low-high (default 5-15)")
    parser.add_argument("--plots", type=Path, default=None, help="write the PNGs to this directory")
    parser.add_argument("--login-batch", type=int, default=8,
                        help="accounts created / logged in at a time (default 8)")
    parser.add_argument("--source", default=None,
                        help="the game to load (default: this checkout; e.g. a `git worktree` of an older commit)")
    parser.add_argument("--seed", type=int, default=None, help="seed the clients' random choices")
    args = parser.parse_args(argv)
    if args.rooms < 1 or args.clients < 2 * args.rooms:
        parser.error("need at least one room and two clients (a Storyteller and a watcher) per room")
    args.window = min(args.window, args.minutes / 3)
    if args.seed is not None:
        random.seed(args.seed)
    source = {"source_dir": args.source} if args.source else {}
    server = FrayServer(extra_env={"FRAY_TEST_DICE": "0"}, extra_settings=SETTINGS, startup_timeout=90, **source)
    try:
        log(f"starting a server in {server.game_dir}")
        start_server(server)
        run, fights, ticks = asyncio.run(soak(server, args))
    finally:
        log("stopping the server, removing its temp dir")
        server.cleanup()
    report(run, fights, ticks, args)
    if args.plots:
        for path in plot(ticks, args.plots):
            print(f"Plot: {path}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
