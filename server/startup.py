"""
Start Fray and wait for it, patiently but not forever (used by `make run` and
docker/entrypoint.sh); probe a running one (the Docker HEALTHCHECK).

    python -m server.startup start [--port P] [--stall S] [--max M]
    python -m server.startup probe [--host H] [--port P] [--timeout T]
    python -m server.startup stop

``start`` runs ``evennia start`` in the game dir (the current directory) and
waits until the telnet port shows the login screen. It waits as long as the
Portal and Server are making progress (their processes use CPU, or the logs
grow) and says what it is waiting for; it gives up when nothing happened for
``--stall`` seconds (default 120, env FRAY_START_STALL) or after ``--max``
seconds in all (default 1800, env FRAY_START_MAX). On failure it shows the
end of the logs, stops what it started (`evennia stop`, then SIGKILL of the
Portal/Server processes of this game dir that are still there) and exits 1.

Evennia's launcher gives the Portal 10 s to come up; on a slow machine it
prints "Connection to Evennia timed out" and leaves a Portal without a Server.
``start`` notices (Portal up, launcher gone, no Server process) and asks the
Portal once more to start the Server, as a second `evennia start` would.

On a new database the Server runs Evennia's initial setup and then restarts
once ("Initial setup complete. Restarting Server once." in server.log); the
login screen shows for a moment before that restart. ``start`` counts the
game ready only once that restart is over, so "ready" means a player can log in.

Before it starts anything, ``start`` removes a server.pid/portal.pid whose
process is not this game's Server/Portal (a machine or container restarted
after a kill: twistd would take a reused pid for a running server and refuse).

``stop`` runs ``evennia stop`` and returns only once the Portal and Server
processes have left (the launcher returns while the Portal may still be
closing), SIGKILLing what is still there after 30 s; exit 0 when nothing is left.

``probe`` exits 0 when a fresh telnet connection gets the login screen
within ``--timeout`` seconds (default 10), else 1; with ``--ready-file F``
only once F exists too (docker/entrypoint.sh writes it when ``start`` is done).

Nothing here imports Evennia or Django: it runs next to them, fast.
"""

from __future__ import annotations

import argparse
import os
import re
import select
import signal
import socket
import subprocess
import sys
import time
from pathlib import Path

#: What the Server's log says before each reason it refuses to start
#: (``server/conf/server_services_plugins.py``: the message catalogue, the chargen tables).
REFUSED = "Fray does not start:"

#: the login screen (server/conf/connection_screens.py)
CONNECTION_SCREEN_RE = re.compile(rb"connect\s+<username>\s+<password>")
IAC, DONT, DO, WONT, WILL, SB, SE = 255, 254, 253, 252, 251, 250, 240

CLK_TCK = os.sysconf("SC_CLK_TCK") if hasattr(os, "sysconf") else 100

#: server.log, when Evennia's initial setup (a new database) is over and the Server restarts
INITIAL_SETUP_DONE = "Initial setup complete. Restarting Server once."
#: server.log, when a Server restarted in "reset" mode (that restart) is up again
RESET_DONE = "Evennia Server successfully restarted in 'reset' mode."


def say(msg: str):
    print(f">>> {msg}", flush=True)


# --------------------------------------------------------------------------- probe


def login_screen(host: str, port: int, timeout: float) -> str | None:
    """None when a fresh connection gets the login screen within ``timeout``,
    else what went wrong. Telnet options offered are refused (so the server
    does not wait for answers)."""
    deadline = time.monotonic() + timeout
    try:
        sock = socket.create_connection((host, port), timeout=max(0.5, timeout))
    except OSError as err:
        return f"port {port} does not answer ({err.strerror or err})"
    data = b""
    with sock:
        sock.setblocking(False)
        while time.monotonic() < deadline:
            ready, _, _ = select.select([sock], [], [], max(0.0, min(0.5, deadline - time.monotonic())))
            if not ready:
                continue
            try:
                chunk = sock.recv(65536)
            except (BlockingIOError, InterruptedError):
                continue
            except OSError as err:
                return f"connection broke ({err})"
            if not chunk:
                return "the port answers but the connection was closed"
            replies, i = bytearray(), 0
            while True:  # refuse every option offered (DO -> WONT, WILL -> DONT)
                i = chunk.find(bytes([IAC]), i)
                if i < 0 or i + 2 >= len(chunk):
                    break
                if chunk[i + 1] == DO:
                    replies += bytes([IAC, WONT, chunk[i + 2]])
                elif chunk[i + 1] == WILL:
                    replies += bytes([IAC, DONT, chunk[i + 2]])
                i += 2
            if replies:
                try:
                    sock.setblocking(True)
                    sock.sendall(bytes(replies))
                    sock.setblocking(False)
                except OSError:
                    pass
            data += chunk
            if CONNECTION_SCREEN_RE.search(data):
                return None
    if data:
        return "the port answers (the Portal is up) but no login screen yet (the Server is not ready)"
    return "the port answers but sends nothing yet"


