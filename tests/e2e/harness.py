"""
End-to-end harness: run a real Fray/Evennia server in a throw-away game dir
and talk to it over telnet.

    server = FrayServer()          # builds temp game dir, picks free ports
    server.start()                 # migrate, create admin, evennia start, wait
    c = server.client()            # TelnetClient, connection screen consumed
    c.login("alice", "secret-pw")  # create + connect (auto-created character)
    c.command("say hi", r"You say")
    server.reload() / restart() / kill()
    server.stop(); server.cleanup()

Nothing here imports Evennia or Django: the server runs as subprocesses
using the `evennia` launcher next to ``sys.executable`` (the venv's).
"""

from __future__ import annotations

import atexit
import json
import os
import re
import secrets
import select
import shutil
import signal
import socket
import struct
import subprocess
import sys
import tempfile
import time
from pathlib import Path

from server.startup import Game

REPO_ROOT = Path(__file__).resolve().parents[2]

#: directories of game code copied into the temp game dir (missing ones are skipped)
GAME_CODE_DIRS = ("server", "typeclasses", "commands", "world", "rules", "web")

DEFAULT_ADMIN_USER = "admin"
DEFAULT_ADMIN_PASSWORD = "fray-admin"

#: Evennia's connection screen (server/conf/connection_screens.py) shows this.
CONNECTION_SCREEN_RE = r"connect\s+<username>\s+<password>"
#: Printed by DefaultCharacter.at_post_puppet after a successful login.
LOGGED_IN_RE = r"You become \S+?\."


class HarnessError(AssertionError):
    """Raised on harness failures; message includes server logs / received text."""


# --------------------------------------------------------------------------- ports


def _port_free(port: int) -> bool:
    for host in ("0.0.0.0", "127.0.0.1"):
        with socket.socket(socket.AF_INET, socket.SOCK_STREAM) as s:
            try:
                s.bind((host, port))
            except OSError:
                return False
    return True


def find_free_ports(attempts: int = 200) -> tuple[int, int]:
    """Return ``(telnet_port, web_port)`` such that telnet, web, web+1, web+4
    and web+5 are all currently free (Fray's settings derive those from web).
    Below Linux's ephemeral range (32768-60999): a port picked there can be taken by an
    outgoing connection (a PostgreSQL client) before the server binds it, which failed a
    restart in .ci/run's PostgreSQL pass ("Couldn't listen on ...: Address already in use")."""
    import random

    rng = random.Random()
    for _ in range(attempts):
        web = rng.randrange(20000, 32700)
        telnet = web - 1
        wanted = (telnet, web, web + 1, web + 4, web + 5)
        if all(_port_free(p) for p in wanted):
            return telnet, web
    raise HarnessError("could not find a free block of ports")


def wait_for_connection_screen(host: str, port: int, timeout: float = 120.0) -> str | None:
    """Poll until a fresh telnet connection gets the connection screen.

    The Portal accepts connections even while the Server is down (e.g. the
    one restart Evennia does right after its first start), so "port open" is
    not "ready". Returns None when ready, else the last error as text.
    """
    deadline = time.monotonic() + timeout
    last = "port never answered"
    while time.monotonic() < deadline:
        if port_answers(host, port):
            try:
                with TelnetClient(host, port, name="probe") as probe:
                    probe.expect(
                        CONNECTION_SCREEN_RE,
                        timeout=min(15, max(1, deadline - time.monotonic())),
                    )
                    return None
            except (HarnessError, OSError) as err:
                last = str(err)
        time.sleep(0.5)
    return last


def port_answers(host: str, port: int, timeout: float = 1.0) -> bool:
    try:
        with socket.create_connection((host, port), timeout=timeout):
            return True
    except OSError:
        return False


# --------------------------------------------------------------------------- telnet

IAC, DONT, DO, WONT, WILL, SB, SE = 255, 254, 253, 252, 251, 250, 240
NAWS = 31
GMCP = 201


