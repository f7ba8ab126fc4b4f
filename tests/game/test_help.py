"""Help by rule system: a command's page shows the part of the system
played here first and names the others; every switch has a page; system topics exist."""

from django.test import Client, override_settings
from evennia.utils.test_resources import EvenniaCommandTest

from commands import fray
from rules.systems import system_keys


class TestHelpBySystem(EvenniaCommandTest):
    def help(self, topic: str) -> str:
        from commands.default_cmdsets import CharacterCmdSet
        from commands.helpcmd import CmdHelp  # after Evennia's setup

        return self.call(CmdHelp(), topic, caller=self.char1, cmdset=CharacterCmdSet())

    def test_the_default_systems_part_comes_first_and_the_others_are_named(self):
        page = self.help("attack")
        self.assertIn("Storyteller (the rule system here):\nManeuvers: punch (default unarmed)", page)
        self.assertIn("Other systems (help attack/<system>): aeon, eldritch, elethril.", page)
        self.assertNotIn("THAC0", page)  # elethril's part is on its own page
        self.assertIn("Subtopics (help attack/<name>): storyteller, aeon, eldritch, elethril.", page)

    def test_the_fight_here_decides_the_system(self):
        self.call(fray.CmdCombat(), "/start elethril", caller=self.char1)
        page = self.help("attack")
        self.assertIn("Elethril (the rule system here):\n'attack' declares your action", page)
        self.assertIn("Other systems (help attack/<system>): storyteller, aeon, eldritch.", page)
        self.assertNotIn("Maneuvers: punch", page)

    def test_the_game_default_decides_without_a_fight(self):
        with override_settings(FRAY_DEFAULT_SYSTEM="eldritch"):
            page = self.help("defend")
        self.assertIn("Eldritch (the rule system here):\nThe higher total wins", page)

    def test_another_systems_part_by_subtopic(self):
        page = self.help("attack/eldritch")
        self.assertIn("Help for attack/eldritch", page)
        self.assertIn("The weapon in hand, named or not", page)
        self.assertNotIn("Maneuvers: punch", page)

    def test_switch_pages(self):
        page = self.help("+combat/log")
        self.assertIn("Help for combat/log", page)  # Evennia shows it without the +
        self.assertIn("The fight's roll log, for its Storyteller and staff", page)
        # a switch with no written page gets its usage lines
        page = self.help("+combat/leave")
        self.assertIn("Help for combat/leave", page)
        self.assertIn("+combat/leave                leave the fight", page)
        page = self.help("+npc/init")
        self.assertIn("Puts the NPC <name> into this fight's initiative", page)
        page = self.help("roll/wp")  # a switch in a Switches: list; the + may be left out
        self.assertIn("/wp        spend Willpower: one automatic success", page)
        page = self.help("+combat/nosuch")
        self.assertIn("No help entry found for '+combat/nosuch'", page)

    def test_help_survives_a_fight_whose_system_is_gone(self):
        self.call(fray.CmdCombat(), "/start aeon", caller=self.char1)
        from world import fights

        fights.running_in(self.room1).system_key = "nosuch"
        page = self.help("attack")
        self.assertIn("Help for attack", page)
        self.assertIn("Other systems (help attack/<system>): storyteller, aeon, eldritch, elethril.", page)

    def test_an_empty_subtopic_opens_the_part_played_here_and_switch_pages_keep_to_the_shared_part(self):
        self.call(fray.CmdCombat(), "/start elethril", caller=self.char1)
        self.assertIn("Help for attack/elethril", self.help("attack/"))
        page = self.help("roll/wp")
        self.assertIn("/wp        spend Willpower: one automatic success", page)
        self.assertNotIn("you need Willpower rated", page)  # the storyteller part's own line

    def test_screen_reader_mode_has_a_page(self):
        for topic in ("screenreader", "screen reader"):
            page = self.help(topic)
            self.assertIn("option screenreader=True makes every Fray view linear sentences", page)

    def test_a_topic_page_per_system(self):
        for system in system_keys():
            page = self.help(system)
            self.assertIn(f"Help for {system}", page)
            self.assertIn(f"+combat/start {system}", page)
            self.assertIn(f"the website's /rules/{system}/\n(docs/rules/{system}.md in the game's files)", page)
            self.assertContains(Client().get(f"/rules/{system}/"), f"<code>docs/rules/{system}.md</code>")
            self.assertIn(f"Subtopics (help {system}/<name>): dice, turn, defenses, damage,", page)
            self.assertLessEqual(len(page.splitlines()), 41)
            self.assertEqual([line for line in page.splitlines() if len(line) > 78], [])
        page = self.help("aeon/damage")
        self.assertIn("Help for aeon/damage", page)
        self.assertIn("Below the target's\nhardness (half their soak) nothing happens", page)

    def test_every_fray_page_fits_one_screen_in_every_system(self):
        from commands.default_cmdsets import FRAY_COMMANDS

        checked = 0
        for system in system_keys():
            with override_settings(FRAY_DEFAULT_SYSTEM=system):
                for command in FRAY_COMMANDS:
                    for topic in (command.key, *(f"{command.key}/{s}" for s in command.allowed_switches)):
                        page = self.help(topic)
                        self.assertIn(f"Help for {topic.lstrip('+@')}", page)
                        lines = page.splitlines()
                        self.assertLessEqual(len(lines), 41, f"{topic} in {system}: {len(lines)} lines")
                        wide = [line for line in lines if len(line) > 78]
                        self.assertEqual(wide, [], f"{topic} in {system}")
                        checked += 1
        self.assertGreater(checked, 200)


class TestSystemHelpComesWithTheSystem(EvenniaCommandTest):
    def test_every_entry_of_a_systems_help_is_a_command_the_game_has(self):
        from commands.default_cmdsets import CharacterCmdSet
        from rules.systems import get_system

        cmdset = CharacterCmdSet()
        cmdset.at_cmdset_creation()
        keys = {command.key for command in cmdset.commands}
        for name in system_keys():
            unknown = set(get_system(name).command_help) - keys
            self.assertEqual(unknown, set(), f"{name}'s help.toml names commands the game lacks")
        self.assertIn("+combat", get_system("storyteller").command_help)
