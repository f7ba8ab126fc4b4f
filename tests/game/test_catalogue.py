"""A game's own wording (``world.catalogue``): the message file a game keeps
(``server/conf/messages.toml`` or ``FRAY_MESSAGES``) rewords any entry, and the check the
Server makes before it starts names the file, the key and the problem in one line."""

import tempfile
from pathlib import Path
from unittest import mock

from django.test import override_settings

from commands import fray
from rules.lines import Line
from tests.game.test_combat_commands import FrayCommandTest
from world import catalogue, narration
from world.text import COMBAT, titled
from world.wording import line_text


class GameFileTest(FrayCommandTest):
    def setUp(self):
        super().setUp()
        self.dir = Path(tempfile.mkdtemp(prefix="fray-messages-"))
        self.path = self.dir / "house.toml"
        self.addCleanup(catalogue.reload)

    def use(self, text: str | None) -> list[str]:
        """The game's file holds ``text`` (None: the setting names a file that is not there);
        the problems found, the catalogue read anew."""
        if text is not None:
            self.path.write_text(text)
        settings = override_settings(FRAY_MESSAGES=str(self.path))
        settings.enable()
        self.addCleanup(settings.disable)
        catalogue.reload()
        return catalogue.problems()


class TestTheCheck(GameFileTest):
    def test_a_good_file_has_no_problem(self):
        self.assertEqual(self.use('[prefix]\ncombat = "|r[COMBAT]|n"\n\n[attack]\n'
                                  'opens = "{attacker} swings {label} at {target}!"\n'), [])

    def test_an_unknown_key_is_one_line_naming_file_and_key(self):
        self.assertEqual(self.use('[attack]\nswings = "{attacker} swings."\n'),
                         [f"{self.path}: attack.swings: unknown key (not one of Fray's messages)"])

    def test_an_unknown_placeholder_is_one_line(self):
        self.assertEqual(self.use('[attack]\nopens = "{attacker} swings {label} at {victim}."\n'),
                         [f"{self.path}: attack.opens: unknown placeholder {{victim}} "
                          "(this entry has: {attacker}, {target}, {label})"])

    def test_a_missing_placeholder_is_one_line(self):
        self.assertEqual(self.use('[attack]\nopens = "{attacker} swings at {target}."\n'),
                         [f"{self.path}: attack.opens: missing placeholder {{label}}"])

    def test_a_template_that_does_not_parse_is_one_line(self):
        self.assertEqual(self.use('[attack]\nopens = "{attacker} swings {label at {target}."\n'),
                         [f"{self.path}: attack.opens: broken template: unexpected '{{' in field name"])

    def test_a_placeholder_with_a_format_is_broken(self):
        self.assertEqual(self.use('[attack]\nopens = "{attacker:>9} swings {label} at {target}."\n'),
                         [f"{self.path}: attack.opens: broken template: placeholder {{attacker:>9}} "
                          "is not a plain {name}"])

    def test_an_unknown_function_is_broken(self):
        self.assertEqual(self.use('[fight]\nleft = "$Me() $conj(leave) the fight."\n'),
                         [f"{self.path}: fight.left: broken template: unknown function $Me()"])

    def test_an_unknown_pronoun_is_broken(self):
        self.assertEqual(self.use('[fight]\nleft = "$You() $conj(leave) $pron(zzz) fight."\n'),
                         [f"{self.path}: fight.left: broken template: unknown pronoun $pron(zzz)"])

    def test_a_pronoun_with_its_options_and_a_fighter_of_the_entry_is_good(self):
        self.assertEqual(self.use('[attack]\nopens = "{attacker} swings {label} at {target} and '
                                  '$pron(his, pa, m) fist at $pron(him, op, target)!"\n'), [])

    def test_a_pronoun_option_that_is_neither_is_broken(self):
        self.assertEqual(self.use('[attack]\nopens = "{attacker} swings {label} at {target}: $pron(him, bogus)"\n'),
                         [f"{self.path}: attack.opens: broken template: $pron(him, bogus): 'bogus' is neither a "
                          "pronoun option nor a placeholder of this entry (this entry has: {attacker}, {target}, "
                          "{label})"])

    def test_a_you_naming_no_fighter_of_the_entry_is_broken(self):
        self.assertEqual(self.use('[attack]\nopens = "$You(bogus) {attacker} swings {label} at {target}."\n'),
                         [f"{self.path}: attack.opens: broken template: $You(bogus) names no placeholder of this "
                          "entry (this entry has: {attacker}, {target}, {label})"])
        self.assertEqual(self.use('[attack]\nopens = "{attacker} swings {label} at $you(target) ({target})."\n'),
                         [])

    def test_a_prefix_that_breaks_the_line_is_refused(self):
        self.assertEqual(self.use('[prefix]\ncombat = "|r[COMBAT]%r|n"\nroll = "<Roll>\\n"\nfray = "<F>|/"\n'),
                         [f"{self.path}: prefix.combat: a prefix is on the line it starts: no %r, |/ or line break",
                          f"{self.path}: prefix.roll: a prefix is on the line it starts: no %r, |/ or line break",
                          f"{self.path}: prefix.fray: a prefix is on the line it starts: no %r, |/ or line break"])
        self.assertEqual(catalogue.entry("prefix.combat"), "|y<Combat>|n")

    def test_a_value_that_is_not_text_is_one_line(self):
        self.assertEqual(self.use('[fight]\nleft = 3\n'),
                         [f"{self.path}: fight.left: the template is a int, not a string"])

    def test_a_file_that_is_not_toml_is_one_line(self):
        problems = self.use('[attack\nopens = "x"\n')
        self.assertEqual(len(problems), 1)
        self.assertTrue(problems[0].startswith(f"{self.path}: not a TOML file: "), problems)

    def test_a_named_file_that_is_not_there_is_one_line(self):
        self.assertEqual(self.use(None), [f"{self.path}: the file does not exist (FRAY_MESSAGES)"])

    def test_each_problem_is_its_own_line(self):
        problems = self.use('[attack]\nswings = "x"\nopens = "{attacker}"\n')
        self.assertEqual(problems, [f"{self.path}: attack.swings: unknown key (not one of Fray's messages)",
                                    f"{self.path}: attack.opens: missing placeholder {{target}}, {{label}}"])

    def test_a_system_may_word_a_shared_entry_its_own_way(self):
        self.assertEqual(self.use('[eldritch.attack]\nopens = "{attacker} lunges at {target} ({label})."\n'), [])
        self.assertEqual(catalogue.entry("attack.opens", "eldritch"), "{attacker} lunges at {target} ({label}).")
        self.assertEqual(catalogue.entry("attack.opens", "aeon"), "{attacker} attacks {target} with {label}.")

    def test_a_system_that_does_not_exist_is_an_unknown_key(self):
        self.assertEqual(self.use('[wuxia.attack]\nopens = "{attacker} {target} {label}"\n'),
                         [f"{self.path}: wuxia.attack.opens: unknown key (not one of Fray's messages)"])

    def test_the_game_file_is_server_conf_messages_toml_without_the_setting(self):
        from django.conf import settings

        self.assertEqual(catalogue.GAME_FILE, Path("server/conf/messages.toml"))
        with override_settings(FRAY_MESSAGES="", GAME_DIR=str(self.dir)):
            self.assertIsNone(catalogue.override_path())
            (self.dir / "server" / "conf").mkdir(parents=True)
            (self.dir / "server" / "conf" / "messages.toml").write_text('[attack]\nswings = "x"\n')
            self.assertEqual(catalogue.problems(),
                             [f"{self.dir}/server/conf/messages.toml: attack.swings: unknown key "
                              "(not one of Fray's messages)"])
        self.assertNotEqual(settings.GAME_DIR, str(self.dir))

    def test_fray_own_catalogue_has_no_problem(self):
        with override_settings(FRAY_MESSAGES=""):
            catalogue.reload()
            self.assertEqual(narration.check(), [])


