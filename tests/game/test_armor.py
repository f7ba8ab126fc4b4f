"""Armor notes: +request (file, list, view, approve, deny, withdraw) and +armor (list, wear,
remove, show, revoke), login notices, and every refusal leaving the state unchanged."""

from unittest import mock

from evennia.utils import create

from commands.armor import CmdArmor, CmdRequest
from rules.systems import CombatError, get_system
from tests.game.test_combat_commands import FrayCommandTest
from world import armor, sheets
from world.models import ArmorRequest

GOBLIN = {"bashing": 2, "lethal": 2}


class ArmorTest(FrayCommandTest):
    def setUp(self):
        super().setUp()
        self.system = sheets.default_system()
        self.char2.armor_notes = []
        self.char2.worn_armor = None
        self.char2.pending_notices = []

    def file(self, what="goblin", why="From the vault", caller=None):
        self.call(CmdRequest(), f"/armor {what}={why}", "<Armor> Request #", caller=caller or self.char2)
        return armor.all_requests()[-1]["id"]

    def state(self, char=None):
        char = char or self.char2
        return (armor.all_requests(), armor.notes_of(char), char.worn_armor,
                list(char.pending_notices or []))

    def refused(self, cmd, args, expected, caller=None):
        """``args`` is refused with ``expected`` (one line) and nothing changes."""
        before = (self.state(self.char2), self.state(self.char1))
        out = self.call(cmd, args, f"<Fray> {expected}", caller=caller or self.char2)
        self.assertEqual(len(out.strip().splitlines()), 1, out)
        self.assertEqual((self.state(self.char2), self.state(self.char1)), before)
        return out


