"""The fight core: one JSON state row per fight, one save per command, an append-only roll
log, typed events published after the commit, the double-advance guard and the cheap HUD."""

import time

from django.db import connection
from django.test.utils import CaptureQueriesContext

from commands import fray, npcs
from tests.game import fightview as encounters
from tests.game.test_combat_commands import FrayCommandTest
from world import fights
from world.models import Fight, FightLogEntry
from world.sheets import add_traits
from world.text import columns, doubled, fit, wrap_words


def writes(queries, table: str) -> int:
    return sum(1 for q in queries if q["sql"].lstrip().upper().startswith(("INSERT", "UPDATE", "DELETE"))
               and f'"{table}"' in q["sql"])


class CoreTest(FrayCommandTest):
    def setUp(self):
        super().setUp()
        self.events = []
        fights.subscribe(self.events.append)
        self.addCleanup(fights._subscribers.remove, self.events.append)

    def fight(self):
        """Alice (Char2) 9, Guard 6: Char2 to act."""
        self.st(fray.CmdCombat(), "/start")
        self.player(fray.CmdCombat(), "/join")
        self.force(4)
        self.player(fray.CmdCombat(), "/init")
        self.force(1)
        self.st(npcs.CmdNpc(), "/init Guard=2+3")
        self.encounter = encounters.encounter_in(self.room1)
        self.guard = encounters.find_combatant(self.encounter, "Guard")
        add_traits(self.guard, "storyteller", Stamina=2, Dodge=1, Strength=2, Brawl=1)
        return self.encounter


class TestOneState(CoreTest):
    def test_a_fight_is_one_row_with_its_state_in_json(self):
        encounter = self.fight()
        row = Fight.objects.get(pk=encounter.id)
        self.assertEqual((row.system_key, row.round, row.room_id), ("storyteller", 1, self.room1.id))
        self.assertEqual([fighter["id"] for fighter in row.state["fighters"]], [self.char2.id, self.guard.id])
        self.assertEqual(row.state["gm"], self.char1.id)
        # ids as keys survive the JSON round trip as ints
        self.assertEqual(sorted(encounter.initiative), sorted([self.char2.id, self.guard.id]))
        self.assertFalse(self.room1.scripts.all())  # no script: the row is the fight

    def test_an_attack_saves_the_fight_once_and_the_log_in_one_insert(self):
        self.fight()
        self.force(9, 8, 7, 2, 2)
        with CaptureQueriesContext(connection) as ctx:
            self.player(fray.CmdAttack(), "Guard")
        self.assertEqual(writes(ctx.captured_queries, "fray_fight"), 1)
        self.assertEqual(writes(ctx.captured_queries, "fray_fightlogentry"), 1)
        self.force(6, 3, 3, 2, 10, 6, 2, 5, 1)
        self.guard.health = {}  # a health Attribute kept already, as after a first hit
        with CaptureQueriesContext(connection) as ctx:
            self.st(fray.CmdDefend(), "Guard=dodge")
        self.assertEqual(writes(ctx.captured_queries, "fray_fight"), 1)
        self.assertEqual(writes(ctx.captured_queries, "fray_fightlogentry"), 1)  # defense and damage: one INSERT
        # the hit Guard's health: one UPDATE of its Attribute row, which reads back as kept
        self.assertEqual(writes(ctx.captured_queries, "typeclasses_attribute"), 1)
        health = self.guard.attributes.get("health", category="fray", return_obj=True)
        self.assertEqual(type(health).objects.get(pk=health.pk).value["storyteller"],
                         self.guard.health["storyteller"])
        self.assertTrue(self.guard.health["storyteller"])
        with CaptureQueriesContext(connection) as ctx:
            self.st(fray.CmdCombat(), "/next")
        self.assertEqual(writes(ctx.captured_queries, "fray_fight"), 1)
        self.assertEqual(self.encounter.round, 2)

    def test_the_hud_writes_nothing(self):
        self.fight()
        with CaptureQueriesContext(connection) as ctx:
            hud = self.player(fray.CmdCombat(), "")
        self.assertIn("TO ACT", hud)
        self.assertEqual([q["sql"] for q in ctx.captured_queries
                          if q["sql"].lstrip().upper().startswith(("INSERT", "UPDATE", "DELETE"))], [])

    def test_the_roll_log_is_a_row_per_entry_read_a_page_at_a_time(self):
        self.fight()
        self.force(9, 8, 7, 2, 2)
        self.player(fray.CmdAttack(), "Guard")
        rows = list(FightLogEntry.objects.filter(fight_id=self.encounter.id).values_list("number", "what"))
        self.assertEqual(rows, [(1, "initiative"), (2, "initiative"), (3, "punch at Guard")])
        self.assertEqual(fights.log_entries(self.encounter.row, 2, 2)[0]["actor"], "Guard")
        self.assertEqual(self.encounter.log[-1]["what"], "punch at Guard")
        out = self.st(fray.CmdCombat(), "/log")
        self.assertIn("Roll log, page 1 of 1 (3 entries)", out)
        self.assertIn("#3 R1 Char2: punch at Guard", out)

    def test_an_ended_fight_keeps_its_row_and_log(self):
        encounter = self.fight()
        self.st(fray.CmdCombat(), "/end")
        row = Fight.objects.get(log_entries__number=1)
        self.assertEqual(row.pk, encounter.id)
        self.assertIsNotNone(row.ended)
        self.assertEqual(row.log_entries.count(), 2)
        self.assertIsNone(encounters.encounter_in(self.room1))

    def test_a_fight_running_when_the_engine_came_is_rewritten_in_its_shape(self):
        """world/migrations/0006: an old state (objects as {"#obj": id}, conditions by id)
        becomes a FightState record; the sheets are read at its next command."""
        import importlib

        from django.apps import apps

        old = Fight.objects.create(room_id=self.room1.id, system_key="storyteller", state={
            "system_key": "storyteller", "round": 3, "storyteller": {"#obj": self.char1.id},
            "combatants": [{"#obj": self.char2.id}], "initiative": {"#map": [[self.char2.id, {"name": "Char2"}]]},
            "conditions": {"#map": [[self.char2.id, {"prone": True}]]}, "acted": [[9, self.char2.id]]})
        importlib.import_module("world.migrations.0006_fight_engine").forward(apps, None)
        state = Fight.objects.get(pk=old.pk).state
        self.assertEqual((state["system"], state["round"], state["gm"]), ("storyteller", 3, self.char1.id))
        self.assertEqual(state["fighters"], [{"id": self.char2.id, "name": "Char2", "npc": False,
                                              "conditions": {"prone": True}}])
        self.assertEqual((state["initiative"], state["acted"]), ({str(self.char2.id): {"name": "Char2"}},
                                                                 [[9, self.char2.id]]))