class TestTheNewWords(GameFileTest):
    HOUSE = ('[prefix]\ncombat = "|r[COMBAT]|n"\n\n'
             '[attack]\nopens = "{attacker} swings {label} at {target}!"\n')

    def test_the_prefix_and_an_attack_line_are_the_game_s_own(self):
        self.assertEqual(self.use(self.HOUSE), [])
        self.assertEqual(f"{COMBAT} x", "|r[COMBAT]|n x")
        self.assertEqual(titled("Storyteller fight"), "|r[COMBAT]|n |wStoryteller fight|n")
        self.storyteller_fight("Guard", Stamina=2, Dodge=1)
        self.force(9, 8, 7, 2, 2)
        out = self.player(fray.CmdAttack(), "Guard")
        self.assertEqual(out.splitlines()[0], "[COMBAT] Char2 swings punch at Guard!")

    def test_a_bad_entry_is_never_used(self):
        self.use('[attack]\nopens = "{attacker} swings at {victim}."\n')
        self.assertEqual(catalogue.entry("attack.opens"), "{attacker} attacks {target} with {label}.")

    def test_a_line_within_a_line_is_worded_once_with_the_game_s_words(self):
        """A value that is itself a line (a roll within a sentence) is worded from its own
        entry: its template's colours kept, its values escaped once, for telnet and plain."""
        self.use('[line]\nhealth = "|r{name}|n: {health}"\n'
                 'may_defend = "{target} may defend."\n')
        inner = Line("line.health", {"name": "B|g<i>", "health": "7"})
        outer = Line("line.may_defend", {"target": inner})
        self.assertEqual(line_text(outer), "|rB||g<i>|n: 7 may defend.")
        self.assertEqual(line_text(outer, plain=True), "B|g<i>: 7 may defend.")

    def test_an_event_value_that_is_a_line_is_worded_for_the_room_and_for_one_reader(self):
        """An event's value may be a line (an initiative roll): worded from the catalogue for
        the room (made literal for ``msg_contents``) and for one reader's ``msg``."""
        self.use('[line]\nhealth = "|r{name}|n: {health}"\n')
        from rules.engine import Event
        roll = Line("line.health", {"name": "{B}$You()", "health": 7})
        event = Event("said", key="initiative.rolled", values={"roll": roll})
        self.assertEqual(narration.template(event), "{actor} rolls initiative: |r{{B}}\\$You()|n: 7.")
        self.assertEqual(narration.value_for_msg(roll), "|r{B}$You()|n: 7")

    def test_a_refusal_raised_with_a_line_reads_in_the_game_s_words(self):
        """A rule's refusal may be a line (a key and values): ``str()`` of the error is the
        catalogue's words, the game's own where its file has them, as one plain line."""
        from rules.systems import CombatError

        refusal = CombatError(Line("line.may_defend", {"target": "B|g<i>"}))
        self.assertEqual(str(refusal), "B|g<i> may defend.")
        self.use('[line]\nmay_defend = "|r{target}|n cannot be refused."\n')
        self.assertEqual(str(refusal), "B|g<i> cannot be refused.")
        self.assertEqual(refusal.line.key, "line.may_defend")
        self.assertEqual(str(CombatError("A sentence.")), "A sentence.")

    def test_a_refusal_the_game_rewords_keeps_its_colours_and_a_system_may_word_it_its_way(self):
        """A game's refusal is told in its words with its template's colours (the values still
        escaped), and a system's own wording of a shared refusal is used in that system's
        fights."""
        self.use('[refusal]\nyou_cannot_attack_yourself = "|rNo self-harm here.|n"\n')
        self.storyteller_fight("Guard", Stamina=2)
        out = self.player(fray.CmdAttack(), "Char2", noansi=False)
        self.assertIn("\x1b[1m\x1b[31mNo self-harm here.", out)
        self.use('[storyteller.refusal]\nyou_cannot_attack_yourself = "Storytellers frown on that."\n')
        self.player(fray.CmdAttack(), "Char2", "<Fray> Storytellers frown on that.")
        self.player(fray.CmdAttack(), "|rZed{x}", "<Fray> No combatant '|rZed{x}' in this fight.")


