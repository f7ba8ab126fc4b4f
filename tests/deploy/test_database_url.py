"""DATABASE_URL -> DATABASES (server/database.py): what each URL gives, and one clear
error for anything else."""

import sys

import pytest
from django.core.exceptions import ImproperlyConfigured

from server.database import databases_from_env, databases_from_url, needs_postgres_driver


@pytest.mark.parametrize("url", [None, "", "   "])
def test_unset_keeps_the_default_sqlite(url):
    assert databases_from_url(url) is None
    assert databases_from_env({}) is None


@pytest.mark.parametrize("scheme", ["postgres", "postgresql", "pgsql"])
def test_postgres_url(scheme):
    db = databases_from_url(f"{scheme}://fray:s3cr%40t@db.example:6543/game")["default"]
    assert db["ENGINE"] == "django.db.backends.postgresql"
    assert (db["NAME"], db["USER"], db["PASSWORD"], db["HOST"], db["PORT"]) == (
        "game", "fray", "s3cr@t", "db.example", 6543,
    )
    assert db["CONN_HEALTH_CHECKS"] is True
    assert needs_postgres_driver(f"{scheme}://fray@db/game")


def test_sqlite_url_absolute_path(tmp_path):
    db = databases_from_url(f"sqlite:///{tmp_path}/game.db3")["default"]
    assert db["ENGINE"] == "django.db.backends.sqlite3"
    assert db["NAME"] == f"{tmp_path}/game.db3"
    assert not needs_postgres_driver(f"sqlite:///{tmp_path}/game.db3")
    assert not needs_postgres_driver(None)


@pytest.mark.parametrize(
    "url, words",
    [
        ("mysql://fray:hunter2@db/game", ["unsupported database", "postgres://", "sqlite:///"]),
        ("not a url", ["unsupported database"]),
        ("postgres://fray:hunter2@db", ["names no database"]),
        ("sqlite://", ["names no database file"]),
        # misspelt or malformed: still no password shown
        ("роstgres://fray:hunter2@db/game", ["unsupported database", "fray:***@db"]),
        ("postgres:/fray:hunter2@db/game", ["unsupported database"]),
        ("postgres//fray:hunter2@db/game", ["unsupported database"]),
        ("postgres:fray:hunter2@db/game", ["unsupported database"]),
        ("sqlite://fray:hunter2@host:notaport/x.db", ["cannot parse"]),
        ("sqlite:///%00x.db", ["control character"]),
        ("postgres://fray:hunter2@db/game\nx", ["control character"]),
    ],
)
def test_bad_urls_get_one_clear_error_without_the_password(url, words):
    with pytest.raises(ImproperlyConfigured) as err:
        databases_from_url(url)
    message = str(err.value)
    assert message.startswith("DATABASE_URL: ")
    for word in words:
        assert word in message
    assert "hunter2" not in message


def test_postgres_without_the_driver_says_how_to_install_it(monkeypatch):
    monkeypatch.setitem(sys.modules, "psycopg", None)  # import psycopg -> ImportError
    with pytest.raises(ImproperlyConfigured, match=r"pip install -e '\.\[postgres\]'"):
        databases_from_url("postgres://fray@db/game")


def test_password_from_a_file(tmp_path):
    secret = tmp_path / "db_password"
    secret.write_text("from-the-secret\n")
    env = {"DATABASE_URL": "postgres://fray@db:5432/game", "DATABASE_PASSWORD_FILE": str(secret)}
    assert databases_from_env(env)["default"]["PASSWORD"] == "from-the-secret"

    env["DATABASE_PASSWORD_FILE"] = str(tmp_path / "missing")
    with pytest.raises(ImproperlyConfigured, match="DATABASE_PASSWORD_FILE .*missing.*No such file"):
        databases_from_env(env)
    secret.write_text("\n")
    env["DATABASE_PASSWORD_FILE"] = str(secret)
    with pytest.raises(ImproperlyConfigured, match="is empty"):
        databases_from_env(env)
    secret.write_bytes(b"\xff\xfepw\n")
    with pytest.raises(ImproperlyConfigured, match="is not UTF-8 text"):
        databases_from_env(env)
    secret.write_text("\n")
    with pytest.raises(ImproperlyConfigured, match="not a PostgreSQL URL"):
        databases_from_env({"DATABASE_PASSWORD_FILE": str(secret)})


