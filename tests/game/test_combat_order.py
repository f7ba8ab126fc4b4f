"""+combat/order: the Storyteller's acting order for this round (world/combat_order.py).

A storyteller fight: Char2 (initiative 9), the NPC Guard (6) and the NPC Gus (3), so the
order by initiative is Char2, Guard, Gus."""

import re

from commands import fray, npcs
from tests.game import fightview as encounters
from tests.game.test_combat_commands import FrayCommandTest
from world import fights, gmcp
from world.models import Fight
from world.sheets import add_traits, update_sheet

USAGE = "<Fray> Usage: +combat/order <name>=<place>, or =before <name>, or =after <name>."


def rows(hud: str) -> list[tuple[str, str]]:
    """The HUD's (place, name) rows, in order."""
    return [tuple(line.split()[:2]) for line in hud.splitlines() if re.match(r"\s*\d+\s", line)]


class OrderTest(FrayCommandTest):
    def setUp(self):
        super().setUp()
        self.events = []
        fights.subscribe(self.events.append)
        self.addCleanup(fights._subscribers.remove, self.events.append)

    def fight(self):
        self.guard = self.storyteller_fight("Guard")
        self.force(1)
        self.st(npcs.CmdNpc(), "/init Gus=1+1", "<Combat> Gus rolls initiative: Wits 1 + Dexterity 1 = 2 + 1d10 (1) = 3.")
        self.gus = encounters.find_combatant(self.encounter, "Gus")
        return self.encounter

    def names(self):
        return [list(slot.names) for slot in encounters.schedule(self.encounter).slots]

    def order(self, args, expected=None, caller=None):
        return self.call(fray.CmdCombat(), f"/order {args}", expected, caller=caller or self.char1)

    def saved(self):
        """The fight as the database has it: its state, its log size, its events."""
        row = Fight.objects.get(pk=self.encounter.id)
        return row.state, row.log_count, row.seq


