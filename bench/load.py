"""The 200-client / 20-fight telnet load benchmark, against a real Fray server.

    .venv/bin/python bench/load.py [--clients 200] [--rooms 20] [--seconds 60]

Starts a real server in a temp game dir (``tests/e2e/harness.py``; ``FRAY_TEST_DICE=0``: real
dice, as in play), then, before anything is measured: the admin digs one room per fight,
``--clients`` accounts are created and logged in over telnet (a few at a time: password hashing
is slow), one account per room is made a Storyteller (``@perm *<name>=Narrator`` and
``=Builder``), everyone is teleported to their room (``@tel <name>=#<room>``), and each
Storyteller starts a storyteller fight with two NPCs (``+npc/init A=3+3``, ``+npc/init B=2+2``;
B is removed and rolled again until A acts first, so every round goes the same way).

Then every client runs a closed loop for ``--warmup`` + ``--seconds`` seconds, all from one
asyncio process: send a command, wait for its answer, think ~2 s (1.6 to 2.4 s), next one.

* the Storyteller: ``+combat`` (HUD), ``attack A=B``, ``defend B=none`` (only when the attack
  said "B may defend"), ``+combat/next``, ``+heal B=all``;
* the watchers: ``look``, ``+roll 3 vs 6``, ``+combat``, ``+sheet``.

Latency is the time from sending a command to the arrival of the first line of its own answer
(a pattern only that answer has: the room name for ``look``, ``<Roll> <me> rolls``, the HUD's
``Round N  Storyteller:`` line, the sheet's ``<me>  Character`` header; for the Storyteller the
first ``<Combat>``/``<Fray>`` line, which only the Storyteller's commands cause in its room),
taken in the socket's data callback. Counted over the measured window only (after the
warm-up): commands sent in the window and answered, per second; the Server process's CPU
(utime + stime of all its threads, ``/proc/<pid>/stat``; 100 % = one core) and how long it was
ready to run but waited for a CPU (run-queue delay, ``/proc/<pid>/task/*/schedstat``: on a
shared machine the Server's CPU is capped by the others' load); p50/p99 per command, each p99
also as a ratio to ``look``'s; and the Server's garbage collections of 5 ms or more in the
window (the server runs with ``FRAY_BENCH_GC=1``, see ``server/conf/at_server_startstop.py``).
Targets (500 clients in 50 fights, 300 s): Server under 75 % CPU, every p99 at most 300 ms and
at most 1.2 × look's. A command answered
about 100 times in 60 s has its maximum for a p99: ``--seconds 300`` gives each a real one.
Prints a Markdown table and a summary line; exits 0 (a benchmark, not a test). The machine is
shared: the load average and the load generator's own CPU are printed alongside.
"""

from __future__ import annotations

import argparse
import asyncio
import codecs
import os
import random
import re
import secrets
import sys
import time
from dataclasses import dataclass, field
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from tests.e2e.harness import (  # noqa: E402
    CONNECTION_SCREEN_RE,
    LOGGED_IN_RE,
    FrayServer,
    HarnessError,
    split_telnet,
)

SETTINGS = "MAX_CONNECTION_RATE = 1000\nMAX_COMMAND_RATE = 100000\n"  # as bench/commands.py
HOST = "127.0.0.1"
THINK = (1.6, 2.4)  # seconds between an answer and the next command
ANSWER_TIMEOUT = 30.0  # a command not answered by then counts as unanswered
SETUP_TIMEOUT = 300.0

ANSI_RE = re.compile(r"\x1b\[[0-9;?]*[ -/]*[@-~]|\x1b[@-Z\\-_]")
ST_ANSWER = r"^<(?:Combat|Fray)>"
WATCHER_COMMANDS = ("look", "+roll 3 vs 6", "+combat", "+sheet")
KIND = {"+roll 3 vs 6": "+roll", "attack A=B": "attack", "defend B=none": "defend",
        "+heal B=all": "+heal", "+npc/init A=3+3": "+npc/init", "+npc/init B=2+2": "+npc/init",
        "+npc/remove B": "+npc/remove"}
