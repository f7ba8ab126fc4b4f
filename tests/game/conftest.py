"""Game tier: Evennia TestCase classes against an in-memory sqlite test DB."""

import pytest


@pytest.fixture(autouse=True, scope="session")
def _evennia_for_game_tests(evennia_initialized):
    from world import subscribers

    subscribers.register()   # as the Server does at start
    yield


@pytest.fixture(autouse=True)
def _fights_read_anew():
    """Each test has a new database: the fights kept in memory are forgotten."""
    from world import fights

    fights.reset()
    yield
    fights.reset()
