"""Eldritch weapons, their limitations, and the out-of-attack checks: concealment and search,
hiding, eye contact, line of sight and movement.

Source: the eldritch seed (Limitations; Hiding; Eye Contact; Line of Sight; Actions:
Movement) with ``docs/rules/eldritch.md``. Every number is in ``rules/data/eldritch.toml``.
These are mixed into :class:`rules.systems.eldritch.EldritchSystem`; each method is pure:
values in, a frozen result with its working ``lines`` out, dice only from the roller.

Fray defaults (guesses, also in the data file):

- minimum Strength and space apply to hand-to-hand weapons only; a firearm has a ``size``
  of its own, used only for conspicuousness;
- search vs concealment, hiding vs seeking: the higher total wins, ties to the one hiding;
  spotting one already hidden (``+spot``, seed Line of Sight: "Perception rolls need to be
  made"): the seeker's Perception + Notice + Ambushes again, against the hider's kept roll:
  it must not be lower (seed, Hiding: the hider needs "a higher roll");
- a searcher's roll is kept like the concealment roll ("you only roll once"): searching the
  same carrier again (or patting them down) reuses it until the carrier's concealment is
  rolled anew; a duffel bag replaces the pat-down bonus with (size - 5);
- eye contact: a failed attempt to draw attention leaves no chance roll for that action;
  line of sight: a target who attacked last action is in sight unless fully blocked.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from typing import Any

from rules.dice import Roller
from rules.lines import Line
from rules.systems.base import Combatant, CombatError, Pool
from rules.systems.eldritch.dice import DiceRules, EldritchRoll, roll_eldritch, trait_parts
from rules.systems.eldritch.situation import Situation

CATEGORIES = ("bash", "lethal", "firearm")
GRIPS = {1: "one-handed", 2: "two-handed"}


def grip(hands: int) -> Line:
    """A grip as a line: ``"one-handed"``, ``"two-handed"`` (``GRIPS``)."""
    return Line("eldritch.line.grip_two" if hands == 2 else "eldritch.line.grip_one")


def mode_line(mode: str) -> Line:
    """How a weapon is used, as a line: ``"thrown"``, ``"melee"`` (``system.MODES``)."""
    return Line("eldritch.line.mode_thrown" if mode == "thrown" else "eldritch.line.mode_launched" if mode == "launched"
                else "eldritch.line.mode_firearm" if mode == "firearm" else "eldritch.line.mode_unarmed"
                if mode == "unarmed" else "eldritch.line.mode_melee")


def yards_line(count: int) -> Line:
    """``"1 yard"``, ``"3 yards"``."""
    return Line("eldritch.line.yard" if count == 1 else "eldritch.line.yards", {"count": count})


def listed(names: Sequence[Any]) -> Any:
    """``names`` one after another (``"knife, sword, pistol"``): the first, each next one
    joined to those before by a line (``eldritch.line.listed``); at least one name."""
    chain = names[0]
    for name in names[1:]:
        chain = Line("eldritch.line.listed", {"names": chain, "name": name})
    return chain


@dataclass(frozen=True)
class Weapon:
    """One row of the source's weapon tables. ``size`` drives the limitations (the damage
    multiplier for hand-to-hand weapons); ``modes`` how it is used (the first by default)."""

    key: str
    name: str
    category: str
    multiplier: int
    size: int
    hands: int = 1
    modes: tuple[str, ...] = ("melee",)
    balanced: bool = False
    aliases: tuple[str, ...] = ()
    #: Thrown, it has a part that isn't sharp: Ranged Deflection may block it (seed).
    blockable: bool = True

    @property
    def firearm(self) -> bool:
        return self.category == "firearm"

    @property
    def damage_type(self) -> str:
        """``"bash"`` or ``"lethal"`` (firearms do lethal damage)."""
        return "bash" if self.category == "bash" else "lethal"

    @property
    def soak_column(self) -> str:
        """The armor column that soaks it: bash, lethal or bullets."""
        return "bullets" if self.firearm else self.category

    def formula(self) -> Line:
        """The damage the weapon does as a line: ``"STR x 5 bash"``, ``"10 x SLs"``."""
        if self.firearm:
            return Line("eldritch.line.formula_firearm", {"multiplier": self.multiplier})
        return Line("eldritch.line.formula", {"multiplier": self.multiplier, "category": self.category})


@dataclass(frozen=True)
class Limitation:
    """A weapon limitation's working: what is ``needed``, what one ``has``, the roll penalty."""

    kind: str
    needed: int
    has: int
    penalty: int
    line: Line


