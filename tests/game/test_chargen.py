"""Players build their own sheets (+chargen), staff approve them (+approve, +unapprove, the
queue), fights let in approved sheets, staff edits of approved sheets are logged, experience
(+xp), and the migration that approves sheets built before chargen existed."""

import hashlib

from django.apps import apps
from django.test import Client, override_settings
from evennia.utils import create

from commands import fray
from commands.chargen import CmdApprove, CmdChargen, CmdUnapprove, CmdXp
from rules.dice.seeded import face
from rules.systems import CombatError, get_system
from tests.game.test_combat_commands import FrayCommandTest
from world import chargen, sheets, xp
from world.models import SheetLog, SheetReview, XpEntry

#: A complete storyteller sheet: Physical 7 (+1 dot of freebies), Social 5, Mental 3; Talents
#: 13, Skills 9, Knowledges 5; freebies: Strength's dot 5 + Willpower 10 = 15.
STORYTELLER = [("Strength", 4), ("Dexterity", 4), ("Stamina", 3), ("Charisma", 3), ("Manipulation", 3),
               ("Appearance", 2), ("Perception", 2), ("Intelligence", 2), ("Wits", 2),
               ("Alertness", 3), ("Athletics", 3), ("Brawl", 3), ("Dodge", 3), ("Awareness", 1),
               ("Melee", 3), ("Firearms", 3), ("Stealth", 3), ("Medicine", 3), ("Occult", 2), ("Willpower", 10)]
#: Eldritch: Attributes 20, Skills 15, Qualities 10 (8 + Atemi Grip 2).
ELDRITCH = [("Strength", 4), ("Dexterity", 4), ("Constitution", 3), ("Intelligence", 3), ("Perception", 3),
            ("Willpower", 3), ("Brawl", 5), ("Melee", 4), ("Acrobatics", 3), ("Notice", 3),
            ("Acute Senses", 1), ("Fast Reaction Time", 1), ("Natural Toughness", 1), ("Hard to Kill", 2),
            ("Atemi Grip", 1)]


@override_settings(FRAY_UNAPPROVED_MAY_JOIN=False)
class ChargenTest(FrayCommandTest):
    def setUp(self):
        super().setUp()
        for key in ("storyteller", "aeon", "eldritch", "elethril"):
            sheets.clear_sheet(self.char2, key)
        self.char2.pending_notices = []
        self.storyteller = get_system("storyteller")

    def player(self, cmd, args, expected=None):
        return self.call(cmd, args, expected, caller=self.char2)

    def state(self):
        return (sheets.stored(self.char2).get("sheets"), self.char2.attributes.get("chargen", category="fray"),
                list(SheetReview.objects.values_list("id", "status")), list(XpEntry.objects.values_list("id", "amount")),
                SheetLog.objects.count())

    def refused(self, cmd, args, expected, caller=None):
        """``args`` gets one ``<Fray>`` line starting ``expected`` and changes nothing."""
        before = self.state()
        out = self.call(cmd, args, f"<Fray> {expected}", caller=caller or self.char2)
        self.assertEqual(len(out.strip().splitlines()), 1, out)
        self.assertEqual(self.state(), before)
        return out

    def build(self, system, ratings):
        for trait, rating in ratings:
            chargen.set_value(self.char2, get_system(system), trait, str(rating))

    def submitted(self, system="storyteller", ratings=STORYTELLER):
        self.build(system, ratings)
        return chargen.submit(self.char2, get_system(system))


