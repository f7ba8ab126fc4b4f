"""Game tier: Evennia TestCase classes against an in-memory sqlite test DB."""

import pytest


@pytest.fixture(autouse=True, scope="session")
def _evennia_for_game_tests(evennia_initialized):
    yield