class TestMoving(OrderTest):
    def test_the_order_alone_by_initiative(self):
        self.fight()
        out = self.st(fray.CmdCombat(), "/order")
        self.assertEqual(out.splitlines(), [
            "<Combat> Acting order, round 1 (by initiative)",
            " 1. Char2 (init 9, to act)",
            " 2. Guard (init 6)",
            " 3. Gus (init 3)"])
        self.assertEqual(self.player(fray.CmdCombat(), "/order"), out)   # anyone may look

    def test_by_place_the_st_puts_gus_first_and_gus_acts_now(self):
        self.fight()
        self.events.clear()
        out = self.order("Gus=1")
        self.assertIn("You put Gus at place 1 of this round's order.", out)
        self.assertIn("  Round 1 order: 1. Gus, 2. Char2, 3. Guard", out)
        self.assertIn("Round 1: Gus to act.", out)
        self.assertEqual(self.names(), [["Gus"], ["Char2"], ["Guard"]])
        self.assertEqual(encounters.current_slot(self.encounter), (3, [self.gus]))
        self.player(fray.CmdAttack(), "Guard", "<Fray> It is not Char2's turn: waiting on Gus.")
        hud = self.player(fray.CmdCombat(), "")
        self.assertEqual(rows(hud), [("1", "Gus"), ("2", "Char2"), ("3", "Guard")])
        self.assertRegex(hud, r"1\s+Gus \(NPC\)\s+3\s+.*TO ACT")
        self.assertIn("Order: the Storyteller's, this round only (+combat/order).", hud)
        order_events = [event.data for event in self.events if event.kind == "order"]
        self.assertEqual(order_events, [{"round": 1, "order": [["Gus"], ["Char2"], ["Guard"]]}])
        turns = [event.data for event in self.events if event.kind == "turn"]
        self.assertEqual(turns, [{"round": 1, "slot": 3, "waiting": ["Gus"]}])
        self.assertEqual(gmcp.combat(self.encounter.row, self.char2)["order"], [["Gus"], ["Char2"], ["Guard"]])
        self.assertEqual(gmcp.combat(self.encounter.row, self.char2)["turn"], ["Gus"])
        listing = self.st(fray.CmdCombat(), "/order")
        self.assertEqual(listing.splitlines()[:2], ["<Combat> Acting order, round 1 (the Storyteller's)",
                                                    " 1. Gus (init 3, to act)"])
        self.assertIn("Next round goes by initiative again.", listing)

    def test_before_and_after(self):
        self.fight()
        out = self.order("gus=before guard")   # names case-insensitive
        self.assertIn("You put Gus at place 2 of this round's order.", out)
        self.assertNotIn("to act.", out)   # Char2 still to act: no new turn told
        self.assertEqual(self.names(), [["Char2"], ["Gus"], ["Guard"]])
        self.order("Char2=after Guard", "<Combat> You put Char2 at place 3 of this round's order.")
        self.assertEqual(self.names(), [["Gus"], ["Guard"], ["Char2"]])
        self.assertEqual(encounters.current_slot(self.encounter)[1], [self.gus])

    def test_the_order_is_played_and_the_next_round_goes_by_initiative(self):
        self.fight()
        self.order("Gus=1")
        self.order("Guard=2")
        self.assertEqual(self.names(), [["Gus"], ["Guard"], ["Char2"]])
        self.st(fray.CmdCombat(), "/next", "<Combat> Gus passes.")
        self.assertEqual(encounters.current_slot(self.encounter)[1], [self.guard])
        self.st(fray.CmdCombat(), "/next", "<Combat> Guard passes.")
        self.assertEqual(encounters.current_slot(self.encounter)[1], [self.char2])
        out = self.st(fray.CmdCombat(), "/next")
        self.assertIn("Round 2 begins.", out)
        self.assertIn("Round 2: Char2 to act.", out)
        self.assertIsNone(self.encounter.order)
        self.assertEqual(self.names(), [["Char2"], ["Guard"], ["Gus"]])
        self.assertNotIn("Order: the Storyteller's", self.player(fray.CmdCombat(), ""))

    def test_logged_once_in_the_roll_log(self):
        self.fight()
        self.order("Gus=2")
        self.player(fray.CmdCombat(), "")
        self.st(fray.CmdCombat(), "/order")
        entries = [entry for entry in fights.log_entries(self.encounter.row) if entry["what"].startswith("order")]
        self.assertEqual(entries, [{"number": 4, "round": 1, "actor": "Char", "what": "order: Gus to place 2",
                                    "lines": ["Round 1 order: 1. Char2, 2. Gus, 3. Guard"], "spoken": []}])
        self.assertIn("#4 R1 Char: order: Gus to place 2", self.st(fray.CmdCombat(), "/log"))

    def test_the_order_survives_a_reload_of_the_fight_state(self):
        self.fight()
        self.order("Gus=1")
        row = Fight.objects.get(pk=self.encounter.id)
        self.assertEqual(row.state["order"], {"round": 1, "slots": [[[3, "Gus"]], [[9, "Char2"]], [[6, "Guard"]]]})
        self.encounter.forget()   # as after a reload: read the row anew
        self.assertEqual(self.names(), [["Gus"], ["Char2"], ["Guard"]])
        self.assertEqual(rows(self.player(fray.CmdCombat(), "")), [("1", "Gus"), ("2", "Char2"), ("3", "Guard")])

    def test_a_tie_stays_together_and_the_one_moved_goes_alone(self):
        self.guard = self.storyteller_fight("Guard")
        self.force(1)
        self.st(npcs.CmdNpc(), "/init Gus=2+3")   # 6, Wits + Dexterity 5: tied with the Guard
        self.gus = encounters.find_combatant(self.encounter, "Gus")
        self.assertEqual(self.names(), [["Char2"], ["Guard", "Gus"]])
        self.order("Gus=1", "<Combat> You put Gus at place 1 of this round's order.")
        self.assertEqual(self.names(), [["Gus"], ["Char2"], ["Guard"]])

    def test_a_late_initiative_roll_takes_its_place_after_the_one_before_it(self):
        self.fight()
        self.order("Gus=1")
        self.force(5)
        self.st(npcs.CmdNpc(), "/init Orc=2+2")    # 9: after Char2 (9, Wits + Dexterity 5), before Guard
        self.assertEqual(self.names(), [["Gus"], ["Char2"], ["Orc"], ["Guard"]])

    def test_staff_who_is_not_the_storyteller_may_move(self):
        self.fight()
        self.encounter.storyteller = self.char2      # the scene handed over; Char1 is staff
        self.order("Guard=1", "<Combat> You put Guard at place 1 of this round's order.")


