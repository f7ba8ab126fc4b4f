"""Command tier: player-facing slips — each bad input gets one clear line, nothing changed."""

from unittest import mock

import evennia.utils.test_resources  # noqa: F401 (Evennia is set up before the game modules load)

from commands import aeon, fray, npcs
from tests.game import fightview as encounters
from tests.game.test_aeon_commands import AeonFightTest
from tests.game.test_combat_commands import FrayCommandTest
from tests.game.test_eldritch_commands import EldritchFightTest
from tests.game.test_elethril_commands import ElethrilFightTest
from world.sheets import update_sheet


class StorytellerFightTest(FrayCommandTest):
    """A storyteller fight: Char2 (initiative 9) and the NPC Thug (initiative 6)."""

    def setUp(self):
        super().setUp()
        self.thug = self.storyteller_fight("Thug", Stamina=2, Dodge=1, Strength=2, Brawl=1)

    def state(self):
        e = self.encounter
        return ([o.key for o in encounters.fighters(e)], dict(e.initiative), list(e.pending), list(e.acted),
                e.round, dict(e.conditions), dict(self.char2.health or {}))


# ---------------------------------------------------------------- 1. attack <target>*<attacks>
class TestAttackCountAfterTarget(ElethrilFightTest):
    def test_elethril_attack_target_star_count_is_one_attack_with_the_weapon_in_hand(self):
        self.later_round()
        self.player(fray.CmdAttack(), "Zed*1",
                    "<Combat> Char2 will attack Zed with short sword; initiative d10 + 3 (short sword).")
        declared = self.encounter.declarations[self.char2.id]
        self.assertEqual((declared["target"], declared["weapon"], declared["attacks"]), ("Zed", "", 1))

    def test_elethril_bad_count_after_the_target_is_refused(self):
        self.later_round()
        before = self.state()
        self.player(fray.CmdAttack(), "Zed*x",
                    "<Fray> Give the number of attacks after '*', e.g. attack Orc/long sword*2, not 'x'.")
        self.assertEqual(self.state(), before)


class TestAttackCountElsewhere(StorytellerFightTest):
    def test_storyteller_attack_count_is_refused_in_one_line(self):
        before = self.state()
        self.player(fray.CmdAttack(), "Thug*2",
                    "<Fray> A number of attacks ('*2') is only declared in elethril fights: attack Thug.")
        # After a maneuver the count is named in the refusal already (kept as it was).
        self.player(fray.CmdAttack(), "Thug/punch*2", "<Fray> No maneuver or weapon 'punch*2'. Choose from: punch,")
        self.assertEqual(self.state(), before)


# ---------------------------------------------------------------- 2. aeon mounted dodge
class TestAeonMountedDodge(FrayCommandTest):
    def test_the_dodge_pool_names_the_ride_cap(self):
        update_sheet(self.char2, "aeon", traits={"Dexterity": 3, "Wits": 2, "Athletics": 2, "Ride": 1, "Stamina": 2})
        self.st(fray.CmdCombat(), "/start aeon")
        encounter = encounters.encounter_in(self.room1)
        self.player(fray.CmdCombat(), "/join")
        self.force(1)
        self.player(fray.CmdCombat(), "/init")     # 5 + 1 = 6
        self.force(10)
        self.st(npcs.CmdNpc(), "/init Thug=2+2")   # 4 + 10 = 14: the Thug first
        thug = encounters.find_combatant(encounter, "Thug")
        update_sheet(thug, "aeon", traits={"Wits": 2, "Dexterity": 2, "Strength": 3, "Brawl": 1})
        self.player(aeon.CmdMount(), "horse", "<Combat> Char2 mounts the Horse.")
        # Punch: Dexterity 2 + Brawl 1 = 3 dice, +1 difficulty against a rider: 9 9 2 -> 2, needs 2.
        self.force(9, 9, 2)
        self.st(fray.CmdAttack(), "Thug=Char2")
        # Dodge: Dexterity 3 + Athletics 2 capped by Ride 1 = 4 dice: 2 2 2 2 -> 0.
        self.force(2, 2, 2, 2, 2, 2, 2, 2, 2, 2, 2, 2)
        out = self.player(fray.CmdDefend(), "dodge")
        self.assertIn("dodge: Dexterity 3 + Athletics 2, capped by Ride 1 = 4 dice", out)