@dataclass(frozen=True)
class Concealment:
    """One Intelligence + Larceny roll hiding a weapon, kept and used against every search."""

    carrier: str
    weapon: str
    duffel: bool
    roll: EldritchRoll
    lines: tuple[Line, ...]

    def to_record(self) -> dict[str, Any]:
        return {"carrier": self.carrier, "weapon": self.weapon, "duffel": self.duffel,
                "roll": self.roll.to_record()}

    @classmethod
    def from_record(cls, record: Mapping[str, Any]) -> Concealment:
        roll = EldritchRoll.from_record(record["roll"])
        return cls(record["carrier"], record["weapon"], bool(record["duffel"]), roll,
                   (Line("eldritch.line.conceals_kept", {"carrier": record["carrier"], "roll": roll.line()}),))


@dataclass(frozen=True)
class Search:
    """A search against a concealment: ``found`` when the search total beats it."""

    searcher: str
    carrier: str
    weapon: str
    bonus: int
    patdown: bool
    roll: EldritchRoll
    against: int
    found: bool
    lines: tuple[Line, ...]


@dataclass(frozen=True)
class Hiding:
    """One hiding roll against each seeker's roll: ``hidden_from`` the ones it beat."""

    hider: str
    roll: EldritchRoll
    seekers: tuple[tuple[str, EldritchRoll], ...]
    hidden_from: tuple[str, ...]
    lines: tuple[Line, ...]

    @property
    def hidden(self) -> bool:
        """Hidden from every seeker."""
        return len(self.hidden_from) == len(self.seekers)


@dataclass(frozen=True)
class Sight:
    """Eye contact or line of sight: ``established`` and the checklist step that decided it.
    ``what``: which check (its name in the roll log's title, a catalogue line). ``face`` is
    the chance die (``+roll 0``) when one was rolled."""

    what: Line
    actor: str
    target: str
    established: bool
    reason: str
    lines: tuple[Line, ...]
    face: int | None = None
    rolls: tuple[EldritchRoll, ...] = ()


@dataclass(frozen=True)
class Movement:
    """A movement action: it spends one of the turn's actions, at the extra-action penalty."""

    name: str
    what: str | Line
    penalty: int
    lines: tuple[Line, ...]
    #: False for travel under half the Yards/Turn (seed: not a movement action).
    spends: bool = True