def test_settings_use_it(monkeypatch):
    """The settings module reads DATABASE_URL (checked in a fresh interpreter)."""
    import subprocess

    code = (
        "import django, os; os.environ['DJANGO_SETTINGS_MODULE'] = 'server.conf.settings'; "
        "from django.conf import settings; print(settings.DATABASES['default']['ENGINE'], "
        "settings.DATABASES['default']['NAME'])"
    )
    env = {k: v for k, v in __import__("os").environ.items() if k != "DATABASE_URL"}
    out = subprocess.run([sys.executable, "-c", code], env=env, capture_output=True, text=True,
                         check=True).stdout
    assert "django.db.backends.sqlite3" in out and out.strip().endswith("server/evennia.db3")
    env["DATABASE_URL"] = "postgres://fray@db.example:5432/game"
    out = subprocess.run([sys.executable, "-c", code], env=env, capture_output=True, text=True,
                         check=True).stdout
    assert out.split()[-2:] == ["django.db.backends.postgresql", "game"]
    env["DATABASE_URL"] = "mysql://x@y/z"
    bad = subprocess.run([sys.executable, "-c", code], env=env, capture_output=True, text=True)
    assert bad.returncode != 0 and "DATABASE_URL: unsupported database" in bad.stderr


@pytest.mark.parametrize("scheme", ["POSTGRES", "PostgreSQL", "PGSQL"])
def test_the_scheme_in_any_case(scheme):
    """As dj-database-url reads it (and the Makefile installs the driver for it)."""
    url = f"{scheme}://fray@db/game"
    assert databases_from_url(url)["default"]["ENGINE"] == "django.db.backends.postgresql"
    assert needs_postgres_driver(url)


def _check(url):
    """`python -m server.database check` (what make and the entry point run), from the game dir."""
    import os
    import subprocess
    from pathlib import Path

    env = {k: v for k, v in os.environ.items() if k not in ("DATABASE_URL", "DJANGO_SETTINGS_MODULE")}
    if url is not None:
        env["DATABASE_URL"] = url
    return subprocess.run([sys.executable, "-m", "server.database", "check"], env=env,
                          cwd=Path(__file__).resolve().parents[2], capture_output=True, text=True,
                          timeout=60)


def test_check_passes_a_usable_database(tmp_path):
    assert _check(None).returncode == 0
    done = _check(f"sqlite:///{tmp_path}/game.db3")
    assert (done.returncode, done.stdout, done.stderr) == (0, "", "")
    assert not (tmp_path / "game.db3").exists()  # nothing made: migrate does that


def test_check_refuses_in_one_line_without_the_password(tmp_path):
    import socket

    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        port = s.getsockname()[1]  # closed again: nothing answers there
    for url, words in [
        ("mysql://fray:hunter2@db/game", "DATABASE_URL: unsupported database"),
        (f"postgres://fray:hunter2@127.0.0.1:{port}/game",
         f"DATABASE_URL: cannot connect to PostgreSQL (database 'game' as 'fray' at 127.0.0.1:{port}):"),
        (f"sqlite:///{tmp_path}/no/such/dir/game.db3", "DATABASE_URL: the SQLite file's directory"),
        (f"sqlite:///{tmp_path}", f"DATABASE_URL: the SQLite file {tmp_path} is a directory"),
    ]:
        done = _check(url)
        assert done.returncode == 2, done
        assert done.stdout == ""
        assert done.stderr.count("\n") == 1 and done.stderr.startswith(f"!!! {words}"), done.stderr
        assert "hunter2" not in done.stderr


@pytest.mark.skipif(not needs_postgres_driver(__import__("os").environ.get("DATABASE_URL")),
                    reason="runs in the PostgreSQL pass (DATABASE_URL=postgres://...)")
def test_check_reaches_the_postgres_of_the_tests():
    import os

    done = _check(os.environ["DATABASE_URL"])
    assert (done.returncode, done.stderr) == (0, "")
