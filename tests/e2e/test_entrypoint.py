"""The container's entry point, docker/entrypoint.sh, run for real outside Docker.

The game is laid out as the Dockerfile lays it out (a copy of the code, then
`entrypoint.sh prepare` pointing its state at a data dir standing in for the
/data volume), and the entry point runs it: a real Evennia over telnet, on
SQLite in the data dir, or on a throw-away PostgreSQL database when the tests
run with DATABASE_URL=postgres://...
"""

from __future__ import annotations

import os
import shutil
import signal
import subprocess
import sys
import time
from pathlib import Path

import pytest

from server.startup import INITIAL_SETUP_DONE, RESET_DONE, Game, login_screen

from .harness import (
    GAME_CODE_DIRS,
    REPO_ROOT,
    HarnessError,
    TelnetClient,
    ThrowawayDatabase,
    find_free_ports,
)

pytestmark = pytest.mark.e2e

ENTRYPOINT = Path("docker") / "entrypoint.sh"
PASSWORD = "Ent-ry-p0int-pw"


class Container:
    """The game dir + data dir + environment of one 'container'."""

    def __init__(self, root: Path):
        self.root = root
        self.game = root / "fray"
        self.data = root / "data"
        self.telnet_port, self.web_port = find_free_ports()
        ignore = shutil.ignore_patterns(
            "__pycache__", "*.pyc", "*.db3", "*.db3-*", "logs", "secret_settings.py",
            "*.pid", "*.restart", ".static", ".media",
        )
        for name in (*GAME_CODE_DIRS, "docker"):
            if (REPO_ROOT / name).is_dir():
                shutil.copytree(REPO_ROOT / name, self.game / name, ignore=ignore)
        self.database = ThrowawayDatabase.for_url(os.environ.get("DATABASE_URL"))
        self.proc: subprocess.Popen | None = None
        self.output = root / "entrypoint.out"
        # what the Dockerfile does at build time
        subprocess.run([str(self.game / ENTRYPOINT), "prepare"], env=self.env(), check=True)

    def env(self, **extra) -> dict[str, str]:
        env = {
            k: v
            for k, v in os.environ.items()
            if k not in ("DJANGO_SETTINGS_MODULE", "PYTHONPATH", "PYTEST_CURRENT_TEST",
                         "DATABASE_URL", "FRAY_ADMIN_PASSWORD", "FRAY_ADMIN_PASSWORD_FILE",
                         "EVENNIA_SUPERUSER_USERNAME", "EVENNIA_SUPERUSER_PASSWORD")
        }
        env.update(
            PATH=str(Path(sys.executable).parent) + os.pathsep + env.get("PATH", ""),
            FRAY_GAME_DIR=str(self.game),
            FRAY_DATA=str(self.data),
            FRAY_TELNET_PORT=str(self.telnet_port),
            FRAY_WEB_PORT=str(self.web_port),
            FRAY_ADMIN_USER="admin",
            PYTHONUNBUFFERED="1",
        )
        if self.database is not None:
            env["DATABASE_URL"] = self.database.url
        env.update(extra)
        return env

    def run(self, timeout: float = 300, **extra) -> subprocess.CompletedProcess:
        return subprocess.run(
            [str(self.game / ENTRYPOINT)], env=self.env(**extra), cwd=self.root,
            stdin=subprocess.DEVNULL, capture_output=True, text=True, timeout=timeout,
        )

    def start(self, **extra):
        self.out = open(self.output, "a")
        self.proc = subprocess.Popen(
            [str(self.game / ENTRYPOINT)], env=self.env(**extra), cwd=self.root,
            stdin=subprocess.DEVNULL, stdout=self.out, stderr=subprocess.STDOUT,
            preexec_fn=_default_signals,
        )

    def wait_ready(self, timeout: float = 600) -> str:
        """Wait for this start's "entrypoint: running" line; return server.log as it was
        then. The login screen must answer at once."""
        deadline = time.monotonic() + timeout
        said_before = self.log().count("entrypoint: running")
        while time.monotonic() < deadline:
            if self.proc.poll() is not None:
                pytest.fail(f"entrypoint exited {self.proc.returncode}:\n{self.log()}")
            if self.log().count("entrypoint: running") > said_before:
                server_log = (self.data / "logs" / "server.log").read_text(errors="replace")
                assert login_screen("127.0.0.1", self.telnet_port, 5) is None, self.log()
                return server_log
            time.sleep(0.2)
        pytest.fail(f"not ready after {timeout}s:\n{self.log()}")

    @property
    def ready_file(self) -> Path:
        return self.game / "server" / "fray.ready"

    def healthy(self) -> subprocess.CompletedProcess:
        """The image's HEALTHCHECK command."""
        return subprocess.run(
            [sys.executable, "-m", "server.startup", "probe", "--timeout", "10",
             "--ready-file", str(self.ready_file)],
            cwd=self.game, env=self.env(), capture_output=True, text=True, timeout=60,
        )

    def log(self) -> str:
        return self.output.read_text(errors="replace") if self.output.exists() else ""

    def processes(self) -> dict[str, list[int]]:
        return Game(self.game).processes()

    def login_admin(self, password: str, within: float = 60) -> TelnetClient:
        deadline = time.monotonic() + within
        last = None
        while time.monotonic() < deadline:
            client = None
            try:
                client = TelnetClient("127.0.0.1", self.telnet_port, name="admin")
                client.expect(r"connect\s+<username>\s+<password>", timeout=10)
                client.read_for(0.3)
                client.login("admin", password, create=False, timeout=10)
                return client
            except (HarnessError, OSError) as err:
                last = err
                if client is not None:
                    client.close()
                time.sleep(0.5)
        pytest.fail(f"admin login failed for {within}s: {last}")

    def stop(self, sig=signal.SIGTERM, timeout: float = 120) -> int:
        self.proc.send_signal(sig)
        rc = self.proc.wait(timeout)
        self.out.close()
        return rc

    def cleanup(self):
        if self.proc is not None and self.proc.poll() is None:
            self.proc.kill()
            self.proc.wait(10)
        left = self.processes()
        if left["portal"] or left["server"]:
            subprocess.run([str(Path(sys.executable).parent / "evennia"), "stop"],
                           cwd=self.game, env=self.env(), stdin=subprocess.DEVNULL,
                           capture_output=True, timeout=60)
            for pid in self.processes()["portal"] + self.processes()["server"]:
                os.kill(pid, signal.SIGKILL)
        if self.database is not None:
            self.database.drop()
        if os.environ.get("FRAY_E2E_KEEP") != "1":
            shutil.rmtree(self.root, ignore_errors=True)


