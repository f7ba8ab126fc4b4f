"""
The first admin account (Evennia's Account #1), for docker/entrypoint.sh.

    python -m server.admin_account check     exit 0 if account #1 exists, else 3
    python -m server.admin_account ensure    create it if missing (after migrate)
    python -m server.admin_account password  exit 0 if the password given can be read
                                             (or none is given), else say why, exit 2

The name comes from ``FRAY_ADMIN_USER`` (default ``admin``), the password from
the file named by ``FRAY_ADMIN_PASSWORD_FILE`` or else ``FRAY_ADMIN_PASSWORD``;
it is only needed the first time (``check`` and, once the account exists,
``ensure`` never read it). The account is made exactly the way
Evennia's launcher makes it on a first `evennia start`
(``AccountDB.objects.create_superuser``), so the launcher later finds it and
never needs the password in its environment (nor do the Portal and Server it
starts). Run from the game dir.
"""

from __future__ import annotations

import os
import sys


class AdminError(Exception):
    pass


def admin_password(environ=None) -> str | None:
    environ = os.environ if environ is None else environ
    path = environ.get("FRAY_ADMIN_PASSWORD_FILE")
    if path:
        try:
            with open(path, encoding="utf-8") as f:
                password = f.read().strip()
        except OSError as err:
            raise AdminError(f"FRAY_ADMIN_PASSWORD_FILE {path!r}: {err.strerror}") from None
        except UnicodeDecodeError:
            raise AdminError(f"FRAY_ADMIN_PASSWORD_FILE {path!r} is not UTF-8 text") from None
        if not password:
            raise AdminError(f"FRAY_ADMIN_PASSWORD_FILE {path!r} is empty")
        return password
    return environ.get("FRAY_ADMIN_PASSWORD") or None


def _setup():
    os.environ.setdefault("DJANGO_SETTINGS_MODULE", "server.conf.settings")
    sys.path.insert(0, os.getcwd())
    import django

    django.setup()


def admin_exists() -> bool:
    """Account #1 exists (False also when the tables are not there yet)."""
    from django.db import connection

    if "accounts_accountdb" not in connection.introspection.table_names():
        return False
    from evennia.accounts.models import AccountDB

    return AccountDB.objects.filter(id=1).exists()


def ensure(username: str, password: str | None) -> str:
    if admin_exists():
        return "exists"
    if not password:
        raise AdminError(
            "no admin account yet and no password for it: set FRAY_ADMIN_PASSWORD, or "
            "FRAY_ADMIN_PASSWORD_FILE to a file holding it (a Docker secret: "
            "/run/secrets/fray_admin_password)"
        )
    import evennia
    from evennia.accounts.models import AccountDB

    evennia._init()
    account = AccountDB.objects.create_superuser(username, None, password)
    account.save()
    return "created"


def main(argv=None) -> int:
    argv = sys.argv[1:] if argv is None else argv
    if argv not in (["check"], ["ensure"], ["password"]):
        print("usage: python -m server.admin_account check|ensure|password", file=sys.stderr)
        return 2
    username = os.environ.get("FRAY_ADMIN_USER") or "admin"
    try:
        if argv == ["password"]:
            admin_password()
            return 0
        _setup()
        if argv == ["check"]:
            return 0 if admin_exists() else 3
        if admin_exists():
            return 0  # the password is not needed (nor read)
        result = ensure(username, admin_password())
    except AdminError as err:
        print(f"!!! {err}", file=sys.stderr)
        return 2
    if result == "created":
        print(f">>> created the admin account {username!r} (account #1)")
    return 0


if __name__ == "__main__":
    sys.exit(main())