def split_telnet(data: bytes, naws: tuple[int, int] | None = None, accept: frozenset[int] = frozenset(),
                 subs: list[tuple[int, bytes]] | None = None) -> tuple[bytes, bytes, bytes]:
    """``data`` from a telnet server as (payload, replies, unfinished tail): every option it
    offers or asks for is refused, but NAWS is answered with ``naws`` (columns, rows) when
    given, and an option in ``accept`` the server offers (``WILL``) is taken (``DO``); each
    sub-negotiation is appended to ``subs`` as (option, unescaped body) when given; an
    incomplete sequence at the end is the tail, to put before the next read."""
    out = bytearray()
    replies = bytearray()
    i, n = 0, len(data)
    while i < n:
        b = data[i]
        if b != IAC:
            out.append(b)
            i += 1
            continue
        if i + 1 >= n:
            return bytes(out), bytes(replies), data[i:]
        cmd = data[i + 1]
        if cmd == IAC:
            out.append(IAC)
            i += 2
        elif cmd in (DO, DONT, WILL, WONT):
            if i + 2 >= n:
                return bytes(out), bytes(replies), data[i:]
            opt = data[i + 2]
            if cmd == DO and opt == NAWS and naws:
                size = struct.pack("!HH", *naws).replace(b"\xff", b"\xff\xff")
                replies += bytes([IAC, WILL, NAWS, IAC, SB, NAWS]) + size + bytes([IAC, SE])
            elif cmd == DO:
                replies += bytes([IAC, WONT, opt])
            elif cmd == WILL:
                replies += bytes([IAC, DO if opt in accept else DONT, opt])
            i += 3
        elif cmd == SB:
            end = data.find(bytes([IAC, SE]), i + 2)
            if end < 0:
                return bytes(out), bytes(replies), data[i:]
            if subs is not None and end > i + 2:
                subs.append((data[i + 2], data[i + 3:end].replace(b"\xff\xff", b"\xff")))
            i = end + 2
        else:  # NOP, GA, EOR, ...
            i += 2
    return bytes(out), bytes(replies), b""
#: The window FrayServer.client() (so every fray_client) reports with NAWS: wide, so tests
#: match whole lines. Fray wraps telnet output to the client's width (78 columns for a
#: client that reports none); tests/e2e/test_telnet_width.py checks 78 and 60.
WIDE_NAWS = (1000, 45)
_ANSI_RE = re.compile(r"\x1b\[[0-9;?]*[ -/]*[@-~]|\x1b[@-Z\\-_]")


