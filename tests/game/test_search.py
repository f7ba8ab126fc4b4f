"""Evennia's partial-name search on every database Fray runs on (world/apps.py): a regex word
boundary reaches PostgreSQL in its own spelling."""

from django.db import connection
from evennia.utils import create, search
from evennia.utils.test_resources import EvenniaTest

from world.apps import _WORD_BOUNDARY


class TestPartialNames(EvenniaTest):
    def test_a_prefix_of_a_word_finds_the_object(self):
        create.create_object("typeclasses.npcs.NPC", key="Maximilian the Bold", location=self.room1)
        self.assertEqual([obj.key for obj in search.search_object("Max", exact=False)], ["Maximilian the Bold"])
        self.assertEqual([obj.key for obj in search.search_object("bol", exact=False)], ["Maximilian the Bold"])
        self.assertEqual(list(search.search_object("axi", exact=False)), [])   # not inside a word
        found = self.char1.search("Maxi", quiet=True, candidates=self.room1.contents)
        self.assertEqual([obj.key for obj in found], ["Maximilian the Bold"], connection.vendor)

    def test_only_a_real_word_boundary_is_translated(self):
        self.assertEqual(_WORD_BOUNDARY.sub(r"\1\\y", r"\bmax.* \bbold"), r"\ymax.* \ybold")
        self.assertEqual(_WORD_BOUNDARY.sub(r"\1\\y", r"a\\b"), r"a\\b")        # a backslash, then b
        self.assertEqual(_WORD_BOUNDARY.sub(r"\1\\y", r"a\\\bc"), r"a\\\yc")    # a backslash, then \b
