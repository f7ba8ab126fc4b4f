"""Scene logs (world/scenes.py, commands/scenes.py, web/website/views/scenes.py): what a room
is shown while a scene runs, once and in order; the +scene command; the web pages."""

from django.test import Client
from evennia.commands.default.general import CmdPose, CmdSay, CmdWhisper
from evennia.utils.create import create_account, create_object

from commands import fray
from commands.scenes import CmdEmit, CmdScene
from rules.systems import CombatError
from tests.game.test_combat_commands import FrayCommandTest
from world import fights, scenes
from world.models import Scene, SceneEntry


class SceneTest(FrayCommandTest):
    def scene(self, args="", expected=None, caller=None, **kw):
        return self.call(CmdScene(), args, expected, caller=caller or self.char2, **kw)

    def entries(self, scene=None):
        scene = scene or Scene.objects.order_by("-id").first()
        return list(SceneEntry.objects.filter(scene=scene).order_by("number").values_list("kind", "text"))


class TestRecording(SceneTest):
    def test_pose_say_emit_in_order_once_each(self):
        self.scene("/start The docks", "Scene #")
        self.call(CmdPose(), "looks around.", caller=self.char2)
        self.call(CmdSay(), "Hello there.", caller=self.char1)
        self.call(CmdEmit(), "Thunder rolls.", caller=self.char1, cmdstring="remit")
        self.call(CmdPose(), "'s hat falls.", caller=self.char1, cmdstring=":")
        self.assertEqual(self.entries(), [
            ("pose", "Char2 looks around."),
            ("say", 'Char says, "Hello there."'),
            ("emit", "Thunder rolls."),
            ("pose", "Char's hat falls."),
        ])
        scene = Scene.objects.get()
        self.assertEqual(scene.entry_count, 4)
        self.assertEqual(list(scene.entries.values_list("number", flat=True)), [1, 2, 3, 4])

    def test_nothing_is_recorded_without_a_scene_or_after_it_stops(self):
        self.call(CmdPose(), "waits.", caller=self.char2)
        self.call(CmdSay(), "Anyone?", caller=self.char2)
        self.assertEqual(SceneEntry.objects.count(), 0)
        self.assertIs(self.room1.ndb.fray_scene, False)  # the one cached check
        self.scene("/start")
        self.call(CmdPose(), "arrives.", caller=self.char2)
        self.scene("/stop", "Char2 stops scene #")
        self.call(CmdPose(), "leaves.", caller=self.char2)
        self.assertEqual(self.entries(), [("pose", "Char2 arrives.")])

    def test_private_and_system_lines_are_not_recorded(self):
        self.scene("/start")
        self.call(CmdWhisper(), "Char = a secret", caller=self.char2)
        self.call(CmdEmit(), "Char=only you", caller=self.char1, cmdstring="pemit")
        self.char2.msg("told to one character")
        self.room1.msg_contents("Char2 has connected.", from_obj=self.char2)  # an arrival-style line
        self.char2.move_to(self.room2)
        self.char2.move_to(self.room1)
        self.assertEqual(self.entries(), [])

    def test_colour_codes_are_stripped_and_player_funcs_read_as_a_bystander(self):
        self.scene("/start")
        self.call(CmdSay(), "I am |rred|n and 50||50.", caller=self.char2)
        self.call(CmdPose(), "$conj(smile) at everyone.", caller=self.char2)
        self.assertEqual(self.entries(), [("say", 'Char2 says, "I am red and 50|50."'),
                                          ("pose", "Char2 smiles at everyone.")])

    def test_a_scene_is_per_room(self):
        self.scene("/start")
        self.char1.move_to(self.room2, quiet=True)
        self.call(CmdPose(), "is elsewhere.", caller=self.char1)
        self.assertEqual(self.entries(), [])

    def test_a_scene_survives_a_reload(self):
        self.scene("/start Long scene")
        self.call(CmdPose(), "one.", caller=self.char2)
        self.room1.ndb.fray_scene = None  # what a reload leaves: no cache, only the database
        self.call(CmdPose(), "two.", caller=self.char2)
        self.assertEqual([text for _, text in self.entries()], ["Char2 one.", "Char2 two."])
        self.assertEqual([n for n in SceneEntry.objects.values_list("number", flat=True)], [1, 2])


    def test_destroying_the_room_stops_its_scene_and_keeps_the_log(self):
        # a room of its own: the test characters' home (room1) must stay (PostgreSQL checks it)
        doomed = create_object("typeclasses.rooms.Room", key="Bridge")
        self.char2.move_to(doomed, quiet=True)
        self.scene("/start Doomed")
        self.call(CmdPose(), "stands on the bridge.", caller=self.char2)
        self.char2.move_to(self.room2, quiet=True)
        doomed.delete()
        scene = Scene.objects.get()
        self.assertIsNotNone(scene.stopped)
        self.assertEqual((scene.room_id, scene.room_name, scene.stopped_by), (None, "Bridge", "(room destroyed)"))
        self.assertEqual(self.entries(), [("pose", "Char2 stands on the bridge.")])