class TestRequestFlow(ArmorTest):
    def test_request_approve_wear_soak(self):
        number = self.file("goblin", "My knight's mail")
        request = armor.get_request(number)
        self.assertEqual((request["armor"], request["name"], request["status"], request["requester"]),
                         ("goblin-mail", "Goblin-made Mail", "open", self.char2))
        listing = self.st(CmdRequest(), "/list")
        self.assertIn("Goblin-made Mail", listing)
        self.assertIn("Char2", listing)
        self.assertTrue(all(len(line) <= 78 for line in listing.splitlines()), listing)
        self.assertIn("Why: My knight's mail", self.st(CmdRequest(), f"/view {number}"))
        self.st(CmdRequest(), f"/approve {number}=Nice scene.",
                f"<Armor> Request #{number} approved: #{number} Goblin-made Mail (storyteller: bashing 2, lethal 2)")
        note = armor.notes_of(self.char2)[0]
        self.assertEqual({k: note[k] for k in ("id", "system", "armor", "name", "soak", "approved_by", "comment",
                                               "request")},
                         {"id": number, "system": "storyteller", "armor": "goblin-mail", "name": "Goblin-made Mail",
                          "soak": GOBLIN, "approved_by": "Char", "comment": "Nice scene.", "request": number})
        self.assertIn("T", note["approved_at"])
        self.assertEqual(armor.get_request(number)["status"], "approved")
        self.assertEqual(armor.open_requests(), [])
        # Not worn yet: no soak.
        self.assertEqual(sheets.snapshot(self.char2, self.system).armor, {})
        self.player(CmdArmor(), "/wear goblin", f"<Armor> You wear #{number} Goblin-made Mail")
        self.assertEqual(sheets.snapshot(self.char2, self.system).armor, GOBLIN)
        listing = self.player(CmdArmor(), "")
        self.assertTrue(all(len(line) <= 78 for line in listing.splitlines()), listing)
        self.assertIn(f"*{number}", listing)
        self.assertIn("bashing 2, lethal 2", listing)
        self.player(CmdArmor(), "/remove", f"<Armor> You take off #{number} Goblin-made Mail.")
        self.assertEqual(sheets.snapshot(self.char2, self.system).armor, {})
        self.player(CmdArmor(), f"/wear #{number}", "<Armor> You wear")
        self.assertEqual(self.char2.worn_armor, number)

    def test_player_sees_own_requests(self):
        number = self.file("goblin")
        out = self.player(CmdRequest(), "")
        self.assertIn("Your requests", out)
        self.assertIn("open", out)
        self.assertIn(f"Request #{number}", self.player(CmdRequest(), f"/view {number}"))

    def test_deny(self):
        number = self.file("goblin")
        self.st(CmdRequest(), f"/deny {number}=Not in this era.", f"<Armor> Request #{number} (Goblin-made Mail) denied.")
        request = armor.get_request(number)
        self.assertEqual((request["status"], request["handled_by"], request["comment"]),
                         ("denied", "Char", "Not in this era."))
        self.assertEqual(armor.notes_of(self.char2), [])
        self.assertIn("denied by Char: Not in this era.", self.char2.pending_notices[0])
        self.assertIn("Denied by Char", self.st(CmdRequest(), f"/view {number}"))

    def test_custom_armor_with_explicit_values(self):
        number = self.file("troll-hide cloak", "Won it on Friday")
        request = armor.get_request(number)
        self.assertEqual((request["armor"], request["name"]), (None, "troll-hide cloak"))
        self.assertIn("custom", self.st(CmdRequest(), f"/view {number}"))
        self.refused(CmdRequest(), f"/approve {number}", f"Request #{number} is for a custom armor: give its soak "
                     "values", caller=self.char1)
        self.refused(CmdRequest(), f"/approve {number}=fine", f"Request #{number} is for a custom armor",
                     caller=self.char1)
        self.st(CmdRequest(), f"/approve {number}=bashing:1,lethal:1 fine",
                f"<Armor> Request #{number} approved: #{number} troll-hide cloak (storyteller: bashing 1, lethal 1)")
        note = armor.notes_of(self.char2)[0]
        self.assertEqual((note["soak"], note["comment"], note["armor"]), ({"bashing": 1, "lethal": 1}, "fine", None))
        self.player(CmdArmor(), "/wear troll", "<Armor> You wear")
        self.assertEqual(sheets.snapshot(self.char2, self.system).armor, {"bashing": 1, "lethal": 1})

    def test_explicit_values_replace_table_values_and_prefixes_work(self):
        number = self.file("goblin")
        self.st(CmdRequest(), f"/approve {number}=b:3,agg:1", "<Armor> Request")
        self.assertEqual(armor.notes_of(self.char2)[0]["soak"], {"bashing": 3, "aggravated": 1})
        self.assertEqual(armor.notes_of(self.char2)[0]["comment"], "")

    def test_withdraw(self):
        number = self.file("goblin")
        self.player(CmdRequest(), f"/withdraw {number}", f"<Armor> You withdraw request #{number}")
        self.assertEqual(armor.get_request(number)["status"], "withdrawn")
        self.refused(CmdRequest(), f"/approve {number}", f"Request #{number} was withdrawn by its requester.",
                     caller=self.char1)

    def test_requests_are_rows_numbered_by_their_id(self):
        first, second = self.file("goblin"), self.file("leather")
        self.assertEqual(second, first + 1)
        rows = list(ArmorRequest.objects.filter(id__in=(first, second)).values_list("id", "name", "requester_id"))
        self.assertEqual(rows, [(first, "Goblin-made Mail", self.char2.id), (second, "Leather Coat", self.char2.id)])
        self.assertEqual(len(armor.all_requests()), 2)