class TestEvents(CoreTest):
    def test_every_change_is_a_numbered_event_after_the_commit(self):
        self.fight()
        self.events.clear()
        self.force(9, 8, 7, 2, 2)
        self.player(fray.CmdAttack(), "Guard")
        self.force(6, 3, 3, 2, 10, 6, 2, 5, 1)
        self.st(fray.CmdDefend(), "Guard=dodge")
        seqs = [event.seq for event in self.events]
        self.assertEqual(seqs, list(range(seqs[0], seqs[0] + len(seqs))))
        self.assertEqual({event.fight for event in self.events}, {self.encounter.id})
        kinds = [event.kind for event in self.events]
        self.assertIn("notice", kinds)  # Guard's prompt, to the ST
        health = [event.data for event in self.events if event.kind == "health"]
        self.assertEqual(health, [{"name": "Guard", "current": 6, "maximum": 7, "text": "Bruised (0) [B......]",
                                   "incapacitated": False, "dead": False, "dying": False}])
        turns = [event.data for event in self.events if event.kind == "turn"]
        self.assertEqual(turns[-1], {"round": 1, "slot": None, "waiting": []})
        self.assertEqual(fights.seq(self.encounter.row), seqs[-1])

    def test_a_command_that_fails_midway_changes_nothing_and_says_nothing(self):
        encounter = self.fight()
        before = (Fight.objects.get(pk=encounter.id).state, fights.seq(encounter.row))
        self.events.clear()

        def broken(*args, **kwargs):
            raise RuntimeError("boom")

        from unittest import mock
        self.force(9, 8, 7, 2, 2)
        from rules.engine import attacks

        with mock.patch.object(attacks, "deliver", broken), self.assertRaises(RuntimeError):
            with fights.unit():
                encounters.attack(self.char2, None, "Guard", "")
        self.assertEqual((Fight.objects.get(pk=encounter.id).state, fights.seq(encounter.row)), before)
        self.assertEqual(self.events, [])
        self.assertEqual(FightLogEntry.objects.filter(fight_id=encounter.id).count(), 2)