@pytest.fixture
def container(tmp_path_factory):
    c = Container(tmp_path_factory.mktemp("container"))
    try:
        yield c
    finally:
        c.cleanup()


def _default_signals() -> None:
    """In the entry point's process: SIGINT and SIGTERM as a container's PID 1 gets them.
    A test run started in the background by a shell without job control inherits SIGINT
    ignored, and bash cannot trap a signal ignored when it starts."""
    signal.signal(signal.SIGINT, signal.SIG_DFL)
    signal.signal(signal.SIGTERM, signal.SIG_DFL)


def _environ(pid: int) -> bytes:
    return Path(f"/proc/{pid}/environ").read_bytes()


@pytest.mark.timeout(900)   # three starts of a server, each waited for up to wait_ready's 600 s
def test_entrypoint_first_start_crash_stop_and_second_start(container):
    c = container

    # No admin yet and no password: one clear error, nothing left running.
    done = c.run()
    assert done.returncode == 2, done.stdout + done.stderr
    assert "no admin account yet and no password for it" in done.stderr
    assert "FRAY_ADMIN_PASSWORD_FILE" in done.stderr
    assert c.processes() == {"portal": [], "server": []}

    # A secret file that is not there: refused before anything starts.
    done = c.run(FRAY_ADMIN_PASSWORD_FILE=str(c.root / "missing.txt"))
    assert done.returncode == 2
    assert "FRAY_ADMIN_PASSWORD_FILE" in done.stderr and "No such file" in done.stderr

    # First start, the password from a secret file.
    secret = c.root / "admin_password.txt"
    secret.write_text(PASSWORD + "\n")
    c.start(FRAY_ADMIN_PASSWORD_FILE=str(secret))
    assert c.healthy().returncode == 1  # not before the start is over
    server_log = c.wait_ready()
    # "running" (and healthy) only once Evennia's one restart after its first-start setup
    # is over: a player can log in then, not just see the login screen for a moment
    setup = server_log.index(INITIAL_SETUP_DONE)
    assert server_log.find(RESET_DONE, setup) > setup, server_log
    assert c.healthy().returncode == 0
    c.login_admin(PASSWORD, within=10).close()

    # The state lives in the data dir; the password in no process's environment.
    key = (c.data / "secret_settings.py").read_text()
    assert "SECRET_KEY = " in key
    assert (c.data / "secret_settings.py").stat().st_mode & 0o077 == 0
    assert (c.data / "logs" / "server.log").stat().st_size > 0
    assert (c.data / "logs" / "portal.log").stat().st_size > 0
    if c.database is None:
        assert (c.data / "evennia.db3").stat().st_size > 0
    procs = c.processes()
    assert len(procs["portal"]) == 1 and len(procs["server"]) == 1
    for pid in procs["portal"] + procs["server"]:
        assert PASSWORD.encode() not in _environ(pid)
        assert b"FRAY_ADMIN_PASSWORD" not in _environ(pid)

    # The Server dies: the Portal brings it back within 30 s, nobody typing.
    server_pid = procs["server"][0]
    killed = time.monotonic()
    os.kill(server_pid, signal.SIGKILL)
    c.login_admin(PASSWORD, within=30).close()
    assert time.monotonic() - killed < 30
    assert c.processes()["server"] not in ([], [server_pid])
    assert c.proc.poll() is None  # the entry point kept running

    # docker stop: SIGTERM -> evennia stop, exit 0, nothing left.
    assert c.stop(signal.SIGTERM) == 0, c.log()
    assert "entrypoint: stopped." in c.log()
    assert c.processes() == {"portal": [], "server": []}
    assert not c.ready_file.exists()

    # Second start, as after a kill or an out-of-memory kill of the container: pid files left
    # behind whose pids other processes now have (twistd would refuse: "Another twistd server
    # is running"), and the secret file gone: the password is not needed any more.
    squatter = subprocess.Popen(["sleep", "600"])
    try:
        for name in ("server.pid", "portal.pid"):
            (c.game / "server" / name).write_text(f"{squatter.pid}\n")
        c.start(FRAY_ADMIN_PASSWORD_FILE=str(c.root / "gone.txt"))
        c.wait_ready()
    finally:
        squatter.kill()
        squatter.wait()
    said = [ln for ln in c.log().splitlines() if "gone.txt" in ln]
    assert said == [f"entrypoint: FRAY_ADMIN_PASSWORD_FILE '{c.root / 'gone.txt'}': No such file "
                    "or directory; not needed: the admin account exists already"], c.log()
    assert f"removed the stale server.pid (pid {squatter.pid}" in c.log()
    assert f"removed the stale portal.pid (pid {squatter.pid}" in c.log()
    c.login_admin(PASSWORD).close()
    assert (c.data / "secret_settings.py").read_text() == key
    assert c.stop(signal.SIGINT) == 0, c.log()
    assert c.processes() == {"portal": [], "server": []}


@pytest.mark.parametrize(
    "url, words",
    [
        ("mysql://fray:hunter2@db/fray", "DATABASE_URL: unsupported database 'mysql://fray:***@db/fray'"),
        ("not a url", "DATABASE_URL: unsupported database 'not a url'"),
        ("postgres://fray:hunter2@127.0.0.1:{port}/fray", "DATABASE_URL: cannot connect to PostgreSQL"),
    ],
)
def test_entrypoint_with_a_bad_database_url_says_one_line_and_starts_nothing(container, url, words):
    import socket

    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        port = s.getsockname()[1]  # closed again: nothing answers there
    done = container.run(DATABASE_URL=url.format(port=port), FRAY_ADMIN_PASSWORD=PASSWORD)
    assert done.returncode == 2, done
    assert done.stderr.splitlines() == [done.stderr.strip()], done.stderr  # one line
    assert done.stderr.startswith(f"entrypoint: error: {words}"), done.stderr
    assert "hunter2" not in done.stdout + done.stderr
    assert "evennia migrate" not in done.stdout
    assert container.processes() == {"portal": [], "server": []}
    assert not list((container.game / "server").glob("*.pid"))
