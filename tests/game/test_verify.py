"""Verifiable dice in the game: a fight commits to its seed when it starts,
draws every die from it, records each with its roll-log entry, reveals the seed when it ends,
and ``+combat/verify`` replays the log from it."""

import hashlib

import pytest

from commands import fray
from rules.dice.seeded import Verification, commitment, face
from tests.game import fightview as encounters
from tests.game.test_combat_commands import FrayCommandTest
from world import dice, fights
from world.models import Fight, FightIntent, FightLogEntry
from world.verify import report

ZERO = bytes(32)   # face(ZERO, 1..8, 10) = 6 6 2 2 9 1 3 3 (tests/rules/test_seeded_dice.py)


class VerifyTest(FrayCommandTest):
    def row(self) -> Fight:
        return Fight.objects.get(pk=self.fight_id)

    def begin(self, seed: bytes | None = None):
        """Char2 and the Guard in a storyteller fight (initiative forced: two forced dice);
        ``seed`` replaces the fight's secret one before any die of it is drawn."""
        self.storyteller_fight("Guard", Stamina=2, Dodge=1)
        self.fight_id = self.encounter.id
        if seed is not None:
            Fight.objects.filter(pk=self.fight_id).update(dice_seed=seed.hex(), dice_commitment=commitment(seed))
            self.encounter.forget()   # read anew, with the seed set here

    def logged_dice(self) -> list[dict]:
        return [die for dice_ in FightLogEntry.objects.filter(fight_id=self.fight_id).order_by("number")
                .values_list("dice", flat=True) for die in dice_]

    def verify(self, args="", caller=None) -> str:
        out = self.call(fray.CmdCombat(), f"/verify{' ' + args if args else ''}", caller=caller or self.char2)
        assert max(len(line) for line in out.splitlines()) <= 78, out
        return out