# --------------------------------------------------------------------------- processes


class Game:
    """The Portal/Server processes of one game dir, found by their pid files
    on the twistd command lines."""

    def __init__(self, game_dir: Path):
        self.game_dir = game_dir.resolve()
        self.server_pidfile = self.game_dir / "server" / "server.pid"
        self.portal_pidfile = self.game_dir / "server" / "portal.pid"
        self.log_dir = self.game_dir / "server" / "logs"

    def processes(self) -> dict[str, list[int]]:
        """{"portal": [pids], "server": [pids]} running for this game dir."""
        found = {"portal": [], "server": []}
        marks = {
            "portal": f"--pidfile={self.portal_pidfile}".encode(),
            "server": f"--pidfile={self.server_pidfile}".encode(),
        }
        for entry in Path("/proc").iterdir():
            if not entry.name.isdigit():
                continue
            try:
                cmdline = (entry / "cmdline").read_bytes()
                if _is_zombie(int(entry.name)):
                    continue
            except OSError:
                continue
            for kind, mark in marks.items():
                if mark in cmdline:
                    found[kind].append(int(entry.name))
        return found

    def cpu_ticks(self, pids) -> int:
        total = 0
        for pid in pids:
            try:
                fields = Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()
                total += int(fields[11]) + int(fields[12])  # utime + stime
            except (OSError, IndexError, ValueError):
                pass
        return total

    def log_sizes(self) -> dict[str, int]:
        sizes = {}
        for path in self.log_dir.glob("*.log"):
            try:
                sizes[path.name] = path.stat().st_size
            except OSError:
                pass
        return sizes

    def log_since(self, name: str, offsets: dict[str, int]) -> str:
        """What ``name`` (server.log, portal.log) got since ``offsets`` (``log_sizes()``);
        all of it when the file is new or was rotated."""
        path = self.log_dir / name
        try:
            with open(path, "rb") as f:
                size = path.stat().st_size
                start = offsets.get(name, 0)
                f.seek(start if start <= size else 0)
                return f.read().decode("utf-8", errors="replace")
        except OSError:
            return ""

    def refusals(self, offsets: dict[str, int]) -> list[str]:
        """The reasons the Server gave since ``offsets`` for not starting (a problem of the
        game's message file: ``server/conf/server_services_plugins.py``), one line each."""
        text = self.log_since("server.log", offsets)
        return list(dict.fromkeys(line[line.index(REFUSED):] for line in text.splitlines() if REFUSED in line))

    def setup_restart_pending(self, offsets: dict[str, int]) -> bool:
        """The Server ran Evennia's initial setup (a new database) since ``offsets`` and
        has not yet come back from the one restart that ends it."""
        text = self.log_since("server.log", offsets)
        setup = text.rfind(INITIAL_SETUP_DONE)
        return setup >= 0 and text.find(RESET_DONE, setup) < 0

    def remove_stale_pidfiles(self) -> list[str]:
        """Remove server.pid/portal.pid whose pid is not a live process of this game dir
        (twistd started with that ``--pidfile``); says and returns what it removed."""
        removed = []
        for pidfile in (self.server_pidfile, self.portal_pidfile):
            try:
                pid = int(pidfile.read_text().strip())
            except FileNotFoundError:
                continue
            except (OSError, ValueError):
                pid = None
            if pid is not None and _alive(pid):
                try:
                    cmdline = Path(f"/proc/{pid}/cmdline").read_bytes()
                except OSError:
                    cmdline = b""
                if f"--pidfile={pidfile}".encode() in cmdline:
                    continue  # ours, running
            try:
                pidfile.unlink()
            except OSError:
                continue
            say(f"removed the stale {pidfile.name} (pid {pid} is not this game's "
                f"{pidfile.stem.capitalize()}; left by a kill or a restarted machine)")
            removed.append(pidfile.name)
        return removed

    def last_log_line(self) -> str:
        newest, line = 0.0, ""
        for name in ("server.log", "portal.log"):
            path = self.log_dir / name
            try:
                mtime = path.stat().st_mtime
                lines = [ln for ln in path.read_text(errors="replace").splitlines() if ln.strip()]
            except OSError:
                continue
            if lines and mtime >= newest:
                newest, line = mtime, f"{name}: {lines[-1].strip()}"
        return line[:160]

    def log_tail(self, lines: int = 25) -> str:
        parts = []
        for name in ("portal.log", "server.log"):
            path = self.log_dir / name
            if path.exists():
                text = path.read_text(errors="replace").splitlines()[-lines:]
                parts.append(f"----- server/logs/{name} (last {len(text)} lines) -----")
                parts.extend(text)
        return "\n".join(parts)


