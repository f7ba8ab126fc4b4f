"""`make` installs the PostgreSQL driver exactly when DATABASE_URL asks for PostgreSQL
(checked with `make -n`: the commands make would run, none run), and a DATABASE_URL that
cannot work stops `make run` with one line before anything starts."""

import os
import shutil
import subprocess
from pathlib import Path

import pytest

from server.startup import Game

REPO_ROOT = Path(__file__).resolve().parents[2]


def _dry_install(database_url):
    env = {k: v for k, v in os.environ.items() if k != "DATABASE_URL"}
    if database_url is not None:
        env["DATABASE_URL"] = database_url
    return subprocess.run(
        ["make", "-n", "-B", "install"], cwd=REPO_ROOT, env=env, capture_output=True,
        text=True, check=True,
    ).stdout


@pytest.mark.parametrize(
    "url, extras, stamp",
    [
        (None, "'.[test]'", ".venv/.fray-installed"),
        ("sqlite:////data/evennia.db3", "'.[test]'", ".venv/.fray-installed"),
        ("postgres://fray:pw@db:5432/fray", "'.[test,postgres]'", ".venv/.fray-installed-postgres"),
        ("postgresql://fray@localhost/fray", "'.[test,postgres]'", ".venv/.fray-installed-postgres"),
        # the scheme in any case, as the settings (dj-database-url) read it
        ("POSTGRES://fray:pw@db:5432/fray", "'.[test,postgres]'", ".venv/.fray-installed-postgres"),
        ("PostgreSQL://fray@localhost/fray", "'.[test,postgres]'", ".venv/.fray-installed-postgres"),
        ("PGSQL://fray@localhost/fray", "'.[test,postgres]'", ".venv/.fray-installed-postgres"),
        ("SQLite:////data/evennia.db3", "'.[test]'", ".venv/.fray-installed"),
        ("MYSQL://fray@db/fray", "'.[test]'", ".venv/.fray-installed"),
    ],
)
def test_install_extras_follow_database_url(url, extras, stamp):
    out = _dry_install(url)
    assert f"pip install --quiet --disable-pip-version-check -e {extras}" in out
    assert f"touch {stamp}" in out
    # the web assets: npm checks each package against package-lock.json, then the copy
    assert "npm ci --ignore-scripts" in out and "-m server.vendor" in out


@pytest.fixture
def game_copy(tmp_path):
    """The Makefile and the game in a temp dir, sharing this checkout's venv and web assets
    (never reinstalled: `make -o <stamp>`)."""
    game = tmp_path / "fray"
    game.mkdir()
    for name in ("Makefile", "pyproject.toml", "package.json", "package-lock.json"):
        shutil.copy2(REPO_ROOT / name, game / name)
    ignore = shutil.ignore_patterns("__pycache__", "*.pyc", "*.db3", "*.db3-*", "logs",
                                    "secret_settings.py", "*.pid", ".static", ".media")
    for name in ("server", "typeclasses", "commands", "world", "rules", "web"):
        if (REPO_ROOT / name).is_dir():
            shutil.copytree(REPO_ROOT / name, game / name, ignore=ignore)
    (game / ".venv").symlink_to(REPO_ROOT / ".venv")
    yield game
    left = Game(game).processes()
    for pid in left["portal"] + left["server"]:  # only if the test failed: it started something
        os.kill(pid, 9)


def _closed_port() -> int:
    import socket

    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


@pytest.mark.parametrize(
    "url, words",
    [
        ("mysql://fray:hunter2@db/fray", "unsupported database 'mysql://fray:***@db/fray'"),
        ("garbage", "unsupported database 'garbage'"),
        ("postgres://fray:hunter2@127.0.0.1:{port}/fray", "cannot connect to PostgreSQL"),
        ("sqlite:////nonexistent-fray-dir/evennia.db3", "directory /nonexistent-fray-dir does not exist"),
    ],
)
def test_make_run_with_a_bad_database_url_says_one_line_and_starts_nothing(game_copy, url, words):
    url = url.format(port=_closed_port())
    # as a user types it: not a sub-make of `make test` (whose errors read "make[1]: ***")
    env = {k: v for k, v in os.environ.items()
           if k not in ("DJANGO_SETTINGS_MODULE", "PYTHONPATH", "MAKELEVEL", "MAKEFLAGS", "MFLAGS")}
    env.update(DATABASE_URL=url, FRAY_TELNET_PORT="4720", FRAY_WEB_PORT="4721")
    done = subprocess.run(
        ["make", "--no-print-directory", "-o", ".venv/.fray-installed",
         "-o", ".venv/.fray-installed-postgres", "-o", "web/static/vendor/.installed", "run"],
        cwd=game_copy, env=env, stdin=subprocess.DEVNULL, capture_output=True, text=True,
        timeout=120,
    )
    out = done.stdout + done.stderr
    assert done.returncode != 0, out
    # make's own "make: *** [...] Error 2" aside, one line: what is wrong, no password
    lines = [ln for ln in out.splitlines()
             if ln.strip() and not ln.startswith("make: ***") and not ln.startswith(">>> writing")]
    assert len(lines) == 1, out
    assert lines[0].startswith("!!! DATABASE_URL: ") and words in lines[0], out
    assert "hunter2" not in out
    assert "evennia migrate" not in out and "evennia start" not in out
    assert Game(game_copy).processes() == {"portal": [], "server": []}
    assert not list((game_copy / "server").glob("*.pid"))