class TestFightNarration(SceneTest):
    def test_narration_recorded_once_in_order_with_poses_and_says(self):
        published = []
        fights.subscribe(published.append)
        self.addCleanup(fights._subscribers.remove, published.append)
        self.scene("/start Ambush")
        self.call(CmdPose(), "cracks her knuckles.", caller=self.char2)
        guard = self.storyteller_fight("Guard", Stamina=2, Dodge=1, Strength=2, Brawl=1)
        self.assertIsNotNone(guard)
        self.call(CmdSay(), "Stand down!", caller=self.char1)
        self.force(9, 8, 7, 2, 2)
        self.player(fray.CmdAttack(), "Guard")
        self.call(CmdPose(), "grins.", caller=self.char2)
        narrations = [event for event in published if event.kind == "said"]
        rows = self.entries()
        kinds = [kind for kind, _ in rows]
        self.assertEqual(kinds.count("narration"), len(narrations))
        self.assertGreaterEqual(len(narrations), 4)  # start, join, two initiatives, the attack
        self.assertEqual(rows[0], ("pose", "Char2 cracks her knuckles."))
        self.assertEqual(rows[-1], ("pose", "Char2 grins."))
        heads = [text.splitlines()[0] for _, text in rows]
        self.assertEqual(heads, [
            "Char2 cracks her knuckles.",
            "<Combat> Char starts a fight (storyteller). Join with +combat/join, then roll +combat/init.",
            "<Combat> Char2 joins the fight. Roll initiative with +combat/init.",
            "<Combat> Char2 rolls initiative: Wits 2 + Dexterity 3 = 5 + 1d10 (4) = 9.",
            "<Combat> Round 1: Char2 to act.",
            "<Combat> Guard rolls initiative: Wits 2 + Dexterity 3 = 5 + 1d10 (1) = 6.",   # still Char2's turn
            'Char says, "Stand down!"',
            "<Combat> Char2 attacks Guard with punch.",
            "Char2 grins.",
        ])
        self.assertEqual(rows[7], ("narration", "\n".join([
            "<Combat> Char2 attacks Guard with punch.",
            "  Char2 punch to hit: Dexterity 3 + Brawl 2 = 5 dice vs 6: 9 8 7 2 2 -> 3 successes = 3 successes",
            "  Guard may defend."])))
        # each narration event of the fight is one entry, whatever the number of listeners
        self.assertEqual([head for head in heads if head.startswith("<Combat>")],
                         [scenes.narration_text(event).splitlines()[0] for event in narrations])

    def test_narration_is_not_recorded_without_a_scene(self):
        self.storyteller_fight("Guard")
        self.assertEqual(SceneEntry.objects.count(), 0)