class TestDoubleAdvance(CoreTest):
    def test_a_next_sent_before_the_turn_moved_on_is_refused(self):
        self.fight()
        sent = time.time() - 5  # typed while Char2 was still to act
        first = fray.CmdCombat()
        self.st(first, "/next")
        self.assertEqual(encounters.current_slot(self.encounter)[1], [self.guard])
        late = fray.CmdCombat()
        late.received = sent
        state = Fight.objects.get(pk=self.encounter.id).state
        turn = self.encounter.state.turn
        self.st(late, "/next", "<Fray> The fight moved on as you sent that; nothing passed. Now: Round 1, "
                              f"Guard's turn. +combat/next {turn} passes that.")
        self.assertEqual(Fight.objects.get(pk=self.encounter.id).state, state)
        fresh = fray.CmdCombat()
        fresh.received = time.time()
        self.st(fresh, "/next")
        self.assertEqual(self.encounter.round, 2)

    def test_a_next_naming_a_turn_not_come_yet_passes_nothing(self):
        self.fight()
        turn = self.encounter.state.turn
        state = Fight.objects.get(pk=self.encounter.id).state
        self.st(fray.CmdCombat(), f"/next {turn + 98}", f"<Fray> Turn {turn + 98} has not come yet; nothing passed. "
                                                        f"Now: Round 1, Char2's turn. +combat/next {turn} passes that.")
        self.assertEqual(Fight.objects.get(pk=self.encounter.id).state, state)

    def test_the_hud_offers_no_turn_to_pass_before_anyone_rolled_initiative(self):
        self.st(fray.CmdCombat(), "/start")
        self.player(fray.CmdCombat(), "/join")
        hud = self.st(fray.CmdCombat(), "")
        self.assertIn("waiting for initiative", hud)
        self.assertNotIn("passes this turn", hud)
        self.force(4)
        self.player(fray.CmdCombat(), "/init")
        turn = encounters.encounter_in(self.room1).state.turn
        self.assertIn(f"Storyteller: +combat/next {turn} passes this turn and no later one.", self.st(fray.CmdCombat(), ""))

    def test_a_next_naming_a_turn_already_over_passes_nothing_whatever_came_between(self):
        self.fight()
        turn = self.encounter.state.turn
        self.assertIn(f"Storyteller: +combat/next {turn} passes this turn and no later one.", self.st(fray.CmdCombat(), ""))
        self.assertNotIn("passes this turn", self.player(fray.CmdCombat(), ""))
        self.st(fray.CmdCombat(), f"/next {turn}")   # Char2 passes: Guard's turn
        self.assertEqual(encounters.current_slot(self.encounter)[1], [self.guard])
        state = Fight.objects.get(pk=self.encounter.id).state
        for _ in range(2):   # the same press again, however late it is read
            self.st(fray.CmdCombat(), f"/next {turn}", f"<Fray> Turn {turn} is over; nothing passed. Now: Round 1, "
                                                       f"Guard's turn. +combat/next {turn + 1} passes that.")
        self.assertEqual(Fight.objects.get(pk=self.encounter.id).state, state)
        self.st(fray.CmdCombat(), "/next soon", "<Fray> Usage: +combat/next [<turn>] (the turn number on your HUD, "
                                                "e.g. +combat/next 12)")
        self.st(fray.CmdCombat(), f"/next {turn + 1}", "<Combat> Guard passes.")


