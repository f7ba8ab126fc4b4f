"""
``DATABASE_URL`` -> Django ``DATABASES`` (used by server/conf/settings.py).

* unset or empty: ``None``, the settings keep Evennia's SQLite file
  ``server/evennia.db3`` (and the in-memory SQLite test database);
* ``sqlite:////abs/path/game.db3`` (``sqlite:///relative.db3``): SQLite there;
* ``postgres://user:password@host:5432/dbname`` (also ``postgresql://``,
  ``pgsql://``): PostgreSQL through psycopg 3 (``pip install -e '.[postgres]'``;
  ``make`` installs it when ``DATABASE_URL`` is a postgres URL).

``DATABASE_PASSWORD_FILE`` names a file holding the PostgreSQL password (a
Docker secret), so the URL can leave it out.

Anything else is refused with one clear error (``ImproperlyConfigured``)
naming the problem, before Django or Evennia gets to it.

This module must stay importable without Django settings configured (the
settings file imports it), so Django is only imported lazily.

``python -m server.database check`` (run by ``make`` before ``evennia migrate``
and by docker/entrypoint.sh; from the game dir) loads the settings and reaches
the database; anything wrong is one line on stderr (the password hidden) and
exit 2. ``evennia migrate`` itself exits 0 when the settings do not load.
"""

from __future__ import annotations

import os
import sys

#: URL schemes accepted, by the backend they give.
POSTGRES_SCHEMES = ("postgres", "postgresql", "pgsql")
SQLITE_SCHEMES = ("sqlite",)


def _error(message: str) -> Exception:
    from django.core.exceptions import ImproperlyConfigured

    return ImproperlyConfigured(f"DATABASE_URL: {message}")


def _redacted(url: str) -> str:
    """The URL with what may be its password hidden: whatever lies between the user's ``:``
    and the last ``@``, even in a URL too malformed to parse (``postgres:u:pw@host``)."""
    head, at, rest = url.rpartition("@")
    if not at:
        return url
    prefix, sep, userinfo = head.partition("://")
    if not sep:
        prefix, userinfo = "", head
    user, colon, _ = userinfo.partition(":")
    return f"{prefix}{sep}{user}{colon}{'***' if colon else ''}@{rest}"


def _has_control(text: str) -> bool:
    return any(ord(char) < 32 or ord(char) == 127 for char in text)


def scheme_of(url: str) -> str:
    return url.split("://", 1)[0].lower() if "://" in url else ""


def needs_postgres_driver(url: str | None) -> bool:
    """True when ``url`` asks for PostgreSQL (used by the Makefile and tests)."""
    return bool(url) and scheme_of(url.strip()) in POSTGRES_SCHEMES


def databases_from_url(url: str | None) -> dict | None:
    """The ``DATABASES`` setting for ``url``, or None for "keep the default"."""
    if url is None or not url.strip():
        return None
    url = url.strip()
    if _has_control(url):
        raise _error(f"{_redacted(url)!r} contains a control character (a line break?)")
    scheme = scheme_of(url)
    if scheme in SQLITE_SCHEMES:
        import dj_database_url

        try:
            config = dj_database_url.parse(url)
        except ValueError as err:
            raise _error(f"cannot parse {_redacted(url)!r}: {err}") from None
        if _has_control(str(config.get("NAME") or "")):
            raise _error(f"{_redacted(url)!r}: the file name contains a control character")
        if not config.get("NAME") or config["NAME"] == ":memory:":
            raise _error(
                f"{_redacted(url)!r} names no database file; "
                "write sqlite:////absolute/path/evennia.db3"
            )
        return {"default": config}
    if scheme in POSTGRES_SCHEMES:
        try:
            import psycopg  # noqa: F401
        except ImportError:
            raise _error(
                "it is a PostgreSQL URL but the driver (psycopg) is not installed: "
                "run `.venv/bin/pip install -e '.[postgres]'` "
                "(`DATABASE_URL=... make run` does it for you)"
            ) from None
        import dj_database_url

        try:
            config = dj_database_url.parse(url, conn_health_checks=True)
        except ValueError as err:
            raise _error(f"cannot parse {_redacted(url)!r}: {err}") from None
        if not config.get("NAME"):
            raise _error(
                f"{_redacted(url)!r} names no database; "
                "write postgres://user:password@host:5432/dbname"
            )
        return {"default": config}
    raise _error(
        f"unsupported database {_redacted(url)!r}: use postgres://user:password@host:5432/dbname "
        "(PostgreSQL) or sqlite:////absolute/path/evennia.db3, or leave DATABASE_URL unset "
        "for the default SQLite file server/evennia.db3"
    )


