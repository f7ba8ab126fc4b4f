"""GMCP packages (world/gmcp.py): Char.Vitals and Fray.Combat, sent to sessions that take
out-of-band data, on login and when their content changes; nothing to the others."""

from types import SimpleNamespace
from unittest import mock

from evennia.objects.objects import ObjectSessionHandler

from commands import fray, npcs
from tests.game import fightview as encounters
from tests.game.test_combat_commands import FrayCommandTest
from world import gmcp
from world.sheets import add_traits


class FakeSession:
    def __init__(self, oob: bool):
        self.protocol_flags = {"OOB": oob}
        self.ndb = SimpleNamespace(fray_gmcp=None)
        self.sent = []

    def msg(self, **packages):
        self.sent.append(packages)

    def data_out(self, **kwargs):  # text for the character (obj.msg): not GMCP
        pass

    def packages(self, name):
        return [sent[name] for sent in self.sent if name in sent]


class GmcpTest(FrayCommandTest):
    def setUp(self):
        super().setUp()
        self.mudlet, self.plain = FakeSession(True), FakeSession(False)
        by_obj = {self.char2.id: [self.mudlet, self.plain]}
        patcher = mock.patch.object(ObjectSessionHandler, "all", lambda handler: by_obj.get(handler.obj.id, []))
        patcher.start()
        self.addCleanup(patcher.stop)

    def fight(self):
        """Char2 9, Guard 14: the Guard to act."""
        self.st(fray.CmdCombat(), "/start")
        self.player(fray.CmdCombat(), "/join")
        self.force(4)
        self.player(fray.CmdCombat(), "/init")
        self.force(9)
        self.st(npcs.CmdNpc(), "/init Guard=2+3")
        encounter = encounters.encounter_in(self.room1)
        guard = encounters.find_combatant(encounter, "Guard")
        add_traits(guard, "storyteller", Strength=2, Brawl=1)
        return encounter

    def test_login_sends_both_packages_to_the_gmcp_session_only(self):
        gmcp.refresh(self.char2, force=True)
        self.assertEqual(self.mudlet.sent, [{
            gmcp.VITALS: {"hp": 7, "maxhp": 7, "health": "Healthy", "down": False, "dead": False,
                          "system": "storyteller"},
            gmcp.COMBAT: {"active": False}}])
        self.assertEqual(self.plain.sent, [])
        gmcp.refresh(self.char2)  # nothing changed: nothing sent
        self.assertEqual(len(self.mudlet.sent), 1)

    def test_staff_damage_outside_a_fight_sends_the_new_vitals(self):
        gmcp.refresh(self.char2, force=True)
        self.st(fray.CmdDamage(), "Char2=2 lethal")
        self.assertEqual(self.mudlet.packages(gmcp.VITALS)[-1],
                         {"hp": 5, "maxhp": 7, "health": "Hurt (-1)", "down": False, "dead": False,
                          "system": "storyteller"})
        self.assertEqual(len(self.mudlet.packages(gmcp.COMBAT)), 1)  # unchanged: not sent again

    def test_the_fight_its_turn_a_waiting_defense_and_the_wound(self):
        encounter = self.fight()
        combat = self.mudlet.packages(gmcp.COMBAT)[-1]
        self.assertEqual((combat["active"], combat["system"], combat["round"], combat["turn"]),
                         (True, "storyteller", 1, ["Guard"]))
        self.assertEqual([(f["name"], f["npc"], f["initiative"], f["hp"]) for f in combat["fighters"]],
                         [("Char2", False, 9, 7), ("Guard", True, 14, 7)])
        self.assertEqual(combat["now"], "Round 1, Guard's turn")
        self.assertIsNone(combat["defense"])
        self.force(9, 8, 7, 2, 2)  # Guard: Dex 3 + Brawl 1 = 4 dice: 9 8 7 2 -> 3 successes
        self.st(fray.CmdAttack(), "Guard=Char2")
        defense = self.mudlet.packages(gmcp.COMBAT)[-1]["defense"]
        self.assertEqual({k: defense[k] for k in ("attacker", "successes")}, {"attacker": "Guard", "successes": 3})
        self.assertEqual(defense["choices"][-1], "none")
        self.assertIn("dodge", defense["choices"])
        sent_before = len(self.mudlet.sent)
        self.force(10, 10, 10, 10, 10, 2, 2)  # damage hits, soak misses
        self.player(fray.CmdDefend(), "none")
        self.assertEqual(len(self.mudlet.sent), sent_before + 1)  # one command, one message
        vitals = self.mudlet.packages(gmcp.VITALS)[-1]
        self.assertLess(vitals["hp"], 7)
        combat = self.mudlet.packages(gmcp.COMBAT)[-1]
        self.assertIsNone(combat["defense"])
        self.assertEqual(combat["fighters"][0]["hp"], vitals["hp"])
        self.assertEqual(combat["fight"], encounter.id)
        self.st(npcs.CmdNpc(), "/remove Guard")  # out of the fight: its package follows
        self.assertEqual([f["name"] for f in self.mudlet.packages(gmcp.COMBAT)[-1]["fighters"]], ["Char2"])
        self.st(fray.CmdCombat(), "/end")
        self.assertEqual(self.mudlet.packages(gmcp.COMBAT)[-1], {"active": False})
        self.assertEqual(self.plain.sent, [])