class TelnetClient:
    """Minimal telnet client over a raw socket (telnetlib is deprecated).

    Refuses every option the server offers (DONT / WONT) except NAWS when ``naws``
    (``(width, height)``) is given: then it reports that window size; and GMCP when ``gmcp``:
    then every GMCP message is kept in ``gmcp_messages`` as (package, decoded JSON or None).
    Drops other sub-negotiations, decodes UTF-8, strips ANSI escapes and ``\\r``.
    """

    def __init__(
        self,
        host: str,
        port: int,
        timeout: float = 10.0,
        name: str = "client",
        naws: tuple[int, int] | None = None,
        gmcp: bool = False,
    ):
        self.naws = naws
        self.accept = frozenset({GMCP}) if gmcp else frozenset()
        self._subs: list[tuple[int, bytes]] = []
        self.gmcp_messages: list[tuple[str, object]] = []
        self.host, self.port, self.name = host, port, name
        self.default_timeout = timeout
        self.sock = socket.create_connection((host, port), timeout=timeout)
        self.sock.setblocking(False)
        self._raw = bytearray()  # undecoded application bytes
        self._pending_iac = b""  # incomplete telnet command from the last read
        self.buffer = ""  # received, not yet consumed by expect()
        self.transcript = ""  # everything ever received (decoded, cleaned)
        self._closed = False

    # -- low level ---------------------------------------------------------------
    def _handle_iac(self, data: bytes) -> bytes:
        """Strip telnet negotiation from ``data``, answering it. Returns payload.

        Incomplete sequences at the end are kept for the next read.
        """
        out, replies, self._pending_iac = split_telnet(self._pending_iac + data, self.naws, self.accept,
                                                       self._subs)
        for option, body in self._subs:
            if option == GMCP:
                package, _, payload = body.decode("utf-8").partition(" ")
                self.gmcp_messages.append((package, json.loads(payload) if payload else None))
        self._subs.clear()
        if replies:
            self._sendall(replies)
        return out

    def _sendall(self, data: bytes):
        self.sock.setblocking(True)
        try:
            self.sock.sendall(data)
        finally:
            self.sock.setblocking(False)

    def _read_available(self, wait: float) -> bool:
        """Read whatever arrives within ``wait`` seconds. False on EOF."""
        if self._closed:
            return False
        ready, _, _ = select.select([self.sock], [], [], max(wait, 0))
        if not ready:
            return True
        try:
            chunk = self.sock.recv(65536)
        except (BlockingIOError, InterruptedError):
            return True
        except OSError:
            self._closed = True
            return False
        if not chunk:
            self._closed = True
            return False
        self._raw += self._handle_iac(chunk)
        try:
            text = self._raw.decode("utf-8")
            self._raw.clear()
        except UnicodeDecodeError as err:
            # keep a possibly incomplete trailing multi-byte sequence
            good = bytes(self._raw[: err.start])
            if len(self._raw) - err.start < 4:
                rest = bytes(self._raw[err.start :])
            else:
                good, rest = bytes(self._raw), b""
            text = good.decode("utf-8", errors="replace")
            self._raw = bytearray(rest)
        text = _ANSI_RE.sub("", text).replace("\r", "")
        self.buffer += text
        self.transcript += text
        return True

    # -- public API ---------------------------------------------------------------
    def send(self, line: str):
        """Send one line (CRLF appended)."""
        self._sendall((line + "\r\n").encode("utf-8"))

    def expect(self, pattern: str, timeout: float | None = None) -> str:
        """Wait until ``pattern`` (regex, re.S|re.M) matches the unconsumed
        input; consume and return the text up to and including the match.
        Raises :class:`HarnessError` with everything received on timeout."""
        timeout = self.default_timeout if timeout is None else timeout
        regex = re.compile(pattern, re.S | re.M)
        deadline = time.monotonic() + timeout
        while True:
            m = regex.search(self.buffer)
            if m:
                got = self.buffer[: m.end()]
                self.buffer = self.buffer[m.end() :]
                return got
            left = deadline - time.monotonic()
            if left <= 0:
                break
            if not self._read_available(min(left, 0.2)) and not regex.search(self.buffer):
                raise HarnessError(
                    f"[{self.name}] connection closed while waiting for {pattern!r}.\n"
                    f"--- received so far ---\n{self.transcript}"
                )
        raise HarnessError(
            f"[{self.name}] timed out after {timeout}s waiting for {pattern!r}.\n"
            f"--- unconsumed ---\n{self.buffer}\n--- received so far ---\n{self.transcript}"
        )

    def expect_gmcp(self, package: str, test=lambda payload: True, timeout: float | None = None):
        """Wait for a GMCP ``package`` message whose payload passes ``test``; consume the
        messages up to it and return its payload. Raises :class:`HarnessError` on timeout."""
        deadline = time.monotonic() + (self.default_timeout if timeout is None else timeout)
        while True:
            for index, (name, payload) in enumerate(self.gmcp_messages):
                if name == package and test(payload):
                    del self.gmcp_messages[: index + 1]
                    return payload
            left = deadline - time.monotonic()
            if left <= 0 or not self._read_available(min(left, 0.2)):
                raise HarnessError(f"[{self.name}] no GMCP {package} as wanted; got {self.gmcp_messages!r}")

    def read_for(self, seconds: float) -> str:
        """Collect and consume whatever arrives during ``seconds``."""
        deadline = time.monotonic() + seconds
        while time.monotonic() < deadline and self._read_available(deadline - time.monotonic()):
            pass
        got, self.buffer = self.buffer, ""
        return got

    def command(self, line: str, expect: str, timeout: float | None = None) -> str:
        """``send(line)`` then ``expect(expect)``."""
        self.send(line)
        return self.expect(expect, timeout=timeout)

    def login(
        self,
        name: str,
        password: str,
        create: bool = True,
        expect: str = LOGGED_IN_RE,
        timeout: float | None = None,
    ) -> str:
        """Log in from Evennia's connection screen.

        With ``create=True`` first runs ``create <name> <password>`` (Evennia
        auto-creates a character of the same name), then ``connect``.
        Returns the text received after ``connect`` up to ``expect``.
        """
        if create:
            got = self.command(
                f"create {name} {password}",
                r"A new account .* was created|Is this what you intended\?.*$",
                timeout,
            )
            if "Is this what you intended" in got:
                self.command("y", r"A new account .* was created", timeout)
        return self.command(f"connect {name} {password}", expect, timeout)

    def close(self):
        if not self._closed:
            try:
                self.sock.shutdown(socket.SHUT_RDWR)
            except OSError:
                pass
            keep_transcript(self.name, self.transcript)
        self._closed = True
        self.sock.close()

    def __enter__(self):
        return self

    def __exit__(self, *exc):
        self.close()