class TestVerifiableDice(VerifyTest):
    def test_the_start_commits_to_a_secret_seed_shown_as_its_hash(self):
        out = self.st(fray.CmdCombat(), "/start")
        row = encounters.encounter_in(self.room1).row
        assert len(row.dice_seed) == 64 and row.dice_counter == 0
        assert row.dice_commitment == hashlib.sha256(bytes.fromhex(row.dice_seed)).hexdigest()
        assert f"Fight #{row.pk}. Dice commitment (SHA-256 of its secret seed):\n  {row.dice_commitment}" in out
        assert row.dice_seed not in out
        assert row.dice_seed not in self.player(fray.CmdCombat(), "")   # the HUD

    def test_every_die_of_the_fight_comes_from_the_seed_and_is_logged_with_its_entry(self):
        self.begin(ZERO)
        out = self.player(fray.CmdRoll(), "3d10")
        assert "(6, 6, 2)" in out or "6 6 2" in out, out
        self.player(fray.CmdAttack(), "Guard")   # Dexterity 3 + Brawl 2: counters 4-8
        entries = list(FightLogEntry.objects.filter(fight_id=self.fight_id).order_by("number"))
        # 2 9 1 3 3 vs 6: one success cancelled by the 1, a miss resolved at once (no dice)
        assert [entry.what for entry in entries] == ["initiative", "initiative", "roll", "punch at Guard",
                                                     "attack on Guard"]
        assert entries[4].dice == []
        assert entries[0].dice == [{"forced": True, "sides": 10, "face": 4}]
        assert entries[2].dice == [{"counter": n, "sides": 10, "face": f} for n, f in ((1, 6), (2, 6), (3, 2))]
        assert entries[3].dice == [{"counter": n, "sides": 10, "face": face(ZERO, n, 10)} for n in range(4, 9)]
        assert self.row().dice_counter == 8

    def test_end_reveals_the_seed_and_verify_confirms_every_die(self):
        self.begin()
        self.player(fray.CmdRoll(), "Dexterity+Brawl")
        self.player(fray.CmdAttack(), "Guard")
        self.st(fray.CmdDefend(), "Guard=dodge")   # the defense, damage and soak: real dice
        row = self.row()
        drawn = row.dice_counter
        records = [die for die in self.logged_dice() if "counter" in die]
        assert [die["counter"] for die in records] == list(range(1, drawn + 1))
        seed = bytes.fromhex(row.dice_seed)
        assert all(die["face"] == face(seed, die["counter"], die["sides"]) for die in records)
        entries = FightLogEntry.objects.filter(fight_id=self.fight_id).count()
        out = self.st(fray.CmdCombat(), "/end")
        assert (f"The dice of fight #{self.fight_id} are revealed: check them with +combat/verify "
                f"{self.fight_id}.\n  Seed: {row.dice_seed}") in out
        report = self.verify()   # no fight here now: the last one ended here
        assert report.splitlines()[:2] == [
            f"<Combat> Fight #{self.fight_id} (storyteller): seed matches its commitment.",
            f"  {entries} entries, {drawn} dice confirmed; 2 forced (test) dice."]
        assert f"  Seed:       {row.dice_seed}" in report
        assert f"  Commitment: {row.dice_commitment}" in report
        assert max(len(line) for line in report.splitlines()) <= 78
        assert self.verify(f"#{self.fight_id}") == report

    def test_a_changed_face_or_seed_is_named(self):
        self.begin(ZERO)
        self.player(fray.CmdRoll(), "3d10")   # entry 3: 6 6 2
        self.st(fray.CmdCombat(), "/end")
        entry = FightLogEntry.objects.get(fight_id=self.fight_id, number=3)
        entry.dice = [dict(entry.dice[0]), dict(entry.dice[1], face=9), dict(entry.dice[2])]
        entry.save()
        report = self.verify(str(self.fight_id))
        assert f"Fight #{self.fight_id} (storyteller): seed matches, but NOT every die does." in report
        assert "  Entry #3 (Char2: roll): die 2 shows 9, the seed gives 6." in report
        assert "2 dice confirmed; 2 forced (test) dice." in report
        Fight.objects.filter(pk=self.fight_id).update(dice_seed=(bytes([1]) * 32).hex())
        report = self.verify(str(self.fight_id))
        assert report.splitlines()[:2] == [f"<Combat> Fight #{self.fight_id} (storyteller): the seed does NOT match",
                                           "  its commitment: none of its dice can be trusted."]

    def test_a_running_fight_keeps_its_seed_secret(self):
        self.begin()
        self.player(fray.CmdRoll(), "Dexterity")
        row = self.row()
        report = self.verify()
        assert report.splitlines() == [
            f"<Combat> Fight #{self.fight_id} (storyteller) is still running: its dice seed",
            "  stays secret until it ends. Its commitment (SHA-256 of the seed):", f"  {row.dice_commitment}",
            "  Dice drawn so far: 3.",
            "  Replayed 6 intents: the fight's state is as stored",   # the replay tells no die
            "    (health, conditions, order, round)."]
        assert row.dice_seed not in report
        assert self.verify(str(self.fight_id)) == report

    def test_forced_dice_still_come_first_and_are_marked_forced(self):
        self.begin()
        self.force(10, 10, 1)
        out = self.player(fray.CmdRoll(), "3d10")
        assert "10 10 1" in out or "(10, 10, 1)" in out, out
        roll = FightLogEntry.objects.get(fight_id=self.fight_id, what="roll")
        assert roll.dice == [{"forced": True, "sides": 10, "face": f} for f in (10, 10, 1)]
        assert self.row().dice_counter == 0

    def test_no_die_can_be_forced_with_the_test_hook_off(self):
        self.begin()
        self.force(10, 10, 10)
        with pytest.MonkeyPatch.context() as patch:
            patch.setattr(dice, "TEST_DICE_ENABLED", False)
            self.player(fray.CmdRoll(), "3d10")
        roll = FightLogEntry.objects.get(fight_id=self.fight_id, what="roll")
        assert [die.get("counter") for die in roll.dice] == [1, 2, 3]

    def test_dice_of_a_failed_command_are_never_drawn_again(self):
        self.begin(ZERO)
        with pytest.raises(RuntimeError), fights.unit():
            fights.load(self.encounter.row)
            with dice.roller(fights.fight_dice(self.encounter.row)) as roller:
                assert roller.roll(10) == 6   # counter 1
            raise RuntimeError("the command failed after its die")
        assert self.row().dice_counter == 1
        out = self.player(fray.CmdRoll(), "2d10")   # counters 2 and 3: 6 2
        assert "6 2" in out or "(6, 2)" in out, out
        self.st(fray.CmdCombat(), "/end")
        report = self.verify()
        assert "  1 die drawn but not in the log (counter 1)." in report
        assert "seed matches its commitment." in report

    def test_dice_outside_a_fight_are_real_randomness(self):
        with dice.roller(None) as roller:
            assert roller.fallback is dice._SYSTEM_RANDOM
        assert Fight.objects.count() == 0

    def test_bad_input_is_one_line_and_changes_nothing(self):
        assert self.verify() == ("<Fray> No fight here to verify: give its number, e.g. "
                                 "+combat/verify 12.")
        self.begin()
        before = self.row().dice_counter
        assert self.verify("x") == "<Fray> Not a fight's number: 'x' (e.g. +combat/verify 12)."
        assert self.verify("-1") == "<Fray> Not a fight's number: '-1' (e.g. +combat/verify 12)."
        assert self.verify("y" * 300) == f"<Fray> Not a fight's number: '{'y' * 20}' (e.g. +combat/verify 12)."
        assert self.verify(str(10 ** 30)) == "<Fray> There is no fight with that number."
        assert self.verify("987654") == "<Fray> There is no fight #987654."
        assert self.verify("|r12").startswith("<Fray> Not a fight's number: '")
        assert self.verify("\u0661\u0662").startswith("<Fray> Not a fight's number: '")
        assert self.row().dice_counter == before

    def test_a_fight_begun_before_verifiable_dice_has_nothing_to_check(self):
        self.begin()
        Fight.objects.filter(pk=self.fight_id).update(dice_seed="", dice_commitment="")
        self.encounter.forget()
        assert self.encounter.fight_dice() is None   # its dice: real randomness
        self.player(fray.CmdRoll(), "3d10")
        assert FightLogEntry.objects.get(fight_id=self.fight_id, what="roll").dice == []
        assert self.verify().splitlines() == [
            f"<Combat> Fight #{self.fight_id} (storyteller) began before verifiable dice:",
            "  it has no seed to check."]


