"""The web tracker by push (world/live.py): a page's session follows a fight with a signed
ticket, is caught up from its last event, gets each change once after the commit and nothing
while the fight is quiet; a player's buttons go through the commands' services and refusals;
a forged ticket or action is refused and changes nothing."""

import json

from django.core import signing

from commands import fray
from tests.game import fightview as encounters
from tests.game.test_aeon_commands import AeonFightTest
from tests.game.test_eldritch_commands import EldritchFightTest
from tests.game.test_tracker import TrackerTest
from world import live, tracker
from world.combat import set_idle_on_disconnect


class Page:
    """A tracker page's websocket session as the Server sees it: what it was sent."""

    _next = iter(range(9000, 10000))

    def __init__(self):
        self.sessid = next(self._next)
        self.sent: list[dict] = []

    def msg(self, **kwargs):
        self.sent.append(kwargs)

    def fights(self) -> list[tuple[dict, dict]]:
        return [(json.loads(m["fray_fight"][0]), json.loads(m["fray_fight"][1])) for m in self.sent if "fray_fight" in m]

    def refusals(self) -> list[str]:
        return [m["fray_refused"] for m in self.sent if "fray_refused" in m]


class PushTest(TrackerTest):
    def tearDown(self):
        live._watchers.clear()
        super().tearDown()

    def open_page(self, account, seq=0, log=0) -> Page:
        page = Page()
        live.watch(page, live.ticket(account, self.row.pk), seq, log)
        return page


class TestFollowing(PushTest):
    def test_a_page_is_caught_up_at_once_with_the_hud_and_every_line(self):
        page = self.open_page(self.account2)
        [(shared, mine)] = page.fights()
        self.assertEqual(shared["seq"], self.seq())
        self.assertEqual(shared["hud"]["now"], "Round 1, Char2's turn")
        self.assertEqual([entry["seq"] for entry in shared["narration"]],
                         [entry["seq"] for entry in tracker.narration(self.row.pk)])
        self.assertEqual((shared["ended"], shared["full"]), (False, False))
        self.assertEqual(mine["runs"], False)
        self.assertNotIn("log", mine)   # a player never gets the roll log
        system = encounters.system_of(self.encounter)
        self.assertEqual(mine["controls"], {
            "name": "Char2", "turn": True, "defense": None, "targets": ["Guard"],
            "attacks": ["", *system.attack_options()], "actions": ["attack", "pass", "cast"],
            "spells": sorted(spell.name for spell in system.magic.spells.values())})
        self.assertIn("Accio", mine["controls"]["spells"])

    def test_a_reconnect_is_sent_only_what_it_missed(self):
        seq = self.seq()
        self.force(9, 8, 7, 2, 2)
        self.player(fray.CmdAttack(), "Guard")
        page = self.open_page(self.account2, seq=seq)
        [(shared, _)] = page.fights()
        self.assertEqual(shared["seq"], self.seq())
        self.assertEqual([entry["text"].splitlines()[0] for entry in shared["narration"]],
                         [entry["text"].splitlines()[0] for entry in tracker.narration(self.row.pk, seq)])
        self.assertEqual(len(shared["narration"]), 1)
        self.assertIn("Char2 attacks Guard with punch.", shared["narration"][0]["text"])
        again = self.open_page(self.account2, seq=self.seq())
        self.assertEqual(again.fights()[0][0]["narration"], [])

    def test_too_much_missed_is_sent_as_the_newest_lines_to_redraw(self):
        from unittest import mock

        with mock.patch.object(live, "CATCH_UP", 2):
            [(shared, _)] = self.open_page(self.account2).fights()
        self.assertEqual(shared["full"], True)
        self.assertEqual([entry["seq"] for entry in shared["narration"]],
                         [entry["seq"] for entry in tracker.narration(self.row.pk)][-2:])

    def test_each_change_is_pushed_once_to_every_page_with_the_storytellers_log_only(self):
        player, st = self.open_page(self.account2), self.open_page(self.account, log=2)
        self.assertEqual(st.fights()[0][1]["log"], [])   # it showed both entries already
        seq = self.seq()
        self.force(9, 8, 7, 2, 2)
        self.player(fray.CmdAttack(), "Guard")
        # (the game tests have no reactor: each event's tick is its own, so one push an event;
        # the Server pushes once a tick, a command's events together)
        pushed = player.fights()[1:]
        self.assertEqual(self.seq(), seq + 2)   # the attack and the Guard's defense prompt
        self.assertEqual([shared["seq"] for shared, _ in pushed], [seq + 1, seq + 2])
        self.assertEqual([entry["seq"] for shared, _ in pushed for entry in shared["narration"]], [seq + 1])
        shared, mine = pushed[-1]
        self.assertEqual(shared["hud"]["waiting"], [{"id": 1, "attacker": "Char2", "target": "Guard"}])
        self.assertNotIn("log", mine)
        st_pushed = st.fights()[1:]
        self.assertEqual([shared for shared, _ in st_pushed], [shared for shared, _ in pushed])   # the same for every page
        self.assertEqual({st_mine["runs"] for _, st_mine in st_pushed}, {True})
        self.assertEqual([(e["number"], e["actor"], e["what"]) for _, st_mine in st_pushed for e in st_mine["log"]],
                         [(3, "Char2", "punch at Guard")])
        st_mine = st_pushed[-1][1]
        self.assertIsNone(st_mine["controls"])   # the Storyteller does not fight

    def test_a_quiet_fight_sends_nothing(self):
        page = self.open_page(self.account2)
        self.player(fray.CmdCombat(), "")    # the HUD: read only
        self.st(fray.CmdCombat(), "/list")
        self.assertEqual(len(page.sent), 1)

    def test_a_closed_page_is_sent_nothing_more(self):
        page = self.open_page(self.account2)
        live.forget(page)
        self.force(9, 8, 7, 2, 2)
        self.player(fray.CmdAttack(), "Guard")
        self.assertEqual(len(page.sent), 1)
        self.assertEqual(live.watchers(self.row.pk), [])

    def test_the_end_is_pushed_and_the_page_dropped(self):
        page = self.open_page(self.account2)
        self.st(fray.CmdCombat(), "/end")
        shared, mine = page.fights()[-1]
        self.assertEqual((shared["ended"], shared["hud"], mine["controls"]), (True, None, None))
        self.assertEqual(live.watchers(self.row.pk), [])