class EldritchChecks:
    """Limitations and checks, mixed into the system (which sets the attributes used here)."""

    dice_rules: DiceRules
    weapons: Mapping[str, Weapon]
    attack_table: Mapping[str, Any]
    concealment: Mapping[str, Any]
    hiding_table: Mapping[str, Any]
    eye_table: Mapping[str, Any]
    sight_table: Mapping[str, Any]
    movement_table: Mapping[str, Any]

    # The system also gives check_action(), action_penalty(), require_awake(), numbness() and
    # weapon().

    def _roll(self, parts: Sequence[tuple[str | Line, int]], roller: Roller) -> EldritchRoll:
        return roll_eldritch(Pool(tuple(parts)), roller, self.dice_rules)

    # ------------------------------------------------------------------- limitations
    def strength_limit(self, weapon: Weapon, strength: int, hands: int) -> Limitation | None:
        """Minimum Strength (seed: Limitations): one-handed size - 2, two-handed size - 3;
        -2 to the roll per point short, however many (seed: "not to say that it cannot be
        used by weaker people"). None for firearms (unless ``firearm_limits``)."""
        if weapon.firearm and not getattr(self, "firearm_limits", False):
            return None
        needed = max(0, weapon.size - (3 if hands == 2 else 2))
        short = max(0, needed - strength)
        line = Line("eldritch.line.strength_limit" if short else "eldritch.line.strength_limit_fine",
                    {"weapon": weapon.name, "grip": grip(hands), "needed": needed, "has": strength,
                     "short": short, "penalty": -2 * short})
        return Limitation("strength", needed, strength, -2 * short, line)

    def space_limit(self, weapon: Weapon | None, yards: int | None, mode: str = "melee") -> Limitation | None:
        """Spacial comfort (seed): a radius of size - 2 yards, -2 per yard less; both hands do
        not help. None without a weapon used hand-to-hand (``mode`` melee or unarmed) or when
        the ST set no space (``yards`` None)."""
        close = mode in ("melee", "unarmed") or (mode == "firearm" and getattr(self, "firearm_limits", False))
        if weapon is None or yards is None or not close:
            return None
        needed = max(0, weapon.size - 2)
        short = max(0, needed - max(0, yards))
        line = Line("eldritch.line.space_limit" if short else "eldritch.line.space_limit_fine",
                    {"weapon": weapon.name, "radius": yards_line(needed), "room": yards_line(yards),
                     "short": short, "penalty": -2 * short})
        return Limitation("space", needed, yards, -2 * short, line)

    def search_bonus(self, weapon: Weapon, *, duffel: bool = False, patdown: bool = False) -> int:
        """Conspicuousness (seed): the searcher adds size - 4, +3 for a pat-down; in a duffel
        bag the bonus becomes size - 5 (a pat-down adds nothing more: guess)."""
        table = self.concealment
        if duffel:
            return weapon.size + int(table["duffel_offset"])
        return weapon.size + int(table["search_offset"]) + (int(table["patdown_bonus"]) if patdown else 0)

    # ---------------------------------------------------------------- conspicuousness
    def conceal(self, carrier: Combatant, weapon: str, roller: Roller, *, duffel: bool = False) -> Concealment:
        """``+conceal <weapon>[/duffel]``: one Intelligence + Larceny roll, remembered and used
        against everyone who searches (seed: "you only roll once"). Raises CombatError for an
        unknown weapon."""
        found = self.weapon(weapon)
        roll = self._roll(trait_parts(carrier, self.concealment["hide_traits"]), roller)
        return Concealment(carrier.name, found.key, duffel, roll,
                           (Line("eldritch.line.conceals_duffel" if duffel else "eldritch.line.conceals",
                                 {"carrier": carrier.name, "weapon": found.name, "roll": roll.line()}),))

    def search_roll(self, searcher: Combatant, roller: Roller) -> EldritchRoll:
        """A searcher's Perception + the better of Larceny/Notice (not physical: no numbness)."""
        return self._roll(trait_parts(searcher, self.concealment["search_traits"]), roller)

    def search_all(self, searcher: Combatant, carrier: str, concealments: Sequence[Concealment],
                   roller: Roller, *, patdown: bool = False, roll: EldritchRoll | None = None,
                   again: bool = False, opened: bool = False,
                   penalty: int = 0) -> tuple[tuple[Search, ...], tuple[Line, ...]]:
        """``+search <name>[/patdown|/open]`` against everything ``carrier`` hides: one Perception +
        the better of Larceny/Notice roll (``roll`` when given: ``search_roll``; ``again``:
        it is this searcher's kept roll from before), each weapon's bonus added to it
        (``search_bonus``) against the carrier's one concealment roll; higher wins, ties to
        the carrier. With nothing hidden the roll is still made (the searcher cannot tell).
        ``opened``: the searcher opens the carrier's duffel bag (seed, Conspicuousness: "If
        they open the duffel bag, it's curtains"): every weapon hidden in one is found, the
        roll aside. ``penalty``: the extra-action penalty of a pat-down made as a later action
        of the turn (seed: each later action at -2), on every comparison. Returns the searches
        and the working: the roll's line, one line per concealment (in
        order), the verdict."""
        roll = roll if roll is not None else self.search_roll(searcher, roller)
        if patdown:
            key = "eldritch.line.pats_down_opening" if opened else "eldritch.line.pats_down"
        else:
            key = "eldritch.line.searches_opening" if opened else "eldritch.line.searches"
        first = Line(key, {"searcher": searcher.name, "carrier": carrier, "roll": roll.line()})
        lines = [Line("eldritch.line.search_again", {"search": first}) if again else first]
        found = []
        for concealment in concealments:
            weapon = self.weapons[concealment.weapon]
            bonus = self.search_bonus(weapon, duffel=concealment.duffel, patdown=patdown)
            total = roll.total + bonus + penalty
            named = (Line("eldritch.line.in_duffel", {"weapon": weapon.name}) if concealment.duffel
                     else weapon.name)
            if opened and concealment.duffel:
                spotted = True
                lines.append(Line("eldritch.line.bag_opened", {"weapon": named}))
            else:
                spotted = total > concealment.roll.total
                added = Line("eldritch.line.search_minus" if bonus < 0 else "eldritch.line.search_plus",
                             {"roll": roll.total, "bonus": abs(bonus), "label": self._bonus_label(concealment, patdown)})
                if penalty:
                    added = Line("eldritch.line.search_extra", {"sum": added, "penalty": -penalty})
                lines.append(Line("eldritch.line.search_found" if spotted else "eldritch.line.search_missed",
                                  {"weapon": named, "sum": added, "total": total, "against": concealment.roll.total}))
            found.append(Search(searcher.name, carrier, weapon.key, bonus, patdown, roll,
                                concealment.roll.total, spotted, ()))
        spotted_names = [self.weapons[s.weapon].name for s in found if s.found]
        lines.append(Line("eldritch.line.finds", {"searcher": searcher.name, "carrier": carrier,
                                                  "weapons": listed(spotted_names)}) if spotted_names
                     else Line("eldritch.line.finds_nothing", {"searcher": searcher.name, "carrier": carrier}))
        return tuple(found), tuple(lines)

    @staticmethod
    def _bonus_label(concealment: Concealment, patdown: bool) -> Line:
        """What a search adds for: a duffel bag, a pat-down, or the weapon's size."""
        if concealment.duffel:
            return Line("eldritch.line.bonus_duffel")
        return Line("eldritch.line.bonus_patdown" if patdown else "eldritch.line.bonus_size")

    def search(self, searcher: Combatant, concealment: Concealment, roller: Roller, *,
               patdown: bool = False) -> Search:
        """``+search <name>[/patdown]``: Perception + the better of Larceny/Notice + the
        weapon's bonus (``search_bonus``) against the concealment total; higher wins, ties to
        the carrier (guess)."""
        weapon = self.weapons[concealment.weapon]
        bonus = self.search_bonus(weapon, duffel=concealment.duffel, patdown=patdown)
        label = Line("eldritch.value.noted_duffel_bag" if concealment.duffel else "eldritch.value.noted_pat_down"
                     if patdown else "eldritch.value.noted_weapon_size")
        parts = trait_parts(searcher, self.concealment["search_traits"]) + ((label, bonus),)
        roll = self._roll(parts, roller)
        found = roll.total > concealment.roll.total
        who = {"searcher": searcher.name, "carrier": concealment.carrier}
        verdict = (Line("eldritch.line.finds", {**who, "weapons": weapon.name}) if found
                   else Line("eldritch.line.finds_nothing", who))
        lines = (Line("eldritch.line.searches_against", {"searcher": searcher.name, "roll": roll.line(),
                                                         "against": concealment.roll.total}),
                 verdict)
        return Search(searcher.name, concealment.carrier, weapon.key, bonus, patdown, roll,
                      concealment.roll.total, found, lines)

    # ------------------------------------------------------------------------- hiding
    def hide(self, hider: Combatant, seekers: Sequence[Combatant], roller: Roller, *,
             way: int | None = None, penalty: int = 0) -> Hiding:
        """``hide`` (seed: Hiding): Dexterity + Larceny + Stealth or Dexterity + Acrobatics +
        Sneaking (``way`` 0 or 1; None: the better for the hider) against each seeker's
        Perception + Notice + Ambushes. A higher roll hides from that seeker. ``penalty``: the
        extra-action penalty when hiding is a later action of the turn. Atemi Grip's numbness
        weighs on it (a Dexterity roll)."""
        ways = self.hiding_table["ways"]
        if way is None:
            way = max(range(len(ways)), key=lambda i: (sum(v for _, v in trait_parts(hider, ways[i])), -i))
        if not 0 <= way < len(ways):
            raise CombatError(Line("eldritch.refusal.hide_one_ways_not", {"ways": len(ways), "way": way + 1}))
        parts = trait_parts(hider, ways[way]) + (((Line("eldritch.value.noted_extra_action"), penalty),) if penalty else ())
        roll = self._roll(parts + tuple(self.numbness(Situation.of(hider), parts)), roller)
        lines = [Line("eldritch.line.hides", {"hider": hider.name, "roll": roll.line()})]
        results, hidden = [], []
        for seeker in seekers:
            seek = self._roll(trait_parts(seeker, self.hiding_table["seek"]), roller)
            results.append((seeker.name, seek))
            beaten = roll.total > seek.total
            if beaten:
                hidden.append(seeker.name)
            lines.append(Line("eldritch.line.looks_unseen" if beaten else "eldritch.line.looks_spots",
                              {"seeker": seeker.name, "roll": seek.line(), "hider": hider.name}))
        return Hiding(hider.name, roll, tuple(results), tuple(hidden), tuple(lines))

    def spot(self, seeker: Combatant, hider: str, hiding_total: int, roller: Roller) -> Sight:
        """``+spot <name>`` (seed, Line of Sight: "If the target is hiding, Perception rolls
        need to be made to have any idea of their presence"): the seeker's Perception + Notice
        + Ambushes against the hider's kept hiding total; not lower spots them (the hider
        needs "a higher roll")."""
        roll = self._roll(trait_parts(seeker, self.hiding_table["seek"]), roller)
        found = roll.total >= hiding_total
        lines = (Line("eldritch.line.looks_for_spots" if found else "eldritch.line.looks_for_unseen",
                      {"seeker": seeker.name, "hider": hider, "roll": roll.line(), "hiding": hiding_total}),)
        return Sight(Line("eldritch.title.spot_what"), seeker.name, hider, found, "spotted" if found else "unseen", lines, None, (roll,))

    # ------------------------------------------------------------------- eye contact
    def chance(self, roller: Roller, low: int, high: int) -> tuple[int, bool]:
        """``+roll 0``'s bare d10: (face, low <= face <= high)."""
        face = roller.roll(10)
        return face, low <= face <= high

    def eye_contact(self, caster: Combatant, target: Combatant, roller: Roller, *,
                    impaired: str | Line = "", yards: int | None = None, attacked_last: bool = False,
                    draw_attention: bool = False, hidden: bool = False) -> Sight:
        """``+eyecontact <name>`` (seed: Eye Contact checklist, in order):

        0. the target hides from the caster (``hidden``; seed, Hiding: it "eliminates the
           opponent's ability to establish line of sight or eye contact") -> no;
        1. the target cannot make eye contact (``impaired``: blindfolded, pitch black, trance,
           a wall between …) or is more than 20 yards away -> no;
        2. the target attacked the caster in their last action -> yes;
        3. ``draw_attention``: Willpower + Influence against the target's Willpower doubled;
           a higher total -> yes, else no;
        4. otherwise a 30% chance: ``+roll 0`` showing 1-3.
        """
        table = self.eye_table
        what = Line("eldritch.title.eye_contact")
        far = yards is not None and yards > int(table["max_yards"])
        names = {"looker": caster.name, "target": target.name}
        if hidden:
            return Sight(what, caster.name, target.name, False, "hidden",
                         (Line("eldritch.line.hidden_spot_first", names),))
        if impaired or far:
            why = impaired or Line("eldritch.line.too_far_yard" if yards == 1 else "eldritch.line.too_far_yards",
                                   {"yards": yards or 0, "max_yards": table["max_yards"]})
            return Sight(what, caster.name, target.name, False, "impossible",
                         (Line("eldritch.line.no_eye_contact", {"target": target.name, "why": why}),))
        if attacked_last:
            return Sight(what, caster.name, target.name, True, "attacked",
                         (Line("eldritch.line.eye_attacked", names),))
        if draw_attention:
            mine = self._roll(trait_parts(caster, table["attention"]), roller)
            theirs = self._roll(trait_parts(target, table["resist"]), roller)
            won = mine.total > theirs.total
            lines = (Line("eldritch.line.draws_attention", {"looker": caster.name, "roll": mine.line()}),
                     Line("eldritch.line.resists", {"target": target.name, "roll": theirs.line()}),
                     Line("eldritch.line.eye_made" if won else "eldritch.line.eye_not_made"))
            return Sight(what, caster.name, target.name, won, "attention", lines, None, (mine, theirs))
        low, high = table["chance"]
        face, won = self.chance(roller, int(low), int(high))
        return Sight(what, caster.name, target.name, won, "chance",
                     (Line("eldritch.line.eye_chance_made" if won else "eldritch.line.eye_chance_missed",
                           {"face": face, "low": low, "high": high}),), face)

    def line_of_sight(self, attacker: Combatant, target: Combatant, roller: Roller, *,
                      hidden: bool = False, blocked: bool = False, partial: bool = False,
                      attacked_last: bool = False, established: bool = False) -> Sight:
        """``+los <name>[/partial]`` (seed: Line of Sight checklist, in order):

        1. the target is hiding and not spotted (``hidden``) -> no;
        2. blank walls, full cover or excessive distance (``blocked``) -> no;
        3. a line of sight already made between the two, either way (``established``; seed:
           "it applies to BOTH of them with the exception of successfully hiding or taking
           movement to gain cover" — the game forgets it then) -> yes;
        4. the target attacked the attacker in their prior action -> yes;
        5. partial cover (trees, fences, vehicles, windows, crowds) -> 50%: ``+roll 0`` 1-5;
        6. otherwise -> yes.
        """
        what = Line("eldritch.title.line_of_sight")
        names = {"looker": attacker.name, "target": target.name}
        if hidden:
            return Sight(what, attacker.name, target.name, False, "hidden",
                         (Line("eldritch.line.hidden_spot_first", names),))
        if blocked:
            return Sight(what, attacker.name, target.name, False, "blocked",
                         (Line("eldritch.line.sight_blocked", names),))
        if established:
            return Sight(what, attacker.name, target.name, True, "kept",
                         (Line("eldritch.line.sight_kept", names),))
        if attacked_last:
            return Sight(what, attacker.name, target.name, True, "attacked",
                         (Line("eldritch.line.sight_attacked", names),))
        if partial:
            low, high = self.sight_table["chance"]
            face, won = self.chance(roller, int(low), int(high))
            return Sight(what, attacker.name, target.name, won, "chance",
                         (Line("eldritch.line.sight_chance_made" if won else "eldritch.line.sight_chance_missed",
                               {"face": face, "low": low, "high": high}),), face)
        return Sight(what, attacker.name, target.name, True, "open",
                     (Line("eldritch.line.sight_open", names),))

    # ----------------------------------------------------------------------- movement
    def movement(self, actor: Combatant, what: str | Line, actions_used: int = 0) -> Movement:
        """A movement action (draw a weapon, stand up, run, climb …; seed: Actions; ``what``, a
        line of the catalogue or the player's words): it spends
        one of the turn's offensive-or-movement actions. Raises CombatError past the limit,
        and for one out cold, stunned, or whirling a sword (its only action that turn)."""
        situation = Situation.of(actor)
        self.require_awake(actor, situation)
        if situation.whirling:
            raise CombatError(Line("eldritch.refusal.whirling_their_sword_their", {"actor": actor.name}))
        self.check_action(actions_used)
        penalty = self.action_penalty(actions_used)
        line = Line("eldritch.line.spends_action_rolls" if penalty else "eldritch.line.spends_action",
                    {"actor": actor.name, "what": what, **({"penalty": penalty} if penalty else {})})
        return Movement(actor.name, what, penalty, (line,))

    def travel_is_action(self, yards: int, yards_per_turn: int) -> bool:
        """Travel counts as a movement action at half the Yards/Turn or more (seed)."""
        return yards * int(self.movement_table["travel_fraction"]) >= yards_per_turn

    def yards_per_turn(self, actor: Combatant) -> int:
        """The character's Yards/Turn. The seed names it but never derives it; Fray plays the
        data's ``movement.yards_per_turn``: the traits summed x ``per_point`` + ``base``
        (default the Unisystem-style Speed, (Constitution + Dexterity) x 2)."""
        table = self.movement_table["yards_per_turn"]
        return (sum(actor.trait(name) for name in table["traits"]) * int(table["per_point"])
                + int(table.get("base", 0)))

    def travel(self, actor: Combatant, yards: int, what: str | Line = "", actions_used: int = 0) -> Movement:
        """Travel of ``yards`` (seed, Movement: "Actual travel from point A to point B only
        counts as a Movement action if the distance is equal or greater than half the
        character's Yards/Turn"): at half or more, a movement action (``movement``); under it,
        no action (``spends`` False: no action used, no penalty). ``what``: the pose, e.g.
        "run 5 yards to the door". Raises CombatError for one out cold, stunned or whirling,
        and past the action limit for a travel that is an action."""
        if yards < 0:
            raise CombatError(Line("eldritch.refusal.give_distance_whole_yards_other"))
        per_turn = self.yards_per_turn(actor)
        what = what or Line("eldritch.line.travel_yard" if yards == 1 else "eldritch.line.travel_yards", {"yards": yards})
        if self.travel_is_action(yards, per_turn):
            return self.movement(actor, Line("eldritch.line.travel_half", {"what": what, "per_turn": per_turn}),
                                 actions_used)
        situation = Situation.of(actor)
        self.require_awake(actor, situation)
        if situation.whirling:
            raise CombatError(Line("eldritch.refusal.whirling_their_sword_their", {"actor": actor.name}))
        return Movement(actor.name, what, 0, (Line("eldritch.line.travel_under", {
            "actor": actor.name, "what": what, "per_turn": per_turn}),), spends=False)
