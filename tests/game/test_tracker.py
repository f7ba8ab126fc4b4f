"""The web combat tracker (world/tracker.py, web/website/views/fights.py): the fights list,
a fight's page and its JSON state, the Storyteller's buttons through the same services as
the commands, and every refusal with its HTTP status, changing nothing."""

import re

from django.db import connection
from django.test import Client
from django.test.utils import CaptureQueriesContext
from evennia.utils.create import create_account, create_object

from commands import fray, npcs
from tests.game import fightview as encounters
from tests.game.test_combat_commands import FrayCommandTest
from world import fights, statements, tracker
from world.models import Fight, FightNarration
from world.sheets import update_sheet

EVIL = "<script>alert(1)</script>"


class TrackerTest(FrayCommandTest):
    """Char (superuser's character) runs a storyteller fight: Char2 (initiative 9) against
    the NPC Guard (6)."""

    def setUp(self):
        super().setUp()
        self.account.characters.add(self.char1)
        self.account2.characters.add(self.char2)
        self.guard = self.storyteller_fight("Guard", Stamina=2, Dodge=1, Strength=2, Brawl=1)
        self.row = self.encounter.row
        self.url = f"/fights/{self.row.pk}/"

    def client_for(self, account, **kw) -> Client:
        web = Client(**kw)
        web.force_login(account)
        return web

    def reader(self) -> Client:
        """A logged-in account with no character in the fight (and none at all)."""
        if not hasattr(self, "reader_account"):
            self.reader_account = create_account("Reader", email="reader@example.com", password="testpassword123")
        return self.client_for(self.reader_account)

    def state(self, web, after=0, **params):
        response = web.get(f"{self.url}state", {"after": after, **params})
        self.assertEqual(response.status_code, 200, response.content)
        return response.json()

    def seq(self) -> int:
        return Fight.objects.get(pk=self.row.pk).seq

    def press(self, web, action, data=None, seen=None):
        """A button's POST, made from a page showing the fight as it is now (``seen``: else)."""
        return web.post(f"{self.url}{action}", {"seen": self.seq() if seen is None else seen, **(data or {})})

    def texts(self) -> list[str]:
        return list(FightNarration.objects.filter(fight_id=self.row.pk).order_by("seq").values_list("text", flat=True))