class TestPage(PushTest):
    def test_the_page_carries_its_ticket_and_never_polls(self):
        import re

        page = self.client_for(self.account2).get(self.url).content.decode()
        ticket = re.search(r'data-ticket="([^"]+)"', page).group(1)
        self.assertEqual(signing.loads(ticket, salt=live.SALT), {"a": self.account2.id, "f": self.row.pk})
        self.assertIn('["fray_track", [root.dataset.ticket, seq, logAfter], {}]', page)
        self.assertEqual(page.count("new WebSocket("), 1)
        for polling in ("fetch(", "setInterval", "XMLHttpRequest", "/state"):
            self.assertNotIn(polling, page)


class TestForged(PushTest):
    def test_a_forged_or_stale_ticket_is_refused_and_follows_nothing(self):
        good = live.ticket(self.account2, self.row.pk)
        for bad in ("", "x", good[:-2] + "xx", signing.dumps({"a": self.account2.id, "f": self.row.pk}),
                    signing.dumps({"a": self.account2.id}, salt=live.SALT), None, 5):
            page = Page()
            live.watch(page, bad, 0, 0)
            self.assertEqual(page.refusals(), ["This page's ticket is not valid: reload the page."], bad)
            self.assertEqual(page.fights(), [])
        self.assertEqual(live.watchers(self.row.pk), [])

    def test_a_disabled_accounts_ticket_is_refused(self):
        ticket = live.ticket(self.account2, self.row.pk)
        self.account2.is_active = False
        self.account2.save()
        page = Page()
        live.watch(page, ticket, 0, 0)
        self.assertEqual(page.refusals(), ["This page's ticket is not valid: reload the page."])
        self.assertEqual(live.watchers(self.row.pk), [])

    def test_a_page_following_the_fight_cannot_act_once_its_account_is_disabled(self):
        page = self.open_page(self.account2)
        seq = self.seq()
        self.account2.is_active = False
        self.account2.save()
        live.act(page, fight=self.row.pk, action="pass", seen=seq)
        self.assertEqual(page.refusals(), ["This page's ticket is not valid: reload the page."])
        self.assertEqual((self.seq(), live.watchers(self.row.pk)), (seq, []))

    def test_a_press_that_does_not_say_what_the_page_showed_is_refused(self):
        page = self.open_page(self.account2)
        seq = self.seq()
        live.act(page, fight=self.row.pk, action="pass")
        self.assertEqual(page.refusals(), ["The fight moved on: look again before you act."])
        self.assertEqual(self.seq(), seq)

    def test_a_ticket_for_a_fight_that_never_was_is_refused(self):
        page = Page()
        live.watch(page, live.ticket(self.account2, 999999), 0, 0)
        self.assertEqual(page.refusals(), ["There is no fight #999999."])

    def test_an_action_from_a_page_that_follows_no_fight_is_refused(self):
        seq = self.seq()
        page = Page()
        live.act(page, fight=self.row.pk, action="attack", target="Guard", option="", seen=seq)
        other = self.open_page(self.account2)
        live.act(other, fight=self.row.pk + 1, action="pass", seen=seq)
        self.assertEqual(page.refusals() + other.refusals(),
                         ["This page does not follow that fight: reload the page."] * 2)
        self.assertEqual(self.seq(), seq)

    def test_an_account_with_no_character_in_the_fight_cannot_act(self):
        self.reader()
        page = self.open_page(self.reader_account)
        seq = self.seq()
        live.act(page, fight=self.row.pk, action="pass", seen=seq)
        self.assertEqual(page.refusals(), ["You have no character in this fight."])
        self.assertEqual(self.seq(), seq)
        self.assertIsNone(page.fights()[0][1]["controls"])

    def test_a_storytellers_page_gets_no_player_controls_and_cannot_pass_for_others(self):
        page = self.open_page(self.account)
        live.act(page, fight=self.row.pk, action="pass", seen=self.seq())
        self.assertEqual(page.refusals(), ["You have no character in this fight."])
        self.assertEqual(encounters.now_text(self.encounter), "Round 1, Char2's turn")


