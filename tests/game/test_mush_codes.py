"""MUSH codes (Evennia's color_markups contrib, set in server/conf/settings.py): ``%r``, ``%t``,
``%b`` and ``%ch%cr`` act in poses, says and emits, in scene titles and in armor reasons and
comments; in an error line that quotes player text they stay as typed; the scene log keeps a
``%r`` as a line break, in game and on the web."""

from django.test import Client
from evennia.commands.default.general import CmdPose, CmdSay
from evennia.utils.create import create_account

from commands.armor import CmdRequest
from commands.scenes import CmdEmit, CmdScene
from commands.scenes import CmdPose as FrayPose
from tests.game.test_combat_commands import FrayCommandTest
from world import armor
from world.models import Scene, SceneEntry
from world.text import escape, free_text, literal

BRIGHT_RED, NORMAL = "\x1b[1m\x1b[31m", "\x1b[0m"
TYPED = "%rThen%tbows%bdeeply, %ch%crred%cn."


class TestFreeText(FrayCommandTest):
    def seen(self, cmd, args, caller, receiver, **kw):
        """What ``receiver`` is sent, the codes turned into what a client gets (colour kept)."""
        return self.call(cmd, args, caller=caller, receiver=receiver, noansi=False, **kw)

    def test_pose_say_and_emit_read_the_codes(self):
        self.assertEqual(self.seen(CmdPose(), "waves." + TYPED, self.char2, self.char1),
                         f"Char2 waves.\r\nThen\tbows deeply, {BRIGHT_RED}red{NORMAL}.")
        self.assertEqual(self.seen(CmdPose(), "waves." + TYPED, self.char2, self.char2, cmdstring=":"),
                         f"Char2 waves.\r\nThen\tbows deeply, {BRIGHT_RED}red{NORMAL}.")
        self.assertEqual(self.seen(CmdSay(), "Hi." + TYPED, self.char2, self.char1),
                         f'Char2 says, "Hi.\r\nThen\tbows deeply, {BRIGHT_RED}red{NORMAL}."')
        self.assertEqual(self.seen(CmdEmit(), "Thunder." + TYPED, self.char1, self.char2, cmdstring="remit"),
                         f"Thunder.\r\nThen\tbows deeply, {BRIGHT_RED}red{NORMAL}.")

    def test_a_doubled_percent_is_one_percent_and_xterm_codes_act(self):
        self.assertEqual(self.seen(CmdPose(), "writes %%r and 100%% on the %c500wall", self.char2, self.char1),
                         "Char2 writes %r and 100% on the \x1b[1m\x1b[31mwall")

    def test_pronouns_in_a_pose_follow_evennia(self):
        pose = "draws $pron(your) sword; $pron(you,f) $conj(smile)."
        self.assertEqual(self.call(CmdPose(), pose, caller=self.char2, receiver=self.char1),
                         "Char2 draws its sword; she smiles.")
        self.assertEqual(self.call(CmdPose(), pose, caller=self.char2), "Char2 draws your sword; you smile.")


    def test_a_posers_name_reads_as_typed_and_the_poses_codes_act(self):
        name = "Q {x} $y |rRED %r {you} \\ $You() B\\\\|| \\$conj(x) end\\"   # a staff @name may hold codes
        self.char2.key = name
        self.call(CmdScene(), "/start", caller=self.char2)
        self.assertEqual(self.seen(FrayPose(), " $conj(smile). %ch%crred%cn {x}", self.char2, self.char1),
                         f"{name} smiles. {BRIGHT_RED}red{NORMAL} {{x}}")
        self.assertEqual(self.call(FrayPose(), " $conj(smile).", caller=self.char2), f"{name} smile.")
        self.assertEqual(SceneEntry.objects.values_list("text", flat=True).last(),
                         f"{name} smiles.")  # as a bystander reads it

    def test_a_say_ending_in_a_lone_pipe_reads_as_typed_to_everyone(self):
        for typed, shown in (("hello|", "hello|"), ("x|||", "x||"), ("hello||", "hello|")):
            with self.subTest(typed=typed):
                self.assertEqual(self.call(CmdSay(), typed, caller=self.char2), f'You say, "{shown}"')
                self.assertEqual(self.call(CmdSay(), typed, caller=self.char2, receiver=self.char1),
                                 f'Char2 says, "{shown}"')


