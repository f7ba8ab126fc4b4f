"""The ``eldritch`` rule system: 1d10 + Attribute + Skill, Success Levels, Life Points.

Source: the eldritch seed (Eldritch MUSH's combat page: initiative, extra actions,
attacking, limitations, damage, the 14 advanced maneuvers, the weapon and armor tables)
with the Unisystem defaults of ``docs/rules/eldritch.md``. Every number lives in
``rules/data/eldritch.toml``; dice in :mod:`rules.systems.eldritch.dice`; limitations,
concealment, hiding, eye contact and line of sight in :mod:`rules.systems.eldritch.checks`.

Registered in ``rules.systems.REGISTRY``; its fight's own actions are in
``rules.systems.eldritch.actions``.

Shapes the game layer uses (beyond :class:`RuleSystem`):

- :class:`Situation` — what the fight tracks about one fighter this turn (actions and
  defenses used, the ST's space, prone, grapple, Sleeper Hold SLs, Whirling Sword, Wall Flip).
  ``attack``/``defend``/``sacrifice`` take ``situation=``; without it they read
  ``Combatant.conditions`` (when the snapshot has that field) with the same keys.
- ``Resolution.effects`` — lasting states as ``(effect, name, detail)``: ``held`` (by whom:
  the game's generic hold) and ``grappled`` (detail ``{"by", "neck"}``), ``atemi-grip`` (the
  penalty, on every physical roll of the numb one; it fades by 1 with each of their actions —
  attack, movement, hiding, escape — not with a defense, which is no action),
  ``stunned`` (``"rest of turn"`` or ``"first action"``), ``passed-out`` (turns, or None: until woken),
  ``eye-lost`` (by whom), ``sleeper-hold`` (``{"by", "sls", "needed"}``), ``wrestling-hold``
  (``{"by", "penalty"}``), ``wall-flip`` (``{"over", "bonus"}``), ``wall-flip-spent`` (over
  whom), ``prone`` (True), ``whirling-sword`` (``{"turn", "penalty"}``), ``weapon-taken``
  (``{"weapon", "from"}``: a caught thrown weapon is in the catcher's hand now, the game's
  generic effect), ``drama-point`` (False: spent). ``after_action`` (the game calls it for each action a fighter
  spends) wears the numbness off; ``condition_after`` turns each into the conditions
  :class:`Situation` reads back; ``start_of_round`` ends a stun, counts down passing out,
  ends Wall Flip's defense bonus and counts Whirling Sword's turns; ``can_act`` passes over
  the stunned and the unconscious.

Fray defaults where the source is silent (guesses, also marked in the data file):

- dice, Success Levels, Rule of 10/1, Life Points and down/dead: Unisystem (docs/rules/eldritch.md, Dice);
  no wound penalty; an attack must succeed (total 9+) to hit; ``+roll`` refuses ``vs``;
- ``modifier`` (the ST's difficulty shift) is taken off the roll; ``dice_modifier`` added;
- basic maneuvers (the source's page is missing): punch Dex+Brawl, STR x 2 bash; kick -1,
  (STR+1) x 2; jump kick -3, (STR+1) x 3; grapple +2, no damage; Atemi Strike and Double
  Jump Kick deal punch and jump-kick damage;
- block and parry answer only hand-to-hand attacks (Ranged Deflection exists for the rest);
  a dodge rolls the better of Acrobatics and Brawl (seed: "DEX + Brawl for a dodge");
  thrown, only the shuriken and the chakram have no blunt part to block (``blockable``);
- Sacrifice's parry against a thrown or launched weapon is Ranged Deflection's roll (the
  maneuver bought, its own -2/-4 kept) before the -3;
- Wall Flip's fall (a failed roll) is STR x 2 bash against the flipper's own bash soak;
  its +3 to defenses lasts while the game keeps ``flip_defense`` set: (choose) seed "all
  further defensive actions": the rest of the fight (``defense_bonus_lasts``; "turn" ends it
  with the turn);
- Ear Pop passing out lasts until woken (detail None);
- whirling, the fighter has no defense but the whirl's one roll (none against ranged attacks);
- initiative is rolled anew each turn (seed) — ``reroll_each_round`` in the data;
- a stun (Ear Pop) lasts the rest of the turn it lands in, or, landing when the victim has
  no action left this turn, until their first action slot of the next turn goes by; passing out for N turns counts
  the turn it happens in as the first; any attack on one out cold wakes them (seed: "being
  attacked") and they cannot defend it; the grappled may only try to escape (the game's
  hold); Atemi Grip's numbness and a Wrestling Hold's pin also weigh on escaping;
- Atemi Grip: "physical rolls" are those of Strength, Dexterity or Constitution (initiative is
  no roll of this kind); an action is rolled at the numbness it finds, which then fades by 1;
- a weapon named in an attack must be the one in hand (``+stat <name>/weapon=``, ``+move
  draw``); ``1h``/``2h`` choose a hand-to-hand weapon's grip (some weapons default to two
  hands: ``hands`` in the data) and make no sense for a firearm or brass knuckles.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field, replace
from fractions import Fraction
from functools import cached_property
from typing import Any

from rules.data import RulesDataError, load_system_data, require, require_choice
from rules.dice import DiceSyntaxError, PoolExpression, Roller
from rules.dice.odds import enumerate_outcomes, percent
from rules.lines import Line, roll_of
from rules.systems.base import (
    ActionSchedule,
    Combatant,
    CombatError,
    InitiativeRoll,
    Odds,
    PointsHealth,
    Pool,
    Resolution,
    RollResult,
    RoundEffect,
    RuleSystem,
    Verdict,
    highest_first,
    load_armor_table,
    match_damage_type,
)
from rules.systems.eldritch.actions import ACTIONS
from rules.systems.eldritch.checks import (
    CATEGORIES,
    GRIPS,
    EldritchChecks,
    Limitation,
    Weapon,
    grip,
    mode_line,
    yards_line,
)
from rules.systems.eldritch.dice import (
    DiceRules,
    EldritchRoll,
    line_from_record,
    line_record,
    net_sls,
    parts_line,
    roll_eldritch,
    sl_count,
    trait_parts,
    trait_spec_names,
    with_parts,
)
from rules.systems.eldritch.situation import Situation

DAMAGE_TYPES = ("bash", "lethal")
ARMOR_COLUMNS = ("bash", "lethal", "bullets")
USES = ("attack", "defense", "passive", "sacrifice")
MODES = ("unarmed", "melee", "thrown", "launched", "firearm")
#: Option words that are not names: the grip, throwing, and grappling by the neck.
FLAGS = {"1h": ("hands", 1), "one-handed": ("hands", 1), "2h": ("hands", 2),
         "two-handed": ("hands", 2), "thrown": ("mode", "thrown"), "throw": ("mode", "thrown"),
         "neck": ("neck", True)}
#: How long an Ear Pop stun lasts (seed: "the rest of the turn (or his first action, should
#: the move be performed at the end of a turn)").
STUN_REST_OF_TURN = "rest of turn"
STUN_FIRST_ACTION = "first action"


def action_label(actions_used: int) -> Line:
    """The pool part's label for an action after ``actions_used`` others this turn: ``"2nd
    action"``, ``"3rd action"``, ``"4th action"``, ..."""
    return Line("eldritch.value.part_second_action" if actions_used == 1 else "eldritch.value.part_third_action"
                if actions_used == 2 else "eldritch.value.part_nth_action", {"number": actions_used + 1})


def squash(text: str) -> str:
    """How names are compared: lower case, letters, digits and inner dots only (``".380 ACP"``
    -> ``"380acp"``, ``"AK-47"`` -> ``"ak47"``)."""
    text = text.casefold().strip().lstrip(".")
    return "".join(char for char in text if char.isalnum() or char == ".")


# ================================================================================ state
# =============================================================================== health
@dataclass(frozen=True)
class LifePoints(PointsHealth):
    """Life Points (docs/rules/eldritch.md): ``maximum`` less the bash and lethal taken. At ``down_at``
    (0) or less the fighter is down (unconscious); at ``dead_at`` (-10) or less, dead."""

    maximum: int
    bash: int = 0
    lethal: int = 0
    down_at: int = 0
    dead_at: int = -10

    @property
    def current(self) -> int:
        return self.maximum - self.bash - self.lethal

    def line(self) -> Line:
        """``"Life Points 21/32"``, ``"Down: Life Points -3/32"`` (unconscious), ``"Dead: …"``
        (short enough for the HUD's health column)."""
        values = {"current": self.current, "maximum": self.maximum}
        return Line("eldritch.value.life_points_dead" if self.dead else "eldritch.value.life_points_down"
                    if self.incapacitated else "eldritch.value.life_points", values)

    def with_damage(self, amount: int, damage_type: str) -> LifePoints:
        amount = max(0, amount)
        if damage_type == "bash":
            return replace(self, bash=self.bash + amount)
        return replace(self, lethal=self.lethal + amount)

    def healed(self, amount: int | None, damage_type: str | None) -> LifePoints:
        """After healing ``amount`` points (None: all) of ``damage_type`` (None: bash first)."""
        counts = {"bash": self.bash, "lethal": self.lethal}
        remaining = sum(counts.values()) if amount is None else max(0, amount)
        for kind in [damage_type] if damage_type else list(DAMAGE_TYPES):
            taken = min(counts[kind], remaining)
            counts[kind] -= taken
            remaining -= taken
        return replace(self, bash=counts["bash"], lethal=counts["lethal"])

    def to_record(self) -> dict[str, Any]:
        return {"maximum": self.maximum, "bash": self.bash, "lethal": self.lethal}


# ============================================================================ maneuvers
@dataclass(frozen=True)
class DamageSpec:
    """(Strength + ``strength_bonus``) x ``multiplier`` of ``category`` (bash or lethal)."""

    multiplier: int
    category: str
    strength_bonus: int = 0


@dataclass(frozen=True)
class Maneuver:
    """A maneuver from the data file. ``use``: attack, defense, passive or sacrifice.
    ``traits`` (a list inside = the better one) + ``modifier`` is its roll; ``damage`` None
    means the weapon's damage; ``resisted_by``: the victim's roll instead of a defense;
    ``requires``: "grapple" or "neck"; ``weapon``: "", "required" or "balanced"; ``extra``:
    the maneuver's own numbers (fade_per_action, out_turns, bonus …)."""

    key: str
    label: str
    use: str
    traits: tuple[Any, ...]
    modifier: int
    advanced: bool = False
    trait: str = ""
    damage: DamageSpec | None = None
    no_damage: bool = False
    resisted_by: tuple[Any, ...] = ()
    requires: str = ""
    weapon: str = ""
    targets: int = 1
    minimum: tuple[tuple[str, int], ...] = ()
    against: tuple[str, ...] = ()
    honor_check: bool = False
    ignores_natural_soak: bool = False
    extra: Mapping[str, Any] = field(default_factory=dict)


@dataclass(frozen=True)
class AttackChoice:
    """What ``attack X/<option>`` names: a maneuver, the weapon, the grip, the mode."""

    maneuver: Maneuver
    weapon: Weapon | None
    hands: int
    mode: str
    neck: bool = False

    @property
    def key(self) -> str:
        """The option in canonical words, e.g. ``"bat 2h"``, ``"whirling-sword staff"``."""
        words = [] if self.maneuver.key == "weapon" else [self.maneuver.key]
        if self.weapon:
            words.append(self.weapon.key)
            if self.hands != self.weapon.hands:
                words.append(f"{self.hands}h")
            if self.mode != self.weapon.modes[0]:
                words.append(self.mode)
        if self.neck:
            words.append("neck")
        return " ".join(words)

    @property
    def label(self) -> str | Line:
        """``"bat"``, ``"Ear Pop"``: a name of the data; with the grip, the mode or the neck
        noted, a line: ``"sword (two-handed)"``, ``"Whirling Sword (staff)"``."""
        notes: list[Line] = []
        if self.weapon:
            if self.hands != self.weapon.hands:
                notes.append(grip(self.hands))
            if self.mode != self.weapon.modes[0]:
                notes.append(mode_line(self.mode))
        if self.neck:
            notes.append(Line("eldritch.line.by_the_neck"))
        noted: Line | None = None
        for note in notes:
            noted = note if noted is None else Line("eldritch.line.label_notes", {"notes": noted, "note": note})
        if self.weapon and self.maneuver.key != "weapon":
            values = {"maneuver": self.maneuver.label, "weapon": self.weapon.name}
            if noted is None:
                return Line("eldritch.line.label_weapon", values)
            return Line("eldritch.line.label_weapon_noted", {**values, "notes": noted})
        name = self.weapon.name if self.weapon else self.maneuver.label
        return name if noted is None else Line("eldritch.line.label_noted", {"name": name, "notes": noted})

    @property
    def adjustable(self) -> bool:
        return True