class TestPlaying(PushTest):
    def test_a_player_attacks_from_the_page_and_the_room_is_told(self):
        page = self.open_page(self.account2)
        self.force(9, 8, 7, 2, 2)
        live.act(page, fight=self.row.pk, action="attack", target="Guard", option="", seen=self.seq())
        self.assertEqual(page.refusals(), [])
        self.assertEqual(len(encounters.pending_attacks(self.encounter)), 1)
        self.assertIn("Char2 attacks Guard with punch.", tracker.narration(self.row.pk)[-1]["text"])
        shared, mine = page.fights()[-1]
        self.assertEqual(shared["seq"], self.seq())
        self.assertEqual(mine["controls"]["turn"], False)

    def test_the_commands_refusals_change_nothing(self):
        page = self.open_page(self.account2)
        seq = self.seq()
        for fields, refusal in (
            ({"action": "attack", "target": "Nobody"}, "No combatant 'Nobody' in this fight."),
            ({"action": "attack", "target": "Guard", "seen": seq - 1},
             "The fight moved on since your page showed it; nothing was done. Now: Round 1, Char2's turn."),
            ({"action": "defend", "option": "dodge"}, None),
            ({"action": "split", "option": "2"}, "The storyteller rules have no split actions."),
            ({"action": "cast", "option": "x"}, None),
            ({"action": "move", "option": "stand"}, "The storyteller rules have no movement actions."),
            ({"action": "bogus"}, "Unknown action 'bogus'."),
            ({"action": "attack", "target": "Guard\nx"}, "A name or choice: one line of at most 80 characters."),
        ):
            page.sent.clear()
            live.act(page, fight=self.row.pk, **{"seen": seq, **fields})
            [said] = page.refusals()
            if refusal is not None:
                self.assertEqual(said, refusal, fields)
            self.assertEqual(self.seq(), seq, fields)
        self.assertEqual(encounters.now_text(self.encounter), "Round 1, Char2's turn")

    def test_out_of_turn_the_command_refusal(self):
        self.st(fray.CmdCombat(), "/order Guard=1")
        page = self.open_page(self.account2)
        seq = self.seq()
        live.act(page, fight=self.row.pk, action="pass", seen=seq)
        live.act(page, fight=self.row.pk, action="attack", target="Guard", seen=seq)
        self.assertEqual(page.refusals(), ["It is not Char2's turn: waiting on Guard."] * 2)
        self.assertEqual(self.seq(), seq)

    def test_a_player_defends_with_a_button(self):
        self.st(fray.CmdCombat(), "/order Guard=1")
        self.force(6, 6, 6)
        self.st(fray.CmdAttack(), "Guard=Char2")
        page = self.open_page(self.account2)
        defense = page.fights()[0][1]["controls"]["defense"]
        self.assertEqual((defense["attacker"], defense["choices"]), ("Guard", ["dodge", "block", "none"]))
        self.force(2, 2, 2, 2, 2, 1, 1, 1, 1)
        live.act(page, fight=self.row.pk, action="defend", option="dodge", seen=0)
        self.assertEqual(page.refusals(), [])
        self.assertEqual(encounters.pending_attacks(self.encounter), [])
        self.assertIsNone(page.fights()[-1][1]["controls"]["defense"])

    def test_a_player_passes_their_turn(self):
        page = self.open_page(self.account2)
        live.act(page, fight=self.row.pk, action="pass", seen=self.seq())
        self.assertEqual(page.refusals(), [])
        self.assertEqual(encounters.now_text(self.encounter), "Round 1, Guard's turn")
        texts = [entry["text"] for entry in tracker.narration(self.row.pk)]
        self.assertIn("Char2 passes.", texts[-2])
        self.assertIn("Round 1: Guard to act.", texts[-1])