class TestShowAndRevoke(ArmorTest):
    def approved(self, what="goblin", owner=None):
        number = self.file(what, caller=owner or self.char2)
        self.st(CmdRequest(), f"/approve {number}=Well earned.", "<Armor> Request")
        return number

    def test_show_to_another_player(self):
        number = self.approved()
        self.player(CmdArmor(), f"/wear {number}")
        with mock.patch.object(self.char1, "msg") as seen:
            self.player(CmdArmor(), "/show Char", f"<Armor> You show Char your armor note #{number} Goblin-made Mail")
        text = seen.call_args[0][0]
        self.assertIn("Char2 shows you an approved armor note (worn):", text)
        self.assertIn(f"#{number} Goblin-made Mail (storyteller: bashing 2, lethal 2)", text)
        self.assertIn("Approved by Char on ", text)
        self.assertIn("UTC: Well earned.", text)

    def test_show_refusals(self):
        self.refused(CmdArmor(), "/show Char", "You have no armor notes.")
        self.refused(CmdArmor(), "/show Nobody", "No one called 'Nobody' here.")
        number = self.approved()
        self.refused(CmdArmor(), "/show Char2", "Show it to someone else")
        self.refused(CmdArmor(), "/show me", "Show it to someone else")
        self.refused(CmdArmor(), f"/show Char={number + 1}", f"You have no armor note #{number + 1}.")
        self.char1.location = self.room2
        self.refused(CmdArmor(), "/show Char", "No one called 'Char' here.")

    def test_revoke_worn_note_stops_counting(self):
        number = self.approved()
        self.player(CmdArmor(), f"/wear {number}")
        self.assertEqual(sheets.snapshot(self.char2, self.system).armor, GOBLIN)
        self.st(CmdArmor(), f"/revoke Char2={number}=Lost it in the river.",
                f"<Armor> You revoke Char2's armor note #{number} Goblin-made Mail")
        self.assertEqual(armor.notes_of(self.char2), [])
        self.assertIsNone(self.char2.worn_armor)
        self.assertEqual(sheets.snapshot(self.char2, self.system).armor, {})
        request = armor.get_request(number)
        self.assertEqual((request["status"], request["revoked_by"], request["revoke_reason"]),
                         ("revoked", "Char", "Lost it in the river."))
        self.assertIn("revoked your armor note", self.char2.pending_notices[-1])
        self.refused(CmdArmor(), f"/revoke Char2={number}", f"Char2 has no armor note #{number}.", caller=self.char1)
        self.refused(CmdArmor(), f"/wear {number}", f"You have no armor note #{number}.")
        self.refused(CmdRequest(), f"/approve {number}", f"Request #{number} was approved and later revoked",
                     caller=self.char1)

    def test_revoke_keeps_other_notes(self):
        first, second = self.approved("goblin"), self.approved("leather")
        self.player(CmdArmor(), f"/wear {second}")
        self.st(CmdArmor(), f"/revoke Char2={first}", "<Armor> You revoke")
        self.assertEqual([n["id"] for n in armor.notes_of(self.char2)], [second])
        self.assertEqual(self.char2.worn_armor, second)
        self.assertEqual(sheets.snapshot(self.char2, self.system).armor, {"bashing": 1})

    def test_staff_views_notes_players_cannot(self):
        number = self.approved()
        self.assertIn(f"{number}", self.st(CmdArmor(), "Char2", "Char2's armor notes"))
        self.refused(CmdArmor(), "Char", "Only staff (Builder or above) can see other characters' armor notes.")
        self.assertIn("Your armor notes", self.player(CmdArmor(), "Char2"))


class TestNotices(ArmorTest):
    def test_notices_kept_offline_and_shown_at_login(self):
        number = self.file("goblin")
        other = self.file("mithril shirt")
        self.st(CmdRequest(), f"/approve {number}")
        self.st(CmdRequest(), f"/deny {other}=No mithril here.")
        self.assertEqual(len(self.char2.pending_notices), 2)
        with mock.patch.object(self.char2, "msg") as told:
            self.char2.at_post_puppet()
        text = "\n".join(str(call.args[0]) for call in told.call_args_list if call.args)
        self.assertIn(f"Your armor request #{number} is approved by Char", text)
        self.assertIn("No mithril here.", text)
        self.assertEqual(list(self.char2.pending_notices), [])
        with mock.patch.object(self.char2, "msg") as told:
            armor.deliver_notices(self.char2)
        told.assert_not_called()

    def test_online_player_told_at_once(self):
        number = self.file("goblin")
        with mock.patch.object(armor, "is_online", return_value=True), \
                mock.patch.object(self.char2, "msg") as told:
            self.st(CmdRequest(), f"/approve {number}")
        self.assertIn(f"Your armor request #{number} is approved", told.call_args[0][0])
        self.assertEqual(list(self.char2.pending_notices), [])