def keep_transcript(name: str, transcript: str) -> None:
    """With ``FRAY_E2E_TRANSCRIPTS`` set (a directory), keep what a client received there, one
    file per test and client (``<test>--<client>.txt``): two versions' e2e fights compared
    line by line (``bench/transcripts.py``)."""
    folder = os.environ.get("FRAY_E2E_TRANSCRIPTS")
    if not folder:
        return
    test = os.environ.get("PYTEST_CURRENT_TEST", "outside-a-test").split(" ")[0]
    stem = re.sub(r"[^A-Za-z0-9_.-]+", "_", f"{test}--{name}")
    path = Path(folder) / f"{stem}.txt"
    path.parent.mkdir(parents=True, exist_ok=True)
    with open(path, "a", encoding="utf-8") as out:
        out.write(transcript)


# --------------------------------------------------------------------------- database


class ThrowawayDatabase:
    """A fresh PostgreSQL database on the server of ``DATABASE_URL`` (whose
    role may CREATE DATABASE), for one test server; ``drop()`` removes it."""

    def __init__(self, admin_url: str):
        from urllib.parse import urlsplit

        self.admin_url = admin_url
        self.name = f"fray_e2e_{secrets.token_hex(6)}"
        parts = urlsplit(admin_url)
        self.url = parts._replace(path="/" + self.name).geturl()
        with self._connect() as conn:
            conn.execute(f'CREATE DATABASE "{self.name}"')

    @classmethod
    def for_url(cls, url: str | None) -> "ThrowawayDatabase | None":
        if url and url.split("://", 1)[0].lower() in ("postgres", "postgresql", "pgsql"):
            return cls(url)
        return None

    def _connect(self):
        import psycopg  # the `postgres` extra

        return psycopg.connect(self.admin_url, autocommit=True)

    def drop(self):
        try:
            with self._connect() as conn:
                conn.execute(f'DROP DATABASE IF EXISTS "{self.name}" WITH (FORCE)')
        except Exception as err:  # noqa: BLE001 - cleanup must not mask a test failure
            print(f"harness: could not drop database {self.name}: {err}", file=sys.stderr)


# --------------------------------------------------------------------------- server