class TestSceneCommand(SceneTest):
    def test_start_stop_log_list(self):
        self.assertIn("The docks is recording this room.", self.scene("/start The docks"))
        sid = Scene.objects.get().id   # ids are not reused (PostgreSQL keeps counting across tests)
        self.call(CmdPose(), "waits.", caller=self.char1)
        log = self.scene("/log")
        self.assertIn(f"Scene #{sid}: The docks (Room), started by Char2", log)
        self.assertIn("Char waits.", log)
        self.assertIn("Page 1 of 1 (1 line).", log)
        self.scene("/stop", f"Char2 stops scene #{sid} (1 lines). +scene/log #{sid} reads it.")
        self.assertIn("stopped", self.scene("", caller=self.char1))
        listing = self.scene("/list")
        self.assertIn("The docks", listing)
        self.assertIn("+scene/log #<id> reads one.", listing)
        self.assertIn("Char waits.", self.scene(f"/log #{sid}=1"))
        self.assertIn("Char waits.", self.scene(f"/log {sid}=1"))

    def test_pages_of_twenty(self):
        self.scene("/start")
        for number in range(45):
            self.call(CmdPose(), f"says line {number}.", caller=self.char1)
        last = self.scene("/log")
        self.assertIn(f"Page 3 of 3 (45 lines). +scene/log #{Scene.objects.get().id}=<page> for another.", last)
        self.assertIn("Char says line 44.", last)
        self.assertNotIn("line 39.", last)
        second = self.scene("/log 2")
        self.assertIn("Page 2 of 3", second)
        self.assertIn("Char says line 20.", second)
        self.assertIn("Char says line 39.", second)
        self.assertNotIn("line 19.", second)
        self.assertNotIn("line 40.", second)
        for line in (last + "\n" + second).splitlines():
            self.assertLessEqual(len(line), 78, line)

    def test_long_lines_wrap_to_78_columns(self):
        self.scene("/start")
        self.call(CmdPose(), "says " + "word " * 60, caller=self.char1)
        log = self.scene("/log")
        self.assertTrue(all(len(line) <= 78 for line in log.splitlines()), log)
        self.assertEqual(log.count("word"), 60)

    def test_bad_input(self):
        self.scene("/stop", "<Fray> No scene is running here. +scene/start <title> starts one.")
        self.scene("/log", "<Fray> No scene has run here.")
        self.scene("/start First")
        self.scene("/start Second", f"<Fray> Scene #{Scene.objects.get().id} is already running here "
                                    "(+scene/stop ends it).")
        for page in ("0", "-1", "x", "1.5", "99999999999999"):
            self.scene(f"/log {page}", f"<Fray> '{page}' is not a page: give a whole number from 1 to 1.")
        self.scene("/log 99999", "<Fray> There is only 1 page in that scene.")
        self.scene("/log #99999=1", "<Fray> There is no scene #99999. +scene/list shows them.")
        self.scene("/log abc=1", "<Fray> 'abc' is not a scene id. +scene/list shows them.")
        self.scene("/bogus", "<Fray> Unknown switch '/bogus' for +scene.")
        self.scene("/list extra", "<Fray> Usage: +scene/list")
        self.assertEqual(Scene.objects.count(), 1)

    def test_bad_titles_change_nothing(self):
        self.scene("/start " + "x" * 61, "<Fray> A scene title is at most 60 characters (that one has 61).")
        self.scene("/start " + "x" * 5000, "<Fray> A scene title is at most 60 characters (that one has 5000).")
        self.scene("/start |rRed|n", "<Fray> A scene title takes no colour codes but the MUSH ones (%ch%cr, not '|').")
        self.scene("/start Two|/lines", "<Fray> A scene title is one line: no line breaks.")
        self.assertEqual(Scene.objects.count(), 0)
        with self.assertRaisesRegex(CombatError, "one line: no line breaks"):
            scenes.clean_title("one\nline")
        # Adversary: non-ASCII titles were shown as \\uXXXX; a tab was called a line break.
        self.assertIn(": Caf\u00e9 at night \u6226 is recording", self.scene("/start Caf\u00e9\tat night \u6226"))
        self.assertEqual(Scene.objects.get().title, "Caf\u00e9 at night \u6226")
        self.assertIn("Caf\u00e9 at night \u6226 (running)", self.scene("/list"))

    def test_letters_of_every_script_kept_controls_never(self):
        self.scene("/start")
        self.call(CmdSay(), "caf\u00e9 \u6226 \u201cquoted\u201d", caller=self.char1)
        self.call(CmdSay(), "\x00\x07\x08hi", caller=self.char1)
        self.assertEqual(self.entries(), [("say", 'Char says, "caf\u00e9 \u6226 \u201cquoted\u201d"'),
                                          ("say", 'Char says, "\\u0000\\u0007\\u0008hi"')])   # as the room read it
        self.assertIn('Char says, "caf\u00e9 \u6226 \u201cquoted\u201d"', self.scene("/log"))

    def test_player_text_in_the_log_stays_literal(self):
        self.scene("/start")
        self.call(CmdSay(), "||rnot red", caller=self.char1)
        self.assertEqual(self.entries(), [("say", 'Char says, "|rnot red"')])
        self.assertIn('Char says, "|rnot red"', self.scene("/log"))  # sent escaped: shown, not red