class TestBadInput(ArmorTest):
    def test_approve_twice_denied_unknown_and_deleted(self):
        number = self.file("goblin")
        self.st(CmdRequest(), f"/approve {number}")
        self.refused(CmdRequest(), f"/approve {number}", f"Request #{number} is already approved (by Char,",
                     caller=self.char1)
        self.refused(CmdRequest(), f"/deny {number}=no", f"Request #{number} is already approved", caller=self.char1)
        denied = self.file("leather")
        self.st(CmdRequest(), f"/deny {denied}=No.")
        self.refused(CmdRequest(), f"/approve {denied}", f"Request #{denied} was denied by Char; it cannot be "
                     "approved now.", caller=self.char1)
        self.refused(CmdRequest(), "/approve 99", "No request #99.", caller=self.char1)
        self.refused(CmdRequest(), "/view 99", "No request #99.", caller=self.char1)
        ghost = create.create_object("typeclasses.characters.Character", key="Ghost", location=self.room1)
        gone = self.file("goblin", caller=ghost)
        ghost.delete()
        self.refused(CmdRequest(), f"/approve {gone}", f"Request #{gone}'s character no longer exists",
                     caller=self.char1)
        self.assertIn("(deleted)", self.st(CmdRequest(), f"/view {gone}"))
        self.st(CmdRequest(), f"/deny {gone}=Gone.", f"<Armor> Request #{gone}")

    def test_bad_numbers(self):
        self.file("goblin")
        for text in ("abc", "1.5", "-1", "3x", "\u0663"):
            self.refused(CmdRequest(), f"/approve {text}", "'", caller=self.char1)
        self.refused(CmdRequest(), "/approve abc", "'abc' is not a request number; give a number like 3.",
                     caller=self.char1)
        self.refused(CmdRequest(), "/approve 0", "No request #0.", caller=self.char1)
        self.refused(CmdRequest(), "/approve " + "9" * 400, "No request #999", caller=self.char1)
        self.refused(CmdRequest(), "/view 99999999999999999999", "No request #9999", caller=self.char1)
        self.refused(CmdArmor(), "/wear 99999999999999999999", "No note #9999")
        self.refused(CmdArmor(), "/revoke Char2=abc", "'abc' is not a note number", caller=self.char1)
        self.refused(CmdArmor(), "/revoke Char2=" + "9" * 50, "No note #999", caller=self.char1)

    def test_colour_codes_stored_and_echoed_literally(self):
        why = "I need |rred|n mail|/now"
        number = self.file("goblin", why)
        self.assertEqual(armor.get_request(number)["why"], why)
        self.assertIn(f"Why: {why}", self.st(CmdRequest(), f"/view {number}"))
        self.assertIn("|rred", self.st(CmdRequest(), "/list"))
        custom = self.file("|rBlood|n |/plate", "why")
        self.assertEqual(armor.get_request(custom)["name"], "|rBlood|n |/plate")
        self.st(CmdRequest(), f"/approve {custom}=lethal:2 |gok|n",
                f"<Armor> Request #{custom} approved: #{custom} |rBlood|n |/plate (storyteller: lethal 2)")
        self.assertEqual(armor.notes_of(self.char2)[0]["comment"], "|gok|n")
        self.assertIn("|rBlood|n |/plate", self.player(CmdArmor(), ""))
        self.st(CmdRequest(), f"/deny {number}=|/|rno", f"<Armor> Request #{number} (Goblin-made Mail) denied.")
        self.assertIn("|/|rno", self.char2.pending_notices[-1].replace("||", "|"))

    def test_bad_soak_values(self):
        number = self.file("cloak of shadows")
        for spec, expected in (
                ("fire:1", "Unknown armor column 'fire'. Columns: bashing, lethal, aggravated."),
                ("bashing:11", "Soak values are whole numbers 0-10, not '11' for bashing."),
                ("bashing:-1", "Soak values are whole numbers 0-10, not '-1'"),
                ("bashing:999999999999", "Soak values are whole numbers 0-10"),
                ("bashing:x", "Soak values are whole numbers 0-10, not 'x'"),
                ("bashing:", "Soak values are whole numbers 0-10, not ''"),
                ("bashing:1,bashing:2", "Armor column 'bashing' is given twice."),
                ("bashing:1,,lethal:1", "Give soak values as <column>:<n>"),
                (":1", "Give soak values as <column>:<n>"),
                ("bashing:0", "Give at least one soak value above 0."),
                ("|rbash:1", "Unknown armor column '|rbash'")):
            self.refused(CmdRequest(), f"/approve {number}={spec} ok", expected, caller=self.char1)
        self.assertEqual(armor.get_request(number)["status"], "open")

    def test_wear_and_remove_refusals(self):
        self.refused(CmdArmor(), "/wear 1", "You have no armor note #1.")
        self.refused(CmdArmor(), "/wear goblin", "You have no armor note 'goblin'.")
        self.refused(CmdArmor(), "/wear", "Usage: +armor/wear <note # or name>")
        self.refused(CmdArmor(), "/remove", "You wear no armor.")
        # Char's note cannot be worn by Char2, by number or by name.
        mine = self.file("goblin", caller=self.char1)
        self.st(CmdRequest(), f"/approve {mine}")
        self.refused(CmdArmor(), f"/wear {mine}", f"You have no armor note #{mine}.")
        self.refused(CmdArmor(), "/wear goblin", "You have no armor note 'goblin'.")
        self.assertEqual(sheets.snapshot(self.char2, self.system).armor, {})
        self.st(CmdArmor(), f"/wear {mine}", "<Armor> You wear")
        self.refused(CmdArmor(), f"/wear {mine}", f"You already wear #{mine}.", caller=self.char1)

    def test_players_cannot_use_staff_switches(self):
        number = self.file("goblin")
        self.refused(CmdRequest(), "/list", "Only staff (Builder or above) can list everyone's requests.")
        self.refused(CmdRequest(), f"/approve {number}", "Only staff (Builder or above) can approve requests.")
        self.refused(CmdRequest(), f"/approve {number}=bashing:9", "Only staff (Builder or above) can approve")
        self.refused(CmdRequest(), f"/deny {number}=no", "Only staff (Builder or above) can deny requests.")
        self.refused(CmdArmor(), "/revoke Char2=1", "Only staff (Builder or above) can revoke armor notes.")
        other = self.file("leather", caller=self.char1)
        self.refused(CmdRequest(), f"/view {other}", f"Request #{other} is not yours; staff see every request.")
        self.refused(CmdRequest(), f"/withdraw {other}", f"Request #{other} is not yours.")

    def test_unknown_switches_and_usage(self):
        self.refused(CmdRequest(), "/grant goblin", "Unknown switch '/grant' for +request.")
        self.refused(CmdArmor(), "/edit 1=bashing:5", "Unknown switch '/edit' for +armor.")
        self.refused(CmdArmor(), "/set 1", "Unknown switch '/set' for +armor.")
        self.refused(CmdRequest(), "/armor goblin", "Usage: +request/armor <armor>=<why>")
        self.refused(CmdRequest(), "/armor =why", "Usage: +request/armor <armor>=<why>")
        self.refused(CmdRequest(), "/armor goblin=", "Usage: +request/armor <armor>=<why>")
        self.refused(CmdRequest(), "/armor goblin=" + "x" * 401, "Give your reason in at most 400 characters.")
        self.refused(CmdRequest(), "/armor " + "x" * 41 + "=why", "Name the armor in at most 40 characters.")
        self.refused(CmdRequest(), "/deny 1", "Usage: +request/deny <#>=<why>", caller=self.char1)
        self.refused(CmdRequest(), "/view", "Usage: +request/view <#>")
        self.refused(CmdArmor(), "/revoke Char2", "Usage: +armor/revoke <player>=<note #>[=<why>]", caller=self.char1)

    def test_a_staff_reason_is_checked_alike_everywhere(self):
        """A denial's, a revoke's and an award's reason go through one check
        (``armor.staff_reason``): none given names the usage, over the limit is refused."""
        number = self.file()
        with self.assertRaisesMessage(CombatError, "Give the reason: +request/deny <#>=<why>."):
            armor.deny(self.char1, number, "   ")
        self.refused(CmdRequest(), f"/deny {number}=" + "x" * 201, "Keep the reason to 200 characters.",
                     caller=self.char1)
        self.assertEqual(armor.staff_reason("  Not in this era.  ", "u"), "Not in this era.")
        self.assertEqual(armor.staff_reason("  ", "u", needed=False), "")
        with self.assertRaisesMessage(CombatError, "Keep the reason to 3 characters."):
            armor.staff_reason("four", "u", 3)

    def test_open_request_limit(self):
        for _ in range(armor.MAX_OPEN):
            self.file("goblin")
        self.refused(CmdRequest(), "/armor goblin=again", "You already have 5 open requests")


