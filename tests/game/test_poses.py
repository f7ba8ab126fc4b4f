"""Pose order (``world.poses``): who posed in a room and when, kept on the room; in a fight,
who has not posed since the round began (+combat/poses, the Storyteller's HUD, +combat/nudge,
+combat/posewait); in a scene, +scene/order."""

from commands import fray, scenes
from tests.game.test_combat_commands import FrayCommandTest
from world import gmcp, poses


class TestPoseOrder(FrayCommandTest):
    def test_the_scene_order_puts_who_posed_longest_ago_first(self):
        self.st(scenes.CmdScene(), "/order", "Pose order in Room (next to pose first):\n1. Char: not yet\n"
                                             "2. Char2: not yet")
        self.call(scenes.CmdPose(), "grins.", caller=self.char2)
        self.st(scenes.CmdScene(), "/order", "Pose order in Room (next to pose first):\n1. Char: not yet\n"
                                             "2. Char2: just now")
        self.assertEqual(self.call(scenes.CmdPose(), "'s hat falls.", caller=self.char1, receiver=self.char2,
                                   cmdstring=";"), "Char's hat falls.")   # a semipose counts too
        self.assertEqual(list(poses.last_poses(self.room1)), [self.char2.id, self.char1.id])
        self.st(scenes.CmdScene(), "/order now", "<Fray> Usage: +scene/order (the pose order of the room you are in)")

    def test_the_fight_knows_who_has_not_posed_this_round(self):
        self.storyteller_fight("Guard")
        self.assertEqual(self.st(fray.CmdCombat(), "/poses"), "Round 1. Posed: nobody yet. Still to pose: Char2.\n"
                         "Pose order (next to pose first):\n1. Char: not yet\n2. Char2: not yet")
        self.assertIn(" 1   Char2               9     Healthy [.......]        TO ACT, no pose",
                      self.st(fray.CmdCombat(), ""))
        self.assertNotIn("no pose", self.player(fray.CmdCombat(), ""))   # the Storyteller's mark
        self.assertEqual(gmcp.combat(self.encounter.row, self.char2)["unposed"], ["Char2"])
        self.player(fray.CmdCombat(), "/nudge", "<Fray> Only this scene's Storyteller or staff can nudge for poses.")
        self.st(fray.CmdCombat(), "/nudge", "<Combat> Nudged for a pose: Char2.")
        self.st(fray.CmdCombat(), "/posewait", "<Combat> You make the fight wait for everyone's pose")
        self.st(fray.CmdCombat(), "/next", "<Combat> Char2 passes.")   # turns pass; the round's end waits
        self.st(fray.CmdCombat(), "/next", "<Fray> Nothing passed: round 1 waits for poses from Char2 "
                                           "(+combat/nudge; +combat/posewait off stops waiting).")
        self.call(scenes.CmdPose(), "squares up.", caller=self.char2)
        self.assertIn("Posed: Char2. Still to pose: nobody.", self.st(fray.CmdCombat(), "/poses"))
        self.st(fray.CmdCombat(), "/nudge", "<Fray> Everyone in the fight has posed since round 1 began.")
        self.st(fray.CmdCombat(), "/next", "<Combat> Guard passes.|<Combat> Round 2 begins.")