class ScreenReaderTest(FrayCommandTest):
    """A session with the screen-reader flag gets Fray's views as sentences."""

    def setUp(self):
        super().setUp()
        self.session.protocol_flags["SCREENREADER"] = True
        self.addCleanup(self.session.protocol_flags.pop, "SCREENREADER", None)

    def test_the_hud_is_a_sentence_a_fighter(self):
        self.st(fray.CmdCombat(), "/start")
        self.force(9)
        self.st(npcs.CmdNpc(), "/init Guard=2+3")
        hud = self.st(fray.CmdCombat(), "")
        self.assertEqual(hud.splitlines()[1:], [
            "Round 1. Storyteller: Char. Turn: Guard.",
            "1, Guard (NPC), init 14, health Healthy, 7 of 7 free, status TO ACT.",   # the track from its counts
            "Declare (low to high): Guard.",
            "Storyteller: +combat/next 1 passes this turn and no later one."])
        self.assertNotIn("~", hud)
        log = self.st(fray.CmdCombat(), "/log")
        self.assertIn("Entry 1, round 1, Guard: initiative", log)

    def test_the_hud_shown_by_combat_start_is_sentences_too(self):
        started = self.st(fray.CmdCombat(), "/start")
        self.assertIn("Round 1. Storyteller: Char.", started)
        self.assertNotIn("~", started)

    def test_the_elethril_hud_has_no_columns(self):
        hud = self.st(fray.CmdCombat(), "/start elethril")
        self.assertIn("Round 1 segments, lowest first.", hud)
        self.assertNotIn("~", hud)
        self.assertNotIn(" 1  .", hud)

    def test_text_is_never_reparsed_for_a_track_only_arrows_read_as_words(self):
        from rules.text import printable
        from world.text import speak

        # a pose that looks like a track is read as typed: a track's words come from its counts
        self.assertEqual(speak("I got an [A] on it, [BB.....] and [x]"), "I got an [A] on it, [BB.....] and [x]")
        self.assertEqual(speak("9 8 -> 1 success"), "9 8 gives 1 success")
        self.assertEqual(printable("a\U0001f600b\u00e9"), "a\\U0001f600b\\u00e9")

    def test_a_health_change_is_said_in_words_from_the_track(self):
        out = self.st(fray.CmdDamage(), "Char2=2 bashing")
        self.assertEqual(out, "<Combat> Char2: Healthy, 7 of 7 free + 2 bashing -> Hurt (-1), 2 bashing, 5 of 7 free")
        self.session.protocol_flags["SCREENREADER"] = False
        out = self.st(fray.CmdDamage(), "Char2=1 lethal")
        self.assertEqual(out, "<Combat> Char2: Hurt (-1) [BB.....] + 1 lethal -> Injured (-1) [LBB....]")

    def test_a_sentence_keeps_a_name_that_is_a_dash(self):
        from world.text import sentences

        self.assertEqual(sentences(("Name", "Init", "Status"), [("-", "-", "acted")]), "-, status acted.")

    def test_lists_and_the_sheet_are_sentences(self):
        sheet = self.st(fray.CmdSheet(), "Char2")
        self.assertIn("Dexterity: 3, ", sheet)
        self.assertIn("Health (storyteller): Healthy, 7 of 7 free", sheet)
        self.assertNotIn("   ", sheet)
        self.st(npcs.CmdNpc(), "/create Thug")
        listed = self.st(npcs.CmdNpc(), "/list")
        self.assertIn("Thug*, kind Muggle, health Healthy, 7 of 7 free.", listed)   # from the track's counts
        self.assertNotIn("~", listed)

    def test_a_plain_session_keeps_its_columns(self):
        self.session.protocol_flags["SCREENREADER"] = False
        self.st(npcs.CmdNpc(), "/create Thug")
        self.assertIn("~~~~", self.st(npcs.CmdNpc(), "/list"))

    def test_text_to_a_screen_reader_reads_arrows_as_words(self):
        from server.conf.serversession import ServerSession

        session = ServerSession()
        session.protocol_flags = {"SCREENREADER": True}
        session.sessionhandler = mock.Mock()
        session.data_out(text=("Alice takes 2 levels: Hurt (-1), 1 lethal, 1 bashing, 5 of 7 free; 9 8 -> 1 success", {}))
        self.assertEqual(session.sessionhandler.data_out.call_args.kwargs["text"][0],
                         "Alice takes 2 levels: Hurt (-1), 1 lethal, 1 bashing, 5 of 7 free; 9 8 gives 1 success")
        session.protocol_flags = {}
        session.data_out(text="Hurt (-1) [LB.....] 9 8 -> 1 success")
        self.assertEqual(session.sessionhandler.data_out.call_args.kwargs["text"], "Hurt (-1) [LB.....] 9 8 -> 1 success")