class FrayServer:
    """A real Fray server (Portal + Server) running from a temp copy of the game.

    Ports are free ones picked at construction; all evennia commands get
    ``FRAY_TELNET_PORT`` / ``FRAY_WEB_PORT`` / ``FRAY_TEST_DICE=1`` in their
    environment (plus ``extra_env``).
    """

    def __init__(
        self,
        source_dir: Path | str = REPO_ROOT,
        base_dir: Path | str | None = None,
        admin_user: str = DEFAULT_ADMIN_USER,
        admin_password: str = DEFAULT_ADMIN_PASSWORD,
        extra_env: dict[str, str] | None = None,
        extra_settings: str = "",
        startup_timeout: float = 120.0,
        host: str = "127.0.0.1",
    ):
        self.source_dir = Path(source_dir)
        self._tmp = Path(tempfile.mkdtemp(prefix="fray-e2e-", dir=base_dir))
        self.game_dir = self._tmp / "game"
        self.admin_user, self.admin_password = admin_user, admin_password
        self.host = host
        self.startup_timeout = startup_timeout
        self.telnet_port, self.web_port = find_free_ports()
        self.extra_env = dict(extra_env or {})
        self.extra_settings = extra_settings
        # PostgreSQL (DATABASE_URL=postgres://...): a database of its own per
        # server, dropped on cleanup; SQLite: the game dir's own file.
        self.database = ThrowawayDatabase.for_url(
            self.extra_env.get("DATABASE_URL", os.environ.get("DATABASE_URL"))
        )
        if self.database is not None:
            self.extra_env["DATABASE_URL"] = self.database.url
        self.evennia_bin = str(Path(sys.executable).parent / "evennia")
        self.launcher_log = self._tmp / "launcher.log"
        self._clients: list[TelnetClient] = []
        self._built = False
        self.running = False
        self._build_game_dir()
        atexit.register(self._atexit)

    # -- paths/env --------------------------------------------------------------
    @property
    def websocket_port(self) -> int:
        return self.web_port + 1

    @property
    def amp_port(self) -> int:
        return self.web_port + 5

    @property
    def webclient_url(self) -> str:
        return f"http://{self.host}:{self.web_port}/webclient"

    @property
    def server_pidfile(self) -> Path:
        return self.game_dir / "server" / "server.pid"

    @property
    def portal_pidfile(self) -> Path:
        return self.game_dir / "server" / "portal.pid"

    def env(self) -> dict[str, str]:
        env = {
            k: v
            for k, v in os.environ.items()
            if k not in ("DJANGO_SETTINGS_MODULE", "PYTHONPATH", "PYTEST_CURRENT_TEST")
        }
        # the launcher spawns `twistd` from PATH: use the venv's
        bindir = str(Path(self.evennia_bin).parent)
        env["PATH"] = bindir + os.pathsep + env.get("PATH", "")
        env.update(
            FRAY_TELNET_PORT=str(self.telnet_port),
            FRAY_WEB_PORT=str(self.web_port),
            FRAY_TEST_DICE="1",
            EVENNIA_SUPERUSER_USERNAME=self.admin_user,
            EVENNIA_SUPERUSER_PASSWORD=self.admin_password,
            PYTHONUNBUFFERED="1",
        )
        env.update(self.extra_env)
        return env

    # -- setup --------------------------------------------------------------------
    def _build_game_dir(self):
        ignore_common = shutil.ignore_patterns("__pycache__", "*.pyc", "*.db3", "*.db3-*")
        self.game_dir.mkdir(parents=True)
        for name in GAME_CODE_DIRS:
            src = self.source_dir / name
            if not src.is_dir():
                continue
            if name == "server":
                ignore = shutil.ignore_patterns(
                    "__pycache__",
                    "*.pyc",
                    "*.db3",
                    "*.db3-*",
                    "logs",
                    "secret_settings.py",
                    "*.pid",
                    "*.restart",
                    ".static",
                    ".media",
                )
            else:
                ignore = ignore_common
            shutil.copytree(src, self.game_dir / name, ignore=ignore)
        (self.game_dir / "server" / "logs").mkdir(parents=True, exist_ok=True)
        (self.game_dir / "server" / "conf" / "secret_settings.py").write_text(
            "# written by tests/e2e/harness.py\n"
            f"SECRET_KEY = {secrets.token_urlsafe(40)!r}\n"
            "# tests create many accounts from 127.0.0.1\n"
            "CREATION_THROTTLE_LIMIT = None\n"
            "LOGIN_THROTTLE_LIMIT = None\n"
            "IDLE_TIMEOUT = -1\n"
            "# the fight tests' characters join without a sheet approval (extra_settings may say False)\n"
            "FRAY_UNAPPROVED_MAY_JOIN = True\n"
            f"{self.extra_settings}\n"
        )
        self._built = True

    def evennia(self, *args: str, timeout: float = 180.0, check: bool = True):
        """Run ``evennia <args>`` in the game dir; output appended to launcher.log."""
        with open(self.launcher_log, "ab") as log:
            log.write(f"\n$ evennia {' '.join(args)}\n".encode())
            log.flush()
            try:
                proc = subprocess.run(
                    [self.evennia_bin, *args],
                    cwd=self.game_dir,
                    env=self.env(),
                    stdin=subprocess.DEVNULL,
                    stdout=log,
                    stderr=subprocess.STDOUT,
                    timeout=timeout,
                    start_new_session=True,
                )
            except subprocess.TimeoutExpired:
                self.fail(f"`evennia {' '.join(args)}` timed out after {timeout}s")
        if check and proc.returncode != 0:
            self.fail(f"`evennia {' '.join(args)}` exited {proc.returncode}")
        return proc

    def migrate(self):
        self.evennia("migrate", "--no-input")

    # -- diagnostics ----------------------------------------------------------------
    def log_tail(self, lines: int = 60) -> str:
        parts = []
        files = [self.launcher_log, *sorted((self.game_dir / "server" / "logs").glob("*.log"))]
        for path in files:
            if path.exists():
                text = path.read_text(errors="replace").splitlines()[-lines:]
                parts.append(f"===== {path.name} (last {lines} lines) =====\n" + "\n".join(text))
        return "\n".join(parts) or "(no logs)"

    def fail(self, message: str):
        raise HarnessError(f"{message}\n[game dir: {self.game_dir}]\n{self.log_tail()}")

    # -- readiness --------------------------------------------------------------------
    def wait_for_telnet(self, timeout: float | None = None):
        """Wait until the telnet port answers *and* the Server sends the
        connection screen (the Portal alone accepts connections too)."""
        timeout = self.startup_timeout if timeout is None else timeout
        error = wait_for_connection_screen(self.host, self.telnet_port, timeout)
        if error is not None:
            self.fail(f"telnet port {self.telnet_port} not ready after {timeout}s: {error}")

    def wait_for_login(self, timeout: float | None = None):
        """Wait until a fresh admin login succeeds."""
        timeout = self.startup_timeout if timeout is None else timeout
        deadline = time.monotonic() + timeout
        last = None
        while time.monotonic() < deadline:
            try:
                with TelnetClient(self.host, self.telnet_port, name="login-probe") as probe:
                    probe.expect(CONNECTION_SCREEN_RE, timeout=10)
                    probe.read_for(0.3)
                    probe.login(self.admin_user, self.admin_password, create=False, timeout=10)
                    probe.send("quit")
                    return
            except (HarnessError, OSError) as err:
                last = err
                time.sleep(0.5)
        self.fail(f"admin login did not succeed within {timeout}s (last error: {last})")

    # -- lifecycle ----------------------------------------------------------------------
    def start(self):
        """migrate (idempotent), then `evennia start` (creates the admin account
        from EVENNIA_SUPERUSER_* on first start), then wait for telnet."""
        self.migrate()
        self.running = True  # from here on cleanup must try to stop
        game = Game(self.game_dir)
        log_offsets = game.log_sizes()
        for _ in range(3):
            said_before = self.launcher_log.stat().st_size
            self.evennia("start")
            # On a busy machine the launcher may give up waiting for the Portal before it asks
            # it to start the Server ("Connection to Evennia timed out"); asking again does it.
            if b"timed out" not in self.launcher_log.read_bytes()[said_before:]:
                break
        self.wait_for_telnet()
        # On a new database the login screen shows for a moment before the one restart that
        # ends Evennia's initial setup; a client connecting during that restart never gets the
        # screen. Wait the restart out, as `make run` does (server/startup.py).
        deadline = time.monotonic() + self.startup_timeout
        while game.setup_restart_pending(log_offsets) and time.monotonic() < deadline:
            time.sleep(0.2)
        self.wait_for_telnet()
        return self

    def stop(self):
        """`evennia stop`; SIGKILL leftovers if that fails."""
        self.close_clients()
        if self.running:
            try:
                self.evennia("stop", timeout=60, check=False)
            finally:
                self.running = False
        self._wait_pids_gone(timeout=15)
        self._kill_pidfiles()

    def reload(self):
        """`evennia reload`, then wait until telnet answers and a login works."""
        self.close_clients()
        self.evennia("reload")
        self.wait_for_telnet()
        self.wait_for_login()

    def restart(self):
        """Full stop (Portal + Server) and start again."""
        self.stop()
        self.start()
        self.wait_for_login()

    def kill_server(self) -> int:
        """SIGKILL the Server process (a crash) and return its pid; nothing
        else: the Portal's watchdog (server/conf/portal_services_plugins.py)
        is what starts it again."""
        pid = self._read_pid(self.server_pidfile)
        if pid is None or not _pid_alive(pid):
            self.fail("kill_server(): no running Server (server.pid)")
        os.kill(pid, signal.SIGKILL)
        deadline = time.monotonic() + 15
        while _pid_alive(pid) and time.monotonic() < deadline:
            time.sleep(0.1)
        return pid

    def kill(self, timeout: float = 60.0):
        """SIGKILL the Server process (crash simulation) and wait until it is
        back by itself (nobody runs `evennia start`) and a login works."""
        self.close_clients()
        self.kill_server()
        self.wait_for_telnet(timeout)
        self.wait_for_login(timeout)

    def cleanup(self):
        """Stop everything and remove the temp dir (keeps it if FRAY_E2E_KEEP=1)."""
        try:
            self.stop()
        finally:
            if os.environ.get("FRAY_E2E_KEEP") != "1":
                shutil.rmtree(self._tmp, ignore_errors=True)
                if self.database is not None:
                    self.database.drop()

    def _atexit(self):
        # last line of defence (e.g. KeyboardInterrupt past fixture teardown)
        try:
            self.cleanup()
        except Exception:  # noqa: BLE001 - interpreter is exiting anyway
            pass

    def __enter__(self):
        return self.start()

    def __exit__(self, *exc):
        self.cleanup()

    # -- clients ------------------------------------------------------------------------
    def client(
        self, name: str = "client", timeout: float = 10.0, naws: tuple[int, int] | None = WIDE_NAWS,
        gmcp: bool = False,
    ) -> TelnetClient:
        """A new TelnetClient, with the connection screen already consumed."""
        c = TelnetClient(self.host, self.telnet_port, timeout=timeout, name=name, naws=naws, gmcp=gmcp)
        self._clients.append(c)
        c.expect(CONNECTION_SCREEN_RE, timeout=30)
        c.read_for(0.3)  # drop the rest of the connection screen
        return c

    def close_clients(self):
        for c in self._clients:
            c.close()
        self._clients.clear()

    # -- pids -----------------------------------------------------------------------------
    @staticmethod
    def _read_pid(path: Path) -> int | None:
        try:
            return int(path.read_text().strip())
        except (OSError, ValueError):
            return None

    def _pids(self) -> list[int]:
        return [
            p
            for p in (self._read_pid(self.server_pidfile), self._read_pid(self.portal_pidfile))
            if p
        ]

    def _wait_pids_gone(self, timeout: float):
        deadline = time.monotonic() + timeout
        while time.monotonic() < deadline and any(_pid_alive(p) for p in self._pids()):
            time.sleep(0.2)

    def _kill_pidfiles(self):
        for pid in self._pids():
            if _pid_alive(pid) and _pid_in_dir(pid, self.game_dir):
                try:
                    os.kill(pid, signal.SIGKILL)
                except OSError:
                    pass