class TestNarrationRecord(TrackerTest):
    def test_each_narration_event_is_kept_once_as_a_bystander_read_it(self):
        self.assertEqual(self.texts()[1:], [
            "<Combat> Char2 joins the fight. Roll initiative with +combat/init.",
            "<Combat> Char2 rolls initiative: Wits 2 + Dexterity 3 = 5 + 1d10 (4) = 9.",
            "<Combat> Round 1: Char2 to act.",
            "<Combat> Guard rolls initiative: Wits 2 + Dexterity 3 = 5 + 1d10 (1) = 6."])
        self.assertTrue(self.texts()[0].startswith("<Combat> Char starts a fight (storyteller)."))
        self.assertIn("\n  Fight #", self.texts()[0])   # its lines, indented as in a scene log
        seqs = list(FightNarration.objects.filter(fight_id=self.row.pk).values_list("seq", flat=True))
        self.assertEqual(seqs, sorted(set(seqs)))
        self.assertTrue(tracker.caught_up(self.row.pk, self.seq()))

    def test_the_web_gets_the_same_words_as_html_colours_as_styles_player_text_escaped(self):
        self.char2.key = "Ann<b>&"   # a name no page may take for markup
        self.force(9, 8, 7, 2, 2)
        self.player(fray.CmdAttack(), "Guard")
        row = FightNarration.objects.filter(fight_id=self.row.pk).order_by("-seq").first()
        self.assertTrue(row.text.startswith("<Combat> Ann<b>& attacks Guard with punch."), row.text)
        self.assertTrue(row.html.startswith('<span class="color-011">&lt;Combat&gt;</span> '
                                            "Ann&lt;b&gt;&amp; attacks Guard with punch."), row.html)
        self.assertNotIn("<b>", row.html)
        pushed = tracker.narration(self.row.pk, row.seq - 1)
        self.assertEqual(pushed[-1]["html"], row.html)
        page = self.client_for(self.account2).get(self.url).content.decode()
        self.assertIn(row.html, page)                     # the page puts it in as the game wrote it
        self.assertNotIn("Ann<b>", page)

    def test_the_colours_are_the_webclients_for_the_narration_box_alone(self):
        response = self.client_for(self.account2).get("/fights/colours.css")
        self.assertEqual(response.status_code, 200)
        css = response.content.decode()
        self.assertIn("#fray-narration .color-011 { color: #ffff00; }", css)
        self.assertIn("#fray-narration .bgcolor-255", css)
        self.assertEqual(len(css.splitlines()), len([line for line in css.splitlines()
                                                     if line.startswith("#fray-narration .")]))

    def test_a_failing_store_never_breaks_the_command(self):
        from unittest import mock

        before, insert, refused = len(self.texts()), statements.insert, []

        def failing(rows, **kw):   # the narration's write fails; the fight's own rows are written
            if isinstance(rows[0], FightNarration):
                refused.append(rows)
                raise RuntimeError("db down")
            insert(rows, **kw)

        with mock.patch.object(statements, "insert", failing):
            self.force(9, 8, 7, 2, 2)
            self.player(fray.CmdAttack(), "Guard")
        self.assertEqual(len(refused), 1)
        self.assertEqual(len(encounters.pending_attacks(self.encounter)), 1)
        self.assertEqual(len(self.texts()), before)

    def test_a_command_rolled_back_after_its_narration_was_written_leaves_none(self):
        from unittest import mock

        def failing(events):   # the commit fails after the tracker wrote its rows
            raise RuntimeError("disk full")

        before, seq = self.texts(), self.seq()
        with mock.patch.object(fights, "_recorders", [tracker.record, failing]), self.assertRaises(RuntimeError):
            self.force(9, 8, 7, 2, 2)
            self.player(fray.CmdAttack(), "Guard")
        self.assertEqual((self.texts(), self.seq()), (before, seq))
        self.force(9, 8, 7, 2, 2)
        self.player(fray.CmdAttack(), "Guard")   # the next command is written and told as ever
        self.assertEqual(len(self.texts()), len(before) + 1)
        self.assertTrue(self.texts()[-1].startswith("<Combat> Char2 attacks Guard with punch."), self.texts()[-1])
        self.assertEqual(tracker._recorded, {})

    def test_a_narration_stored_again_is_skipped_not_doubled(self):
        kept = FightNarration.objects.filter(fight_id=self.row.pk).order_by("seq").first()
        again = FightNarration(fight_id=self.row.pk, seq=kept.seq, round=kept.round, text="again", html="again")
        statements.insert([again], ignore_conflicts=True)
        self.assertEqual(FightNarration.objects.filter(fight_id=self.row.pk, seq=kept.seq).get().text, kept.text)