class TestBuildingASheet(ChargenTest):
    def test_a_new_sheet_shows_every_pool_with_its_points_left(self):
        out = self.player(CmdChargen(), "")
        self.assertIn("Char2: storyteller character generation (in progress)", out)
        self.assertIn("Physical: 0 of 7 spent, 7 left (1 to 5; past the points, 5 freebies a dot)", out)
        self.assertIn("Talents: 0 of 13 spent, 13 left (0 to 3; past the points, 2 freebies a dot)", out)
        self.assertIn("Freebies: 0 of 15 spent, 15 left", out)
        self.assertIn("Next: 7 points left for Physical. (6 more)", out)
        self.assertTrue(all(len(line) <= 78 for line in out.splitlines()), out)

    def test_a_pool_spent_past_its_points_says_the_rest_comes_from_freebies(self):
        self.build("storyteller", [("Strength", 5), ("Dexterity", 4), ("Stamina", 2)])   # Physical 8 of 7: a dot of freebies
        out = self.player(CmdChargen(), "")
        self.assertIn("Physical: 7 of 7 spent, 1 more from freebies (1 to 5;", out)
        self.assertIn("Freebies: 5 of 15 spent, 10 left", out)
        self.assertNotIn("-1", out)
        self.player(CmdChargen(), "/set Wits=2", "<Chargen> Storyteller chargen: your Wits is now 2. Left: Social 3, "
                    "Mental 4, Talents 13, Skills 9, Knowledges 5, freebies 10.")
        self.account2.characters.add(self.char2)
        web = Client()
        web.force_login(self.account2)
        self.assertContains(web.get("/chargen/storyteller/"), "7 of 7 spent, 1 more from freebies (1 to 5)")

    def test_the_chargen_sheet_fits_a_narrow_client(self):
        from world.text import views_for

        class Narrow:
            protocol_flags = {"SCREENWIDTH": {0: 40}}

        with views_for(Narrow()):
            out = chargen.render(self.char2, self.storyteller)
        self.assertTrue(all(len(line) <= 40 for line in out.splitlines()), out)
        self.assertIn("Strength", out)

    def test_setting_a_trait_writes_the_sheet_with_the_bases_and_says_what_is_left(self):
        self.player(CmdChargen(), "/set Dexterity=3",
                    "<Chargen> Storyteller chargen: your Dexterity is now 3. Left: Physical 5, Social 5, Mental 3, "
                    "Talents 13, Skills 9, Knowledges 5, freebies 15.")
        traits = sheets.traits_of(self.char2, "storyteller")
        self.assertEqual((traits["Dexterity"], traits["Strength"], traits["Wits"], "Brawl" in traits), (3, 1, 1, False))

    def test_another_systems_sheet_by_switch_or_name(self):
        self.player(CmdChargen(), "/set/eldritch Atemi Grip=1",
                    "<Chargen> Eldritch chargen: your Atemi Grip is now 1.")
        self.assertEqual(sheets.traits_of(self.char2, "eldritch"), {"Atemi Grip": 1})
        self.assertEqual(sheets.traits_of(self.char2, "storyteller"), {})
        self.assertIn("Qualities: 2 of 10 spent, 8 left", self.player(CmdChargen(), " eldritch"))

    def test_bad_input_is_one_line_and_changes_nothing(self):
        self.build("storyteller", [("Brawl", 3), ("Alertness", 3), ("Athletics", 3), ("Dodge", 3), ("Awareness", 1)])
        self.refused(CmdChargen(), "/set Brawl=4", "Brawl 4 is over the creation maximum 3.")
        self.refused(CmdChargen(), "/set Strength=0", "Strength 0 is under the creation minimum 1.")
        self.refused(CmdChargen(), "/set Melee=-2", "Melee -2 is under the creation minimum 0.")
        self.refused(CmdChargen(), "/set Melee=99999999", "Melee 99999999 is out of range.")
        self.refused(CmdChargen(), "/set Melee=\uff13", "Melee's rating must be a whole number, not '\\uff13'.")
        self.refused(CmdChargen(), "/set Melee=", "Give Melee a rating: +chargen/set Melee=<rating>.")
        self.refused(CmdChargen(), "/set THAC0=15", "On the storyteller sheet: Unknown trait 'THAC0'.")
        self.refused(CmdChargen(), "/set \uff22rawl=2", "On the storyteller sheet: Unknown trait")
        self.refused(CmdChargen(), "/set Brawl|r=2", "On the storyteller sheet: Unknown trait 'Brawl|r'. Did you mean Brawl?")
        self.refused(CmdChargen(), "/set kind=Troll", "Kind (storyteller) must be one of:")
        self.refused(CmdChargen(), "/set transformed=yes", "Transformed is changed in play")
        self.refused(CmdChargen(), "/set class=Warrior", "The storyteller rules have no classes.")
        self.refused(CmdChargen(), "/roll", "The storyteller rules buy traits with points; nothing is rolled.")
        self.refused(CmdChargen(), "/set/aeon Hardness=1", "Hardness is set by staff, not bought in aeon")
        self.refused(CmdChargen(), " fifth", "No rule system 'fifth': choose storyteller, aeon, eldritch, elethril.")
        self.refused(CmdChargen(), "/submit", "Your storyteller sheet is not ready to submit: 7 points left for Physical. (5 more: +chargen)")

    def test_pools_run_out_with_the_exact_reason(self):
        self.build("eldritch", [("Brawl", 5), ("Melee", 5), ("Acrobatics", 3)])
        self.refused(CmdChargen(), "/set/eldritch Notice=3", "2 points left for Skills; Notice 3 costs 3.")
        self.build("storyteller", [("Strength", 5), ("Dexterity", 5), ("Stamina", 3)])   # all 15 freebies
        self.refused(CmdChargen(), "/set Stamina=4", "0 points left for Physical and 0 freebie points left "
                                                     "(Attributes dots cost 5); Stamina 4 costs 1.")

    def test_one_point_left_reads_in_the_singular(self):
        self.build("storyteller", [("Strength", 5), ("Dexterity", 3)])   # Physical 6 of 7
        self.assertIn("Next: 1 point left for Physical. (6 more)", self.player(CmdChargen(), ""))
        self.build("eldritch", [("Brawl", 5), ("Melee", 5), ("Acrobatics", 4)])   # Skills 14 of 15
        self.refused(CmdChargen(), "/set/eldritch Notice=2", "1 point left for Skills; Notice 2 costs 2.")

    def test_kind_and_weapon_are_chosen_from_the_systems_own(self):
        self.player(CmdChargen(), "/set kind=wiz", "<Chargen> Storyteller sheet: Char2's kind is now Wizard.")
        self.player(CmdChargen(), "/set/elethril kind=Elf", "<Chargen> Elethril sheet: Char2's kind is now Elf.")
        self.refused(CmdChargen(), "/set/elethril kind=Troll", "Kind (elethril) at creation must be one of: Human, Elf")
        self.assertEqual(sheets.sheet_of(self.char2, "storyteller")["kind"], "Wizard")