class TestRefusals(OrderTest):
    def refused(self, args, expected, caller=None):
        before = self.saved()
        schedule = self.names()
        self.events.clear()
        self.order(args, expected, caller=caller)
        self.assertEqual(self.saved(), before)
        self.assertEqual(self.names(), schedule)
        self.assertEqual(self.events, [])

    def test_bad_names_and_places(self):
        self.fight()
        self.refused("Zed=1", "<Fray> No combatant 'Zed' in this fight.")
        self.refused("G=1", "<Fray> 'G' could be: Guard, Gus.")
        self.refused("Gus=before Zed", "<Fray> No combatant 'Zed' in this fight.")
        for place in ("0", "99", "4"):
            self.refused(f"Gus={place}", "<Fray> Give Gus a place from 1 to 3.")
        for bad in ("-1", "x", "1.5", "９", "9999", "before", "|r1", "after  "):
            self.refused(f"Gus={bad}", USAGE)
        self.refused("Gus", USAGE)
        self.refused("=1", USAGE)
        self.refused("Gus=before Gus", "<Fray> Put Gus before or after someone else.")
        self.refused("Char2=1", "<Fray> Char2 is already at place 1.")
        self.refused("Gus=after Guard", "<Fray> Gus is already at place 3.")

    def test_who_has_acted_stays_and_none_goes_before_the_current_turn(self):
        self.fight()
        self.st(fray.CmdCombat(), "/next", "<Combat> Char2 passes.")
        self.refused("Char2=3", "<Fray> Char2 has already acted this round; the next round goes by initiative.")
        self.refused("Gus=1", "<Fray> Give Gus a place from 2 to 3 (the places before are past).")
        self.refused("Gus=before Char2", "<Fray> Char2's turn is past: Gus can go from place 2 on.")
        self.order("Gus=before Guard", "<Combat> You put Gus at place 2 of this round's order.")
        self.assertEqual(self.names(), [["Char2"], ["Gus"], ["Guard"]])
        self.assertEqual(encounters.current_slot(self.encounter)[1], [self.gus])

    def test_the_current_place_stays_open_after_someone_who_acted(self):
        # Adversary: with one who acted after the current turn, the current place was refused.
        self.fight()
        self.order("Gus=2", "<Combat> You put Gus at place 2 of this round's order.")
        self.st(fray.CmdCombat(), "/next", "<Combat> Char2 passes.")
        self.st(fray.CmdCombat(), "/next", "<Combat> Gus passes.")
        self.refused("Guard=3", "<Fray> Guard is already at place 3.")
        self.refused("Guard=2", "<Fray> Give Guard a place from 3 to 3 (the places before are past).")

    def test_the_current_place_is_open_with_one_who_acted_after_it(self):
        self.fight()
        self.order("Gus=1", "<Combat> You put Gus at place 1 of this round's order.")
        self.force(9, 9, 9, 2, 2, 2, 2, 2, 2, 2, 2, 2)
        self.st(fray.CmdAttack(), "Gus=Guard")
        self.st(fray.CmdDefend(), "Guard=dodge")   # the Guard's action, used out of turn
        from world import dice

        dice.clear()
        self.assertEqual(encounters.current_slot(self.encounter)[1], [self.char2])
        self.assertIn(" 3. Guard (init 6, acted)", self.st(fray.CmdCombat(), "/order"))
        self.refused("Char2=2", "<Fray> Char2 is already at place 2.")
        self.refused("Char2=1", "<Fray> Give Char2 a place from 2 to 3 (the places before are past).")

    def test_one_who_cannot_act_is_not_moved(self):
        # Adversary: a knocked-out fighter was moved before the one to act.
        self.fight()
        self.st(fray.CmdDamage(), "Gus=7 bashing")
        self.refused("Gus=1", "<Fray> Gus is incapacitated and cannot act.")

    def test_no_initiative_yet(self):
        self.fight()
        self.st(npcs.CmdNpc(), "/create Orc")
        self.st(fray.CmdCombat(), "/add Orc")
        self.refused("Orc=1", "<Fray> Orc has no initiative yet, so no place in the order.")
        self.refused("Gus=after Orc", "<Fray> Orc has no place in this round's order (no initiative).")

    def test_a_player_who_is_not_the_storyteller(self):
        self.fight()
        self.refused("Gus=1", "<Fray> Only this scene's Storyteller or staff can change the acting order.",
                     caller=self.char2)

    def test_no_fight_here(self):
        msg = "<Fray> There is no fight here. A Storyteller starts one with +combat/start."
        self.order("Gus=1", msg)
        self.order("", msg)