class TestPages(TrackerTest):
    def test_anonymous_is_sent_to_login(self):
        web = Client()
        for url in ("/fights/", self.url, f"{self.url}state", f"{self.url}verify"):
            response = web.get(url)
            self.assertEqual(response.status_code, 302, url)
            self.assertIn("/auth/login", response["Location"])
        before = self.seq()
        self.assertEqual(self.press(web, "next").status_code, 302)
        self.assertEqual(self.seq(), before)

    def test_list_shows_room_system_round_storyteller_fighters(self):
        response = self.reader().get("/fights/")
        self.assertEqual(response.status_code, 200)
        self.assertContains(response, f'<a href="/fights/{self.row.pk}/">{self.row.pk}</a>')
        self.assertContains(response, f'<a href="/fights/{self.row.pk}/">Room</a>')
        self.assertContains(response, "<td>storyteller</td>")
        self.assertContains(response, "<td>1</td>")
        self.assertContains(response, "<td>Char</td>")
        self.assertContains(response, "<td>Char2, Guard</td>")
        home = self.reader().get("/")
        self.assertContains(home, '<a class="nav-link" href="/fights/">Fights</a>')   # the menu
        self.assertContains(home, '<a href="/fights/">Fights</a>')   # the home page's text

    def test_a_player_sees_the_hud_and_narration_but_no_log_or_buttons(self):
        response = self.client_for(self.account2).get(self.url)
        self.assertEqual(response.status_code, 200)
        self.assertContains(response, "Round 1, Char2&#x27;s turn")
        self.assertContains(response, "Healthy &middot; 7/7", count=2)
        self.assertContains(response, "Char2 rolls initiative: Wits 2 + Dexterity 3 = 5 + 1d10 (4) = 9.")
        self.assertNotContains(response, 'id="fray-controls"')
        self.assertNotContains(response, "Roll log")
        self.assertNotContains(response, "fray-next")
        self.assertContains(response, '<p id="fray-unposed" class="mb-1">Still to pose this round: Char2</p>')

    def test_the_npc_button_takes_all_as_the_command_does(self):
        self.st(npcs.CmdNpc(), "/create Thug*2=thug")
        self.force(5, 6)
        self.assertEqual(self.press(self.client_for(self.account), "npc", {"name": "all"}).status_code, 303)
        rolled = [text for text in self.texts() if " rolls initiative:" in text]
        self.assertEqual([text.split(" rolls")[0] for text in rolled[-2:]], ["<Combat> Thug 1", "<Combat> Thug 2"])

    def test_the_storyteller_sees_the_log_and_the_buttons(self):
        response = self.client_for(self.account).get(self.url)
        self.assertContains(response, 'id="fray-next"')
        self.assertContains(response, "Roll log")
        self.assertContains(response, "#1 R1 Char2: initiative")

    def test_narration_and_log_run_newest_first_in_a_bounded_box(self):
        """A long fight's page stays short: the newest narration (and roll
        log entry) on top, in a box of at most 28em that scrolls; the poll's new entries
        go on top too (the page's script: insertBefore the first)."""
        self.force(6, 6, 6)
        self.player(fray.CmdAttack(), "Guard")
        page = self.client_for(self.account).get(self.url).content.decode()
        narration = page[page.index('id="fray-narration"'):page.index("Roll log")]
        seqs = [int(n) for n in re.findall(r'class="fray-line" data-seq="(\d+)"', narration)]
        self.assertGreaterEqual(len(seqs), 3)
        self.assertEqual(seqs, sorted(seqs, reverse=True))
        self.assertEqual(seqs[0], max(entry["seq"] for entry in tracker.narration(self.row.pk)))
        log = page[page.index('id="fray-log"'):]
        numbers = [int(n) for n in re.findall(r'class="fray-log" data-number="(\d+)"', log)]
        self.assertGreaterEqual(len(numbers), 2)
        self.assertEqual(numbers, sorted(numbers, reverse=True))
        self.assertIn("#fray-tracker .fray-scroll { max-height: 28em; overflow-y: auto; }", page)
        self.assertIn('<div id="fray-narration" class="fray-scroll', page)
        self.assertIn('<div id="fray-log" class="fray-scroll', page)
        self.assertEqual(page.count("box.insertBefore(line, box.firstChild);"), 1)
        self.assertEqual(page.count("box.insertBefore(node, box.firstChild);"), 1)
        self.assertNotIn("box.appendChild(line)", page)

    def test_unknown_fight_wrong_method_bad_cursor(self):
        web = self.reader()
        for url in ("/fights/999999/", "/fights/999999/state", "/fights/999999/verify"):
            self.assertEqual(web.get(url).status_code, 404, url)
        self.assertEqual(web.get("/fights/abc/").status_code, 404)
        self.assertEqual(web.get("/fights/99999999999999999999999/").status_code, 404)
        staff = self.client_for(self.account)
        self.assertEqual(staff.post("/fights/999999/next").status_code, 404)
        self.assertEqual(staff.get(f"{self.url}bogus").status_code, 404)
        for action in tracker.ACTIONS:
            self.assertEqual(staff.get(f"{self.url}{action}").status_code, 405, action)
        for url in ("/fights/", self.url, f"{self.url}state", f"{self.url}verify"):
            self.assertEqual(web.post(url).status_code, 405, url)
        for bad in ("x", "-1", "1.5", "١٢", "9" * 30):
            response = web.get(f"{self.url}state", {"after": bad})
            self.assertEqual(response.status_code, 400, bad)
            self.assertIn("whole number", response.json()["error"])