def test_a_long_report_keeps_to_78_columns():
    result = Verification(seed_matches=True, entries=3, confirmed=5,
                          missing=((1, 99999), (123456, 234567), (345678, 10 ** 18), (10 ** 18 + 2, 10 ** 19)))
    lines = report("Fight #123456789 (storyteller)", result)
    assert lines[1:] == ["  3 entries, 5 dice confirmed; 0 forced (test) dice.",
                         f"  {99999 + 111112 + (10 ** 18 - 345677) + (10 ** 19 - 10 ** 18 - 1)} dice drawn "
                         "but not in the log:",
                         "    counter 1-99999, 123456-234567, 345678-1000000000000000000 and more."]
    assert max(len(line) for line in lines[1:]) <= 78


class TestReplay(VerifyTest):
    """``+combat/verify`` replays the fight's intents through the engine with the dice each
    drew (``rules.engine.replay``) and names the first that goes otherwise."""

    def ended_fight(self):
        self.begin(ZERO)
        self.player(fray.CmdAttack(), "Guard")
        self.st(fray.CmdCombat(), "/next")
        self.st(fray.CmdCombat(), "/end")

    def test_an_ended_fight_replays_to_its_stored_state(self):
        self.ended_fight()
        count = FightIntent.objects.filter(fight_id=self.fight_id).count()
        report = self.verify()
        assert f"  Replayed {count} intents: the fight's state is as stored" in report.splitlines()
        assert "    (health, conditions, order, round)." in report.splitlines()

    def test_a_changed_die_names_the_intent_that_drew_it(self):
        self.ended_fight()
        attack = FightIntent.objects.get(fight_id=self.fight_id, intent__action="attack")
        dice_ = [dict(die) for die in attack.dice]
        dice_[0]["face"] = dice_[0]["face"] % 10 + 1
        FightIntent.objects.filter(pk=attack.pk).update(dice=dice_)
        lines = self.verify().splitlines()
        assert f"  Replay: intent #{attack.number} (attack) goes otherwise:" in lines
        assert any(line.startswith(f"    die 1 (counter {dice_[0]['counter']}) shows {dice_[0]['face']}, "
                                   "the seed gives") for line in lines), lines

    def test_a_changed_state_is_found(self):
        self.ended_fight()
        row = self.row()
        state = dict(row.state)
        state["round"] = 9
        Fight.objects.filter(pk=row.pk).update(state=state)
        count = FightIntent.objects.filter(fight_id=self.fight_id).count()
        assert (f"  Replayed {count} intents, but the stored state is not the one the intents reach."
                in self.verify().splitlines())

    def test_an_intent_the_rules_now_refuse_is_named_with_the_refusal(self):
        self.ended_fight()
        attack = FightIntent.objects.get(fight_id=self.fight_id, intent__action="attack")
        FightIntent.objects.filter(pk=attack.pk).update(intent={**attack.intent, "action": "da|nce"})
        lines = self.verify().splitlines()
        assert f"  Replay: intent #{attack.number} (da|nce) goes otherwise:" in lines
        assert "    the rules now refuse it: The storyteller rules have no 'da|nce'." in lines, lines