class TestOtherSystems(OrderTest):
    def test_aeon(self):
        add_traits(self.char2, "aeon", Wits=2, Dexterity=3)
        self.st(fray.CmdCombat(), "/start aeon")
        self.encounter = encounters.encounter_in(self.room1)
        self.player(fray.CmdCombat(), "/join")
        self.force(5)
        self.player(fray.CmdCombat(), "/init")          # 10
        self.force(1)
        self.st(npcs.CmdNpc(), "/init Thug=2+2")         # 5
        out = self.order("Thug=1")
        self.assertIn("Round 1: Thug to act.", out)
        self.assertEqual(self.names(), [["Thug"], ["Char2"]])

    def test_eldritch_moves_the_next_action_never_past_the_following_one(self):
        update_sheet(self.char2, "eldritch", traits={"Dexterity": 3, "Perception": 2, "Brawl": 2, "Strength": 3})
        self.st(fray.CmdCombat(), "/start eldritch")
        self.encounter = encounters.encounter_in(self.room1)
        self.player(fray.CmdCombat(), "/join")
        self.st(npcs.CmdNpc(), "/create Thug")
        thug = next(obj for obj in self.room1.contents if obj.key == "Thug")
        update_sheet(thug, "eldritch", traits={"Dexterity": 2, "Perception": 2})
        self.st(fray.CmdCombat(), "/add Thug")
        self.force(9)
        self.player(fray.CmdCombat(), "/init")   # 11: acts at 11, 6, 1
        self.force(5)
        self.st(npcs.CmdNpc(), "/init Thug")     # 7: acts at 7, 2
        self.assertEqual(self.names(), [["Char2"], ["Thug"], ["Char2"], ["Thug"], ["Char2"]])
        self.refused_here("Thug=4", "<Fray> Give Thug a place from 1 to 3.")
        self.refused_here("Thug=after Char2", "<Fray> Thug is already at place 2.")
        out = self.order("Thug=1")
        self.assertIn("Round 1 order: 1. Thug, 2. Char2, 3. Char2, 4. Thug, 5. Char2", out)
        self.assertIn("Round 1: Thug to act.", out)
        listing = self.st(fray.CmdCombat(), "/order")
        self.assertIn(" 1. Thug (init 7, to act)", listing)
        self.assertIn(" 4. Thug (action at 2)", listing)
        self.st(fray.CmdCombat(), "/next", "<Combat> Thug passes.")
        self.assertEqual(encounters.open_actions(self.encounter, thug), [2])
        # Now the Thug's next action is the one at 2: it may go anywhere still to come.
        self.order("Thug=2", "<Combat> You put Thug at place 2 of this round's order.")
        self.assertEqual(self.names(), [["Thug"], ["Thug"], ["Char2"], ["Char2"], ["Char2"]])
        self.assertEqual(encounters.current_slot(self.encounter)[1], [thug])

    def refused_here(self, args, expected):
        before = self.saved()
        self.order(args, expected)
        self.assertEqual(self.saved(), before)

    def test_elethril_is_refused(self):
        update_sheet(self.char2, "elethril", traits={"THAC0": 18, "Armor Class": 5, "Hit Points": 12})
        self.st(fray.CmdCombat(), "/start elethril")
        self.encounter = encounters.encounter_in(self.room1)
        self.player(fray.CmdCombat(), "/join")
        self.st(npcs.CmdNpc(), "/create Orc=orc")
        self.st(fray.CmdCombat(), "/add Orc")
        before = self.saved()
        self.order("Orc=1", "<Fray> Elethril has no acting order to change: each round's segment timeline "
                            "(initiative, weapon speed, phase) decides who acts when.")
        self.order("", "<Fray> Elethril has no acting order: +combat shows the round's segment timeline.")
        self.assertEqual(self.saved(), before)
        self.assertEqual(gmcp.combat(self.encounter.row, self.char2)["order"], [])