ORDER = ("look", "+roll", "+sheet", "+combat", "attack", "defend", "+combat/next", "+heal",
         "+combat/end", "+combat/start", "+npc/init", "+npc/remove")


# --------------------------------------------------------------------------- telnet


class Conn(asyncio.Protocol):
    #: lines " ... Server restarted." received, by all clients (the Server's link to the Portal
    #: dropped and came back: every session is resynced and in-flight output lost)
    restarts_seen = 0

    """One telnet connection. Refuses every option (DONT / WONT), drops sub-negotiations,
    decodes UTF-8, strips ANSI and ``\\r`` (tests/e2e/harness.py's TelnetClient, event-driven).
    ``expect`` matches in the data callback, so the arrival time is the time the bytes came in."""

    def __init__(self, name: str):
        self.name = name
        self.transport = None
        self.buf = ""
        self._pending_iac = b""
        self._decoder = codecs.getincrementaldecoder("utf-8")(errors="replace")
        self._waiter: tuple[re.Pattern, asyncio.Future] | None = None
        self.closed = asyncio.get_running_loop().create_future()

    @classmethod
    async def open(cls, port: int, name: str) -> "Conn":
        loop = asyncio.get_running_loop()
        _, conn = await loop.create_connection(lambda: cls(name), HOST, port)
        return conn

    # -- asyncio.Protocol
    def connection_made(self, transport):
        self.transport = transport

    def connection_lost(self, exc):
        if not self.closed.done():
            self.closed.set_result(exc)
        if self._waiter and not self._waiter[1].done():
            self._waiter[1].set_exception(ConnectionError(f"[{self.name}] connection closed"))

    def data_received(self, data: bytes):
        now = time.monotonic()
        text = self._decoder.decode(self._strip_iac(data))
        if not text:
            return
        self.buf += ANSI_RE.sub("", text).replace("\r", "")
        if "Server restarted." in text:
            Conn.restarts_seen += 1
        if self._waiter:
            regex, future = self._waiter
            m = regex.search(self.buf)
            if m and not future.done():
                got, self.buf = self.buf[: m.end()], self.buf[m.end():]
                self._waiter = None
                future.set_result((got, now))

    def _strip_iac(self, data: bytes) -> bytes:
        out, replies, self._pending_iac = split_telnet(self._pending_iac + data)
        if replies and self.transport:
            self.transport.write(replies)
        return out

    # -- use
    def take(self) -> str:
        """Everything received and not consumed yet (consumed now)."""
        got, self.buf = self.buf, ""
        return got

    def send(self, line: str) -> float:
        """Send one line; returns the send time. What arrived before is dropped (``take`` it
        first to keep it), so an answer is only looked for in what comes after."""
        self.buf = ""
        t = time.monotonic()
        self.transport.write((line + "\r\n").encode("utf-8"))
        return t

    async def expect(self, pattern: str, timeout: float = SETUP_TIMEOUT) -> tuple[str, float]:
        """Wait until ``pattern`` (re.M) matches; returns (text up to the match, arrival time)."""
        regex = re.compile(pattern, re.M)
        m = regex.search(self.buf)
        if m:
            got, self.buf = self.buf[: m.end()], self.buf[m.end():]
            return got, time.monotonic()
        future = asyncio.get_running_loop().create_future()
        self._waiter = (regex, future)
        try:
            return await asyncio.wait_for(future, timeout)
        except asyncio.TimeoutError:
            raise HarnessError(f"[{self.name}] no {pattern!r} within {timeout:.0f}s; got:\n"
                               f"{self.buf[-2000:]}") from None
        finally:
            self._waiter = None

    async def command(self, line: str, pattern: str, timeout: float = SETUP_TIMEOUT) -> str:
        self.send(line)
        return (await self.expect(pattern, timeout))[0]

    def close(self):
        if self.transport:
            self.transport.close()