class TestRolledScores(ChargenTest):
    def test_elethril_scores_are_rolled_once_with_verifiable_dice_and_logged(self):
        out = self.player(CmdChargen(), "/roll/elethril", "<Chargen> Elethril chargen: you roll 3d6 for each score")
        entry = SheetLog.objects.get(kind=SheetLog.ROLL)
        seed = bytes.fromhex(entry.data["seed"])
        self.assertEqual(entry.data["commitment"], hashlib.sha256(seed).hexdigest())
        faces = [face(seed, counter, 6) for counter in range(1, 19)]
        self.assertEqual([d["face"] for d in entry.data["dice"]], faces)
        record = chargen.record_of(self.char2, get_system("elethril"))
        self.assertEqual(record["scores"]["Strength"], sum(faces[0:3]))
        self.assertEqual(record["scores"]["Charisma"], sum(faces[15:18]))
        self.assertIn(f"Logged as roll #{entry.id}", out)
        self.refused(CmdChargen(), "/roll/elethril", "Your scores are rolled already; staff may change them.")

    def test_a_sheet_of_another_system_suggests_commands_that_name_it(self):
        out = self.player(CmdChargen(), " elethril")
        self.assertIn("Next: Roll your ability scores first: +chargen/roll/elethril.", out)
        self.refused(CmdChargen(), "/set/elethril class=Warrior",
                     "Roll your ability scores first: +chargen/roll/elethril.")
        self.refused(CmdChargen(), "/submit/aeon", "Your aeon sheet is not ready to submit: ")
        self.assertIn("Next: ", self.player(CmdChargen(), ""))
        self.assertNotIn("/storyteller", self.player(CmdChargen(), ""))   # the sheet a bare +chargen means

    def test_the_class_gives_the_sheet_its_traits(self):
        system = get_system("elethril")
        chargen._save_record(self.char2, system, {"scores": {"Strength": 17, "Dexterity": 15, "Constitution": 16,
                                                             "Intelligence": 8, "Wisdom": 10, "Charisma": 9}})
        self.refused(CmdChargen(), "/set/elethril class=Wizard", "A Wizard needs Intelligence 9; yours is 8.")
        self.refused(CmdChargen(), "/set/elethril THAC0=15", "THAC0 comes from your rolled scores and class")
        self.player(CmdChargen(), "/set/elethril class=war",
                    "<Chargen> Elethril chargen: you are a Warrior: THAC0 20, Armor Class 9, Hit Points 12, "
                    "Reaction 0, Hit Probability 1, Damage Adjustment 1, Attacks 1, Caster Level 0.")
        self.assertEqual(sheets.traits_of(self.char2, "elethril")["Hit Points"], 12)
        self.assertEqual(chargen.problems(self.char2, system), [])


