"""`make` installs the PostgreSQL driver exactly when DATABASE_URL asks for PostgreSQL
(checked with `make -n`: the commands make would run, none run)."""

import os
import subprocess
from pathlib import Path

import pytest

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
    ],
)
def test_install_extras_follow_database_url(url, extras, stamp):
    out = _dry_install(url)
    assert f"pip install --quiet --disable-pip-version-check -e {extras}" in out
    assert f"touch {stamp}" in out