async def login(port: int, name: str, password: str, create: bool) -> Conn:
    conn = await Conn.open(port, name)
    await conn.expect(CONNECTION_SCREEN_RE, 60)
    await asyncio.sleep(0.3)  # the rest of the connection screen
    if create:
        got = await conn.command(f"create {name} {password}",
                                 r"A new account .* was created|Is this what you intended\?")
        if "Is this what you intended" in got:
            await conn.command("y", r"A new account .* was created")
    await conn.command(f"connect {name} {password}", LOGGED_IN_RE)
    return conn


# --------------------------------------------------------------------------- measuring


def proc_cpu_s(pid: int) -> float:
    """CPU seconds (user + system, all threads) of a process, from /proc/<pid>/stat."""
    with open(f"/proc/{pid}/stat") as f:
        rest = f.read().rsplit(")", 1)[1].split()
    return (int(rest[11]) + int(rest[12])) / os.sysconf("SC_CLK_TCK")


def thread_sched(pid: int) -> dict[int, tuple[int, int]]:
    """{thread id: (ns on a CPU, ns waiting on a run queue)} (``/proc/<pid>/task/*/schedstat``);
    the wait is time the thread was ready to run but had no CPU (taken by other processes)."""
    sched = {}
    for task in os.listdir(f"/proc/{pid}/task"):
        try:
            with open(f"/proc/{pid}/task/{task}/schedstat") as f:
                ran, waited = f.read().split()[:2]
            sched[int(task)] = (int(ran), int(waited))
        except (OSError, ValueError):
            pass
    return sched