@dataclass(frozen=True)
class EldritchAttack:
    """A rolled attack. ``roll`` None: the Honorable check (``honor``) failed and the attack
    was not made. ``carried``: Sleeper Hold SLs accumulated before this roll. ``notes``: the
    limitations' working; ``effects``: states it sets as it is made (Whirling Sword …).
    ``defenseless``: why the target cannot defend (passed out), or ""."""

    attacker: str
    target: str
    choice: AttackChoice
    roll: EldritchRoll | None
    honor: EldritchRoll | None = None
    carried: int = 0
    notes: tuple[str | Line, ...] = ()
    effects: tuple[tuple[str, str, Any], ...] = ()
    defenseless: str | Line = ""

    @property
    def maneuver(self) -> Maneuver:
        return self.choice.maneuver

    @property
    def weapon(self) -> Weapon | None:
        return self.choice.weapon

    @property
    def needs_defense(self) -> bool:
        """A successful attack (total 9+) opens a defense window, except a resisted maneuver
        (Atemi Grip, Sleeper Hold, Wrestling Hold: the victim's roll comes in ``resolve``) and
        one on a target who cannot defend (``defenseless``)."""
        return (self.roll is not None and self.roll.succeeded and not self.maneuver.resisted_by
                and not self.defenseless)

    @property
    def successes(self) -> int:
        """The attack's Success Levels (what a defense's SLs are taken from)."""
        return self.roll.success_levels if self.roll else 0

    @property
    def label(self) -> str | Line:
        return self.choice.label

    @property
    def option(self) -> str:
        return self.choice.key

    @property
    def damage_type(self) -> str:
        spec = self.maneuver.damage
        if spec:
            return spec.category
        return self.weapon.damage_type if self.weapon else "bash"

    def describe(self) -> Line:
        """``"bat: Dexterity 3 + Melee 2 + d10 [7] = 12: 2 SLs"`` (with the limitations) as a
        line of working; an Honorable attacker who balks, with the check's roll."""
        if self.roll is None:
            if self.honor is None:
                return Line("eldritch.line.balks_unrolled", {"label": self.label})
            return Line("eldritch.line.balks", {"label": self.label, "honor": self.honor.line()})
        if self.notes:
            return Line("eldritch.line.to_hit_notes", {"label": self.label, "roll": self.roll.line(),
                                                       "notes": tuple(self.notes)})
        return Line("eldritch.line.to_hit", {"label": self.label, "roll": self.roll.line()})

    def to_record(self) -> dict[str, Any]:
        return {"attacker": self.attacker, "target": self.target,
                "maneuver": self.maneuver.key, "weapon": self.weapon.key if self.weapon else "",
                "hands": self.choice.hands, "mode": self.choice.mode, "neck": self.choice.neck,
                "roll": self.roll.to_record() if self.roll else None,
                "honor": self.honor.to_record() if self.honor else None,
                "carried": self.carried, "notes": [line_record(note) for note in self.notes],
                "effects": [list(effect) for effect in self.effects],
                "defenseless": line_record(self.defenseless)}


@dataclass(frozen=True)
class EldritchDefense:
    """A rolled defense (dodge, block, parry or a defensive maneuver). ``outcome`` is set for
    a Sacrifice: "parried", "takes" (the sacrificer takes the hit) or "failed" (the original
    target must still defend. A defense is no action: it does not wear Atemi Grip's numbness
    off."""

    kind: str
    label: str
    defender: str
    roll: EldritchRoll
    outcome: str = ""
    drama_point: bool = False

    def describe(self) -> Line:
        """The defense's roll as a line of working: ``"dodge: Dexterity 3 + Acrobatics 2 + d10
        [6] = 11: 2 SLs"``."""
        return Line("eldritch.line.defense", {"label": self.label, "roll": self.roll.line()})

    def line(self) -> Line:
        """:meth:`describe`."""
        return self.describe()

    def to_record(self) -> dict[str, Any]:
        return {"kind": self.kind, "label": self.label, "defender": self.defender,
                "roll": self.roll.to_record(), "outcome": self.outcome, "drama_point": self.drama_point}

    @classmethod
    def from_record(cls, record: Mapping[str, Any]) -> EldritchDefense:
        return cls(record["kind"], record["label"], record["defender"],
                   EldritchRoll.from_record(record["roll"]), record.get("outcome", ""),
                   bool(record.get("drama_point", False)))


@dataclass(frozen=True)
class Harm:
    """Damage dealt to one fighter: the raw damage and its working, the soak, Life Points."""

    name: str
    damage_type: str
    raw: int
    working: Line
    soak: Pool
    amount: int
    health_before: LifePoints
    health_after: LifePoints