def databases_from_env(environ=None) -> dict | None:
    """``DATABASES`` from ``DATABASE_URL``; ``DATABASE_PASSWORD_FILE`` (a
    Docker secret, say) gives the password instead of the URL."""
    environ = os.environ if environ is None else environ
    databases = databases_from_url(environ.get("DATABASE_URL"))
    password_file = environ.get("DATABASE_PASSWORD_FILE")
    if password_file:
        if databases is None or databases["default"]["ENGINE"].endswith("sqlite3"):
            raise _error("DATABASE_PASSWORD_FILE is set but DATABASE_URL is not a PostgreSQL URL")
        try:
            with open(password_file, encoding="utf-8") as f:
                password = f.read().strip()
        except OSError as err:
            raise _error(f"DATABASE_PASSWORD_FILE {password_file!r}: {err.strerror}") from None
        except UnicodeDecodeError:
            raise _error(f"DATABASE_PASSWORD_FILE {password_file!r} is not UTF-8 text") from None
        if not password:
            raise _error(f"DATABASE_PASSWORD_FILE {password_file!r} is empty")
        databases["default"]["PASSWORD"] = password
    return databases


#: seconds ``check`` waits for a PostgreSQL server to answer
CONNECT_TIMEOUT = 10


def _one_line(text: str, password: str | None) -> str:
    line = " ".join(part.strip() for part in str(text).splitlines() if part.strip())
    if password:
        line = line.replace(password, "***")
    return line


def reach(config: dict) -> str | None:
    """None when the database of ``config`` (a ``DATABASES`` entry) can be used, else what
    is wrong, as one line without the password. SQLite: the file's directory exists and is
    writable (the file itself is made by migrate). PostgreSQL: a connection is opened (at
    most ``CONNECT_TIMEOUT`` seconds) and closed."""
    engine = config.get("ENGINE", "")
    if engine.endswith("sqlite3"):
        path = os.path.abspath(str(config["NAME"]))
        folder = os.path.dirname(path)
        if not os.path.isdir(folder):
            return f"the SQLite file's directory {folder} does not exist"
        if os.path.isdir(path):
            return f"the SQLite file {path} is a directory"
        if not os.access(folder, os.W_OK) or (os.path.exists(path) and not os.access(path, os.W_OK)):
            return f"the SQLite file {path} (or its directory) is not writable by uid {os.getuid()}"
        return None
    if engine.endswith("postgresql"):
        from django.db import connections

        connection = connections["default"]
        connection.settings_dict["OPTIONS"] = {
            "connect_timeout": CONNECT_TIMEOUT, **connection.settings_dict.get("OPTIONS", {})
        }
        where = (
            f"database {config.get('NAME')!r} as {config.get('USER') or '(no user)'!r} at "
            f"{config.get('HOST') or 'the local socket'}"
            + (f":{config['PORT']}" if config.get("PORT") else "")
        )
        try:
            connection.ensure_connection()
        except Exception as err:  # noqa: BLE001 - any failure is reported as one line
            return f"cannot connect to PostgreSQL ({where}): {_one_line(err, config.get('PASSWORD'))}"
        finally:
            connection.close()
        return None
    return None  # not one of ours (set by hand in secret_settings.py): left to Django


def check(prefix: str = "!!! ") -> int:
    """Load the settings (so ``DATABASE_URL``) and reach the database; 0 when fine, else one
    line on stderr and 2."""
    if os.getcwd() not in sys.path:
        sys.path.insert(0, os.getcwd())
    os.environ.setdefault("DJANGO_SETTINGS_MODULE", "server.conf.settings")
    from django.core.exceptions import ImproperlyConfigured

    try:
        from django.conf import settings

        config = settings.DATABASES["default"]
    except ImproperlyConfigured as err:
        print(f"{prefix}{_one_line(err, None)}", file=sys.stderr)
        return 2
    problem = reach(config)
    if problem:
        print(f"{prefix}DATABASE_URL: {problem}", file=sys.stderr)
        return 2
    return 0


def main(argv=None) -> int:
    import argparse

    parser = argparse.ArgumentParser(prog="python -m server.database")
    sub = parser.add_subparsers(dest="cmd", required=True)
    p_check = sub.add_parser("check", help="load the settings and reach the database")
    p_check.add_argument("--prefix", default="!!! ", help="put before the error line")
    args = parser.parse_args(argv)
    return check(args.prefix)


if __name__ == "__main__":
    sys.exit(main())