class TestColumns(CoreTest):
    def test_cells_wrap_inside_their_columns_and_lines_keep_78(self):
        text = columns(("#", "Name", "Status"), (4, 20), [("1", "Guard (NPC)", "TO ACT, idle, ST+2, +2d, held"),
                                                          ("2", "x" * 30, "|r")], highlight={"TO ACT": "|g"})
        lines = text.splitlines()
        self.assertEqual(lines[1], "~" * 78)
        self.assertEqual(lines[2], " 1   Guard (NPC)         |gTO ACT|n, idle, ST+2, +2d, held" + " " * 24)
        self.assertEqual(lines[3], " 2   " + "x" * 18 + "  " + "||r" + " " * 51)
        self.assertEqual(lines[4].rstrip(), "     " + "x" * 12)
        # as EvTable breaks a line: a word's following space counts against it
        self.assertEqual(wrap_words("Fireball > alice89f783 (spoiled)", 22), ["Fireball >", "alice89f783 (spoiled)"])
        self.assertEqual(len(lines), 5)
        wide = columns(None, (4, 20), [("1", "\u03a9mega", "x")]).splitlines()
        self.assertEqual(wide, [" 1   \\u03a9mega          x" + " " * 52])
        plain = [line.replace("|gTO ACT|n", "TO ACT").replace("||", "|") for line in lines]
        self.assertTrue(all(len(line) == 78 for line in plain), [len(line) for line in plain])

    def test_a_long_header_line_wraps_indented(self):
        text = fit("Round 1   Storyteller: admin   Turn: waiting for initiative (+combat/init, +npc/init)")
        self.assertEqual(text, "Round 1   Storyteller: admin   Turn: waiting for initiative (+combat/init,\n"
                               "  +npc/init)")
        self.assertEqual(fit("a|b " * 30, 20).splitlines()[0], "a||b a||b a||b a||b a||b")
        self.assertTrue(all(len(line.replace("||", "|")) <= 20 for line in fit("a|b " * 30, 20).splitlines()))


class TestWhichWindowHearsWhat(CoreTest):
    """A command's answer (the HUD, a refusal) goes to the connection that typed it, laid out
    for that window; what happens in the room (the fight's narration) to every connection of
    the character."""

    def typed(self, caller, args: str) -> list:
        """``+combat<args>`` typed by ``caller`` in the test's session: each ``caller.msg``
        call as (the text, the session it was sent to: None for all of them)."""
        from unittest import mock

        cmd = fray.CmdCombat()
        cmd.caller, cmd.obj, cmd.account = caller, caller, self.account
        cmd.cmdname = cmd.raw_cmdname = cmd.cmdstring = cmd.key
        cmd.args, cmd.raw_string = args, f"{cmd.key}{args}"
        cmd.session = self.session
        with mock.patch.object(caller, "msg") as sent:
            cmd.at_pre_cmd()
            cmd.parse()
            cmd.func()
        return [(str(call.args[0] if call.args else call.kwargs.get("text")), call.kwargs.get("session"))
                for call in sent.call_args_list]

    def test_the_hud_and_a_refusal_answer_the_typing_window_the_narration_every_window(self):
        self.fight()
        [(hud, to)] = self.typed(self.char1, "")
        self.assertIn("Storyteller: +combat/next", hud)
        self.assertIs(to, self.session)
        [(refusal, to)] = self.typed(self.char1, "/next soon")
        self.assertIn("<Fray>|n Usage: +combat/next [<turn>]", refusal)
        self.assertIs(to, self.session)
        told = self.typed(self.char1, "/next")   # Char2 passes: the room is told
        self.assertTrue(told, told)
        self.assertTrue(all(to is None for _, to in told), told)
        self.assertIn("Char2 passes.", "\n".join(text for text, _ in told))

    def test_a_name_with_codes_in_it_reads_as_typed_in_the_room_and_on_the_web(self):
        from world import narration

        name, storyteller = "Zed %% || |/ %r |rRED {x} $y", "Ann |/ {y} %b"
        self.char1.key, self.char2.key = storyteller, name
        started = self.st(fray.CmdCombat(), "/start", receiver=self.char2)   # $You() starts a fight
        self.assertTrue(started.startswith(f"<Combat> {storyteller} starts a fight (storyteller)"), started)
        self.player(fray.CmdCombat(), "/join")
        self.force(4)
        heard = self.player(fray.CmdCombat(), "/init", receiver=self.char1)   # {actor} rolls initiative
        self.assertIn(f"<Combat> {name} rolls initiative: Wits", heard)
        self.assertIn(f"<Combat> Round 1: {name} to act.", heard)
        rolled = [event for event in self.events if getattr(event.event, "key", "") == "initiative.rolled"]
        self.assertEqual(len(rolled), 1, [getattr(event.event, "key", "") for event in self.events])
        self.assertIn(f"<Combat>|n {doubled(name)} rolls initiative: Wits", narration.head_line(rolled[0]))