class TestEscapedWhereQuoted(FrayCommandTest):
    def test_an_error_line_shows_the_codes_as_typed(self):
        for typed in ("abc%rdef", "%ch%crred", "x%c500y", "tab%tspace%b"):
            with self.subTest(typed=typed):
                out = self.call(CmdScene(), f"/log {typed}=1", caller=self.char2,
                                noansi=False)
                self.assertIn(f" '{typed}' is not a scene id. +scene/list shows them.", out)
                self.assertNotIn("\n", out)
                self.assertNotIn("\t", out)

    def test_escape_doubles_percent_and_free_text_keeps_it(self):
        self.assertEqual(escape("50% |r%r"), "50%% ||r%%r")
        self.assertEqual(literal("caf\u00e9 %b"), "caf\u00e9 %%b")
        self.assertEqual(free_text("caf\u00e9 |r%r"), "caf\u00e9 ||r%r")
        self.assertEqual(free_text("%ch%crred"), "%ch%crred|n")  # a colour left open is closed


class TestSceneLog(FrayCommandTest):
    def scene(self, args, expected=None, **kw):
        return self.call(CmdScene(), args, expected, caller=self.char2, **kw)

    def test_a_line_break_is_kept_and_a_doubled_percent_stays_literal(self):
        self.scene("/start")
        self.call(CmdPose(), "one%rtwo%t%bthree %ch%crred%cn %%r", caller=self.char2)
        self.assertEqual(list(SceneEntry.objects.values_list("text", flat=True)), ["Char2 one\ntwo  three red %r"])
        log = self.scene("/log").splitlines()
        self.assertEqual(log[1:3], ["Char2 one", "two  three red %r"])
        web = Client()
        web.force_login(create_account("Reader", email="reader@example.com", password="testpassword123"))
        page = web.get(f"/scenes/{Scene.objects.get().id}/")
        self.assertContains(page, "Char2 one\ntwo  three red %r</pre>")

    def test_title_colours_act_in_game_and_are_dropped_in_the_plain_views(self):
        self.assertEqual(self.scene("/start %ch%crThe docks%cn", noansi=False),
                         f"Scene #{Scene.objects.get().id}: {BRIGHT_RED}The docks{NORMAL}{NORMAL} is recording "
                         "this room. +scene/stop ends it.")
        scene = Scene.objects.get()
        self.assertEqual((scene.title, scene.plain_title), ("%ch%crThe docks%cn", "The docks"))
        self.assertIn("The docks (running)", self.scene("/list"))
        self.assertTrue(self.scene("/log").startswith(f"Scene #{scene.id}: The docks (Room)"))
        web = Client()
        web.force_login(create_account("Reader", email="reader@example.com", password="testpassword123"))
        self.assertContains(web.get("/scenes/"), ">The docks</a>")
        self.assertTrue(web.get(f"/scenes/{scene.id}/text").content.decode().startswith(
            f"Scene #{scene.id}: The docks (Room)"))

    def test_bad_titles(self):
        self.scene("/start one%rtwo", "<Fray> A scene title is one line: no line breaks.")
        self.scene("/start %ch%cr" + "x" * 61, "<Fray> A scene title is at most 60 characters (that one has 61).")
        self.scene("/start " + "%ch%cr" * 10 + "x" * 30,
                   "<Fray> A scene title with its colour codes is at most 80 characters (that one has 90).")
        self.scene("/start |rRed", "<Fray> A scene title takes no colour codes but the MUSH ones (%ch%cr, not '|').")
        self.assertEqual(Scene.objects.count(), 0)