class TestLateNegotiation(FrayCommandTest):
    """A client that logs in before the Portal tells the Server it took GMCP
    (TinTin++ typing the login at once) gets the login's packages when the Portal does."""

    def server_session(self, oob: bool, puppet=None):
        from server.conf.serversession import ServerSession

        session = ServerSession()
        session.protocol_flags = {"OOB": oob, "SCREENWIDTH": {0: 78}}
        session.puppet = puppet
        return session

    def test_the_packages_follow_the_late_news(self):
        with mock.patch.object(gmcp, "refresh") as refresh:
            late = self.server_session(False, self.char2)
            late.load_sync_data({"protocol_flags": {"OOB": True}, "protocol_key": "telnet"})
            refresh.assert_called_once_with(self.char2, force=True)
            self.assertEqual(late.protocol_flags, {"OOB": True, "SCREENWIDTH": {0: 78}})
            refresh.reset_mock()
            late.load_sync_data({"protocol_flags": {"OOB": True}})   # already known: nothing again
            refresh.assert_not_called()
            self.server_session(False, None).load_sync_data({"protocol_flags": {"OOB": True}})   # not logged in
            refresh.assert_not_called()
            self.server_session(False, self.char2).load_sync_data({"protocol_flags": {"OOB": False}})
            refresh.assert_not_called()


def test_a_waiting_defense_words_an_attack_label_the_rules_give_as_a_line():
    """An eldritch attack's label with its grip noted is a line of the catalogue: Fray.Combat's
    defense sends it worded."""
    from rules.systems import get_system
    from rules.systems.base import Combatant
    from tests.rules.forced_dice import dice

    system = get_system("eldritch")
    wil = Combatant("Wil", traits={"Strength": 2, "Dexterity": 3, "Melee": 3}, weapon="sword")
    bob = Combatant("Bob", traits={"Dexterity": 3})
    attack = system.attack(wil, bob, "sword 2h", dice(9))
    d = SimpleNamespace(pending=[SimpleNamespace(id=4, attacker=1, target=2, attack=7)], system=system,
                        attack_of=lambda _: attack, combatant=lambda _: bob, name={1: "Wil", 2: "Bob"}.get)
    assert gmcp.defense_for(d, 2)["attack"] == "sword (two-handed)"
