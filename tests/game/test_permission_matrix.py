"""The permission matrix: every Fray command x {player, a Narrator not running this scene, this
scene's Storyteller, Builder, Admin} -> allowed or refused, as each command's help says.

Each cell runs on a fresh scene: the Storyteller "Sta" (a Narrator) has started a fight in the
room, the player "Char2" has joined it, and the light NPC "Guard" is in initiative. A cell is
refused when the command's lock keeps the caller out or the command answers "Only ...".
"""

from unittest import mock

from evennia.utils import create
from evennia.utils.test_resources import EvenniaCommandTest

from commands import armor, fray, items, npcs
from tests.game import fightview as encounters
from world import dice

ROLES = ("player", "narrator", "storyteller", "builder", "admin")
EVERYONE = set(ROLES)
NARRATORS = {"narrator", "storyteller", "builder", "admin"}
SCENE = {"storyteller", "builder", "admin"}
STAFF = {"builder", "admin"}
NOBODY: set[str] = set()

#: (command class, arguments, roles allowed) — what each command's help text promises.
MATRIX = [
    (fray.CmdRoll, "3", EVERYONE),
    (fray.CmdRoll, "Guard=3", SCENE),
    (fray.CmdSheet, "", EVERYONE),
    (fray.CmdSheet, "Char2", NARRATORS | {"player"}),  # one's own sheet
    (fray.CmdSheet, "Guard", NARRATORS),
    (fray.CmdStat, "Char2/Dexterity=3", STAFF),
    (fray.CmdDamage, "Char2=1 bashing", STAFF),
    (fray.CmdHeal, "Char2=all", STAFF),
    (fray.CmdCombat, "", EVERYONE),
    (fray.CmdCombat, "/join", EVERYONE),
    (fray.CmdCombat, "/leave", EVERYONE),
    (fray.CmdCombat, "/init", EVERYONE),
    (fray.CmdCombat, "/next", SCENE),
    (fray.CmdCombat, "/resolve", SCENE),
    (fray.CmdCombat, "/diff Guard=+1", SCENE),
    (fray.CmdCombat, "/mod Guard=+1", SCENE),
    (fray.CmdCombat, "/add Char2", SCENE),
    (fray.CmdCombat, "/remove Guard", SCENE),
    (fray.CmdCombat, "/idle Guard", SCENE),
    (fray.CmdCombat, "/transfer Nara", SCENE),
    (fray.CmdCombat, "/log", SCENE),
    (fray.CmdCombat, "/list", STAFF),
    (fray.CmdCombat, "/end", SCENE),
    (npcs.CmdNpc, "/init Guard=2+3", SCENE),
    (npcs.CmdNpc, "/init Thug=1+1", SCENE),
    (npcs.CmdNpc, "/create Thug=thug", NARRATORS),
    (npcs.CmdNpc, "/set Guard/Strength=3", SCENE),  # Guard is in this scene's fight
    (npcs.CmdNpc, "/sheet Guard", NARRATORS),
    (npcs.CmdNpc, "/list", NARRATORS),
    (npcs.CmdNpc, "/templates", NARRATORS),
    (npcs.CmdNpc, "/remove Guard", SCENE),
    (fray.CmdAttack, "Guard=Char2", SCENE),
    (fray.CmdDefend, "Guard=dodge", SCENE),
    (fray.CmdEscape, "Guard", SCENE),
    (fray.CmdCast, "Guard=stunner=Char2", SCENE),
    (fray.CmdSpells, "", EVERYONE),
    (fray.CmdDice, "/clear", NOBODY),  # Developers only
    (armor.CmdRequest, "", EVERYONE),
    (armor.CmdRequest, "/armor goblin=For the raid", EVERYONE),
    (armor.CmdRequest, "/list", STAFF),
    (armor.CmdRequest, "/approve 1", STAFF),
    (armor.CmdRequest, "/deny 1=Not now", STAFF),
    (armor.CmdArmor, "", EVERYONE),
    (armor.CmdArmor, "/wear 1", EVERYONE),
    (armor.CmdArmor, "/show Nara", EVERYONE),
    (armor.CmdArmor, "Bea", STAFF),  # someone else's notes (Bea may see her own)
    (armor.CmdArmor, "/revoke Char2=1", STAFF),
    (items.CmdItem, "", EVERYONE),
    (items.CmdItem, "Char2", NARRATORS | {"player"}),  # one's own items
    (items.CmdItem, "Guard", NARRATORS),
    (items.CmdItem, "Char2=wand/fireball=3", STAFF),
    (items.CmdItem, "/remove Char2=1", STAFF),
]

REFUSALS = ("<Fray> Only ", "<Fray> You can only act for yourself")


class TestPermissionMatrix(EvenniaCommandTest):
    def setUp(self):
        super().setUp()
        patcher = mock.patch.object(dice, "TEST_DICE_ENABLED", True)
        patcher.start()
        self.addCleanup(patcher.stop)
        self.account2.permissions.add("Player")
        self.people = {"player": self.char2}
        for role, key, permission in (("narrator", "Nara", "Narrator"), ("storyteller", "Sta", "Narrator"),
                                      ("builder", "Bea", "Builder"), ("admin", "Ada", "Admin")):
            account = create.create_account(f"{key}Account", email=None, password="Matrix-pw-123",
                                            permissions=[permission])
            character = create.create_object("typeclasses.characters.Character", key=key, location=self.room1)
            character.account = account
            self.people[role] = character

    def fresh_scene(self):
        old = encounters.encounter_in(self.room1)
        if old is not None:
            old.delete()
        for obj in self.room1.contents:
            if obj.tags.has("npc", category="fray"):
                obj.delete()
        for obj in self.people.values():
            obj.health = {}
        dice.clear()
        encounter = encounters.start(self.people["storyteller"], None)
        encounters.add_combatant(encounter, self.char2)
        dice.force([1])
        encounters.npc_init(self.people["storyteller"], "Guard", "2+3")
        return encounter

    def test_matrix(self):
        for command, args, allowed in MATRIX:
            for role in ROLES:
                with self.subTest(command=command.key, args=args, role=role):
                    self.fresh_scene()
                    caller = self.people[role]
                    cmd = command()
                    if not cmd.access(caller, "cmd"):
                        permitted = False
                    else:
                        dice.force([5] * 30)
                        out = self.call(cmd, (" " + args) if args and not args.startswith("/") else args,
                                        caller=caller)
                        permitted = not out.startswith(REFUSALS)
                    self.assertEqual(permitted, role in allowed, f"{command.key} {args} as {role}")