class TestState(TrackerTest):
    def test_nothing_changed_is_one_small_answer(self):
        web = self.reader()
        seq = self.seq()
        web.get("/fights/")   # the session and account are loaded once
        with CaptureQueriesContext(connection) as queries:
            self.assertEqual(self.state(web, after=seq), {"seq": seq, "ended": False, "changed": False})
        fray = [query["sql"] for query in queries if "fray_" in query["sql"]]
        self.assertEqual(len(fray), 1, fray)
        self.assertIn("fray_fight", fray[0])

    def test_a_change_gives_the_hud_and_only_the_new_narration(self):
        web = self.client_for(self.account2)
        first = self.state(web)
        self.assertTrue(first["changed"])
        self.assertEqual(first["seq"], self.seq())
        hud = first["hud"]
        self.assertEqual(hud["now"], "Round 1, Char2's turn")
        self.assertEqual(hud["turn"], ["Char2"])
        self.assertEqual(hud["order"], [["Char2"], ["Guard"]])
        self.assertEqual([(f["name"], f["initiative"], f["hp"], f["maxhp"], f["health"]) for f in hud["fighters"]],
                         [("Char2", 9, 7, 7, "Healthy"), ("Guard", 6, 7, 7, "Healthy")])
        self.assertEqual([f["ai"] for f in hud["fighters"]], [False, False])
        self.assertNotIn("log", first)
        # Char2 punches: 5 dice vs 6: 9 8 7 2 2 -> 3 successes; the Guard's defense waits.
        self.force(9, 8, 7, 2, 2)
        self.player(fray.CmdAttack(), "Guard")
        second = self.state(web, after=first["seq"])
        self.assertEqual([entry["text"].splitlines()[0] for entry in second["narration"]],
                         ["<Combat> Char2 attacks Guard with punch."])
        self.assertEqual(second["hud"]["waiting"], [{"id": 1, "attacker": "Char2", "target": "Guard"}])
        self.assertIsNone(second["hud"]["defense"])   # the defense is the Guard's, not Char2's
        # The Guard's condition shows on the HUD.
        encounters.update_conditions(self.encounter, self.guard, prone=True)
        self.encounter.row.seq += 1   # as the fight's next event would
        self.encounter.row.save(update_fields=["seq"])
        third = self.state(web, after=second["seq"])
        self.assertEqual([f["conditions"] for f in third["hud"]["fighters"]], [[], ["prone"]])
        self.assertEqual(third["narration"], [])

    def test_the_storyteller_gets_the_roll_log_after_a_number(self):
        data = self.state(self.client_for(self.account), log=1)
        self.assertEqual([(e["number"], e["actor"], e["what"]) for e in data["log"]], [(2, "Guard", "initiative")])

    def test_the_players_own_waiting_defense(self):
        # The Storyteller puts the Guard first; it punches Char2, who has an action to defend with.
        self.st(fray.CmdCombat(), "/order Guard=1")
        self.force(6, 6, 6)
        self.st(fray.CmdAttack(), "Guard=Char2")
        hud = self.state(self.client_for(self.account2))["hud"]
        self.assertEqual(hud["defense"]["attacker"], "Guard")
        self.assertEqual(hud["defense"]["choices"], ["dodge", "block", "none"])   # no weapon in hand: no parry
        self.assertEqual([f["name"] for f in hud["fighters"]], ["Guard", "Char2"])   # this round's order

    def test_an_npc_of_the_ai_is_marked(self):
        self.st(fray.CmdCombat(), "/ai Guard")   # Char2 acts first: the AI waits for its turn
        web = self.client_for(self.account2)
        self.assertEqual([(f["name"], f["ai"]) for f in self.state(web)["hud"]["fighters"]],
                         [("Char2", False), ("Guard", True)])
        self.assertContains(web.get(self.url), "<td>Guard (AI)")