def percentile(sorted_values: list[float], q: float) -> float:
    """Nearest-rank percentile of an ascending list."""
    rank = max(1, -(-len(sorted_values) * q // 100))
    return sorted_values[int(rank) - 1]


@dataclass
class Sample:
    kind: str
    sent: float
    latency: float | None  # None: unanswered within ANSWER_TIMEOUT
    refused: bool = False


@dataclass
class Run:
    start: float  # measured window (monotonic)
    end: float
    samples: list[Sample] = field(default_factory=list)
    errors: list[str] = field(default_factory=list)
    cpu: dict[str, float] = field(default_factory=dict)  # % of one core over the window
    loadavg: list[str] = field(default_factory=list)
    unanswered: list[str] = field(default_factory=list)  # the first few, with what came instead
    wall: float = 0.0  # time.time() - time.monotonic(), for the Server's log times
    collections: list[tuple[int, float]] = field(default_factory=list)  # (generation, ms) in the window
    link_drops: int = 0  # the Portal dropped the Server's AMP link (its log), whole run
    restarts_seen: int = 0  # clients told "... Server restarted." (the link came back), whole run


async def timed(conn: Conn, run: Run, line: str, pattern: str) -> str:
    """Send ``line``, wait for ``pattern``; record the sample. Returns the matched text."""
    sent = conn.send(line)
    kind = KIND.get(line, line)
    try:
        got, arrived = await conn.expect(pattern, ANSWER_TIMEOUT)
    except HarnessError as err:
        run.samples.append(Sample(kind, sent, None))
        if len(run.unanswered) < 3:  # what came instead, for the report
            run.unanswered.append(f"{conn.name} `{line}`: {str(err)[-300:]!r}")
        return ""
    run.samples.append(Sample(kind, sent, arrived - sent, refused=got.endswith("<Fray>")))
    return got


async def think(deadline: float) -> bool:
    """Sleep the think time; False once no new command may start."""
    await asyncio.sleep(random.uniform(*THINK))
    return time.monotonic() < deadline


@dataclass
class Fights:
    """Fights started and ended while the clients run (``bench/soak.py``): each Storyteller
    ends its fight with ``+combat/end`` after a random number of rounds in ``rounds`` and
    starts a new one (``next_fight``)."""
    rounds: tuple[int, int]
    started: int = 0
    ended: int = 0
    not_started: int = 0  # a new fight that did not get going (refused or unanswered)


async def storyteller_loop(conn: Conn, run: Run, fights: Fights | None = None):
    await asyncio.sleep(random.uniform(0, THINK[1]))
    rounds_left = random.randint(*fights.rounds) if fights else 0
    while time.monotonic() < run.end:
        await timed(conn, run, "+combat", ST_ANSWER)
        if not await think(run.end):
            return
        await timed(conn, run, "attack A=B", ST_ANSWER)
        if not await think(run.end):
            return
        if "B may defend" in conn.take():  # the whole attack message, come in while thinking
            await timed(conn, run, "defend B=none", ST_ANSWER)
            if not await think(run.end):
                return
        await timed(conn, run, "+combat/next", ST_ANSWER)
        if not await think(run.end):
            return
        await timed(conn, run, "+heal B=all", ST_ANSWER)
        if not await think(run.end):
            return
        if fights is not None:
            rounds_left -= 1
            if rounds_left <= 0:
                if not await next_fight(conn, run, fights):
                    return
                rounds_left = random.randint(*fights.rounds)


async def next_fight(conn: Conn, run: Run, fights: Fights) -> bool:
    """``+combat/end``, then a new fight as at the start (``setup_fight``), every command timed
    like the others, with the think time between them. False once no new command may start."""
    got = await timed(conn, run, "+combat/end", r"You end the fight|^<Fray>")
    fights.ended += "You end the fight" in got
    if not await think(run.end):
        return False
    got = await timed(conn, run, "+combat/start", r"You start a fight|^<Fray>")
    if "You start a fight" not in got:
        fights.not_started += 1
        return await think(run.end)
    fights.started += 1
    if not await think(run.end):
        return False
    await timed(conn, run, "+npc/init A=3+3", r"A rolls initiative|^<Fray>")
    for _ in range(20):
        if not await think(run.end):
            return False
        await timed(conn, run, "+npc/init B=2+2", r"B rolls initiative|^<Fray>")
        if not await think(run.end):
            return False
        hud = await timed(conn, run, "+combat", r"^Declare .*$|^<Fray>")
        if "Declare" not in hud or re.search(r"^ *1 +A \(NPC\)", hud, re.M):
            break  # A acts first (or the HUD was refused: no more re-rolls)
        if not await think(run.end):
            return False
        await timed(conn, run, "+npc/remove B", r"remove B from the scene|^<Fray>")
    return await think(run.end)


async def watcher_loop(conn: Conn, run: Run, room: str):
    name = re.escape(conn.name)
    # "+combat" with no fight in the room (between two fights, bench/soak.py) is refused
    patterns = {"look": rf"^{re.escape(room)}$", "+roll 3 vs 6": rf"^<Roll> {name} rolls ",
                "+combat": r"^Round \d+ +Storyteller:|^<Fray>", "+sheet": rf"^{name} +Character\b"}
    i = random.randrange(len(WATCHER_COMMANDS))
    await asyncio.sleep(random.uniform(0, THINK[1]))
    while time.monotonic() < run.end:
        line = WATCHER_COMMANDS[i % len(WATCHER_COMMANDS)]
        i += 1
        await timed(conn, run, line, patterns[line])
        if not await think(run.end):
            return


# --------------------------------------------------------------------------- setup


def log(message: str):
    print(f"[{time.strftime('%H:%M:%S')}] {message}", file=sys.stderr, flush=True)


async def setup_fight(st: Conn) -> int:
    """Start the fight with A and B in initiative, A first; returns B's re-rolls."""
    await st.command("+combat/start", r"You start a fight")
    await st.command("+npc/init A=3+3", r"A rolls initiative")
    for rerolls in range(20):
        await st.command("+npc/init B=2+2", r"B rolls initiative")
        hud = await st.command("+combat", r"^Declare .*$")
        if re.search(r"^ *1 +A \(NPC\)", hud, re.M):
            return rerolls
        await st.command("+npc/remove B", r"remove B from the scene")
    raise HarnessError(f"[{st.name}] B kept rolling above A")


async def setup_clients(server: FrayServer, args) -> tuple[dict[str, list[str]], dict[str, Conn]]:
    """Rooms dug, ``args.clients`` accounts logged in and in their rooms, one fight started per
    room; returns ({room: member names, the Storyteller first}, {name: connection})."""
    port = server.telnet_port
    rooms = [f"Arena{r + 1:02d}" for r in range(args.rooms)]
    # clients dealt to rooms in turn; the first one in each room is its Storyteller
    members: dict[str, list[str]] = {room: [] for room in rooms}
    for i in range(args.clients):
        room = rooms[i % args.rooms]
        n = len(members[room])
        members[room].append(f"story{i + 1:03d}" if n == 0 else f"watch{i + 1:03d}")
    password = "bench-" + secrets.token_hex(6)

    admin = await login(port, server.admin_user, server.admin_password, create=False)
    dbrefs = {}
    for room in rooms:
        got = await admin.command(f"@dig {room}", rf"Created room {room}\(#\d+\)")
        dbrefs[room] = re.search(rf"{room}\(#(\d+)\)", got).group(1)
    log(f"{len(rooms)} rooms dug; creating and logging in {args.clients} accounts "
        f"({args.login_batch} at a time)")

    t0 = time.monotonic()
    gate = asyncio.Semaphore(args.login_batch)
    conns: dict[str, Conn] = {}

    async def one(name):
        async with gate:
            conns[name] = await login(port, name, password, create=True)
            if len(conns) % 20 == 0:
                log(f"  {len(conns)} logged in")

    await asyncio.gather(*(one(name) for names in members.values() for name in names))
    log(f"accounts ready in {time.monotonic() - t0:.0f}s; permissions and teleports")
    for room, names in members.items():
        await admin.command(f"@perm *{names[0]}=Narrator", r"Permission 'Narrator' given")
        await admin.command(f"@perm *{names[0]}=Builder", r"Permission 'Builder' given")
        for name in names:
            await admin.command(f"@tel {name}=#{dbrefs[room]}", rf"Teleported {name} -> |"
                                rf"{name} is already at")
    admin.send("quit")
    admin.close()
    rerolls = await asyncio.gather(*(setup_fight(conns[names[0]]) for names in members.values()))
    log(f"{len(rooms)} fights started (B re-rolled {sum(rerolls)} times to act after A)")
    await asyncio.sleep(2)
    return members, conns


async def scenario(server: FrayServer, args) -> Run:
    members, conns = await setup_clients(server, args)

    now = time.monotonic()
    run = Run(start=now + args.warmup, end=now + args.warmup + args.seconds,
              wall=time.time() + args.warmup - now)
    tasks = []
    for room, names in members.items():
        for name in names:
            conns[name].take()
            if name == names[0]:
                tasks.append(storyteller_loop(conns[name], run))
            else:
                tasks.append(watcher_loop(conns[name], run, room))

    async def cpu_window():
        pid = int(server.server_pidfile.read_text().split()[0])
        portal = int(server.portal_pidfile.read_text().split()[0])
        await asyncio.sleep(max(0.0, run.start - time.monotonic()))
        before = (time.monotonic(), proc_cpu_s(pid), proc_cpu_s(portal), sum(os.times()[:2]))
        sched = thread_sched(pid)
        log(f"warm-up over; measuring {args.seconds:.0f}s")
        await asyncio.sleep(max(0.0, run.end - time.monotonic()))
        after = (time.monotonic(), proc_cpu_s(pid), proc_cpu_s(portal), sum(os.times()[:2]))
        now_sched = thread_sched(pid)
        wall = after[0] - before[0]
        run.cpu = {k: (after[i] - before[i]) / wall * 100
                   for i, k in ((1, "server"), (2, "portal"), (3, "bench"))}
        pct = 100 / 1e9 / wall
        run.cpu["server_wait"] = pct * sum(w - sched[tid][1] for tid, (_, w) in now_sched.items()
                                           if tid in sched)
        if pid in sched and pid in now_sched:  # the main thread: Evennia's reactor
            run.cpu["main_run"] = pct * (now_sched[pid][0] - sched[pid][0])
            run.cpu["main_wait"] = pct * (now_sched[pid][1] - sched[pid][1])
        run.loadavg = open("/proc/loadavg").read().split()[:3]
        log("window over; waiting for the last answers")

    log(f"{len(tasks)} clients running: {args.warmup:.0f}s warm-up, then {args.seconds:.0f}s measured")
    results = await asyncio.gather(cpu_window(), *tasks, return_exceptions=True)
    run.errors = [f"{type(r).__name__}: {r}" for r in results if isinstance(r, BaseException)]
    for conn in conns.values():
        conn.close()
    return run


# --------------------------------------------------------------------------- report


def report(run: Run, args) -> None:
    window = [s for s in run.samples if run.start <= s.sent < run.end]
    rate = sum(1 for s in window if s.latency is not None) / args.seconds
    rows = {}
    for kind in ORDER:
        lat = sorted(s.latency * 1000 for s in window if s.kind == kind and s.latency is not None)
        lost = sum(1 for s in window if s.kind == kind and s.latency is None)
        refused = sum(1 for s in window if s.kind == kind and s.refused)
        if lat or lost:
            rows[kind] = (lat, lost, refused)
    look_p99 = percentile(rows["look"][0], 99) if rows.get("look", ([],))[0] else None
    print(f"Load: {args.clients} telnet clients in {args.rooms} storyteller fights, "
          f"{args.seconds:.0f} s measured after {args.warmup:.0f} s warm-up, think time "
          f"{THINK[0]}-{THINK[1]} s (closed loop).\n")
    print("| command | answered | per s | p50 ms | p99 ms | max ms | p99 / look p99 | ≤ 1.2 × look |"
          " unanswered | refused |")
    print("| --- | ---: | ---: | ---: | ---: | ---: | ---: | :---: | ---: | ---: |")
    worst = 0.0
    for kind, (lat, lost, refused) in rows.items():
        if lat:
            p50, p99, top = percentile(lat, 50), percentile(lat, 99), lat[-1]
            ratio = p99 / look_p99 if look_p99 else float("nan")
            worst = max(worst, ratio) if kind != "look" else worst
            ok = "yes" if ratio <= 1.2 else "**no**"
            print(f"| `{kind}` | {len(lat)} | {len(lat) / args.seconds:.1f} | {p50:.0f} | {p99:.0f} "
                  f"| {top:.0f} | {ratio:.2f} | {ok} | {lost} | {refused} |")
        else:
            print(f"| `{kind}` | 0 | 0 | - | - | - | - | **no** | {lost} | {refused} |")
    all_lat = sorted(s.latency * 1000 for s in window if s.latency is not None)
    if all_lat:
        print(f"| all | {len(all_lat)} | {len(all_lat) / args.seconds:.1f} | "
              f"{percentile(all_lat, 50):.0f} | {percentile(all_lat, 99):.0f} | {all_lat[-1]:.0f} "
              f"| | | {sum(1 for s in window if s.latency is None)} | "
              f"{sum(1 for s in window if s.refused)} |")
    cpu, nan = run.cpu, float("nan")
    print(f"\nLatency: send → arrival of the first line of the command's own answer. "
          f"Server CPU: utime+stime of all its threads over the window, 100 % = one core. "
          f"The Server's threads waited for a CPU (ready to run, on the run queue) "
          f"{cpu.get('server_wait', nan):.0f} % of the window; its main (reactor) thread ran "
          f"{cpu.get('main_run', nan):.0f} %, waited for a CPU {cpu.get('main_wait', nan):.0f} % "
          f"and slept or blocked {100 - cpu.get('main_run', nan) - cpu.get('main_wait', nan):.0f} %"
          f" of the window. "
          f"Portal {cpu.get('portal', float('nan')):.0f} %, this load generator "
          f"{cpu.get('bench', float('nan')):.0f} %; load average at the end "
          f"{' '.join(run.loadavg) or '?'}; {os.cpu_count()} CPUs; "
          f"{time.strftime('%Y-%m-%d %H:%M UTC', time.gmtime())}.")
    pauses = {generation: [ms for g, ms in run.collections if g == generation] for generation in (0, 1, 2)}
    print("\nGarbage collections of 5 ms or more in the window (each stops the Server): "
          + "; ".join(f"generation {g}: {len(ms)}, longest {max(ms):.0f} ms" if ms else f"generation {g}: 0"
                      for g, ms in pauses.items()) + ".")
    print(f"\nThe Server's link to the Portal: dropped {run.link_drops} times (the Portal's log), "
          f"\"... Server restarted.\" seen by clients {run.restarts_seen} times (whole run).")
    if run.unanswered:
        print("\nUnanswered (first few): " + "; ".join(run.unanswered))
    if run.errors:
        print(f"\nClient errors ({len(run.errors)}): " + "; ".join(run.errors[:5]))
    server_cpu = cpu.get("server", float("nan"))
    cpu_ok = server_cpu < 75
    p99_ok = bool(look_p99) and worst <= 1.2 and all(r[0] and not r[1] for r in rows.values())
    worst_ms = max((percentile(r[0], 99) for r in rows.values() if r[0]), default=float("nan"))
    print(f"\n**Summary**: {rate:.1f} commands/s served, Server CPU {server_cpu:.0f} % "
          f"(target < 75 %: {'met' if cpu_ok else 'NOT met'}), look p99 "
          f"{look_p99 if look_p99 is not None else float('nan'):.0f} ms, worst p99 {worst_ms:.0f} ms "
          f"(target ≤ 300 ms: {'met' if worst_ms <= 300 else 'NOT met'}) and "
          f"{worst:.2f} × look's (target ≤ 1.2: {'met' if p99_ok else 'NOT met'}).")


def collector_pauses(server: FrayServer, run: Run) -> list[tuple[int, float]]:
    """The Server's garbage collections of 5 ms or more in the measured window
    (``FRAY_BENCH_GC=1``: ``server/logs/fray-gc.log``), as (generation, ms)."""
    path = Path(server.game_dir) / "server" / "logs" / "fray-gc.log"
    start, end = run.start + run.wall, run.end + run.wall
    found = []
    for line in path.read_text().splitlines() if path.exists() else ():
        at, generation, took, _ = line.split("\t")
        if start <= float(at) < end:
            found.append((int(generation), float(took)))
    return found


def start_server(server: FrayServer) -> None:
    """``server.start()``; on a loaded machine the launcher may time out before the Portal
    starts the Server: then ``evennia start`` once more (it starts the missing Server)."""
    try:
        server.start()
    except HarnessError as err:
        log(f"server start failed ({str(err).splitlines()[0]}); `evennia start` again")
        server.running = True
        server.evennia("start", check=False)
        server.wait_for_telnet(180)
    server.wait_for_login()  # past Evennia's restart after a first start


def main(argv=None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--clients", type=int, default=200, help="telnet clients (default 200)")
    parser.add_argument("--rooms", type=int, default=20, help="fights, one room each (default 20)")
    parser.add_argument("--seconds", type=float, default=60, help="measured window (default 60)")
    parser.add_argument("--warmup", type=float, default=15, help="unmeasured warm-up (default 15)")
    parser.add_argument("--source", default=None,
                        help="the game to load (default: this checkout; e.g. a `git worktree` of an "
                             "older commit, to compare)")
    parser.add_argument("--login-batch", type=int, default=8,
                        help="accounts created / logged in at a time (default 8)")
    args = parser.parse_args(argv)
    if args.rooms < 1 or args.clients < 2 * args.rooms:
        parser.error("need at least one room and two clients (a Storyteller and a watcher) per room")
    source = {"source_dir": args.source} if args.source else {}
    server = FrayServer(extra_env={"FRAY_TEST_DICE": "0", "FRAY_BENCH_GC": "1"}, extra_settings=SETTINGS,
                        startup_timeout=90, **source)
    try:
        log(f"starting a server in {server.game_dir}")
        start_server(server)
        run = asyncio.run(scenario(server, args))
        run.collections = collector_pauses(server, run)
        run.restarts_seen = Conn.restarts_seen
        portal_log = server.game_dir / "server" / "logs" / "portal.log"
        run.link_drops = portal_log.read_text(errors="replace").count("should not receive http") \
            if portal_log.exists() else 0
    finally:
        log("stopping the server, removing its temp dir")
        server.cleanup()
    report(run, args)
    return 0


if __name__ == "__main__":
    sys.exit(main())