class TestApproval(ChargenTest):
    def test_submit_lock_approve_and_the_player_is_told(self):
        self.build("storyteller", STORYTELLER)
        self.assertIn("Ready: +chargen/submit", self.player(CmdChargen(), ""))
        self.player(CmdChargen(), "/submit", "<Chargen> Your storyteller sheet is submitted (#")
        self.refused(CmdChargen(), "/set Brawl=2",
                     "Your storyteller sheet is waiting for staff: +chargen/withdraw it to change it.")
        listing = self.st(CmdApprove(), "/list")
        self.assertIn("Char2", listing)
        self.assertIn("storyteller", listing)
        self.refused(CmdApprove(), " Char2", "Only staff (Builder or above) can approve sheets.")
        self.st(CmdApprove(), " Char2=Welcome!", "<Chargen> You approve Char2's storyteller sheet (#")
        told = "\n".join(self.char2.pending_notices or [])
        self.assertIn("Your storyteller sheet is approved by Char. Comment: Welcome!", told)
        self.assertTrue(chargen.is_approved(self.char2, self.storyteller))
        self.refused(CmdChargen(), "/set Brawl=2",
                     "Your storyteller sheet is approved: raise traits with +xp/spend, or ask staff.")
        self.assertIn("No sheets are waiting", self.st(CmdApprove(), "/list"))

    def test_two_staff_approving_at_once_one_wins_the_other_is_told(self):
        review = self.submitted()
        other = create.create_object("typeclasses.characters.Character", key="Marshal", location=self.room1)
        other.permissions.add("Builder")
        chargen.approve(self.char1, review.id, "first")
        with self.assertRaises(CombatError) as lost:
            chargen.approve(other, review.id, "second")   # read the queue before the first approval
        self.assertRegex(str(lost.exception), r"^Char2's storyteller sheet \(#\d+\) is approved already, by Char at ")
        review.refresh_from_db()
        self.assertEqual((review.handled_by, review.comment), ("Char", "first"))
        self.st(CmdApprove(), " Char2", "<Fray> Char2's storyteller sheet (#")

    def test_unapprove_sends_the_sheet_back_with_the_reason(self):
        review = self.submitted()
        chargen.approve(self.char1, review.id)
        self.refused(CmdUnapprove(), " Char2", "Usage: +unapprove", caller=self.char1)
        self.st(CmdUnapprove(), " Char2=Too many guns.", "<Chargen> You send Char2's storyteller sheet back.")
        self.assertEqual(chargen.status(self.char2, self.storyteller), chargen.UNAPPROVED)
        self.assertIn("sent back by Char: Too many guns.", "\n".join(self.char2.pending_notices))
        self.player(CmdChargen(), "/set Brawl=2", "<Chargen> Storyteller chargen: your Brawl is now 2.")
        self.assertIn("Sent back by Char: Too many guns.", self.player(CmdChargen(), ""))

    def test_withdraw_reopens_the_sheet(self):
        self.submitted()
        self.player(CmdChargen(), "/withdraw", "<Chargen> Your storyteller sheet is withdrawn")
        self.player(CmdChargen(), "/set Brawl=2", "<Chargen> Storyteller chargen: your Brawl is now 2.")
        self.refused(CmdChargen(), "/withdraw", "Your storyteller sheet is not waiting for staff.")

    def test_staff_edits_of_an_approved_sheet_are_logged_old_to_new(self):
        chargen.set_value(self.char2, self.storyteller, "Brawl", "2")
        self.st(fray.CmdStat(), " Char2/Brawl=1")
        self.assertEqual(SheetLog.objects.count(), 0)   # still chargen: not logged
        chargen.approve(self.char1, self.submitted().id)
        self.st(fray.CmdStat(), " Char2=Brawl 2, weapon dagger")
        rows = list(SheetLog.objects.values_list("by", "what", "old", "new"))
        self.assertEqual(rows, [("Char", "Brawl", "3", "2"), ("Char", "weapon", "", "dagger")])
        log = self.st(CmdChargen(), "/log Char2")
        self.assertIn("storyteller Brawl: 3 -> 2", log)
        self.refused(CmdChargen(), "/log Char", "Only staff (Builder or above) can see other characters' sheet logs.")