# ---------------------------------------------------------------- 3. @destroy a combatant
def destroy():
    from evennia.commands.default.building import CmdDestroy  # (imported once Evennia is set up)

    return CmdDestroy()


class TestDestroyCombatant(StorytellerFightTest):
    def test_destroying_an_npc_with_an_attack_waiting_announces_the_cancelled_attack(self):
        self.force(9, 8, 7, 2, 2)
        self.player(fray.CmdAttack(), "Thug")
        self.assertEqual(len(encounters.pending_attacks(self.encounter)), 1)
        out = self.call(destroy(), "/force Thug", caller=self.char1)
        self.assertIn("<Combat> Thug is removed from the fight (destroyed).\n"
                      "  The attack of Char2 on Thug is cancelled.", out)
        self.assertEqual(encounters.pending_attacks(self.encounter), [])
        self.assertEqual([o.key for o in encounters.fighters(self.encounter)], ["Char2"])

    def test_destroying_an_npc_out_of_any_fight_says_nothing_of_fights(self):
        self.st(npcs.CmdNpc(), "/create Bystander")
        out = self.call(destroy(), "/force Bystander", caller=self.char1)
        self.assertNotIn("<Combat>", out)


# ---------------------------------------------------------------- 4. +roll while incapacitated
class TestRollWhileIncapacitated(FrayCommandTest):
    def test_storyteller_roll_at_seven_boxes_says_incapacitated(self):
        self.char2.health = {"storyteller": {"bashing": 7, "lethal": 0, "aggravated": 0, "dead": False}}
        self.player(fray.CmdRoll(), " Dexterity+Brawl",
                    "<Fray> Char2 is incapacitated and rolls no dice.")


# ---------------------------------------------------------------- 5. knocked out before acted
KNOCKED_OUT = {"bashing": 7, "lethal": 0, "aggravated": 0}


class TestKnockedOutAttacker(StorytellerFightTest):
    def test_storyteller_incapacitated_after_acting_is_told_so_not_already_acted(self):
        self.force(9, 8, 7, 2, 2)
        self.player(fray.CmdAttack(), "Thug")
        self.force(2, 2, 2, 2)
        self.st(fray.CmdDefend(), "Thug=none")
        self.char2.health = {"storyteller": dict(KNOCKED_OUT, dead=False)}
        before = self.state()
        self.player(fray.CmdAttack(), "Thug", "<Fray> Char2 is incapacitated and cannot act.")
        self.assertEqual(self.state(), before)

    def test_storyteller_incapacitated_out_of_turn_is_told_so(self):
        self.char2.health = {"storyteller": dict(KNOCKED_OUT, dead=False)}
        before = self.state()
        self.player(fray.CmdAttack(), "Thug", "<Fray> Char2 is incapacitated and cannot act.")
        self.assertEqual(self.state(), before)


class TestKnockedOutAeonAttacker(AeonFightTest):
    def test_aeon_knocked_out_after_acting_is_told_so(self):
        self.force(2, 2, 2, 2, 2)
        self.player(fray.CmdAttack(), "Thug")
        self.st(fray.CmdDefend(), "Thug=none")
        self.char2.health = {"aeon": dict(KNOCKED_OUT)}
        before = dict(self.encounter.conditions), list(self.encounter.acted), list(self.encounter.pending)
        self.player(fray.CmdAttack(), "Thug", "<Fray> Char2 is knocked out and cannot act.")
        self.assertEqual((dict(self.encounter.conditions), list(self.encounter.acted), list(self.encounter.pending)),
                         before)


class TestDownEldritchAttacker(EldritchFightTest):
    def test_eldritch_down_attacker_is_told_so(self):
        self.initiative(8, 3)
        life = encounters.health_of(self.encounter, self.char2).current
        self.char2.health = {"eldritch": {"lethal": life + 1}}
        before = list(self.encounter.acted), list(self.encounter.pending)
        self.player(fray.CmdAttack(), "Thug", "<Fray> Char2 is down and cannot act.")
        self.assertEqual((list(self.encounter.acted), list(self.encounter.pending)), before)