class TestArmorText(FrayCommandTest):
    def test_reason_and_comments_read_the_codes_names_do_not(self):
        self.call(CmdRequest(), "/armor chain%rmail=From the vault%rin %ch%crred%cn", "<Armor> Request #",
                  caller=self.char2)
        number = armor.all_requests()[-1]["id"]
        view = self.call(CmdRequest(), f"/view {number}", caller=self.char1, noansi=False)
        self.assertIn("Armor: chain%rmail (custom", view)
        self.assertIn(f"Why: From the vault\r\nin {BRIGHT_RED}red{NORMAL}", view)
        listing = self.call(CmdRequest(), "/list", caller=self.char1)
        self.assertIn("From the vault in red", listing)  # a table cell: one line, no colour
        self.char2.pending_notices = []
        self.call(CmdRequest(), f"/deny {number}=No.%rAsk %chlater%cn.", caller=self.char1)
        self.assertEqual(self.char2.pending_notices[-1].split(": ", 1)[1], "No.%rAsk %chlater%cn.|n")


class TestHelp(FrayCommandTest):
    def help(self, topic: str) -> str:
        from commands.default_cmdsets import CharacterCmdSet
        from commands.helpcmd import CmdHelp

        return self.call(CmdHelp(), topic, caller=self.char1, cmdset=CharacterCmdSet())

    def test_help_mush_and_help_pose_show_the_codes_as_typed(self):
        for topic in ("mush", "codes", "colour codes"):
            page = self.help(topic)
            self.assertIn("Help for mush", page)
            self.assertIn("  %r   line break          %t   tab            %b   space\n"
                          "  %ch  bright              %cn  normal         %%   a single %\n", page)
            self.assertIn("  %c500, %c[500     xterm256 colour (red, green, blue 0-5)", page)
            self.assertIn("Evennia's |r codes (help color)", page)
            self.assertIn("Example: :draws $pron(your,f) sword.%r%ch%crThe blade glows.%cn", page)
        page = self.help("pose")
        self.assertIn("MUSH codes act (%r a line break, %t a tab, %b a space, %ch%cr", page)
        self.assertIn("$pron(your,f) reads \"your\" to you and \"her\" to the others", page)
        self.assertIn("(%r a\nline break, %ch%cr bright red ... %cn; help mush)", self.help("emit"))
        for page in (self.help("mush"), self.help("pose"), self.help("+scene")):
            self.assertEqual([line for line in page.splitlines() if len(line) > 78], [])
            self.assertLessEqual(len(page.splitlines()), 41)


class TestWhatPlayersCannotSmuggle(FrayCommandTest):
    """Fray's pose (``commands.scenes.CmdPose``) and the room's delivery."""

    def test_braces_in_a_pose_or_emit_are_shown_as_typed_never_formatted(self):
        for typed in ("{}", "{0}", "}{", "${}", "{you:>50}x", "{you.__class__}"):
            self.assertEqual(self.call(FrayPose(), typed, caller=self.char2, receiver=self.char1),
                             f"Char2 {typed}", typed)
        self.assertEqual(self.call(FrayPose(), "$conj({})", caller=self.char2, receiver=self.char1),
                         "Char2 {}s")   # $conj() still acts
        self.assertEqual(self.call(CmdEmit(), "A {} sign.", caller=self.char1, receiver=self.char2,
                                   cmdstring="remit"), "A {} sign.")
        self.assertEqual(self.call(CmdEmit(), "Lights {0}.", caller=self.char1, receiver=self.char2,
                                   cmdstring="@emit"), "Lights {0}.")

    def test_control_bytes_reach_nobody_raw(self):
        heard = self.call(CmdSay(), "bell\x07 clear\x1b[2J rtl\u202e", caller=self.char2, receiver=self.char1,
                          noansi=False)
        self.assertNotIn("\x07", heard)
        self.assertNotIn("\x1b[2J", heard)
        self.assertIn("bell\\u0007 clear\\u001b[2J rtl\\u202e", heard)
        own = self.call(CmdSay(), "bell\x07 clear\x1b[2J", caller=self.char2, noansi=False)   # the speaker's echo
        self.assertNotIn("\x07", own)
        self.assertIn("bell\\u0007 clear\\u001b[2J", own)
        posed = self.call(FrayPose(), "clears \x1b]0;PWNED\x07 the screen", caller=self.char2, receiver=self.char1)
        self.assertEqual(posed, "Char2 clears \\u001b]0;PWNED\\u0007 the screen")
