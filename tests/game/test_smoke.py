"""Smoke tests proving Evennia's test classes run under plain pytest."""

from django.conf import settings
from evennia.commands.default.general import CmdLook
from evennia.utils.test_resources import EvenniaCommandTest, EvenniaTest


class TestLookSmoke(EvenniaCommandTest):
    def test_character_looks_at_room(self):
        # EvenniaTest creates room1 ("Room") and char1 ("Char") inside it.
        out = self.call(CmdLook(), "", caller=self.char1)
        self.assertIn(self.room1.key, out)

    def test_character_sees_other_character(self):
        out = self.call(CmdLook(), "", caller=self.char1)
        self.assertIn(self.char2.key, out)


class TestFraySettings(EvenniaTest):
    def test_servername(self):
        self.assertEqual(settings.SERVERNAME, "Fray")

    def test_narrator_between_player_and_helper(self):
        hierarchy = [perm.lower() for perm in settings.PERMISSION_HIERARCHY]
        self.assertIn("narrator", hierarchy)
        self.assertEqual(hierarchy.index("narrator"), hierarchy.index("player") + 1)
        self.assertEqual(hierarchy.index("narrator"), hierarchy.index("helper") - 1)

    def test_default_system(self):
        self.assertEqual(settings.FRAY_DEFAULT_SYSTEM, "storyteller")

    def test_narrator_permission_is_checked_by_locks(self):
        # A Narrator passes perm(Player) but not perm(Helper).
        self.account.permissions.remove("Developer")
        self.account.permissions.add("Narrator")
        self.char1.locks.add("narrate:perm(Narrator)")
        self.assertTrue(self.account.check_permstring("Player"))
        self.assertTrue(self.account.check_permstring("Narrator"))
        self.assertFalse(self.account.check_permstring("Helper"))