# =============================================================================== system
class EldritchSystem(EldritchChecks, RuleSystem):
    """``eldritch`` — see the module docstring. Raises RulesDataError on a bad data file."""

    key = "eldritch"
    title = "Eldritch (1d10 + traits, Success Levels)"
    armor_columns = ARMOR_COLUMNS
    defense_uses_action = False   # seed: defenses "do not count against" the turn's actions
    defend_after_acting = True
    escapes = True
    actions = ACTIONS
    #: A fighter's eldritch conditions: the lines of sight it has (ids), hiding (the roll kept,
    #: the seekers' tries this turn, hidden before the fight), the holds and their effects
    #: (by the neck, Wrestling Hold, Sleeper Hold, out cold), Atemi Grip's numbness, a stun,
    #: Whirling Sword (this turn, earlier turns, the turn's roll), Wall Flip, an eye lost and a
    #: Drama Point kept for the next defense (``Situation``).
    condition_keys = frozenset({"in_sight", "hide_total", "spot_tries", "hid_early", "by_neck", "wrestling_hold",
                                "sleeper_hold", "passed_out", "atemi_grip", "stunned", "whirling", "whirl_turns",
                                "whirl_roll", "flipped_over", "flip_defense", "eye_lost", "drama_point"})

    def __init__(self, data: Mapping[str, Any] | None = None) -> None:
        data = data if data is not None else load_system_data(self.key)
        self.dice_rules = DiceRules.from_data(require(data, "dice", dict, "eldritch"))
        self.chance_die = require(data["dice"], "chance_die", int, "dice")
        init = require(data, "initiative", dict, "eldritch")
        self.halved = tuple(require(init, "halved", list, "initiative"))
        if len(self.halved) != 2:
            raise RulesDataError("initiative.halved: name two traits (seed: Dexterity and Perception).")
        #: ``+npc/init <name>=<dexterity>+<perception>``: a light NPC's two initiative traits.
        self.npc_initiative_traits = (str(self.halved[0]), str(self.halved[1]))
        rounding = init.get("round_up_with")
        #: Qualities that round the half up (seed: Acute Senses; its example: "Acute Scent").
        self.round_up_with = (rounding,) if isinstance(rounding, str) else tuple(
            require(init, "round_up_with", list, "initiative"))
        self.initiative_bonuses = self._bonuses(require(init, "bonuses", dict, "initiative"), "initiative.bonuses")
        self.step = require(init, "step", int, "initiative")
        self.max_actions = require(init, "max_actions", int, "initiative")
        self.per_action = require(init, "action_penalty", int, "initiative")
        self.per_defense = require(init, "defense_penalty", int, "initiative")
        #: seed: "Once everyone has exhausted their actions, the round is over and Initiative
        #: is rolled once more" (the game clears initiative when a round begins).
        self.reroll_each_round = require(init, "reroll_each_round", bool, "initiative")
        if self.step < 1 or self.max_actions < 1:
            raise RulesDataError("initiative: step and max_actions must be at least 1.")
        life = require(data, "life_points", dict, "eldritch")
        self.life_traits = tuple(require(life, "traits", list, "life_points"))
        self.life_per_point = require(life, "per_point", int, "life_points")
        self.life_base = require(life, "base", int, "life_points")
        self.life_bonuses = self._bonuses(require(life, "bonuses", dict, "life_points"), "life_points.bonuses")
        self.down_at = require(life, "down_at", int, "life_points")
        self.dead_at = require(life, "dead_at", int, "life_points")
        if self.dead_at > self.down_at:
            raise RulesDataError("life_points: dead_at cannot be above down_at.")
        self.soak_sources = require(data, "soak", dict, "eldritch")
        for trait, source in self.soak_sources.items():
            for column, value in source.items():
                if column == "natural":
                    require(source, column, bool, f"soak.{trait}")
                else:
                    require_choice(column, ARMOR_COLUMNS, f"soak.{trait}")
                    require(source, column, int, f"soak.{trait}")
        self.attack_table = require(data, "attack", dict, "eldritch")
        for name in ("prone_penalty", "catch_fail_bonus"):
            require(self.attack_table, name, int, "attack")
        require(self.attack_table, "success_needed", bool, "attack")
        #: (choose) firearms limited by their multiplier, as the seed's Limitations read literally.
        self.firearm_limits = bool(require(self.attack_table, "firearm_limits", bool, "attack"))
        self.modes = require(data, "modes", dict, "eldritch")
        for mode in MODES:
            table = require(self.modes, mode, dict, "modes")
            require(table, "traits", list, f"modes.{mode}")
            require(table, "ranged", bool, f"modes.{mode}")
        self.defenses = require(data, "defenses", dict, "eldritch")
        for name, table in self.defenses.items():
            require(table, "traits", list, f"defenses.{name}")
        traits = require(data, "traits", dict, "eldritch")
        self.trait_names = tuple(name for group in traits.values() for name in group)
        self.weapons = {key: self._weapon(str(key), table)
                        for key, table in require(data, "weapons", dict, "eldritch").items()}
        self.weapon_names = {key: weapon.name for key, weapon in self.weapons.items()}
        self.maneuvers = {key: self._maneuver(key, table)
                          for key, table in require(data, "maneuvers", dict, "eldritch").items()}
        for key in ("punch", "weapon", "grapple", "prone-fighting", "wall-flip", "whirling-sword",
                    "sacrifice", "damaging-block"):
            if key not in self.maneuvers:
                raise RulesDataError(f"eldritch.maneuvers: '{key}' is needed.")
        require_choice(str(self.maneuvers["wall-flip"].extra.get("defense_bonus_lasts", "fight")),
                       ("fight", "turn"), "maneuvers.wall-flip.defense_bonus_lasts")
        self.honor = require(data, "honor", dict, "eldritch")
        self.escape = require(data, "escape", dict, "eldritch")
        self.concealment = require(data, "concealment", dict, "eldritch")
        self.hiding_table = require(data, "hiding", dict, "eldritch")
        self.eye_table = require(data, "eye_contact", dict, "eldritch")
        self.sight_table = require(data, "line_of_sight", dict, "eldritch")
        self.movement_table = require(data, "movement", dict, "eldritch")
        require(self.movement_table, "travel_fraction", int, "movement")
        speed = require(self.movement_table, "yards_per_turn", dict, "movement")
        require(speed, "traits", list, "movement.yards_per_turn")
        require(speed, "per_point", int, "movement.yards_per_turn")
        #: Examples of movement actions (seed: Actions), for help text.
        self.movement_examples = tuple(require(self.movement_table, "actions", list, "movement"))
        self.armor_table = load_armor_table(data, ARMOR_COLUMNS)
        self.defense_names = tuple(self.defenses) + tuple(
            key for key, maneuver in self.maneuvers.items() if maneuver.use == "defense") + ("whirling-sword",)
        self._check_traits()

    # -------------------------------------------------------------------- data loading
    @staticmethod
    def _bonuses(table: Mapping[str, Any], where: str) -> dict[str, int]:
        return {name: require(table, name, int, where) for name in table}

    def _weapon(self, key: str, table: Mapping[str, Any]) -> Weapon:
        where = f"weapons.{key}"
        category = require_choice(require(table, "category", str, where), CATEGORIES, f"{where}.category")
        multiplier = require(table, "multiplier", int, where)
        if category == "firearm" and "size" not in table:
            raise RulesDataError(f"{where}: a firearm needs a size (for conspicuousness).")
        size = require(table, "size", int, where) if "size" in table else multiplier
        if category == "firearm" and self.firearm_limits:
            size = multiplier
        modes = tuple(table.get("modes", ["firearm"] if category == "firearm" else ["melee"]))
        for mode in modes:
            require_choice(mode, MODES, f"{where}.modes")
        hands = int(table.get("hands", 1))
        if hands not in GRIPS:
            raise RulesDataError(f"{where}.hands: 1 or 2.")
        return Weapon(key=key, name=require(table, "name", str, where), category=category,
                      multiplier=multiplier, size=size, hands=hands, modes=modes,
                      balanced=bool(table.get("balanced", False)),
                      aliases=tuple(table.get("aliases", ())),
                      blockable=bool(table.get("blockable", True)))

    def _maneuver(self, key: str, table: Mapping[str, Any]) -> Maneuver:
        where = f"maneuvers.{key}"
        known = {"label", "use", "traits", "modifier", "advanced", "trait", "damage", "no_damage",
                 "resisted_by", "requires", "weapon", "targets", "minimum", "against",
                 "honor_check", "ignores_natural_soak"}
        damage = None
        if "damage" in table:
            spec = require(table, "damage", dict, where)
            damage = DamageSpec(require(spec, "multiplier", int, f"{where}.damage"),
                                require_choice(require(spec, "category", str, f"{where}.damage"),
                                               DAMAGE_TYPES, f"{where}.damage.category"),
                                int(spec.get("strength_bonus", 0)))
        label = require(table, "label", str, where)
        advanced = bool(table.get("advanced", False))
        requires = table.get("requires", "")
        if requires:
            require_choice(requires, ("grapple", "neck"), f"{where}.requires")
        weapon = table.get("weapon", "")
        if weapon:
            require_choice(weapon, ("required", "balanced"), f"{where}.weapon")
        for mode in table.get("against", ()):
            require_choice(mode, MODES, f"{where}.against")
        return Maneuver(
            key=key, label=label, use=require_choice(require(table, "use", str, where), USES, f"{where}.use"),
            traits=tuple(require(table, "traits", list, where)),
            modifier=require(table, "modifier", int, where), advanced=advanced,
            trait=table.get("trait", label if advanced else ""), damage=damage,
            no_damage=bool(table.get("no_damage", False)),
            resisted_by=tuple(table.get("resisted_by", ())), requires=requires, weapon=weapon,
            targets=int(table.get("targets", 1)),
            minimum=tuple((name, int(value)) for name, value in table.get("minimum", {}).items()),
            against=tuple(table.get("against", ())), honor_check=bool(table.get("honor_check", False)),
            ignores_natural_soak=bool(table.get("ignores_natural_soak", False)),
            extra={name: value for name, value in table.items() if name not in known})

    def _check_traits(self) -> None:
        """Every trait a table names must be a known trait (a typo would silently read 0)."""
        known = set(self.trait_names)
        lists: list[tuple[str, Sequence[Any]]] = [("initiative.halved", self.halved)]
        lists += [(f"modes.{k}", t["traits"]) for k, t in self.modes.items()]
        lists += [(f"defenses.{k}", t["traits"]) for k, t in self.defenses.items()]
        for key, maneuver in self.maneuvers.items():
            lists += [(f"maneuvers.{key}", maneuver.traits), (f"maneuvers.{key}", maneuver.resisted_by)]
            lists += [(f"maneuvers.{key}", value) for value in maneuver.extra.values()
                      if isinstance(value, list)]
            if maneuver.advanced:
                lists.append((f"maneuvers.{key}.trait", [maneuver.trait]))
            lists.append((f"maneuvers.{key}.minimum", [name for name, _ in maneuver.minimum]))
        lists += [("life_points", self.life_traits), ("life_points.bonuses", list(self.life_bonuses)),
                  ("initiative.bonuses", list(self.initiative_bonuses) + list(self.round_up_with)),
                  ("movement.yards_per_turn", self.movement_table["yards_per_turn"]["traits"]),
                  ("soak", list(self.soak_sources)), ("honor", self.honor["traits"] + [self.honor["drawback"]]),
                  ("escape", self.escape["traits"]), ("hiding", self.hiding_table["seek"]),
                  ("concealment", self.concealment["hide_traits"] + self.concealment["search_traits"]),
                  ("eye_contact", self.eye_table["attention"] + self.eye_table["resist"])]
        lists += [("hiding.ways", way) for way in self.hiding_table["ways"]]
        for where, spec in lists:
            for name in trait_spec_names(spec):
                if name not in known:
                    raise RulesDataError(f"{where}: unknown trait {name!r} (add it under [traits]).")

    # ------------------------------------------------------------------------------ dice
    def roll(self, parts: Sequence[tuple[str | Line, int]], roller: Roller) -> EldritchRoll:
        """1d10 (Rule of 10/1) + ``parts``."""
        return roll_eldritch(Pool(tuple(parts)), roller, self.dice_rules)

    def success_levels(self, total: int) -> int:
        """The Success Level table (data): 9-10 -> 1 … 24-26 -> 7, +1 per 3 points."""
        return self.dice_rules.success_levels(total)

    def roll_check(self, expression: PoolExpression, actor: Combatant, roller: Roller,
                   *, modifier: int = 0, willpower: bool = False) -> RollResult:
        """``+roll``: 1d10 + the traits and numbers typed (+ ``modifier``). ``+roll 0`` alone
        is a bare d10 for chances: its natural face, nothing else (no Rule of 10/1, no
        modifier). ``1d10`` may be written
        once (it is the roll's own die). Raises DiceSyntaxError for ``vs``, other dice or
        ``/wp``; CombatError for the dead. (``0.5``, ``1d10+`` … parse_pool refuses.)"""
        if expression.difficulty is not None:
            raise DiceSyntaxError(Line("eldritch.refusal.no_vs", {"success_at": self.dice_rules.success_at}))
        if willpower:
            raise DiceSyntaxError(Line("eldritch.refusal.no_willpower"))
        terms = expression.terms
        if len(terms) == 1 and terms[0].kind == "number" and terms[0].number == 0:
            face = roller.roll(self.chance_die)
            return RollResult(lines=(Line("eldritch.line.chance", {"sides": self.chance_die, "face": face}),),
                              summary=Verdict("", total=face),
                              record={"chance": True, "face": face})
        parts: list[tuple[str | Line, int]] = []
        own_die = False
        for term in terms:
            if term.kind == "trait":
                parts.append((term.trait, actor.trait(term.trait)))
            elif term.kind == "dice":
                if own_die or term.number != 1 or term.sides != 10:
                    raise DiceSyntaxError(Line("eldritch.refusal.one_die", {"text": term.text}))
                own_die = True
            else:
                parts.append(("", term.sign * term.number))
        if modifier:
            parts.append(("modifier", modifier))
        if self.health(actor.health, actor).dead:
            raise CombatError(Line("eldritch.refusal.dead_rolls_no_dice", {"actor": actor.name}))
        roll = self.roll(parts, roller)
        summary = roll.verdict()
        return RollResult(lines=(roll.line(),), summary=summary,
                          record={**roll.to_record(), "result": summary.to_record()})

    def odds(self, expression: PoolExpression, actor: Combatant, *, modifier: int = 0,
             willpower: bool = False) -> Odds:
        """The chance of each Success Level band of ``+roll`` (docs/rules/eldritch.md "Dice"):
        ``roll_check`` replayed on every face of the d10 and its Rule of 10 and 1 chains
        (``rules.dice.odds.enumerate_outcomes``; chains of 12 dice or more are left out)."""
        terms = expression.terms
        if len(terms) == 1 and terms[0].kind == "number" and terms[0].number == 0:
            raise DiceSyntaxError(Line("eldritch.refusal.chance_odds", {"sides": self.chance_die}))
        shown: list[Line | None] = []

        def levels(roller: Roller) -> int:
            result = self.roll_check(expression, actor, roller, modifier=modifier, willpower=willpower)
            shown[:] = [parts_line(Pool.from_parts(result.record["parts"]).parts)]
            return int(result.record["success_levels"])

        outcomes, unexplored = enumerate_outcomes(levels)
        rows: list[tuple[Line, Fraction]] = [(Line("eldritch.line.odds_failure"), outcomes.get(0, Fraction(0)))]
        level = 1
        while level <= max(outcomes) and len(rows) < 9:
            rest = sum((p for key, p in outcomes.items() if key >= level), Fraction(0))
            if rest < Fraction(1, 2000) or len(rows) == 8:
                rows.append((Line("eldritch.line.odds_at_least_sl" if level == 1 else "eldritch.line.odds_at_least_sls",
                                  {"count": level}), rest))
                break
            rows.append((sl_count(level), outcomes.get(level, Fraction(0))))
            level += 1
        note = Line("eldritch.line.odds_left_out", {"chance": percent(unexplored)}) if unexplored else ""
        values = {"success_at": self.dice_rules.success_at}
        title = (Line("eldritch.title.odds", {"pool": shown[0], **values}) if shown[0] is not None
                 else Line("eldritch.title.odds_bare", values))
        return Odds(title, tuple(rows), note)

    # ------------------------------------------------------------------------ initiative
    def initiative_score(self, actor: Combatant) -> Pool:
        """The score before the d10 (seed: Initiative): (Dex + Per)/2 rounded down (up with
        Acute Senses), +3 Fast Reaction Time, +1 Situational Awareness (each if rated 1+)."""
        ratings = [actor.trait(name) for name in self.halved]
        acute = any(actor.trait(name) > 0 for name in self.round_up_with)
        total = sum(ratings)
        half = -(-total // 2) if acute else total // 2
        shown = Pool(tuple(zip(self.halved, ratings, strict=True))).chain() or ""
        bonuses = [(name, bonus) for name, bonus in self.initiative_bonuses.items() if actor.trait(name) > 0]
        # the half has its own "=": "(Dexterity 2 + Perception 2)/2 = 2 + 1d10 (3) = 5"
        return Pool(((Line("eldritch.value.part_half_up" if acute else "eldritch.value.part_half", {"traits": shown}),
                      half), *bonuses))

    def roll_initiative(self, actor: Combatant, roller: Roller) -> InitiativeRoll:
        """The score + a plain 1d10 (no Rule of 10/1). Ties break on the score. Raises
        CombatError for the down and the dead."""
        self.require_able(actor)
        pool = self.initiative_score(actor)
        die = roller.roll(10)
        return InitiativeRoll(actor.name, pool, die, pool.size + die, pool.size)

    def action_slots(self, roll: InitiativeRoll) -> tuple[int, ...]:
        """The initiative values ``roll`` acts at: its total, then -5 steps while above 0, at
        most 5 (20 -> 20, 15, 10, 5; 26 -> 26, 21, 16, 11, 6)."""
        slots = [roll.total - self.step * n for n in range(self.max_actions)]
        return tuple(at for at in slots if at > 0)

    def schedule(self, rolls: Sequence[InitiativeRoll]) -> ActionSchedule:
        """Every fighter's actions interleaved, highest first (a name appears once per
        action); equal values: the higher score first, then together (names sorted)."""
        actions = [replace(roll, total=at) for roll in rolls for at in self.action_slots(roll)]
        return ActionSchedule(highest_first(actions))

    def action_penalty(self, actions_used: int) -> int:
        """The roll penalty of an action after ``actions_used`` earlier ones this turn
        (-2 cumulative: 0, -2, -4 …)."""
        return self.per_action * max(0, actions_used)

    def defense_penalty(self, defenses_used: int) -> int:
        """The penalty of a defense after ``defenses_used`` earlier ones this turn (unlimited
        defenses; the first free, then -2 cumulative)."""
        return self.per_defense * max(0, defenses_used)

    def check_action(self, actions_used: int) -> None:
        """Raises CombatError when ``actions_used`` already reaches the turn's limit (5)."""
        if actions_used >= self.max_actions:
            raise CombatError(Line("eldritch.refusal.no_one_may_take", {"max_actions": self.max_actions}))

    # ---------------------------------------------------------------- options, weapons
    def attack_options(self) -> tuple[str, ...]:
        return tuple(key for key, m in self.maneuvers.items() if m.use == "attack" and key != "weapon") \
            + tuple(self.weapons)

    @cached_property
    def _attack_maneuvers(self) -> dict[str, Maneuver]:
        """Every maneuver but the plain weapon attack, as ``attack X/<option>`` reads them."""
        return {k: m for k, m in self.maneuvers.items() if k != "weapon"}

    def _spellings(self, table: Mapping[str, Any]) -> dict[str, tuple[str, ...]]:
        """``{key: every spelling, squashed}`` of a table of the data file (weapons, maneuvers),
        worked out once per table: the tables never change after loading, and every attack
        reads them (the NPC AI rolls each option many times)."""
        cache = self.__dict__.setdefault("_spelled", {})
        kept = cache.get(id(table))
        if kept is not None and kept[0] is table:
            return kept[1]
        spelled = {}
        for key, entry in table.items():
            names = [key, entry.name if isinstance(entry, Weapon) else entry.label]
            names += list(getattr(entry, "aliases", ()))
            spelled[key] = tuple(dict.fromkeys(squash(name) for name in names))
        cache[id(table)] = (table, spelled)
        return spelled

    def _match(self, text: str, table: Mapping[str, Any]) -> tuple[list[str], list[str]]:
        """(exact matches, prefix matches) of ``text`` among ``table``'s keys, names, aliases."""
        wanted = squash(text)
        if not wanted:
            return [], []
        spelled = self._spellings(table)
        exact = [key for key, names in spelled.items() if wanted in names]
        prefix = [key for key, names in spelled.items() if any(n.startswith(wanted) for n in names)]
        return exact, prefix

    def weapon(self, text: str) -> Weapon:
        """The weapon named by ``text`` (key, name or alias; spaces, dots, hyphens and case do
        not matter; a unique prefix will do): ``"bat"``, ``".357 mag"``, ``"AK-47"``. Raises
        CombatError for an unknown or ambiguous name."""
        exact, prefix = self._match(text, self.weapons)
        found = exact or prefix
        if len(found) == 1:
            return self.weapons[found[0]]
        shown = text.strip()[:30]
        if found:
            raise CombatError(Line("refusal.could", {"name": shown, "shown": ', '.join(found)}))
        near = [key for key, names in self._spellings(self.weapons).items()
                if squash(text) and any(squash(text) in name for name in names)]
        if near:
            raise CombatError(Line("eldritch.refusal.no_weapon_near", {"shown": shown, "near": ", ".join(near)}))
        raise CombatError(Line("eldritch.refusal.no_weapon_eldritch_tables", {"shown": shown}))

    def bought(self, actor: Combatant, maneuver: Maneuver) -> bool:
        """Basic maneuvers always; an advanced one when the sheet rates it 1 or more."""
        return not maneuver.advanced or actor.trait(maneuver.trait) > 0

    def require_bought(self, actor: Combatant, maneuver: Maneuver) -> None:
        if not self.bought(actor, maneuver):
            raise CombatError(Line("eldritch.refusal.has_not_bought_maneuver", {"actor": actor.name, "maneuver_label": maneuver.label}))

    def choose(self, option: str, attacker: Combatant) -> AttackChoice:
        """Read ``attack X/<option>``: ``"bat"``, ``"sword 2h"``, ``"javelin thrown"``,
        ``"ear pop"``, ``"whirling sword staff"``, ``"grapple neck"``; empty = the weapon in
        hand, else a punch. Checks what needs no target: the maneuver is bought and fits the
        weapon, minimum traits (Double Jump Kick: Dex 4), a named weapon is the one in hand,
        a grip (``1h``/``2h``) only for a hand-to-hand weapon, each word at most once.
        Raises CombatError."""
        words = option.replace("/", " ").split()
        flags: dict[str, Any] = {}
        names = []
        for word in words:
            if word.casefold() in FLAGS:
                name, value = FLAGS[word.casefold()]
                if name in flags:
                    raise CombatError(Line("eldritch.refusal.give_grip_once" if name == "hands" else
                                           "eldritch.refusal.give_thrown_once" if name == "mode" else
                                           "eldritch.refusal.give_neck_once"))
                flags[name] = value
            else:
                names.append(word)
        maneuver = None
        attacks = self._attack_maneuvers
        for size in range(len(names), 0, -1):
            exact, prefix = self._match(" ".join(names[:size]), attacks)
            found = exact or prefix
            if len(found) == 1:
                maneuver, names = self.maneuvers[found[0]], names[size:]
                break
        weapon = None
        if names:
            text = " ".join(names)
            if maneuver is None:
                _, maybe = self._match(text, attacks)
                exact, prefix = self._match(text, self.weapons)
                if not exact and len(prefix) != 1 and maybe:
                    raise CombatError(Line("refusal.could", {"name": text[:30], "shown": ', '.join(maybe + prefix)}))
            weapon = self.weapon(text)
        named = weapon
        if maneuver is None:
            if weapon is None and attacker.weapon in self.weapons:
                weapon = self.weapons[attacker.weapon]
            maneuver = self.maneuvers["weapon" if weapon else "punch"]
        if maneuver.use != "attack":
            raise CombatError(Line("eldritch.refusal.is_defense" if maneuver.use == "defense" else
                                   "eldritch.refusal.is_passive" if maneuver.use == "passive" else
                                   "eldritch.refusal.is_sacrifice", {"maneuver_label": maneuver.label,
                                                                     "key": maneuver.key}))
        self.require_bought(attacker, maneuver)
        for trait, least in maneuver.minimum:
            if attacker.trait(trait) < least:
                raise CombatError(Line("eldritch.refusal.needs_better", {"maneuver_label": maneuver.label, "trait": trait, "least": least}))
        if maneuver.weapon and weapon is None:
            if attacker.weapon not in self.weapons:
                raise CombatError(Line("eldritch.refusal.needs_weapon_hand_move", {"maneuver_label": maneuver.label}))
            weapon = self.weapons[attacker.weapon]
        if maneuver.damage or maneuver.no_damage:
            if weapon is not None:
                raise CombatError(Line("eldritch.refusal.takes_no_weapon", {"maneuver_label": maneuver.label.lower()}))
        if maneuver.weapon == "balanced" and weapon and not weapon.balanced:
            raise CombatError(Line("eldritch.refusal.needs_sword_other_balanced", {"maneuver_label": maneuver.label, "weapon": weapon.name}))
        mode = flags.get("mode") or (weapon.modes[0] if weapon else "unarmed")
        if weapon and mode not in weapon.modes:
            raise CombatError(Line("eldritch.refusal.cannot", {"weapon": weapon.name, "mode": mode}))
        if weapon is None and "hands" in flags:
            raise CombatError(Line("eldritch.refusal.only_weapon_held_one"))
        if weapon is not None and "hands" in flags and (weapon.firearm or mode == "unarmed"):
            what = "a firearm" if weapon.firearm else "worn on the hand"
            raise CombatError(Line("eldritch.refusal.h_h_choose_grip", {"weapon": weapon.name, "what": what}))
        if flags.get("neck") and maneuver.key != "grapple":
            raise CombatError(Line("eldritch.refusal.only_grapple_takes_opponent"))
        if named is not None:
            self.require_in_hand(attacker, named)
        hands = flags.get("hands") or (weapon.hands if weapon else 1)
        return AttackChoice(maneuver, weapon, hands, mode, bool(flags.get("neck", False)))

    def require_in_hand(self, attacker: Combatant, weapon: Weapon) -> None:
        """A weapon named in an attack must be the one in hand (``+stat <name>/weapon=``, or
        ``+move draw``). Raises CombatError: "Hank holds no 9mm (in hand: bat)."."""
        if weapon.key == attacker.weapon:
            return
        held = self.weapons.get(attacker.weapon)
        shown = held.name if held else attacker.weapon
        raise CombatError(Line("eldritch.refusal.holds_no_weapon" if shown else "eldritch.refusal.holds_no_weapon_empty",
                               {"attacker": attacker.name, "weapon": weapon.name, "shown": shown}))

    def maneuver(self, option: str, attacker: Combatant) -> AttackChoice:
        """The choice named by ``option`` (``key``, ``label``, ``adjustable``). Raises CombatError."""
        return self.choose(option, attacker)

    def difficulty_adjustable(self, option: str, attacker: Combatant) -> bool:
        """Every attack takes the ST's shift; validates ``option`` first (CombatError)."""
        return self.choose(option, attacker).adjustable

    # ----------------------------------------------------------------------- attacking
    def require_able(self, actor: Combatant) -> None:
        health = self.health(actor.health, actor)
        if health.incapacitated:
            state = "dead" if health.dead else "down"
            raise CombatError(Line("eldritch.refusal.cannot_act", {"actor": actor.name, "state": state}))

    def refuse_unable(self, actor: Combatant) -> None:
        """Down, dead or out cold, in those words; the stunned only defend (the turn's "not
        your turn" says that)."""
        self.require_able(actor)
        if Situation.of(actor).passed_out:
            raise CombatError(Line("eldritch.refusal.out_cold", {"actor": actor.name}))

    def _shared_parts(self, actor: Combatant, situation: Situation, rolled: Sequence[tuple[str | Line, int]], *,
                      modifier: int, dice_modifier: int) -> list[tuple[str | Line, int]]:
        """What weighs on an action's or a defense's roll (``rolled``: its parts so far):
        prone (unless Prone Fighting is bought), Atemi Grip's numbness (a physical roll),
        a Wrestling Hold's pin, and the ST's shifts."""
        parts: list[tuple[str | Line, int]] = []
        if situation.prone and not self.bought(actor, self.maneuvers["prone-fighting"]):
            parts.append((Line("eldritch.value.noted_prone"), int(self.attack_table["prone_penalty"])))
        parts += self.numbness(situation, rolled)
        if situation.pinned:
            parts.append((Line("eldritch.value.noted_wrestling_hold"), situation.pinned))
        if dice_modifier:
            parts.append(("modifier", dice_modifier))
        if modifier:
            parts.append((Line("eldritch.value.noted_difficulty"), -modifier))
        return parts

    def attack(self, attacker: Combatant, target: Combatant, option: str, roller: Roller,
               *, modifier: int = 0, dice_modifier: int = 0,
               situation: Situation | None = None) -> EldritchAttack:
        """Roll an attack (seed: Attacking): the maneuver's traits (a weapon's by its mode:
        Dex + Brawl/Melee/Thrown/Firearms) + its modifier + the extra-action penalty + the
        limitations (minimum Strength, space) + prone, Wall Flip's +3, Whirling Sword's
        growing penalty; ``dice_modifier`` added, ``modifier`` (difficulty) taken off.

        Raises CombatError: unknown weapon or maneuver, not bought, a 6th action,
        Atemi Grip / Wrestling Hold without a grapple, Sleeper Hold without one by the neck,
        Double Jump Kick with one target (use ``attack_many``), acting beside Whirling Sword.
        """
        choice = self.choose(option, attacker)
        if choice.maneuver.targets > 1:
            raise CombatError(Line("eldritch.refusal.strikes_opponents_at_once", {"choice_maneuver_label": choice.maneuver.label, "choice_maneuver_targets": choice.maneuver.targets}))
        situation = situation if situation is not None else Situation.of(attacker)
        return self._attack(attacker, (target,), choice, roller, modifier, dice_modifier, situation)[0]

    def attack_many(self, attacker: Combatant, targets: Sequence[Combatant], option: str,
                    roller: Roller, *, modifier: int = 0, dice_modifier: int = 0,
                    situation: Situation | None = None) -> tuple[EldritchAttack, ...]:
        """Double Jump Kick: one roll, one attack per target, each defended on its own.
        Raises CombatError (as ``attack``; the wrong number of targets)."""
        choice = self.choose(option, attacker)
        wanted = choice.maneuver.targets
        if len(targets) != wanted or len({t.name for t in targets}) != len(targets):
            label = choice.maneuver.label
            raise CombatError(Line("eldritch.refusal.takes_target" if wanted == 1 else "eldritch.refusal.takes_targets",
                                   {"label": label[:1].upper() + label[1:], "count": wanted}))
        situation = situation if situation is not None else Situation.of(attacker)
        return self._attack(attacker, tuple(targets), choice, roller, modifier, dice_modifier, situation)

    def _attack(self, attacker: Combatant, targets: tuple[Combatant, ...], choice: AttackChoice,
                roller: Roller, modifier: int, dice_modifier: int,
                situation: Situation) -> tuple[EldritchAttack, ...]:
        self.require_able(attacker)
        self.require_awake(attacker, situation)
        maneuver, weapon = choice.maneuver, choice.weapon
        whirl = maneuver.key == "whirling-sword"
        if situation.whirling and not whirl:
            raise CombatError(Line("eldritch.refusal.whirling_their_sword_their_only", {"attacker": attacker.name}))
        if whirl and not situation.whirling and situation.actions_used > 0:
            raise CombatError(Line("eldritch.refusal.whirling_sword_takes_whole", {"attacker": attacker.name}))
        if not (whirl and situation.whirling):
            self.check_action(situation.actions_used)
        target = targets[0]
        held, neck = self.holds(attacker, target, situation)
        if maneuver.requires and not held:
            raise CombatError(Line("eldritch.refusal.needs_grappled_first", {"maneuver_label": maneuver.label, "target": target.name}))
        if maneuver.requires == "neck" and not neck:
            raise CombatError(Line("eldritch.refusal.needs_grappled_by_neck", {"maneuver_label": maneuver.label, "target": target.name}))
        carried = situation.sleeper_sls
        victim = Situation.of(target)
        if held and victim.sleeper_hold and victim.sleeper_hold.get("by") == attacker.name:
            carried = int(victim.sleeper_hold.get("sls", 0))
        traits = maneuver.traits if maneuver.traits else self.modes[choice.mode]["traits"]
        parts = list(trait_parts(attacker, traits))
        if maneuver.modifier:
            parts.append((maneuver.label.lower(), maneuver.modifier))
        effects: list[tuple[str, str, Any]] = []
        if whirl:
            penalty = int(maneuver.extra.get("turn_penalty", 0)) * situation.whirl_turns
            if penalty:
                parts.append((Line("eldritch.value.noted_whirling_later_turn"), penalty))
            if not situation.whirling:
                effects.append(("whirling-sword", attacker.name,
                                 {"turn": situation.whirl_turns + 1, "penalty": maneuver.modifier + penalty}))
        elif situation.actions_used:
            parts.append((action_label(situation.actions_used),
                          self.action_penalty(situation.actions_used)))
        notes = []
        limits: list[Limitation | None] = []
        if weapon:
            limits = [self.strength_limit(weapon, attacker.trait("Strength"), choice.hands),
                      self.space_limit(weapon, situation.space, choice.mode)]
        for limit in limits:
            if limit is not None and limit.penalty:
                notes.append(limit.line)
                parts.append((Line("eldritch.value.part_strength_short" if limit.kind == "strength"
                                   else "eldritch.value.part_space_short"), limit.penalty))
        # Wall Flip's +3 counts against the one flipped over only: never in a roll kept for the
        # turn (Whirling Sword) nor for another target (Double Jump Kick)
        flip_at = None
        if situation.flipped_over and situation.flipped_over in {t.name for t in targets}:
            flip_at = len(parts)
            effects.append(("wall-flip-spent", attacker.name, situation.flipped_over))
        parts += self._shared_parts(attacker, situation, parts, modifier=modifier, dice_modifier=dice_modifier)
        honor = None
        drawback = attacker.trait(self.honor["drawback"])
        if maneuver.honor_check and drawback > 0:
            honor = self.roll(trait_parts(attacker, self.honor["traits"])
                              + ((Line("eldritch.value.part_drawback", {"drawback": self.honor["drawback"].lower(),
                                                                        "level": drawback}),
                                  int(self.honor["per_level"]) * drawback),),
                              roller)
            if not honor.succeeded:
                return tuple(EldritchAttack(attacker.name, t.name, choice, None, honor, notes=tuple(notes))
                             for t in targets)
        if whirl and situation.whirling and situation.whirl_roll:
            # seed: "a (Dexterity + Melee -4) roll to attack and defend for the entire turn"
            roll = EldritchRoll.from_record(situation.whirl_roll)
        else:
            roll = self.roll(parts, roller)
        if whirl and not situation.whirling:
            effects = [(kind, name, {**detail, "roll": roll.to_record()}) if kind == "whirling-sword"
                       else (kind, name, detail) for kind, name, detail in effects]
        def against(target: Combatant) -> EldritchRoll:
            if flip_at is None or target.name != situation.flipped_over:
                return roll
            kept = list(roll.pool.parts)
            return with_parts(roll, [*kept[:flip_at], self.flip_bonus(), *kept[flip_at:]], self.dice_rules)

        return tuple(EldritchAttack(attacker.name, t.name, choice, against(t), honor, carried,
                                    tuple(notes), tuple(effects),
                                    Line("eldritch.line.out_cold_no_defense", {"target": t.name})
                                    if Situation.of(t).passed_out else "")
                     for t in targets)

    def flip_bonus(self) -> tuple[str | Line, int]:
        """Wall Flip's bonus, as a roll's part: +3 to the next attack on the one flipped over
        and to further defenses (seed: Wall Flip)."""
        return (Line("eldritch.value.noted_wall_flip"), int(self.maneuvers["wall-flip"].extra.get("bonus", 0)))

    def step_in(self, whirler: Combatant, approacher: Combatant, attack: Any = None) -> EldritchAttack | None:
        """Whirling Sword (seed): "Anybody who steps into range of the whirling sword is
        attacked". ``approacher`` makes a hand-to-hand ``attack`` on ``whirler`` (None: moves
        up to them): when the whirler is whirling this turn (and awake), their whirl attacks
        the approacher first, with the turn's one roll (no die, no action). None otherwise (a
        ranged attack does not step into range)."""
        situation = Situation.of(whirler)
        if not (situation.whirling and situation.whirl_roll) or situation.passed_out or situation.stunned:
            return None
        choice = getattr(attack, "choice", None)
        if attack is not None and (choice is None or self.modes[choice.mode]["ranged"]):
            return None
        if self.health(whirler.health, whirler).incapacitated:
            return None
        try:
            whirl = self.choose("whirling sword", whirler)
        except CombatError:
            return None
        return EldritchAttack(whirler.name, approacher.name, whirl, EldritchRoll.from_record(situation.whirl_roll),
                              notes=(Line("eldritch.line.steps_in", {"approacher": approacher.name,
                                                                     "whirler": whirler.name}),))

    def holds(self, attacker: Combatant, target: Combatant, situation: Situation) -> tuple[bool, bool]:
        """(whether ``attacker`` holds ``target`` grappled, and by the neck): from the
        attacker's ``situation`` (``grappling``/``neck``) or the target's own conditions
        (``held_by``/``by_neck``, as the game keeps them)."""
        if situation.grappling and situation.grappling == target.name:
            return True, situation.neck
        victim = Situation.of(target)
        if victim.held_by and victim.held_by == attacker.name:
            return True, victim.by_neck
        return False, False

    def require_awake(self, actor: Combatant, situation: Situation | None = None) -> None:
        """Raises CombatError when ``actor`` is out cold (passes out) or stunned (Ear Pop:
        "capable only of defending")."""
        situation = situation if situation is not None else Situation.of(actor)
        if situation.passed_out:
            raise CombatError(Line("eldritch.refusal.out_cold", {"actor": actor.name}))
        if situation.stunned:
            raise CombatError(Line("eldritch.refusal.stunned_can_only_defend", {"actor": actor.name}))

    def physical(self, parts: Sequence[tuple[str | Line, int]]) -> bool:
        """Whether a roll of ``parts`` is physical: it rolls a physical attribute (data:
        ``maneuvers.atemi-grip.physical``, Strength, Dexterity, Constitution; "Constitution x2"
        counts)."""
        wanted = set(self.maneuvers["atemi-grip"].extra.get("physical", ()))
        return any(trait_spec_names([label])[0] in wanted for label, _ in parts if isinstance(label, str) and label)

    def numbness(self, situation: Situation, parts: Sequence[tuple[str | Line, int]]) -> list[tuple[str | Line, int]]:
        """Atemi Grip's numbness as a roll part, for a physical roll of ``parts`` (seed: "a
        reductive penalty to all physical rolls"): attacks, defenses, escaping, hiding, and
        the resisting rolls (Atemi Grip, Sleeper Hold, Wrestling Hold, Ear Pop's check)."""
        if situation.atemi_grip and int(situation.atemi_grip) > 0 and self.physical(parts):
            return [(Line("eldritch.value.noted_numb_atemi_grip"), -int(situation.atemi_grip))]
        return []

    def numb_after(self, numb: int) -> int:
        """Atemi Grip's numbness after one more action (seed: "Each consecutive action, the
        penalty is reduced by 1")."""
        return max(0, int(numb) - int(self.maneuvers["atemi-grip"].extra.get("fade_per_action", 1)))

    def after_action(self, fighter: Combatant, *, passed: bool = False) -> RoundEffect | None:
        """The conditions that change when one of ``fighter``'s action slots is spent (an
        attack, a movement action, hiding, escaping …; never a defense, which is no action):
        Atemi Grip's numbness fades by 1 with each action (seed: "Each consecutive action,
        the penalty is reduced by 1"; a slot ``passed`` by is none); an Ear Pop stun that
        took the fighter's first action of a turn ends with that slot. The action itself
        was rolled at the numbness before it faded."""
        situation = Situation.of(fighter)
        changes: dict[str, Any] = {}
        lines = []
        if situation.stunned == STUN_FIRST_ACTION:
            changes["stunned"] = None
            lines.append(Line("eldritch.line.stun_spent", {"target": fighter.name}))
        numb = int(situation.atemi_grip or 0)
        if numb > 0 and not passed:
            changes["atemi_grip"] = self.numb_after(numb)
        return RoundEffect(conditions=changes, lines=tuple(lines)) if changes else None

    def attack_from_record(self, record: Mapping[str, Any]) -> EldritchAttack:
        """The attack from ``EldritchAttack.to_record()``."""
        weapon = self.weapons[record["weapon"]] if record["weapon"] else None
        choice = AttackChoice(self.maneuvers[record["maneuver"]], weapon, int(record["hands"]),
                              record["mode"], bool(record["neck"]))
        roll = EldritchRoll.from_record(record["roll"]) if record["roll"] else None
        honor = EldritchRoll.from_record(record["honor"]) if record["honor"] else None
        return EldritchAttack(record["attacker"], record["target"], choice, roll, honor,
                              int(record["carried"]), tuple(line_from_record(note) for note in record["notes"]),
                              tuple((str(e), str(n), d) for e, n, d in record["effects"]),
                              line_from_record(record.get("defenseless", "")))

    # ------------------------------------------------------------------------ defending
    def _defense_key(self, text: str) -> str:
        exact, prefix = self._match(text, {k: self.maneuvers.get(k) or _Named(k) for k in self.defense_names})
        found = exact or prefix
        if len(found) != 1:
            raise CombatError(Line("eldritch.refusal.defend_with_one_other", {"defense_names": ', '.join(self.defense_names)}))
        return found[0]

    def defend(self, attack: EldritchAttack, defender: Combatant, defense: str, roller: Roller,
               *, modifier: int = 0, dice_modifier: int = 0, situation: Situation | None = None,
               drama_point: bool = False) -> EldritchDefense:
        """Roll a defense (seed: Actions, Defensive; Advanced Maneuvers): dodge (Dex +
        Acrobatics), block (Dex + Brawl), parry (Dex + Melee, weapon in hand) or a bought
        defensive maneuver — Damaging Block, Wall Flip, Catch Weapon, Ranged Deflection, or
        Whirling Sword's parry while whirling. The cumulative defense penalty
        (``situation.defenses_used``), prone, Wall Flip's +3 apply.

        Raises CombatError: block/parry against a ranged attack, parry empty-handed, a
        maneuver not bought or against the wrong attack (bullets cannot be caught or
        deflected), Damaging Block against a weapon without ``drama_point``, Wall Flip with
        no wall, Whirling Sword when not whirling or against a ranged attack."""
        self.require_able(defender)
        situation = situation if situation is not None else Situation.of(defender)
        if situation.passed_out:
            raise CombatError(Line("eldritch.refusal.out_cold_cannot_defend", {"defender": defender.name}))
        drama_point = drama_point or situation.drama_point
        key = self._defense_key(defense)
        parts, label = self._defense_parts(attack, defender, key, situation, drama_point)
        if key == "whirling-sword" and situation.whirl_roll:
            # seed: the one roll serves "to attack and defend for the entire turn": no new die,
            # no defense penalty
            roll = EldritchRoll.from_record(situation.whirl_roll)
            if situation.flip_defense:
                roll = with_parts(roll, [*roll.pool.parts, self.flip_bonus()], self.dice_rules)
            return EldritchDefense(key, label, defender.name, roll)
        roll = self._defense_roll(defender, situation, parts, roller, modifier=modifier, dice_modifier=dice_modifier)
        spent = drama_point and key == "damaging-block" and attack.weapon is not None
        return EldritchDefense(key, label, defender.name, roll, drama_point=spent)

    def _defense_roll(self, defender: Combatant, situation: Situation, parts: list[tuple[str | Line, int]], roller: Roller,
                      *, modifier: int, dice_modifier: int) -> EldritchRoll:
        """A defense rolled: ``parts`` with the turn's defense penalty (each defense after the
        first at -2 more), Wall Flip's +3 to further defenses and what weighs on every roll."""
        if situation.defenses_used:
            parts.append((Line("eldritch.value.part_defense", {"number": situation.defenses_used + 1}),
                          self.defense_penalty(situation.defenses_used)))
        if situation.flip_defense:
            parts.append(self.flip_bonus())
        parts += self._shared_parts(defender, situation, parts, modifier=modifier, dice_modifier=dice_modifier)
        return self.roll(parts, roller)

    def _defense_parts(self, attack: EldritchAttack, defender: Combatant, key: str, situation: Situation,
                       drama_point: bool) -> tuple[list[tuple[str | Line, int]], str]:
        """The roll of defense ``key`` before the shared penalties, and its label. Raises
        CombatError when that defense is not allowed against ``attack`` (``defend``)."""
        ranged = bool(self.modes[attack.choice.mode]["ranged"])
        mode = attack.choice.mode
        if situation.whirling and key != "whirling-sword":
            # seed: Whirling Sword is "the only action the character can attempt that Turn"; its
            # roll defends, and it "does squat against ranged attacks"
            raise CombatError(Line("eldritch.refusal.whirling_ranged" if ranged else "eldritch.refusal.whirling",
                                   {"defender": defender.name}))
        if key in self.defenses:
            table = self.defenses[key]
            if table.get("close_only") and ranged:
                raise CombatError(Line("eldritch.refusal.you_cannot_ranged_attack", {"key": key}))
            if table.get("needs_weapon") and not defender.weapon:
                raise CombatError(Line("eldritch.refusal.you_need_weapon_hand", {"key": key}))
            parts = list(trait_parts(defender, table["traits"]))
            label = key
        else:
            maneuver = self.maneuvers[key]
            self.require_bought(defender, maneuver)
            label = maneuver.label
            if key == "whirling-sword":
                if not situation.whirling:
                    raise CombatError(Line("eldritch.refusal.whirling_sword_parries_only"))
                if ranged:
                    raise CombatError(Line("eldritch.refusal.whirling_sword_does_nothing"))
                parts = list(trait_parts(defender, maneuver.traits)) + [(maneuver.label.lower(), maneuver.modifier)]
                later = int(maneuver.extra.get("turn_penalty", 0)) * situation.whirl_turns
                if later:
                    parts.append((Line("eldritch.value.noted_whirling_later_turn"), later))
            else:
                if mode == "firearm" and key in ("catch-weapon", "ranged-deflection"):
                    raise CombatError(Line("eldritch.refusal.no_catching_bullets" if key == "catch-weapon"
                                           else "eldritch.refusal.no_deflecting_bullets"))
                if maneuver.against and mode not in maneuver.against:
                    wanted = " or ".join(maneuver.against)
                    raise CombatError(Line("eldritch.refusal.works_only_against_attacks", {"maneuver_label": maneuver.label, "wanted": wanted}))
                if key == "damaging-block" and attack.weapon and not drama_point and \
                        maneuver.extra.get("weapon_needs_drama_point", False):
                    raise CombatError(Line("eldritch.refusal.damaging_block_against_weapon"))
                if key == "wall-flip" and not situation.wall:
                    raise CombatError(Line("eldritch.refusal.wall_flip_needs_wall"))
                modifier_value = maneuver.modifier
                if mode == "launched" and "launched_modifier" in maneuver.extra:
                    modifier_value = int(maneuver.extra["launched_modifier"])
                traits = maneuver.traits
                if key == "ranged-deflection":
                    traits = self._deflection_traits(attack, defender, maneuver)
                parts = list(trait_parts(defender, traits)) + [(maneuver.label.lower(), modifier_value)]
        return parts, label

    @staticmethod
    def _deflection_traits(attack: EldritchAttack, defender: Combatant, maneuver: Maneuver) -> tuple[Any, ...]:
        """Ranged Deflection's traits (seed: thrown weapons "can be Blocked (if there's a part
        of the weapon that isn't sharp) or Parried (with a weapon)"): the block skill counts
        only against a weapon with a blunt part (``blockable``), the parry skill only with a
        weapon in hand; the better of those left. Raises CombatError when neither is left."""
        block = str(maneuver.extra.get("block_skill", "Brawl"))
        parry = str(maneuver.extra.get("parry_skill", "Melee"))
        allowed = []
        if attack.weapon is None or attack.weapon.blockable:
            allowed.append(block)
        if defender.weapon:
            allowed.append(parry)
        if not allowed:
            shown = attack.weapon.name if attack.weapon else "missile"
            raise CombatError(Line("eldritch.refusal.sharp_all_over_only", {"shown": shown}))
        return tuple(entry if not isinstance(entry, (list, tuple))
                     else [name for name in entry if name in allowed] or list(allowed)
                     for entry in maneuver.traits)

    def defense_choices(self, attack: EldritchAttack, defender: Combatant) -> tuple[str, ...]:
        """The defenses ``defend`` would allow ``defender`` against ``attack`` (a Damaging
        Block against a weapon is offered: ``+drama`` pays for it); none for one out cold."""
        situation = Situation.of(defender)
        if situation.passed_out:
            return ()
        allowed = []
        for key in self.defense_names:
            try:
                self._defense_parts(attack, defender, key, situation, True)
            except CombatError:
                continue
            allowed.append(key)
        return tuple(allowed)

    def defense_from_record(self, record: Mapping[str, Any]) -> EldritchDefense:
        return EldritchDefense.from_record(record)

    def sacrifice(self, attack: EldritchAttack, defender: Combatant, roller: Roller, *,
                  initiative: int | None, attacker_initiative: int | None, modifier: int = 0,
                  dice_modifier: int = 0, situation: Situation | None = None) -> EldritchDefense:
        """Sacrifice (seed): throw oneself between ``attack`` and its target. Needs the
        maneuver and a higher initiative than the attacker; rolls "a normal parry or
        deflection at a -3": against a hand-to-hand attack the parry (Dexterity + Melee, a
        weapon in hand), against a thrown or launched one Ranged Deflection's roll (bought,
        with its own -2/-4); never against a firearm ("No character can deflect bullets").
        Then -3 and "any multiple action penalties they've already accumulated": the
        extra-action penalty of the actions taken this turn and the defense penalty of the
        defenses made. More SLs than the attack: "parried"; not more but a success: "takes"
        (pass the sacrificer as ``resolve``'s target); a failed roll (8 or less): "failed"
        (the original target must still defend). Raises CombatError."""
        maneuver = self.maneuvers["sacrifice"]
        self.require_bought(defender, maneuver)
        self.require_able(defender)
        if defender.name in (attack.attacker, attack.target):
            raise CombatError(Line("eldritch.refusal.sacrifice_shields_someone_else"))
        if attack.choice.mode == "firearm":
            raise CombatError(Line("eldritch.refusal.no_character_can_deflect"))
        if initiative is None or attacker_initiative is None or initiative <= attacker_initiative:
            raise CombatError(Line("eldritch.refusal.sacrifice_needs_higher_initiative", {"attack_attacker": attack.attacker}))
        situation = situation if situation is not None else Situation.of(defender)
        if situation.passed_out:
            raise CombatError(Line("eldritch.refusal.out_cold_other", {"defender": defender.name}))
        ranged = bool(self.modes[attack.choice.mode]["ranged"])
        if not ranged and not defender.weapon:
            raise CombatError(Line("eldritch.refusal.sacrifice_parry_needs_weapon", {"defender": defender.name}))
        if ranged and not self.bought(defender, self.maneuvers["ranged-deflection"]):
            raise CombatError(Line("eldritch.refusal.sacrifice_against_weapon_deflection", {"attack_choice_mode": attack.choice.mode, "defender": defender.name}))
        parts, _ = self._defense_parts(attack, defender, "ranged-deflection" if ranged else "parry",
                                       situation, False)
        parts.append((Line("eldritch.value.noted_sacrifice"), maneuver.modifier))
        if situation.actions_used:
            parts.append((action_label(situation.actions_used),
                          self.action_penalty(situation.actions_used)))
        roll = self._defense_roll(defender, situation, parts, roller, modifier=modifier, dice_modifier=dice_modifier)
        if roll.success_levels > attack.successes:
            outcome = "parried"
        elif roll.succeeded:
            outcome = "takes"
        else:
            outcome = "failed"
        return EldritchDefense("sacrifice", maneuver.label, defender.name, roll, outcome)

    # ---------------------------------------------------------------------- resolving
    def soak(self, victim: Combatant, column: str, *, natural: bool = True) -> Pool:
        """Soak against ``column`` (bash, lethal, bullets): the data's sources (Constitution 1
        per point and Natural Toughness 2 against bash; Protection (Bullets) 6 per level
        against bullets) and the worn armor's column. ``natural`` False leaves out natural
        soak (Atemi Strike)."""
        parts = []
        for trait, source in self.soak_sources.items():
            per = int(source.get(column, 0))
            if per and (natural or not source.get("natural", False)) and victim.trait(trait):
                parts.append((trait, victim.trait(trait) * per))
        armor = int(victim.armor.get(column, 0) or 0)
        if armor:
            parts.append((Line("eldritch.value.noted_armor"), armor))
        return Pool(tuple(parts))

    def successes_line(self, count: int) -> Line:
        """An attack's Success Levels: ``"1 SL"``, ``"3 SLs"``."""
        return sl_count(count)

    def hit_damage(self, attack: EldritchAttack, attacker: Combatant) -> int:
        """:meth:`raw_damage` with one net Success Level; 0 for a maneuver that does no damage
        (a grapple, a disarm) or one resisted instead of defended."""
        maneuver = attack.maneuver
        if maneuver.no_damage or maneuver.resisted_by or (maneuver.damage is None and attack.weapon is None):
            return 0
        return max(0, self.raw_damage(attack, attacker, 1)[0])

    def raw_damage(self, attack: EldritchAttack, attacker: Combatant, net: int, *,
                   extra: int = 0) -> tuple[int, Line]:
        """Damage before soak (seed: Damage), with its working: Bash (STR x Y) + net SLs;
        Lethal (STR x Y) + 2 x net SLs; firearms Y x net SLs. ``extra`` is added to the base
        (Catch Weapon's +5)."""
        strength = attacker.trait("Strength")
        spec = attack.maneuver.damage
        weapon = attack.weapon
        if spec is None and weapon is not None and weapon.firearm:
            raw = weapon.multiplier * net + extra
            values = {"multiplier": weapon.multiplier, "weapon": weapon.name, "net": net_sls(net), "total": raw}
            if extra:
                return raw, Line("eldritch.line.working_firearm_catch", {**values, "extra": extra})
            return raw, Line("eldritch.line.working_firearm", values)
        if spec is not None:
            multiplier, category, bonus_str = spec.multiplier, spec.category, spec.strength_bonus
        else:
            assert weapon is not None
            multiplier, category, bonus_str = weapon.multiplier, weapon.category, 0
        might = (Line("eldritch.line.strength_bonus", {"strength": strength, "bonus": bonus_str}) if bonus_str
                 else Line("eldritch.line.strength", {"strength": strength}))
        base = (strength + bonus_str) * multiplier
        times = 2 if category == "lethal" else 1
        sls = net * times
        values = {"might": might, "multiplier": multiplier, "total": base + extra + sls,
                  "sls": Line("eldritch.line.doubled", {"net": net_sls(net)}) if times == 2 else net_sls(net)}
        if extra:
            return base + extra + sls, Line("eldritch.line.working_catch", {**values, "extra": extra})
        return base + extra + sls, Line("eldritch.line.working", values)

    def harm(self, victim: Combatant, raw: int, working: Line, damage_type: str, column: str, *,
             natural: bool = True, before: LifePoints | None = None) -> tuple[Harm, list[Line]]:
        """Soak ``raw`` damage and take the rest off ``victim``'s Life Points (never below 0);
        ``before``: their Life Points if already harmed in this resolution."""
        soak = self.soak(victim, column, natural=natural)
        amount = max(0, raw - soak.size)
        before = before or self.health(victim.health, victim)
        after = before.with_damage(amount, damage_type)
        soak_line = parts_line(soak.parts) or Line("line.pool_number", {"value": 0})
        if len(soak.parts) > 1:
            soak_line = Line("line.pool_total", {"pool": soak_line, "size": soak.size})
        lines = [Line("eldritch.line.damage", {"working": working, "damage_type": damage_type}),
                 Line("eldritch.line.soak" if natural else "eldritch.line.soak_unnatural",
                      {"victim": victim.name, "column": column, "soak": soak_line}),
                 Line("eldritch.line.loses_one" if amount == 1 else "eldritch.line.loses",
                      {"victim": victim.name, "count": amount, "damage_type": damage_type, "health": after})]
        return Harm(victim.name, damage_type, raw, working, soak, amount, before, after), lines

    def resolve(self, attack: EldritchAttack, defense: EldritchDefense | None, attacker: Combatant,
                target: Combatant, roller: Roller) -> Resolution:
        """Finish an attack (seed: Attacking, Damage, Advanced Maneuvers). The higher total
        wins, ties to the defender; net SLs = attack SLs - defense SLs. Then damage and soak,
        and the maneuvers' effects: resisted rolls (Atemi Grip, Sleeper Hold, Wrestling Hold),
        Ear Pop's stun check, Eye Pluck's eye, Damaging Block's counter, Wall Flip's bonus or
        fall, Catch Weapon's catch or +5, Sacrifice. Pure: the new Life Points are in ``harm``."""
        lines: list[str | Line] = [roll_of(attack.attacker, attack)]
        effects = list(attack.effects)
        if attack.roll is None:
            lines.append(Line("eldritch.line.honorable", {"attacker": attack.attacker, "label": attack.label}))
            return Resolution(attack.attacker, attack.target, False, 0, tuple(lines), (), tuple(effects))
        if attack.maneuver.resisted_by:
            return self._resisted(attack, attacker, target, roller, lines, effects)
        if defense is not None and defense.kind == "sacrifice" and defense.outcome == "failed":
            lines.append(Line("eldritch.line.sacrifice_fails", {"defender": defense.defender,
                                                                "defense": defense.line(), "target": attack.target}))
            defense = None
        if defense is not None:
            lines.append(Line("line.roll_of", {"name": defense.defender, "roll": defense.line()}))
            if defense.drama_point:
                effects.append(("drama-point", defense.defender, False))
        if attack.defenseless:
            lines.append(attack.defenseless)
        if Situation.of(target).passed_out:
            effects.append(("passed-out", target.name, False))
            lines.append(Line("eldritch.line.woken", {"target": target.name}))
        roll = attack.roll
        hit = roll.succeeded or not self.attack_table["success_needed"]
        if defense is not None:
            hit = hit and roll.total > defense.roll.total
        net = max(0, roll.success_levels - (defense.roll.success_levels if defense else 0))
        harm: list[Harm] = []
        if defense is not None and defense.kind == "sacrifice":
            if defense.outcome == "parried":
                hit = False
                lines.append(Line("eldritch.line.sacrifice_parries", {"defender": defense.defender,
                                                                      "target": attack.target}))
            elif target.name != defense.defender:
                raise CombatError(Line("eldritch.refusal.took_hit_resolve_against", {"defense_defender": defense.defender}))
            else:
                hit = True
                # seed: "they take the damage intended for the target": the attack's own SLs,
                # the sacrificer's not taken off
                net = roll.success_levels
                lines.append(Line("eldritch.line.sacrifice_takes", {"defender": defense.defender,
                                                                    "target": attack.target}))
        if defense is not None and defense.kind == "wall-flip":
            flip_harm, more, flip_effects = self._wall_flip(defense, attacker, target, hit)
            harm += flip_harm
            lines += more
            effects += flip_effects
        if not hit:
            if roll.succeeded and defense is not None and defense.kind != "sacrifice":
                lines.append(Line("eldritch.line.defended", {"defender": defense.defender,
                                                             "defense_total": defense.roll.total,
                                                             "total": roll.total, "label": attack.label}))
            elif not (defense is not None and defense.kind == "sacrifice"):
                lines.append(Line("eldritch.line.misses", {"attacker": attack.attacker, "label": attack.label,
                                                           "target": attack.target}))
            if defense is not None and defense.kind == "damaging-block":
                counter_harm, more = self._damaging_block(attack, defense, attacker, target)
                harm.append(counter_harm)
                lines += more
            if defense is not None and defense.kind == "catch-weapon" and attack.weapon:
                if attack.choice.mode == "thrown":
                    lines.append(Line("eldritch.line.catches_holds", {"defender": defense.defender,
                                                                      "weapon": attack.weapon.name}))
                    effects.append(("weapon-taken", defense.defender,
                                    {"weapon": attack.weapon.key, "from": attack.attacker}))
                else:
                    lines.append(Line("eldritch.line.catches", {"defender": defense.defender,
                                                                "weapon": attack.weapon.name}))
            return Resolution(attack.attacker, attack.target, False, net, tuple(lines), tuple(harm), tuple(effects))
        victim_name = defense.defender if defense is not None and defense.kind == "sacrifice" else attack.target
        lines.append(Line("eldritch.line.hits", {"attacker": attack.attacker, "label": attack.label,
                                                 "victim": victim_name, "net": net_sls(net)}))
        maneuver = attack.maneuver
        if maneuver.key == "grapple":
            effects.append(("held", target.name, attack.attacker))
            effects.append(("grappled", target.name, {"by": attack.attacker, "neck": attack.choice.neck}))
            lines.append(Line("eldritch.line.grappled_neck" if attack.choice.neck else "eldritch.line.grappled",
                              {"target": target.name, "attacker": attack.attacker}))
        if not maneuver.no_damage:
            extra = 0
            if defense is not None and defense.kind == "catch-weapon":
                extra = int(self.attack_table["catch_fail_bonus"])
            raw, working = self.raw_damage(attack, attacker, net, extra=extra)
            column = attack.weapon.soak_column if attack.weapon and not maneuver.damage else attack.damage_type
            earlier = [h.health_after for h in harm if h.name == target.name]
            dealt, more = self.harm(target, raw, working, attack.damage_type, column,
                                    natural=not maneuver.ignores_natural_soak,
                                    before=earlier[-1] if earlier else None)
            harm.append(dealt)
            lines += more
            if maneuver.key == "ear-pop":
                more, stun = self._ear_pop(attack, target, roller)
                lines += more
                effects += stun
            if maneuver.key == "eye-pluck":
                threshold = sum(v for _, v in trait_parts(target, maneuver.extra.get("eye_threshold", [])))
                if dealt.amount > threshold:
                    effects.append(("eye-lost", target.name, attack.attacker))
                    lines.append(Line("eldritch.line.eye_lost", {"amount": dealt.amount, "threshold": threshold,
                                                                 "target": target.name}))
        return Resolution(attack.attacker, victim_name, True, net, tuple(lines), tuple(harm), tuple(effects))

    def _resisted(self, attack: EldritchAttack, attacker: Combatant, target: Combatant, roller: Roller,
                  lines: list[str | Line], effects: list[tuple[str, str, Any]]) -> Resolution:
        """Atemi Grip, Sleeper Hold, Wrestling Hold: the victim's roll instead of a defense."""
        maneuver = attack.maneuver
        assert attack.roll is not None
        resist = self.roll(self.resisting_parts(target, maneuver.resisted_by), roller)
        lines.append(Line("eldritch.line.resists", {"target": target.name, "roll": resist.line()}))
        won = attack.roll.succeeded and attack.roll.total > resist.total
        net = max(0, attack.roll.success_levels - resist.success_levels) if won else 0
        lines.append(Line("eldritch.line.wins", {"attacker": attack.attacker, "net": net_sls(net)}) if won
                     else Line("eldritch.line.fails", {"attacker": attack.attacker}))
        if maneuver.key == "atemi-grip" and won:
            fade = int(maneuver.extra.get("fade_per_action", 1))
            effects.append(("atemi-grip", target.name, net))
            lines.append(Line("eldritch.line.numb", {"target": target.name, "net": net, "fade": fade}))
        elif maneuver.key == "wrestling-hold":
            if won:
                penalty = int(maneuver.extra.get("penalty_per_sl", -1)) * net
                effects.append(("wrestling-hold", target.name, {"by": attack.attacker, "penalty": penalty}))
                lines.append(Line("eldritch.line.pinned", {"target": target.name, "penalty": penalty}))
            else:
                lines.append(Line("eldritch.line.stays_grappled", {"target": target.name}))
        elif maneuver.key == "sleeper-hold":
            needed = target.trait(str(maneuver.extra.get("needed", "Constitution")))
            total = attack.carried + net
            if total >= needed:
                turns = int(maneuver.extra.get("out_turns", 5)) + total - needed
                effects.append(("passed-out", target.name, turns))
                lines.append(Line("eldritch.line.sleeper_out_one" if turns == 1 else "eldritch.line.sleeper_out",
                                  {"total": total, "needed": needed, "target": target.name, "turns": turns}))
            else:
                effects.append(("sleeper-hold", target.name, {"by": attack.attacker, "sls": total, "needed": needed}))
                lines.append(Line("eldritch.line.sleeper", {"total": total, "needed": needed}))
        return Resolution(attack.attacker, attack.target, won, net, tuple(lines), (), tuple(effects))

    def _ear_pop(self, attack: EldritchAttack, target: Combatant,
                 roller: Roller) -> tuple[list[Line], list[tuple[str, str, Any]]]:
        """Constitution doubled at minus the attack's raw SLs: fewer SLs than the attack's
        -> stunned for the rest of the turn, or, when the victim has no action left this turn
        (the move "performed at the end of a turn"), through their first action of the next;
        a failed roll -> passes out."""
        raw = attack.successes
        parts = self.resisting_parts(target, attack.maneuver.extra["stun_check"], (Line("eldritch.value.noted_ear_pop"), -raw))
        check = self.roll(parts, roller)
        lines = [Line("eldritch.line.shakes_it_off", {"target": target.name, "roll": check.line(),
                                                      "needs": sl_count(raw)})]
        if not check.succeeded:
            lines.append(Line("eldritch.line.crumples", {"target": target.name}))
            return lines, [("passed-out", target.name, None)]
        if check.success_levels < raw:
            if Situation.of(target).actions_left == 0:
                lines.append(Line("eldritch.line.stunned_next", {"target": target.name}))
                return lines, [("stunned", target.name, STUN_FIRST_ACTION)]
            lines.append(Line("eldritch.line.stunned_rest", {"target": target.name}))
            return lines, [("stunned", target.name, STUN_REST_OF_TURN)]
        lines.append(Line("eldritch.line.shakes_off", {"target": target.name, "sls": sl_count(check.success_levels),
                                                       "raw": raw}))
        return lines, []

    def resisting_parts(self, victim: Combatant, traits: Sequence[Any],
                        *more: tuple[str | Line, int]) -> tuple[tuple[str | Line, int], ...]:
        """A victim's resisting roll (Atemi Grip, Sleeper Hold, Wrestling Hold, Ear Pop's
        check): ``traits`` + ``more``, and Atemi Grip's numbness when it is physical."""
        parts = trait_parts(victim, traits) + tuple(more)
        return parts + tuple(self.numbness(Situation.of(victim), parts))

    def _damaging_block(self, attack: EldritchAttack, defense: EldritchDefense, attacker: Combatant,
                        defender: Combatant) -> tuple[Harm, list[Line]]:
        """A successful Damaging Block: (STR x 2) + net SLs bash to the attacker, soaked."""
        spec = self.maneuvers["damaging-block"].extra["counter"]
        net = max(0, defense.roll.success_levels - attack.successes)
        base = defender.trait("Strength") * int(spec["multiplier"])
        working = Line("eldritch.line.working", {
            "might": Line("eldritch.line.strength", {"strength": defender.trait("Strength")}),
            "multiplier": spec["multiplier"], "sls": net_sls(net), "total": base + net})
        dealt, lines = self.harm(attacker, base + net, working, spec["category"], spec["category"])
        return dealt, [Line("eldritch.line.block_hurts", {"defender": defense.defender, "attacker": attack.attacker}),
                       *lines]

    def _wall_flip(self, defense: EldritchDefense, attacker: Combatant, flipper: Combatant,
                   hit: bool) -> tuple[list[Harm], list[Line], list[tuple[str, str, Any]]]:
        """A failed Wall Flip roll: the flipper's own (STR x 2) bash and prone by the wall. Not
        hit: +3 to further defenses and the next attack on the one flipped over."""
        maneuver = self.maneuvers["wall-flip"]
        if not defense.roll.succeeded:
            spec = maneuver.extra["fail_damage"]
            raw = flipper.trait("Strength") * int(spec["multiplier"])
            working = Line("eldritch.line.working_plain", {
                "might": Line("eldritch.line.strength", {"strength": flipper.trait("Strength")}),
                "multiplier": spec["multiplier"], "total": raw})
            dealt, lines = self.harm(flipper, raw, working, spec["category"], spec["category"])
            return ([dealt], [Line("eldritch.line.flip_botched", {"flipper": flipper.name}), *lines],
                    [("prone", flipper.name, True)])
        if hit:
            return [], [], []
        bonus = int(maneuver.extra.get("bonus", 0))
        return ([], [Line("eldritch.line.flips_over", {"flipper": flipper.name, "attacker": attacker.name, "bonus": bonus})],
                [("wall-flip", flipper.name, {"over": attacker.name, "bonus": bonus})])

    def escape_hold(self, escaper: Combatant, holder: Combatant, roller: Roller) -> tuple[bool, tuple[Line, ...]]:
        """Break a grapple or hold: contested Strength + Brawl (guess), higher total escapes
        (ties to the holder). The escaper's roll takes the extra-action penalty, Atemi Grip's
        numbness and a Wrestling Hold's pin (the holder's, their own numbness if any).
        Escaping is an action: the game then calls ``after_action`` (numbness fades)."""
        self.require_able(escaper)
        situation = Situation.of(escaper)
        self.require_awake(escaper, situation)
        parts = list(trait_parts(escaper, self.escape["traits"]))
        if situation.actions_used:
            parts.append((action_label(situation.actions_used),
                          self.action_penalty(situation.actions_used)))
        parts += self._shared_parts(escaper, situation, parts, modifier=0, dice_modifier=0)
        mine = self.roll(parts, roller)
        theirs = self.roll(self.resisting_parts(holder, self.escape["traits"]), roller)
        escaped = mine.total > theirs.total
        return escaped, (Line("eldritch.line.named_roll", {"name": escaper.name, "roll": mine.line()}),
                         Line("eldritch.line.named_roll", {"name": holder.name, "roll": theirs.line()}),
                         Line("eldritch.line.breaks_free" if escaped else "eldritch.line.stays_held",
                              {"escaper": escaper.name}))

    # ------------------------------------------------------------ lasting conditions
    #: Effect name -> the condition it sets on the one it befalls (as ``Situation`` reads it).
    CONDITION_KEYS = {"atemi-grip": "atemi_grip", "stunned": "stunned", "eye-lost": "eye_lost",
                      "sleeper-hold": "sleeper_hold", "wrestling-hold": "wrestling_hold",
                      "drama-point": "drama_point"}

    def condition_after(self, conditions: Mapping[str, Any], effect: str, detail: Any) -> dict[str, Any]:
        """The fighter's conditions after one of this system's effects (``Resolution.effects``),
        under the keys :class:`Situation` reads: ``grappled`` -> ``by_neck`` (a new grapple
        starts Sleeper Hold and Wrestling Hold afresh); ``passed-out`` -> ``passed_out`` (turns,
        True until woken, False: awake); ``wall-flip`` -> ``flipped_over`` + ``flip_defense``;
        ``wall-flip-spent`` clears ``flipped_over``; ``whirling-sword`` -> ``whirling`` +
        ``whirl_turns`` (earlier turns); the rest by ``CONDITION_KEYS`` (a falsy detail clears)."""
        state = dict(conditions)
        if effect == "grappled":
            state.update(by_neck=bool(detail.get("neck")), sleeper_hold=None, wrestling_hold=None)
        elif effect == "passed-out":
            state.update(passed_out=True if detail is None else detail, sleeper_hold=None, stunned=None)
        elif effect == "wall-flip":
            state.update(flipped_over=detail["over"], flip_defense=True)
        elif effect == "wall-flip-spent":
            state["flipped_over"] = None
        elif effect == "whirling-sword":
            state.update(whirling=True, whirl_turns=int(detail["turn"]) - 1)
            if detail.get("roll"):
                state["whirl_roll"] = detail["roll"]   # the turn's one roll (seed)
        elif effect in self.CONDITION_KEYS:
            state[self.CONDITION_KEYS[effect]] = detail
        else:
            return super().condition_after(conditions, effect, detail)
        return state

    def can_act(self, fighter: Combatant) -> bool:
        """Not down, not out cold, not stunned (the stunned only defend): the schedule passes
        the others over."""
        situation = Situation.of(fighter)
        return super().can_act(fighter) and not situation.passed_out and not situation.stunned

    def start_of_round(self, fighter: Combatant, round_number: int) -> RoundEffect | None:
        """A new turn: a stun ends (Fray default: it lasts the rest of the turn it lands in;
        one landed after the victim's last action lasts through their first, ``after_action``);
        one turn of passing out goes by (Sleeper Hold: 5 + SLs over; until woken stays);
        Wall Flip's +3 to defenses ends only if ``defense_bonus_lasts`` is "turn" (default
        "fight": seed "all further defensive actions"); the others may try ``+spot`` on a hider again; Whirling Sword's turn counts (another turn of it is at
        a further -2) or, not whirled last turn, starts from scratch."""
        situation = Situation.of(fighter)
        changes: dict[str, Any] = {}
        lines = []
        if situation.stunned and situation.stunned != STUN_FIRST_ACTION:
            changes["stunned"] = None
            lines.append(Line("eldritch.line.unstunned", {"target": fighter.name}))
        if situation.passed_out is not True and situation.passed_out:
            left = int(situation.passed_out) - 1
            changes["passed_out"] = left or None
            lines.append(Line("eldritch.line.out_for_one" if left == 1 else "eldritch.line.out_for",
                              {"target": fighter.name, "count": left}) if left
                         else Line("eldritch.line.comes_to", {"target": fighter.name}))
        if situation.flip_defense and self.maneuvers["wall-flip"].extra.get("defense_bonus_lasts") == "turn":
            changes["flip_defense"] = None
        if (getattr(fighter, "conditions", None) or {}).get("spot_tries"):
            changes["spot_tries"] = None   # +spot: one try per seeker per turn
        if situation.whirling:
            changes.update(whirling=None, whirl_turns=situation.whirl_turns + 1)
            if situation.whirl_roll:
                changes["whirl_roll"] = None
        elif situation.whirl_turns:
            changes["whirl_turns"] = None
        return RoundEffect(conditions=changes, lines=tuple(lines)) if changes else None

    def condition_marks(self, conditions: Mapping[str, Any]) -> tuple[Line, ...]:
        """HUD marks for the eldritch lasting states (``conditions`` as stored), as lines: the
        holds (only while still held), numbness, stun, passing out, Whirling Sword, Wall Flip,
        an eye lost, a Drama Point kept for the next defense."""
        marks = []
        if conditions.get("held_by"):
            if conditions.get("by_neck"):
                marks.append(Line("eldritch.line.mark_by_neck"))
            hold = conditions.get("wrestling_hold") or {}
            if hold:
                marks.append(Line("eldritch.line.mark_pinned", {"penalty": f"{int(hold.get('penalty', 0)):+d}"}))
            sleeper = conditions.get("sleeper_hold") or {}
            if sleeper:
                marks.append(Line("eldritch.line.mark_sleeper", {"sls": sleeper.get("sls", 0),
                                                                 "needed": sleeper.get("needed", 0)}))
        if conditions.get("atemi_grip"):
            marks.append(Line("eldritch.line.mark_numb", {"penalty": conditions["atemi_grip"]}))
        if conditions.get("stunned"):
            marks.append(Line("eldritch.line.mark_stunned"))
        out = conditions.get("passed_out")
        if out:
            marks.append(Line("eldritch.line.mark_out_cold") if out is True else
                         Line("eldritch.line.mark_out_turn" if int(out) == 1 else "eldritch.line.mark_out_turns",
                              {"turns": int(out)}))
        if conditions.get("whirling"):
            marks.append(Line("eldritch.line.mark_whirling", {"turn": int(conditions.get("whirl_turns", 0) or 0) + 1}))
        if conditions.get("flip_defense"):
            marks.append(Line("eldritch.line.mark_wall_flip", {"bonus": self.maneuvers["wall-flip"].extra.get("bonus", 0)}))
        if conditions.get("flipped_over"):
            marks.append(Line("eldritch.line.mark_flipped_over", {"name": conditions["flipped_over"]}))
        if conditions.get("eye_lost"):
            marks.append(Line("eldritch.line.mark_one_eye"))
        if conditions.get("drama_point"):
            marks.append(Line("eldritch.line.mark_drama_point"))
        return tuple(marks)

    def scene_text(self, scene: Mapping[str, Any]) -> Line | str:
        """The ST's ``+combat/space`` as a line: ``"3 yards of room, a wall at hand"`` ("" for
        none)."""
        room = None if scene.get("space") is None else yards_line(int(scene["space"]))
        if room is not None:
            return Line("eldritch.line.scene_room_wall" if scene.get("wall") else "eldritch.line.scene_room",
                        {"room": room})
        return Line("eldritch.line.scene_wall") if scene.get("wall") else ""

    @staticmethod
    def fading_penalty(penalty: int, actions_since: int, fade: int = 1) -> int:
        """Atemi Grip's numbness after ``actions_since`` actions: ``penalty`` less ``fade``
        each, never below 0 (returned as a negative modifier, or 0)."""
        return -max(0, penalty - fade * max(0, actions_since))

    # --------------------------------------------------------------------------- health
    def life_points(self, actor: Combatant) -> int:
        """(Strength + Constitution) x 4 + 10, +3 per level of Hard to Kill (data)."""
        base = sum(actor.trait(name) for name in self.life_traits) * self.life_per_point + self.life_base
        return base + sum(actor.trait(name) * bonus for name, bonus in self.life_bonuses.items())

    def health(self, record: Mapping[str, Any] | None, actor: Combatant | None = None) -> LifePoints:
        """Life Points from the record; the maximum from ``actor``'s sheet when given, else
        the record's ``maximum`` (else the base, 10)."""
        record = record or {}
        maximum = self.life_points(actor) if actor is not None else int(record.get("maximum", self.life_base))
        return LifePoints(maximum, int(record.get("bash", 0)), int(record.get("lethal", 0)),
                          self.down_at, self.dead_at)

    def damage_type(self, text: str) -> str:
        """``"b"``, ``"bashing"``, ``"Lethal"`` … -> ``"bash"``/``"lethal"``. Raises CombatError."""
        wanted = text.strip().casefold()
        return match_damage_type("bash" if wanted.startswith("bash") else wanted, DAMAGE_TYPES)

@dataclass(frozen=True)
class _Named:
    """A plain defense's spellings for ``_match`` (dodge, block, parry)."""

    key: str

    @property
    def label(self) -> str:
        return self.key