class TestJoiningAFight(ChargenTest):
    def test_an_unapproved_character_joins_only_when_the_storyteller_adds_them(self):
        self.st(fray.CmdCombat(), "/start")
        self.refused(fray.CmdCombat(), "/join",
                     "Your storyteller sheet is not approved yet, so you cannot join on your own: the fight's "
                     "Storyteller can add you (+combat/add), or +chargen/submit it for approval.")
        self.st(fray.CmdCombat(), "/add Char2")
        self.assertIn("Char2", self.st(fray.CmdCombat(), ""))

    def test_an_approved_character_joins(self):
        chargen.approve(self.char1, self.submitted().id)
        self.st(fray.CmdCombat(), "/start")
        self.player(fray.CmdCombat(), "/join")
        self.assertIn("Char2", self.st(fray.CmdCombat(), ""))

    @override_settings(FRAY_UNAPPROVED_MAY_JOIN=True)
    def test_the_game_setting_lets_unapproved_characters_join(self):
        self.st(fray.CmdCombat(), "/start")
        self.player(fray.CmdCombat(), "/join")
        self.assertIn("Char2", self.st(fray.CmdCombat(), ""))


class TestExperience(ChargenTest):
    def approved(self, system="storyteller", ratings=STORYTELLER):
        chargen.approve(self.char1, self.submitted(system, ratings).id)

    def test_award_spend_log_and_undo(self):
        self.approved()
        self.st(CmdXp(), "/award Char2=10/The siege", "<XP> You award Char2 10 XP (entry #")
        self.assertIn("Char awards you 10 XP: The siege (balance 10).", "\n".join(self.char2.pending_notices))
        self.player(CmdXp(), "/spend Brawl", "<XP> You spend 6 XP: your storyteller Brawl is now 4. 4 XP left.")
        self.assertEqual(sheets.traits_of(self.char2, "storyteller")["Brawl"], 4)
        self.refused(CmdXp(), "/spend Strength=5", "Strength 5 costs 16 XP; you have 4.")
        self.refused(CmdXp(), "/spend Brawl=4", "Brawl is 4 already; name a higher rating.")
        self.refused(CmdXp(), "/spend Brawl=99999", "Brawl 99999 is out of range.")
        self.refused(CmdXp(), "/spend THAC0", "On the storyteller sheet: Unknown trait 'THAC0'.")
        self.refused(CmdXp(), "/spend/aeon Brawl", "Your aeon sheet is not approved yet")
        log = self.player(CmdXp(), "/log")
        self.assertIn("award by Char: The siege", log)
        self.assertIn("storyteller Brawl 3 -> 4", log)
        self.assertIn("Balance: 4 XP", log)
        spend = XpEntry.objects.get(kind=XpEntry.SPEND)
        self.refused(CmdXp(), f"/undo Char2={spend.id}", "Only staff (Builder or above) can undo experience spends.")
        self.st(CmdXp(), f"/undo Char2={spend.id}",
                f"<XP> You undo entry #{spend.id}: Char2's Brawl is 3 again and 6 XP is refunded.")
        self.assertEqual((sheets.traits_of(self.char2, "storyteller")["Brawl"], xp.balance(self.char2)), (3, 10))
        self.refused(CmdXp(), f"/undo Char2={spend.id}", f"Entry #{spend.id} was undone already by Char.",
                     caller=self.char1)
        self.player(CmdXp(), "", "<XP> You have 10 XP.")

    def test_a_sheet_with_experience_spent_on_it_is_sent_back_only_once_the_spends_are_undone(self):
        self.approved()
        xp.award(self.char1, self.char2, "10", "The siege")
        self.player(CmdXp(), "/spend Brawl", "<XP> You spend 6 XP")
        spend = XpEntry.objects.get(kind=XpEntry.SPEND)
        self.refused(CmdUnapprove(), " Char2=Redo it.",
                     f"Char2's storyteller sheet has experience spent on it (#{spend.id}): undo the spends first "
                     f"(+xp/undo Char2=<#>), or change it with +stat.", caller=self.char1)
        self.assertTrue(chargen.is_approved(self.char2, self.storyteller))   # nothing changed
        self.assertEqual((sheets.traits_of(self.char2, "storyteller")["Brawl"], xp.balance(self.char2)), (4, 4))
        self.st(CmdXp(), f"/undo Char2={spend.id}")
        self.st(CmdUnapprove(), " Char2=Redo it.", "<Chargen> You send Char2's storyteller sheet back.")

    def test_experience_buys_up_to_the_creation_maximum_unless_the_data_says_more(self):
        self.approved()   # Willpower 10: the storyteller Advantages' creation maximum
        xp.award(self.char1, self.char2, "1000", "A long campaign")
        self.refused(CmdXp(), "/spend Willpower=11", "Willpower 11 is over the maximum 10.")
        self.assertEqual(xp.balance(self.char2), 1000)

    def test_bad_awards_are_refused(self):
        self.refused(CmdXp(), "/award Char2=-5/x", "The award must be a whole number from 1 to 1000, not '-5'.",
                     caller=self.char1)
        self.refused(CmdXp(), "/award Char2=99999999999/x", "The award must be a whole number from 1 to 1000",
                     caller=self.char1)
        self.refused(CmdXp(), "/award Char2=5/", "Give the reason: +xp/award <name>=<n>/<reason>.", caller=self.char1)
        self.refused(CmdXp(), "/award Char2=#5/x", "The award must be a whole number from 1 to 1000, not '#5'.",
                     caller=self.char1)
        self.assertEqual(xp.balance(self.char2), 0)
        self.refused(CmdXp(), "/award Char2=5/x", "Only staff (Builder or above) can award experience.")
        self.refused(CmdXp(), "/award Char2=5", "Usage: +xp/award <name>=<n>/<reason>", caller=self.char1)

    def test_an_entry_number_is_read_as_a_rating_is_up_to_its_highest(self):
        """The entry number and the award are read as every rating is (``sheets.parse_rating``):
        the highest entry number is one, a long text is quoted short."""
        self.refused(CmdXp(), "/undo Char2=#1000000000", "Char2 has no XP entry #1000000000.", caller=self.char1)
        self.refused(CmdXp(), "/undo Char2=#0", "The entry number must be a whole number from 1 to 1000000000, "
                     "not '#0'.", caller=self.char1)
        self.refused(CmdXp(), "/undo Char2=1000000001", "The entry number must be a whole number from 1 to "
                     "1000000000, not '1000000001'.", caller=self.char1)
        self.refused(CmdXp(), "/award Char2=" + "x" * 30 + "/x", "The award must be a whole number from 1 to 1000, "
                     "not '" + "x" * 20 + "'.", caller=self.char1)

    def test_eldritch_advanced_maneuver_costs_five_xp_after_approval(self):
        self.approved("eldritch", ELDRITCH)
        xp.award(self.char1, self.char2, "7", "A good fight")
        self.player(CmdXp(), "/spend/eldritch Ear Pop", "<XP> You spend 5 XP: your eldritch Ear Pop is now 1. 2 XP left.")
        self.refused(CmdXp(), "/spend/eldritch Eye Pluck", "Eye Pluck 1 costs 5 XP; you have 2.")
        self.refused(CmdXp(), "/spend/eldritch Honorable",
                     "Honorable is not bought with experience under the eldritch rules; ask staff.")