class TestSessions(PushTest):
    def test_a_character_still_connected_elsewhere_is_not_idle(self):
        self.char2.sessions.count = lambda: 1
        set_idle_on_disconnect(self.char2)
        self.assertFalse(encounters.is_idle(self.encounter, self.char2))
        self.char2.sessions.count = lambda: 0
        set_idle_on_disconnect(self.char2)
        self.assertTrue(encounters.is_idle(self.encounter, self.char2))

    def test_the_game_runs_one_character_from_many_connections(self):
        from django.conf import settings

        self.assertEqual((settings.MULTISESSION_MODE, settings.AUTO_PUPPET_ON_LOGIN, settings.MAX_NR_CHARACTERS),
                         (1, True, 1))


class SystemPage:
    """A player's page in another system's fight (mixed into that system's fight test)."""

    def open_players_page(self) -> Page:
        self.account2.characters.add(self.char2)
        self.addCleanup(live._watchers.clear)
        page = Page()
        live.watch(page, live.ticket(self.account2, self.encounter.pk), 0, 0)
        return page


class TestAeonSplitFromThePage(SystemPage, AeonFightTest):
    def test_split_is_offered_and_done_as_the_command_does(self):
        page = self.open_players_page()
        controls = page.fights()[0][1]["controls"]
        self.assertEqual((controls["turn"], controls["actions"]), (True, ["attack", "pass", "split"]))
        live.act(page, fight=self.encounter.pk, action="split", option="0", seen=self.encounter.seq)
        self.assertEqual(page.refusals(), ["Declare 1 to 10 actions, not 0."])
        self.assertNotIn("split", self.state(self.char2))
        live.act(page, fight=self.encounter.pk, action="split", option="2", seen=self.encounter.seq)
        self.assertEqual(page.refusals(), ["Declare 1 to 10 actions, not 0."])
        self.assertEqual(self.state(self.char2)["split"], 2)
        self.assertIn("Char2 splits the round's actions.", tracker.narration(self.encounter.pk)[-1]["text"])


class TestEldritchMoveFromThePage(SystemPage, EldritchFightTest):
    def test_move_is_offered_and_done_as_the_command_does(self):
        self.initiative(10, 5)
        page = self.open_players_page()
        controls = page.fights()[0][1]["controls"]
        self.assertEqual((controls["turn"], controls["actions"]), (True, ["attack", "pass", "move"]))
        live.act(page, fight=self.encounter.pk, action="move", option="run", seen=self.encounter.seq)
        self.assertEqual(page.refusals(), [])
        texts = [entry["text"] for entry in tracker.narration(self.encounter.pk)]
        self.assertTrue(any("Char2 moves." in text and "Char2 spends an action: run." in text for text in texts),
                        texts[-3:])
        seq = self.encounter.seq
        live.act(page, fight=self.encounter.pk, action="move", option="fly away", seen=seq)
        self.assertEqual(page.refusals(), ["Move how? draw, stand, release, cover, run, climb, leap, swing, catch, "
                                           "crawl, transform, go (help +move)."])
        self.assertEqual(self.encounter.seq, seq)