class TestSceneWeb(SceneTest):
    def setUp(self):
        super().setUp()
        self.scene("/start <b>Bold</b> night")
        self.call(CmdPose(), "writes <script>alert(1)</script> on the wall.", caller=self.char2)
        self.call(CmdSay(), "Hi & bye", caller=self.char1)
        self.scene_id = Scene.objects.get().id
        self.web = Client()

    def login(self):
        account = create_account("Reader", email="reader@example.com", password="testpassword123")
        self.web.force_login(account)

    def test_anonymous_is_sent_to_login(self):
        for url in ("/scenes/", f"/scenes/{self.scene_id}/", f"/scenes/{self.scene_id}/text"):
            response = self.web.get(url)
            self.assertEqual(response.status_code, 302, url)
            self.assertIn("/auth/login", response["Location"])

    def test_list_and_detail_escape_player_text(self):
        self.login()
        listing = self.web.get("/scenes/")
        self.assertEqual(listing.status_code, 200)
        self.assertContains(listing, "&lt;b&gt;Bold&lt;/b&gt; night")
        self.assertNotContains(listing, "<b>Bold</b>")
        page = self.web.get(f"/scenes/{self.scene_id}/")
        self.assertEqual(page.status_code, 200)
        self.assertContains(page, "Char2 writes &lt;script&gt;alert(1)&lt;/script&gt; on the wall.")
        self.assertNotContains(page, "<script>alert(1)</script>")
        self.assertContains(page, "Char says, &quot;Hi &amp; bye&quot;")

    def test_download_is_plain_text(self):
        self.login()
        response = self.web.get(f"/scenes/{self.scene_id}/text")
        self.assertEqual(response.status_code, 200)
        self.assertEqual(response["Content-Type"], "text/plain; charset=utf-8")
        self.assertEqual(response["Content-Disposition"], f'attachment; filename="scene-{self.scene_id}.txt"')
        body = response.content.decode("utf-8").splitlines()
        self.assertTrue(body[0].startswith(f"Scene #{self.scene_id}: <b>Bold</b> night (Room), started by Char2"))
        self.assertEqual(body[2:], ["Char2 writes <script>alert(1)</script> on the wall.", 'Char says, "Hi & bye"'])

    def test_unknown_scene_and_post(self):
        self.login()
        for url in ("/scenes/999999/", "/scenes/999999/text"):
            self.assertEqual(self.web.get(url).status_code, 404, url)
        self.assertEqual(self.web.get("/scenes/abc/").status_code, 404)
        for url in ("/scenes/", f"/scenes/{self.scene_id}/", f"/scenes/{self.scene_id}/text"):
            self.assertEqual(self.web.post(url).status_code, 405, url)
        self.assertEqual(SceneEntry.objects.count(), 2)

    def test_one_pager_on_a_long_list(self):
        # Evennia's base template draws the pager for the page's ``page_obj``: only that one
        self.login()
        Scene.objects.bulk_create(Scene(room_name="Room", started_by="Char2", title=f"Scene {n}") for n in range(60))
        listing = self.web.get("/scenes/")
        self.assertEqual(listing.content.decode().count('class="pagination'), 1)
        self.assertContains(listing, 'href="?page=2"')
        self.assertContains(self.web.get("/scenes/?page=2"), "Scene 0<")


class TestEmit(FrayCommandTest):
    def test_a_bare_emit_reaches_everyone_here_once_as_on_a_mush(self):
        self.call(CmdScene(), "/start", caller=self.char1)
        self.assertEqual(self.call(CmdEmit(), "The lights go out.", caller=self.char1, receiver=self.char2,
                                   cmdstring="@emit"), "The lights go out.")
        self.assertEqual(self.call(CmdEmit(), "A bell rings.", caller=self.char1, cmdstring="@emit"), "A bell rings.")
        rows = [(entry.kind, entry.text) for entry in scenes.scene_in(self.room1).entries.order_by("number")]
        self.assertEqual(rows[-2:], [("emit", "The lights go out."), ("emit", "A bell rings.")])


class TestOocSay(FrayCommandTest):
    def test_ooc_with_a_message_is_an_out_of_character_say_not_leaving_the_character(self):
        from commands.account import CmdOOC

        self.call(CmdScene(), "/start", caller=self.char1)
        heard = self.call(CmdOOC(), "brb, phone |r%r", caller=self.account, receiver=self.char2, cmdstring="ooc")
        self.assertEqual(heard, '<OOC> Char says, "brb, phone |r%r"')
        self.assertEqual(self.call(CmdOOC(), ":waves.", caller=self.account, receiver=self.char2, cmdstring="ooc"),
                         "<OOC> Char waves.")
        self.assertIs(self.session.puppet, self.char1)   # still in character
        self.assertEqual(list(scenes.scene_in(self.room1).entries.all()), [])   # not kept in the scene