class TestHintsInTheSystemsColumns(ArmorTest):
    """A custom armor's hints show soak values in the request's system's own
    columns (eldritch bash/lethal/bullets, elethril armor_class), and the example works."""

    def custom(self, system_key):
        return armor.file_armor_request(self.char2, "troll-hide cloak", "Won it", get_system(system_key))["id"]

    def test_eldritch(self):
        number = self.custom("eldritch")
        self.assertIn(f"e.g. +request/approve {number}=bash:1,lethal:2 fine; or +request/deny {number}=<why>",
                      self.st(CmdRequest(), f"/view {number}"))
        self.refused(CmdRequest(), f"/approve {number}", f"Request #{number} is for a custom armor: give its soak "
                     f"values, e.g. +request/approve {number}=bash:1,lethal:2 <comment>.", caller=self.char1)
        self.refused(CmdRequest(), f"/approve {number}=bash:1,,lethal:2 fine", "Give soak values as <column>:<n> joined by "
                     "commas (no spaces), e.g. +request/approve <#>=bash:1,lethal:2 <comment>.", caller=self.char1)
        self.st(CmdRequest(), f"/approve {number}=bash:1,lethal:2 fine",
                f"<Armor> Request #{number} approved: #{number} troll-hide cloak (eldritch: bash 1, lethal 2)")

    def test_elethril(self):
        number = self.custom("elethril")
        self.assertIn(f"e.g. +request/approve {number}=armor_class:8 fine;", self.st(CmdRequest(), f"/view {number}"))
        self.refused(CmdRequest(), f"/approve {number}", f"Request #{number} is for a custom armor: give its soak "
                     f"values, e.g. +request/approve {number}=armor_class:8 <comment>.", caller=self.char1)
        self.st(CmdRequest(), f"/approve {number}=armor_class:8",
                f"<Armor> Request #{number} approved: #{number} troll-hide cloak (elethril: armor_class 8)")

    def test_storyteller_and_aeon_keep_their_damage_types(self):
        self.assertEqual(armor.soak_example(get_system("storyteller")), "bashing:1")
        self.assertEqual(armor.soak_example(get_system("aeon")), "bashing:3,lethal:2")