class TestReload(GameFileTest):
    """``@reload`` asks the check the Server's start makes: with a broken message file the
    reload is refused, each problem on its own line, and the running Server is not restarted."""

    def reload(self, text: str):
        from commands import system

        self.use(text)
        with mock.patch("evennia.SESSION_HANDLER.portal_restart_server") as restart:
            out = self.call(system.CmdReload(), "", caller=self.account)
        return out, restart

    def test_a_broken_message_file_refuses_the_reload_with_its_problems(self):
        out, restart = self.reload('[attack]\nswings = "x"\nopens = "|r{attacker} at {victim}"\n')
        self.assertEqual(out.splitlines(), [
            "<Fray> Not reloaded: the Server would not start. The running Server goes on as it "
            "was; fix this and reload:",
            f"  message catalogue: {self.path}: attack.swings: unknown key (not one of Fray's messages)",
            f"  message catalogue: {self.path}: attack.opens: unknown placeholder {{victim}} "
            "(this entry has: {attacker}, {target}, {label})"])
        restart.assert_not_called()

    def test_a_good_message_file_reloads(self):
        out, restart = self.reload('[attack]\nopens = "{attacker} swings {label} at {target}!"\n')
        restart.assert_called_once_with()

    def test_the_reload_in_the_account_cmdset_is_fray_s(self):
        from commands import system
        from commands.default_cmdsets import AccountCmdSet

        reload = [cmd for cmd in AccountCmdSet().commands if cmd.key == "@reload"]
        self.assertEqual([type(cmd) for cmd in reload], [system.CmdReload])

    def test_the_check_reads_fray_s_files_as_they_are_now(self):
        """A running Server keeps Fray's words as it read them; the check before a reload reads
        the files anew (an entry given a new placeholder, the game's file following it)."""
        fray_dir = self.dir / "messages"
        fray_dir.mkdir()
        (fray_dir / "fight.toml").write_text('[attack]\nopens = "{attacker} hits {target}."\n')
        self.path.write_text('[attack]\nopens = "{target} is hit by {attacker}."\n')
        catalogue.reload()
        catalogue.defaults()   # the running Server's read
        with mock.patch.object(catalogue, "DEFAULTS", fray_dir), override_settings(FRAY_MESSAGES=str(self.path)):
            self.assertEqual(catalogue.problems(), [])
            self.assertEqual(catalogue.defaults()["attack.opens"], "{attacker} attacks {target} with {label}.")