class TestMigration(ChargenTest):
    def test_characters_with_traits_are_approved_by_migration_and_npcs_are_not(self):
        import importlib

        migration = importlib.import_module("world.migrations.0008_approve_existing_sheets")
        sheets.update_sheet(self.char2, "aeon", traits={"Brawl": 2})
        sheets.update_sheet(self.char1, "aeon", traits={})
        npc = create.create_object("typeclasses.npcs.NPC", key="Guard", location=self.room1)
        sheets.update_sheet(npc, "aeon", traits={"Brawl": 3})
        migration.approve_existing(apps)
        rows = list(SheetReview.objects.values_list("character_name", "system_key", "status", "handled_by", "comment"))
        self.assertEqual(rows, [("Char2", "aeon", "approved", "migration", "approved by migration")])
        migration.approve_existing(apps)   # once only
        self.assertEqual(SheetReview.objects.count(), 1)
        self.assertTrue(chargen.is_approved(self.char2, get_system("aeon")))


class TestAdminQueue(ChargenTest):
    def setUp(self):
        super().setUp()
        from django.test import Client

        self.warden = create.create_account("Warden", "warden@example.com", "Fr4y-admin-pw", is_superuser=True)
        self.addCleanup(self.warden.delete)
        self.client = Client()
        self.client.force_login(self.warden)
        self.review = self.submitted()

    def url(self, action="change"):
        return f"/admin/fray/sheetreview/{self.review.id}/{action}/"

    def test_the_queue_lists_the_sheet_and_its_page_approves_it_telling_the_player(self):
        listing = self.client.get("/admin/fray/sheetreview/")
        self.assertContains(listing, "Char2")
        page = self.client.get(self.url())
        self.assertContains(page, 'id="fray-approve"')
        answer = self.client.post(self.url("approve"), {"comment": "Fine <b>work</b>"})
        self.assertEqual(answer.status_code, 302)
        self.review.refresh_from_db()
        self.assertEqual((self.review.status, self.review.handled_by, self.review.comment),
                         ("approved", "Warden", "Fine <b>work</b>"))
        self.assertIn("Your storyteller sheet is approved by Warden.", "\n".join(self.char2.pending_notices))
        again = self.client.post(self.url("approve"), {"comment": ""})
        self.assertContains(again, "is approved already, by Warden", status_code=409)

    def test_send_back_needs_a_reason_and_tells_the_player(self):
        before = self.state()
        self.assertEqual(self.client.post(self.url("unapprove"), {"reason": ""}).status_code, 400)
        self.assertEqual(self.client.post(self.url("unapprove"), {"reason": "a\tb"}).status_code, 400)
        self.assertEqual(self.client.get(self.url("approve")).status_code, 405)
        self.assertEqual(self.state(), before)
        self.assertEqual(self.client.post(self.url("unapprove"), {"reason": "More Melee."}).status_code, 302)
        self.assertEqual(chargen.status(self.char2, self.storyteller), chargen.UNAPPROVED)
        self.assertIn("sent back by Warden: More Melee.", "\n".join(self.char2.pending_notices))

    def test_a_forged_post_changes_nothing(self):
        from django.test import Client

        forged = Client(enforce_csrf_checks=True)
        forged.force_login(self.warden)
        self.assertEqual(forged.post(self.url("approve"), {"comment": ""}).status_code, 403)
        anonymous = Client().post(self.url("approve"), {"comment": ""})
        self.assertEqual(anonymous.status_code, 302)
        self.assertIn("/admin/login/", anonymous["Location"])
        self.assertEqual(chargen.status(self.char2, self.storyteller), chargen.SUBMITTED)

    def test_the_admin_sheet_form_logs_changes_to_an_approved_sheet(self):
        chargen.approve(self.char1, self.review.id)
        chargen.staff_set_stats(self.warden, self.char2, [("Brawl", "1")], self.storyteller)
        self.assertEqual(list(SheetLog.objects.values_list("by", "what", "old", "new")), [("Warden", "Brawl", "3", "1")])