def _is_zombie(pid: int) -> bool:
    try:
        return Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()[0] == "Z"
    except (OSError, IndexError):
        return True


def _alive(pid: int) -> bool:
    try:
        os.kill(pid, 0)
    except ProcessLookupError:
        return False
    except PermissionError:
        return True
    return not _is_zombie(pid)


# --------------------------------------------------------------------------- start


def evennia_cmd() -> list[str]:
    return [str(Path(sys.executable).parent / "evennia")]


def start(port: int, stall: float, max_wait: float, host: str = "127.0.0.1") -> int:
    game = Game(Path.cwd())
    before = game.processes()
    portal_was_running = bool(before["portal"])
    if portal_was_running and login_screen(host, port, 5) is None:
        say(f"Fray is already running (Portal pid {before['portal'][0]}).")
        return 0

    if not portal_was_running and not before["server"]:
        game.remove_stale_pidfiles()
    log_offsets = game.log_sizes()  # what the logs held before this start
    started = time.monotonic()
    launcher = subprocess.Popen([*evennia_cmd(), "start"], stdin=subprocess.DEVNULL)
    say(f"evennia start (pid {launcher.pid}): collecting static files, checking the database, "
        "starting the Portal ...")

    last_progress = time.monotonic()
    last_report = time.monotonic()
    prev_ticks, prev_logs = -1, game.log_sizes()
    phase = ""
    restarts_asked = 0
    no_server_since = None
    launcher_rc = None

    def fail(why: str) -> int:
        print(f"!!! {why}", flush=True)
        tail = game.log_tail()
        if tail:
            print(tail, flush=True)
        stop_started(game, launcher, portal_was_running)
        return 1

    while True:
        now = time.monotonic()
        if launcher_rc is None:
            launcher_rc = launcher.poll()
        procs = game.processes()
        pids = procs["portal"] + procs["server"] + ([launcher.pid] if launcher_rc is None else [])

        # a new database: the login screen shows for a moment after the setup, but the Server
        # is about to restart (asked again after the probe: the setup may end during it)
        restarting = "the Server is restarting once after Evennia's initial setup (a new database)"
        if procs["portal"] and game.setup_restart_pending(log_offsets):
            error = restarting
        else:
            error = login_screen(host, port, 3) if procs["portal"] else "no Portal process yet"
            if error is None and game.setup_restart_pending(log_offsets):
                error = restarting
        if error is None:
            say(f"Fray answers on port {port} (after {now - started:.0f}s).")
            return 0

        refused = game.refusals(log_offsets)
        if refused:  # the Server will not start until the game's files are fixed: say why at once
            return fail("\n!!! ".join(refused))

        # what we wait for, said when it changes
        if launcher_rc is None and not procs["portal"]:
            what = "the launcher (`evennia start`) to start the Portal"
        elif not procs["portal"]:
            what = None  # launcher gone, no Portal
        elif game.setup_restart_pending(log_offsets):
            what = ("the Server's one restart after Evennia's initial setup (a new database) "
                    "to finish")
        elif not procs["server"]:
            what = f"the Portal (pid {procs['portal'][0]}) to start the Server"
        else:
            what = (f"the Server (pid {procs['server'][0]}) to finish starting and show the "
                    f"login screen on port {port}")
        if what is None:
            return fail(f"`evennia start` exited ({launcher_rc}) and no Portal is running.")
        if what != phase:
            phase = what
            say(f"waiting for {what} ...")

        # progress: CPU used by the launcher/Portal/Server, or logs written
        ticks, logs = game.cpu_ticks(pids), game.log_sizes()
        if ticks != prev_ticks or logs != prev_logs:
            last_progress = now
        prev_ticks, prev_logs = ticks, logs

        # a Portal the launcher gave up on: ask it once more for the Server
        if launcher_rc is not None and procs["portal"] and not procs["server"]:
            no_server_since = no_server_since or now
            if now - no_server_since > 8:
                if restarts_asked >= 2:
                    return fail("the Portal does not start the Server (asked twice).")
                restarts_asked += 1
                say("the launcher has gone and no Server is running: asking the Portal to "
                    "start it (evennia start) ...")
                launcher = subprocess.Popen([*evennia_cmd(), "start"], stdin=subprocess.DEVNULL)
                launcher_rc, no_server_since = None, None
                last_progress = now
        else:
            no_server_since = None

        if now - last_progress > stall:
            return fail(f"no progress for {stall:.0f}s while waiting for {phase} ({error}).")
        if now - started > max_wait:
            return fail(f"not ready after {max_wait:.0f}s (still busy: {error}).")
        if now - last_report >= 15:
            last_report = now
            line = game.last_log_line()
            say(f"still waiting ({now - started:.0f}s) for {phase}"
                + (f"; last log line: {line}" if line else ""))
        time.sleep(1)