class TestButtons(TrackerTest):
    def test_next_turn_calls_the_service_as_the_command_does(self):
        web = self.client_for(self.account)
        response = self.press(web, "next")
        self.assertEqual(response.status_code, 303)
        self.assertEqual(response["Location"], self.url)
        self.assertEqual(encounters.now_text(self.encounter), "Round 1, Guard's turn")
        self.assertEqual(self.texts()[-2:], ["<Combat> Char2 passes.", "<Combat> Round 1: Guard to act."])

    def test_two_presses_of_next_from_one_page_pass_one_turn(self):
        # the second press (a double click, a resent form) was made on a page showing the
        # fight before the first: refused, whatever the timing
        web = self.client_for(self.account)
        seen = self.seq()
        self.assertEqual(self.press(web, "next", seen=seen).status_code, 303)
        after = self.seq()
        response = self.press(web, "next", seen=seen)
        self.assertContains(response, "The fight moved on since your page showed it; nothing was done. "
                                      "Now: Round 1, Guard&#x27;s turn.", status_code=409)
        self.assertEqual((self.seq(), encounters.now_text(self.encounter)), (after, "Round 1, Guard's turn"))

    def test_a_press_without_the_page_seen_is_400(self):
        web = self.client_for(self.account)
        before = self.seq()
        for data in ({}, {"seen": ""}, {"seen": "-1"}, {"seen": "x"}, {"seen": "9" * 19}):
            response = web.post(f"{self.url}next", data)
            self.assertContains(response, "The form is out of date: reload the page.", status_code=400)
        self.assertEqual(self.seq(), before)

    def test_a_rule_refusal_is_409_with_its_text_and_changes_nothing(self):
        web = self.client_for(self.account)
        before = self.seq()
        response = self.press(web, "resolve")
        self.assertEqual(response.status_code, 409)
        self.assertContains(response, "No attacks are waiting for a defense.", status_code=409)
        self.assertEqual(self.seq(), before)
        response = self.press(web, "add", {"name": "Nobody"})
        self.assertContains(response, "No single character &#x27;Nobody&#x27; here.", status_code=409)
        self.assertEqual(self.seq(), before)

    def test_resolve_with_forced_dice_pins_the_health(self):
        # Char2's punch: 3 successes; undefended: Strength 2 + rollover 2 = 4 dice vs 6:
        # 10 6 2 2 -> 2; soak Stamina 2 vs 5: 1 1 -> 0. The Guard takes 2 bashing.
        self.force(9, 8, 7, 2, 2)
        self.player(fray.CmdAttack(), "Guard")
        self.force(10, 6, 2, 2, 1, 1)
        web = self.client_for(self.account)
        self.assertEqual(self.press(web, "resolve").status_code, 303)
        guard = [f for f in self.state(web)["hud"]["fighters"] if f["name"] == "Guard"][0]
        self.assertEqual((guard["hp"], guard["maxhp"], guard["health"]), (5, 7, "Hurt (-1)"))
        self.assertEqual(self.guard.health["storyteller"]["bashing"], 2)

    def test_a_player_pressing_a_button_gets_403_and_nothing_changes(self):
        web = self.client_for(self.account2)
        before = self.seq()
        for action in tracker.ACTIONS:
            response = web.post(f"{self.url}{action}", {"name": "Guard"})
            self.assertEqual(response.status_code, 403, action)
            self.assertContains(response, "Only this fight&#x27;s Storyteller or staff can", status_code=403)
        self.assertEqual(self.seq(), before)
        self.assertIsNotNone(encounters.encounter_in(self.room1))

    def test_csrf_is_required(self):
        web = self.client_for(self.account, enforce_csrf_checks=True)
        before = self.seq()
        self.assertEqual(self.press(web, "next").status_code, 403)
        self.assertEqual(self.press(web, "next", {"csrfmiddlewaretoken": "forged" * 6}).status_code, 403)
        self.assertEqual(self.seq(), before)
        page = web.get(self.url)
        token = page.cookies["csrftoken"].value
        self.assertEqual(self.press(web, "next", {"csrfmiddlewaretoken": token}).status_code, 303)
        self.assertGreater(self.seq(), before)

    def test_bad_form_input_is_400(self):
        web = self.client_for(self.account)
        before = self.seq()
        for data in ({"name": ""}, {"name": "x" * 81}, {"name": "Guard\nBob"}, {"name": "Orc", "numbers": "1\r2"}):
            self.assertEqual(self.press(web, "add", data).status_code, 400, data)
        self.assertEqual(self.press(web, "npc", {"name": "Orc", "numbers": "99+99"}).status_code, 409)
        for name in ("|rRed|n", "Ünïcødé", "<b>x</b>"):
            response = self.press(web, "add", {"name": name})
            self.assertEqual(response.status_code, 409, name)
            self.assertContains(response, "No single character", status_code=409)
        self.assertContains(self.press(web, "add", {"name": "<b>x</b>"}),
                            "No single character &#x27;&lt;b&gt;x&lt;/b&gt;&#x27; here.", status_code=409)
        self.assertEqual(self.seq(), before)

    def test_add_a_character_and_a_new_npc(self):
        stranger = create_object("typeclasses.characters.Character", key=EVIL, location=self.room1)
        update_sheet(stranger, "storyteller", traits={"Dexterity": 2, "Wits": 2})
        web = self.client_for(self.account)
        self.assertEqual(self.press(web, "add", {"name": EVIL}).status_code, 303)
        self.assertIn(stranger, encounters.fighters(self.encounter))
        self.force(5)
        self.assertEqual(self.press(web, "npc", {"name": "Orc", "numbers": "2+3"}).status_code, 303)
        self.assertEqual(self.texts()[-2:], ["<Combat> Orc rolls initiative: Wits 2 + Dexterity 3 = 5 + 1d10 (5) = 10.",
                                             "<Combat> Round 1: Orc to act."])
        page = self.reader().get(self.url)
        self.assertContains(page, "&lt;script&gt;alert(1)&lt;/script&gt; is brought into the fight.")
        self.assertNotContains(page, EVIL)
        listing = self.reader().get("/fights/")
        self.assertContains(listing, "Char2, Guard, &lt;script&gt;alert(1)&lt;/script&gt;, Orc")
        self.assertNotContains(listing, EVIL)
        data = self.state(self.reader())   # JSON: the page puts it in as text, never HTML
        self.assertIn(EVIL, [f["name"] for f in data["hud"]["fighters"]])

    def test_staff_not_in_the_fights_room_act_through_their_character(self):
        self.char1.location = self.room2
        web = self.client_for(self.account)
        self.assertEqual(self.press(web, "next").status_code, 303)
        self.assertEqual(encounters.now_text(self.encounter), "Round 1, Guard's turn")
        self.assertEqual(self.char1.location, self.room2)

    def test_a_narrator_players_character_runs_the_fight_it_was_handed(self):
        self.account2.permissions.add("Narrator")
        with fights.unit():
            self.encounter.storyteller = self.char2
        player, reader = self.client_for(self.account2), self.reader()
        self.assertContains(player.get(self.url), 'id="fray-next"')
        self.assertNotContains(reader.get(self.url), 'id="fray-next"')
        before = self.seq()
        self.assertEqual(self.press(reader, "next").status_code, 403)
        self.assertEqual(self.seq(), before)
        self.char2.location = None   # logged out: the character acts from where it is not
        self.assertEqual(self.press(player, "next").status_code, 303)
        self.assertEqual(encounters.now_text(self.encounter), "Round 1, Guard's turn")
        self.assertIsNone(self.char2.location)
        self.assertEqual(self.press(player, "add", {"name": "Char"}).status_code, 303)
        self.assertEqual(self.texts()[-2:], ["<Combat> Char is brought into the fight.",
                                             "<Combat> Char has no storyteller sheet: every pool is 0 until their "
                                             "traits are set (+stat, or +npc/set for NPCs)."])
        self.assertEqual(self.press(player, "end").status_code, 303)
        self.assertEqual(self.texts()[-1].splitlines()[0], "<Combat> Char2 ends the fight after 1 round.")
        self.assertIsNone(encounters.encounter_in(self.room1))

    def test_end_then_the_ended_page_and_verify(self):
        web = self.client_for(self.account)
        self.assertEqual(self.press(web, "end").status_code, 303)
        self.assertIsNone(encounters.encounter_in(self.room1))
        page = self.reader().get(self.url)
        self.assertEqual(page.status_code, 200)
        self.assertContains(page, "This fight has ended")
        self.assertContains(page, "Char ends the fight after 1 round.")
        self.assertContains(page, f'href="/fights/{self.row.pk}/verify"')
        self.assertNotContains(page, 'id="fray-controls"')
        state = self.state(self.reader())
        self.assertEqual((state["ended"], state["hud"]), (True, None))
        verify = self.reader().get(f"{self.url}verify")
        self.assertEqual(verify.status_code, 200)
        self.assertContains(verify, f"&lt;Combat&gt; Fight #{self.row.pk} (storyteller): seed matches its commitment.")
        self.assertContains(verify, "0 dice confirmed; 2 forced (test) dice.")
        before = self.seq()
        response = self.press(web, "next")
        self.assertContains(response, f"Fight #{self.row.pk} has ended.", status_code=409)
        self.assertEqual(self.seq(), before)
        self.assertNotContains(self.reader().get("/fights/"), f'href="/fights/{self.row.pk}/">{self.row.pk}<')

    def test_verify_of_a_running_fight_keeps_the_seed_secret(self):
        page = self.reader().get(f"{self.url}verify")
        self.assertContains(page, "is still running: its dice seed")
        self.assertNotContains(page, self.row.dice_seed)