def _pid_alive(pid: int) -> bool:
    try:
        os.kill(pid, 0)
    except ProcessLookupError:
        return False
    except PermissionError:
        return True
    # reap zombies of ours, treat them as dead
    try:
        with open(f"/proc/{pid}/stat") as f:
            if f.read().split(")")[-1].split()[0] == "Z":
                return False
    except OSError:
        pass
    return True


def _pid_in_dir(pid: int, game_dir: Path) -> bool:
    """Only SIGKILL processes started for our temp game dir (pid-reuse guard):
    Evennia's twistd command line carries ``--pidfile=<game_dir>/server/...``."""
    try:
        with open(f"/proc/{pid}/cmdline", "rb") as f:
            return str(game_dir).encode() in f.read()
    except OSError:
        return True  # no /proc: trust the pidfile


def _main(argv=None) -> int:
    """``python -m tests.e2e.harness wait HOST PORT [TIMEOUT]`` (used by ``make run``)."""
    import argparse

    parser = argparse.ArgumentParser(prog="python -m tests.e2e.harness")
    sub = parser.add_subparsers(dest="cmd", required=True)
    wait = sub.add_parser("wait", help="wait until the server shows its connection screen")
    wait.add_argument("host")
    wait.add_argument("port", type=int)
    wait.add_argument("timeout", type=float, nargs="?", default=120.0)
    args = parser.parse_args(argv)
    error = wait_for_connection_screen(args.host, args.port, args.timeout)
    if error is not None:
        print(f"server on {args.host}:{args.port} not ready after {args.timeout}s: {error}")
        return 1
    return 0


if __name__ == "__main__":
    sys.exit(_main())
