"""
Root pytest configuration for Fray.

Makes the repo root importable as the Evennia game dir and boots Django +
Evennia once, so that:

* ``tests/rules``  -- plain pytest, no DB, keep working (nothing here needs a DB);
* ``tests/game``   -- Evennia's own TestCase classes
  (``evennia.utils.test_resources.EvenniaCommandTest`` etc.) run under plain
  ``pytest`` via pytest-django (test DB: in-memory sqlite, created per run);
* ``tests/e2e``    -- start real servers in temp game dirs (see tests/e2e/).
"""

import os
import sys
from pathlib import Path

import pytest

REPO_ROOT = Path(__file__).resolve().parent.parent

if str(REPO_ROOT) not in sys.path:
    sys.path.insert(0, str(REPO_ROOT))

# Evennia's settings_default locates GAME_DIR from the cwd (and chdir()s
# upwards while searching), so make the cwd the game dir before Django loads.
os.chdir(REPO_ROOT)
os.environ.setdefault("DJANGO_SETTINGS_MODULE", "server.conf.settings")


import django  # noqa: E402

django.setup()  # idempotent; pytest-django calls it too

from django.conf import settings as _settings  # noqa: E402

# Every game test creates two accounts; Django's default PBKDF2 costs ~0.3 s a password, most
# of a test's time. The tests check no password's strength, so they hash the cheap way.
_settings.PASSWORD_HASHERS = ["django.contrib.auth.hashers.MD5PasswordHasher"]
# The fight tests build their fighters' sheets with +stat and let them +combat/join without
# approval; the character generation tests (tests/game/test_chargen.py) set it back to the
# game's default, False.
_settings.FRAY_UNAPPROVED_MAY_JOIN = True


@pytest.fixture(scope="session")
def evennia_initialized(django_db_setup, django_db_blocker):
    """Run ``evennia._init()`` against the (migrated) test database.

    ``evennia._init()`` reads the DB (e.g. the game-time offset), so it can
    only run once pytest-django has created the test DB. Test packages that
    use Evennia's TestCase classes request this autouse-style from their own
    conftest (see tests/game/conftest.py); DB-free tiers (tests/rules) never
    pay for it.
    """
    import evennia
    from django.conf import settings

    with django_db_blocker.unblock():
        evennia._init()
    # What Evennia's own test runner (EvenniaTestSuiteRunner) sets.
    settings.TEST_ENVIRONMENT = True
    yield
    settings.TEST_ENVIRONMENT = False
