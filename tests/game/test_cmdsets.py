"""Fray's cmdsets answer ``cmd in cmdset`` from an index of names, as Evennia's scan would."""

from evennia.commands.default.muxcommand import MuxCommand
from evennia.utils.test_resources import BaseEvenniaTestCase


def cmdsets():
    from commands.default_cmdsets import (  # after Evennia's setup
        AccountCmdSet,
        CharacterCmdSet,
        SessionCmdSet,
    )

    return CharacterCmdSet(), AccountCmdSet(), SessionCmdSet()


class CmdShout(MuxCommand):
    key = "shout"
    aliases = ["yell"]


class TestIndexedNames(BaseEvenniaTestCase):
    def test_membership_is_evennias_answer(self):
        character, account, session = cmdsets()
        checked = 0
        for other in (account, session, character):
            for cmd in other.commands:
                self.assertEqual(cmd in character, any(cmd == mine for mine in character.commands), cmd.key)
                checked += 1
        self.assertGreater(checked, 100)
        self.assertIn("look", character)
        self.assertIn("+combat", character)
        self.assertNotIn("shout", character)
        self.assertNotIn(CmdShout(), character)

    def test_the_index_follows_added_and_removed_commands(self):
        character = cmdsets()[0]
        self.assertNotIn("yell", character)
        character.add(CmdShout())
        self.assertIn("yell", character)
        self.assertIn(CmdShout(), character)
        character.remove(CmdShout())
        self.assertNotIn("shout", character)

    def test_a_merge_keeps_every_command(self):
        character, account, _ = cmdsets()
        merged = account + character
        keys = sorted(cmd.key for cmd in merged.commands)
        expected = sorted({cmd.key for cmd in character.commands}
                          | {cmd.key for cmd in account.commands if not any(cmd == c for c in character.commands)})
        self.assertEqual(keys, expected)

    def test_a_merge_answers_from_its_index_as_evennias_scan_would(self):
        from commands.default_cmdsets import IndexedNames

        character, account, session = cmdsets()
        merged = session + (account + character)
        self.assertIsInstance(merged, IndexedNames)
        self.assertEqual(merged.key, (account + character).key)
        for cmd in (*character.commands, *account.commands, *session.commands, CmdShout()):
            self.assertEqual(cmd in merged, any(cmd == mine for mine in merged.commands), cmd.key)
        self.assertNotIn(CmdShout(), merged)
        self.assertIn("look", merged)


class TestCallLock(BaseEvenniaTestCase):
    def test_a_characters_call_lock_answers_as_evennias_check(self):
        from evennia.utils.create import create_object

        from typeclasses.characters import Character

        alice = create_object(Character, key="Alice")
        bob = create_object(Character, key="Bob")
        self.addCleanup(alice.delete)
        self.addCleanup(bob.delete)
        self.assertEqual(alice.locks.get("call"), "call:false()")
        self.assertFalse(alice.access(bob, "call", no_superuser_bypass=True))
        self.assertEqual(alice.access(bob, "call", no_superuser_bypass=True),
                         alice.locks.check(bob, "call", no_superuser_bypass=True))
        alice.locks.add("call:true()")  # a builder opens its commands: the real check runs
        self.assertTrue(alice.access(bob, "call", no_superuser_bypass=True))


class TestEveryHelpedCommandIsTypable(BaseEvenniaTestCase):
    def test_every_system_command_is_in_the_character_cmdset(self):
        character, _, _ = cmdsets()
        keys = {cmd.key for cmd in character.commands}
        for key in ("+conceal", "+search", "+spot", "+eyecontact", "+los", "+move", "+sacrifice", "+wake", "+drama",
                    "+item", "use", "ambush", "hide", "clinch", "+mount", "aim", "attack", "+combat"):
            self.assertIn(key, keys)
