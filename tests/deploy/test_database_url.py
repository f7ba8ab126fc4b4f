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