class TestOutColdEldritchAttacker(EldritchFightTest):
    def test_eldritch_out_cold_attacker_is_told_so(self):
        self.initiative(8, 3)
        encounters.update_conditions(self.encounter, self.char2, passed_out=True)
        before = list(self.encounter.acted), list(self.encounter.pending)
        self.player(fray.CmdAttack(), "Thug", "<Fray> Char2 is out cold.")
        self.assertEqual((list(self.encounter.acted), list(self.encounter.pending)), before)


class TestDownElethrilAttacker(ElethrilFightTest):
    def test_elethril_down_attacker_is_told_so(self):
        self.later_round()
        self.char2.health = {"elethril": {"damage": 13, "maximum": 12}}
        before = self.state()
        self.player(fray.CmdAttack(), "Zed", "<Fray> Char2 is down and cannot act.")
        self.assertEqual(self.state(), before)


# ---------------------------------------------------------------- 6. leave / join from elsewhere
class TestLeaveFromAnotherRoom(StorytellerFightTest):
    def test_leave_works_from_the_next_room(self):
        self.char2.move_to(self.room2, quiet=True)
        out = self.player(fray.CmdCombat(), "/leave")
        self.assertIn(f"<Combat> You leave the fight in {self.room1.key}.", out)
        self.assertNotIn(self.char2, encounters.fighters(self.encounter))
        self.assertIsNone(encounters.fight_of(self.char2))

    def test_join_elsewhere_names_the_room_and_says_to_leave_first(self):
        self.char2.move_to(self.room2, quiet=True)
        before = self.state()
        refusal = f"<Fray> Char2 is already in the fight in {self.room1.key}: +combat/leave first."
        self.player(fray.CmdCombat(), "/join", refusal)             # no fight here
        self.char1.move_to(self.room2, quiet=True)
        self.st(fray.CmdCombat(), "/start")
        self.player(fray.CmdCombat(), "/join", refusal)             # another fight here
        self.assertEqual(self.state(), before)
        self.player(fray.CmdCombat(), "/leave")
        self.player(fray.CmdCombat(), "/join", "<Combat> You join the fight.")


# ------------------------------------------------- after the adversary: partners, ST, the down
class TestLeavingEndsHolds(StorytellerFightTest):
    def test_a_holder_who_leaves_frees_the_held(self):
        self.force(9, 8, 2, 2)   # hold: Strength 2 + Brawl 2 = 4 dice vs 6 -> 2 successes
        self.player(fray.CmdAttack(), "Thug/hold")
        self.force(2, 2, 2)
        self.st(fray.CmdDefend(), "Thug=none")
        self.assertEqual(encounters.conditions_of(self.encounter, self.thug).get("held_by"), self.char2.id)
        self.player(fray.CmdCombat(), "/leave")
        self.assertIsNone(encounters.conditions_of(self.encounter, self.thug).get("held_by"))
        self.st(fray.CmdEscape(), "Thug", "<Fray> Thug is not held.")


class TestStorytellerDestroyed(StorytellerFightTest):
    def test_the_room_is_told_and_the_fight_has_no_storyteller(self):
        with mock.patch.object(self.char2, "msg") as msg:
            encounters.left_by_deletion(self.char1)
        self.assertIsNone(self.encounter.storyteller)
        told = [str(call.kwargs.get("text", call.args[0] if call.args else "")) for call in msg.call_args_list]
        self.assertIn("|y<Combat>|n Char, the Storyteller, is gone: staff run the fight now, or hand it to a Narrator "
                      "here with +combat/transfer.", "\n".join(told))


class TestAttackOnTheDown(StorytellerFightTest):
    def test_a_down_target_is_not_said_to_have_acted(self):
        self.thug.health = {"storyteller": dict(KNOCKED_OUT, dead=False)}
        self.force(9, 8, 7, 2, 2, 2, 2, 2, 2, 2, 2)
        out = self.player(fray.CmdAttack(), "Thug")
        self.assertIn("Thug is down and cannot defend.", out)
        self.assertNotIn("already acted", out)


class TestAttackCountWithoutTarget(StorytellerFightTest):
    def test_a_count_needs_a_target_before_it(self):
        before = self.state()
        for text in ("*2", "*", "Thug**2", "Thug*1*2"):
            self.player(fray.CmdAttack(), text,
                        "<Fray> Name the target, then the number of attacks once: attack Orc*2.")
        self.assertEqual(self.state(), before)