def stop_started(game: Game, launcher: subprocess.Popen, portal_was_running: bool):
    """Stop what `start` started: the launcher, then the game (:func:`stop`)."""
    if launcher.poll() is None:
        launcher.terminate()
        try:
            launcher.wait(10)
        except subprocess.TimeoutExpired:
            launcher.kill()
    if portal_was_running:
        say("the Portal was running before; leaving it (stop it with `make stop`).")
        return
    stop(game, "stopping what was started (evennia stop) ...")


def stop(game: Game, saying: str = "stopping (evennia stop) ...", grace: float = 30.0) -> int:
    """`evennia stop`, then wait until this game's Portal and Server processes have left:
    the launcher returns once the Portal has been told, while the Portal may still be
    closing. What is still there after ``grace`` seconds gets SIGKILL. Pid files of
    processes gone are removed. Returns 0 when nothing is left running, else 1."""
    say(saying)
    try:
        subprocess.run([*evennia_cmd(), "stop"], stdin=subprocess.DEVNULL, timeout=grace,
                       stdout=subprocess.DEVNULL, stderr=subprocess.STDOUT)
    except subprocess.TimeoutExpired:
        pass
    deadline = time.monotonic() + grace
    while time.monotonic() < deadline:
        procs = game.processes()
        left = procs["portal"] + procs["server"]
        if not left:
            break
        time.sleep(0.2)
    else:
        for pid in left:
            if _alive(pid):
                say(f"killing leftover process {pid}")
                try:
                    os.kill(pid, signal.SIGKILL)
                except OSError:
                    pass
        deadline = time.monotonic() + 10
        while any(_alive(pid) for pid in left) and time.monotonic() < deadline:
            time.sleep(0.2)
    for pidfile in (game.server_pidfile, game.portal_pidfile):
        try:
            pid = int(pidfile.read_text().strip())
        except (OSError, ValueError):
            continue
        if not _alive(pid):
            pidfile.unlink(missing_ok=True)
    procs = game.processes()
    if procs["portal"] or procs["server"]:
        print(f"!!! still running: {procs}", flush=True)
        return 1
    say("nothing left running.")
    return 0


# --------------------------------------------------------------------------- cli


def _env_float(name: str, default: float) -> float:
    raw = os.environ.get(name, "")
    if not raw:
        return default
    try:
        value = float(raw)
    except ValueError:
        raise SystemExit(f"{name}={raw!r}: not a number of seconds") from None
    if value <= 0:
        raise SystemExit(f"{name}={raw!r}: must be more than 0")
    return value


def main(argv=None) -> int:
    parser = argparse.ArgumentParser(prog="python -m server.startup")
    sub = parser.add_subparsers(dest="cmd", required=True)
    default_port = int(os.environ.get("FRAY_TELNET_PORT", "4000") or 4000)
    p_start = sub.add_parser("start", help="evennia start, then wait for the login screen")
    p_start.add_argument("--port", type=int, default=default_port)
    p_start.add_argument("--stall", type=float, default=None)
    p_start.add_argument("--max", type=float, default=None)
    sub.add_parser("stop", help="evennia stop, then wait until the Portal and Server have left")
    p_probe = sub.add_parser("probe", help="exit 0 if the login screen answers")
    p_probe.add_argument("--host", default="127.0.0.1")
    p_probe.add_argument("--port", type=int, default=default_port)
    p_probe.add_argument("--timeout", type=float, default=10.0)
    p_probe.add_argument("--ready-file", default=None,
                         help="unhealthy until this file exists (written once the start is over)")
    args = parser.parse_args(argv)
    if args.cmd == "stop":
        return stop(Game(Path.cwd()))
    if args.cmd == "probe":
        if args.ready_file and not os.path.exists(args.ready_file):
            print(f"unhealthy: still starting (no {args.ready_file} yet)")
            return 1
        error = login_screen(args.host, args.port, args.timeout)
        if error:
            print(f"unhealthy: {error}")
            return 1
        print("healthy")
        return 0
    stall = args.stall if args.stall is not None else _env_float("FRAY_START_STALL", 120.0)
    max_wait = args.max if args.max is not None else _env_float("FRAY_START_MAX", 1800.0)
    return start(args.port, stall, max_wait)


if __name__ == "__main__":
    sys.exit(main())