class TestWebPage(ChargenTest):
    def setUp(self):
        super().setUp()
        from django.test import Client

        self.account2.characters.add(self.char2)
        self.web = Client()
        self.web.force_login(self.account2)

    def test_the_page_shows_the_sheet_as_it_is_and_sets_a_trait_with_the_same_rules(self):
        page = self.web.get("/chargen/storyteller/")
        self.assertContains(page, "Char2: storyteller character generation")
        self.assertContains(page, "0 of 7 spent, 7 left (1 to 5)")
        answer = self.web.post("/chargen/storyteller/set", {"trait": "Dexterity", "rating": "3"})
        self.assertEqual((answer.status_code, answer["Location"]), (303, "/chargen/storyteller/"))
        self.assertEqual(sheets.traits_of(self.char2, "storyteller")["Dexterity"], 3)
        self.assertContains(self.web.get("/chargen/storyteller/"), '<td class="chargen-rating" data-trait="Dexterity">3</td>',
                            html=False)
        self.assertEqual(self.web.get("/chargen/").status_code, 302)

    def test_refusals_and_bad_input_change_nothing(self):
        before = self.state()
        refused = self.web.post("/chargen/storyteller/set", {"trait": "Brawl", "rating": "4"})
        self.assertContains(refused, "Brawl 4 is over the creation maximum 3.", status_code=409)
        self.assertContains(self.web.post("/chargen/storyteller/set", {"trait": "THAC0", "rating": "1"}),
                            "On the storyteller sheet: Unknown trait", status_code=409)
        self.assertEqual(self.web.post("/chargen/storyteller/set", {"trait": "Brawl\n", "rating": "1"}).status_code, 400)
        self.assertEqual(self.web.post("/chargen/storyteller/set", {"trait": "Brawl", "rating": ""}).status_code, 400)
        self.assertContains(self.web.post("/chargen/storyteller/submit"), "Your storyteller sheet is not ready to submit: 7 points left",
                            status_code=409)
        self.assertEqual(self.web.get("/chargen/storyteller/set").status_code, 405)
        self.assertEqual(self.web.get("/chargen/fifth/").status_code, 404)
        self.assertEqual(self.state(), before)

    def test_a_forged_or_anonymous_post_changes_nothing(self):
        from django.test import Client

        before = self.state()
        forged = Client(enforce_csrf_checks=True)
        forged.force_login(self.account2)
        self.assertEqual(forged.post("/chargen/storyteller/set", {"trait": "Brawl", "rating": "1"}).status_code, 403)
        anonymous = Client().post("/chargen/storyteller/set", {"trait": "Brawl", "rating": "1"})
        self.assertEqual(anonymous.status_code, 302)
        self.assertIn("login", anonymous["Location"])
        self.assertEqual(self.state(), before)

    def test_submit_on_the_web_puts_the_sheet_in_the_queue(self):
        self.build("storyteller", STORYTELLER)
        self.assertEqual(self.web.post("/chargen/storyteller/submit").status_code, 303)
        self.assertEqual(chargen.status(self.char2, self.storyteller), chargen.SUBMITTED)
        page = self.web.get("/chargen/storyteller/")
        self.assertContains(page, "Status: submitted, waiting for staff")
        self.assertNotContains(page, 'id="chargen-set"')


class TestServerStart(ChargenTest):
    def test_every_chargen_table_is_checked_at_start_and_a_broken_one_is_named(self):
        from unittest import mock

        from rules import chargen as rules_chargen
        from rules.data import RulesDataError
        from server.conf.server_services_plugins import chargen_check

        self.assertEqual(chargen_check(), [])
        with mock.patch.object(rules_chargen, "load", side_effect=RulesDataError("aeon.toml: bad")):
            self.assertEqual(chargen_check()[0], "Chargen table of storyteller: aeon.toml: bad")
