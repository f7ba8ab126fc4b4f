"""Aeon tactics: grappling (the clinch), surprise attacks, hiding and mounted combat.

Source: the aeon seed sections "Grappling", "Surprise Attacks" and
"Mounted Combat", with ``docs/rules/aeon.md`` (Grappling, Surprise attacks, Hiding, Mounted
combat). Dice, soak and health are the
:class:`~rules.systems.aeon.AeonSystem`'s: d10 pools at TN 7, difficulty = successes needed,
``harm`` for damage. Every number lives in the ``[grappling]``, ``[surprise]``, ``[hiding]``,
``[mounted]`` and ``[mounts.*]`` tables of ``rules/data/aeon.toml``. Randomness only comes
from the injected :class:`rules.dice.Roller`.

Fray defaults where the source is silent (each marked ``guess`` in the data, or noted where it
is made):

- Control pool: the higher of Brawl / Martial Arts plus the higher of Dexterity / Strength;
  a tie takes the one listed first in the data (Brawl, Dexterity).
- The control contest: 0 successes never controls; a tie controls nothing this turn; a botch
  is only 0 successes. A knocked-out or dead participant cannot contest: it counts as
  declining.
- Crush damage is always bashing; it needs no roll to hit beyond the control contest.
- Breaking the hold with a throw does no damage; the knockdown check is the thrown one's
  Dexterity + Athletics needing 1 success; failing (or botching) leaves them prone.
- Surprise: ties go to the target (data ``ties``). "+2 difficulty" from plain sight means the
  attacker needs 2 more successes, and 2 of its successes are taken off for the comparison.
  ``attacker_dice`` carries invisibility, camouflage and the like (seed: "add to the
  attacker's Stealth roll").
- Hiding: the obscured hider's 2 automatic successes count towards the difficulty. A witness
  who succeeds (1 success) keeps track, as the seed says (data ``witness_keeps_track =
  "success"``; the option ``"match"`` needs the hider's total). When the hiding roll fails
  nobody loses track and the witnesses roll nothing.
- Mounted: the control roll is Dexterity + Ride (every Trinity roll is Attribute + Ability;
  Ride alone is always below the Control Rating that calls for the roll, so with difficulty
  = successes needed it could never succeed). The capped Abilities are Brawl, Martial Arts, Melee, Firearms, Archery, Thrown,
  Athletics and Heavy Weapons; Control Ratings are 0 to 10; Horse 2, Warhorse 4, African
  Elephant 4 (large). When both sides are mounted no mounted modifier applies (the source
  speaks only of opponents on foot); the reach rule of a large mount still does.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass, replace
from typing import TYPE_CHECKING, Any

from rules.data import RulesDataError, load_system_data, require, require_choice
from rules.dice import Roller
from rules.lines import Line
from rules.systems.aeon.dice import AeonRoll, Harm, pool_roll, roll_aeon, successes
from rules.systems.base import Combatant, CombatError, Pool, modifier_parts, trait_pool

if TYPE_CHECKING:
    from rules.systems.aeon.system import AeonSystem

CONTROL_CHOICES = ("hold", "crush", "break")
BREAK_CHOICES = ("release", "ground", "prone", "throw")
TIE_RULES = ("target", "attacker")
WITNESS_RULES = ("match", "success")


# ================================================================================ results
@dataclass(frozen=True)
class ContestRoll:
    """One participant's roll: ``name``, the ``pool`` rolled, the ``roll`` (its difficulty =
    the successes it needs) and a ``label`` saying what the roll is for (``"control"``,
    ``"stealth"``, ``"awareness"`` …)."""

    name: str
    pool: Pool
    roll: AeonRoll
    label: str = ""

    def describe(self) -> Line:
        """``"Alice control: Dexterity 3 + Brawl 2 = 5 dice TN 7, needs 1: 9 7 3 2 1 ->
        2 successes = success"`` as a line of working (one key for each roll's purpose)."""
        values = {"name": self.name, "roll": pool_roll(self.pool, self.roll)}
        label = self.label
        return Line("aeon.line.control_roll" if label == "control" else "aeon.line.stealth_roll" if label == "stealth"
                    else "aeon.line.awareness_roll" if label == "awareness" else "aeon.line.hiding_roll"
                    if label == "hiding" else "aeon.line.knockdown_roll" if label == "knockdown"
                    else "aeon.line.ride_roll" if label == "ride" else "aeon.line.contest_roll", values)


@dataclass(frozen=True)
class ControlContest:
    """The contest for control of a clinch this turn (seed: Grappling). ``rolls``: the rolls
    made (a decliner rolls nothing); ``controller``: who controls, None for nobody (a tie, or
    no success); ``net``: the controller's successes minus the other's (0 without a
    controller); ``ended``: both declined, so the clinch ends; ``lines``: the working."""

    rolls: tuple[ContestRoll, ...]
    controller: str | None
    net: int
    ended: bool
    lines: tuple[Line, ...]


@dataclass(frozen=True)
class GrappleOutcome:
    """What the controller did with the clinch. ``effects`` are ``(effect, name, detail)``:
    ``("held", victim, controller)``, ``("released", victim, controller)`` (the clinch ends),
    ``("prone", victim, True)``, ``("thrown", victim, yards)``. ``harm``: Crush's damage."""

    effects: tuple[tuple[str, str, Any], ...]
    harm: tuple[Harm, ...]
    lines: tuple[Line, ...]


@dataclass(frozen=True)
class SurpriseResult:
    """``attacker_wins``: the target may not parry, dodge or otherwise defend, except with
    supernatural defenses that work against unanticipated attacks (seed: Surprise Attacks).
    ``rolls``: the attacker's, then the target's."""

    attacker_wins: bool
    rolls: tuple[ContestRoll, ...]
    lines: tuple[Line, ...]


@dataclass(frozen=True)
class HideResult:
    """``hidden``: the hiding roll succeeded. ``lost_by``: the witnesses who lost track of the
    hider (it may surprise them again); ``kept_by``: those who kept track. ``rolls``: the
    hider's roll, then each witness's that rolled."""

    hidden: bool
    lost_by: tuple[str, ...]
    kept_by: tuple[str, ...]
    lines: tuple[Line, ...]
    rolls: tuple[ContestRoll, ...] = ()


@dataclass(frozen=True)
class Mount:
    """A mount from ``[mounts.<key>]``: its ``name``, Control Rating ``control`` and ``size``
    (a ``[mounted.sizes]`` key: ``"individual"`` or ``"large"``)."""

    key: str
    name: str
    control: int
    size: str

    def to_record(self) -> dict[str, Any]:
        return {"key": self.key, "name": self.name, "control": self.control, "size": self.size}

    @classmethod
    def from_record(cls, record: Mapping[str, Any]) -> Mount:
        return cls(key=str(record["key"]), name=str(record["name"]), control=int(record["control"]),
                   size=str(record["size"]))


# ================================================================================ tactics
class AeonTactics:
    """Grappling, surprise, hiding and mounted combat on top of an :class:`AeonSystem`.

    ``data`` is the parsed ``aeon.toml`` (read from ``rules/data`` when None). Raises
    RulesDataError when a tactics table is missing or malformed: a missing value, a trait
    that is not among ``[traits]``, an unknown choice, a mount of unknown size or a Control
    Rating out of range.
    """

    def __init__(self, system: AeonSystem, data: Mapping[str, Any] | None = None) -> None:
        self.system = system
        data = data if data is not None else load_system_data(system.key)
        grappling = require(data, "grappling", dict, "aeon")
        self.control_abilities = self._traits(grappling, "abilities", "grappling")
        self.control_attributes = self._traits(grappling, "attributes", "grappling")
        self.crush_trait = self._trait(grappling, "crush_trait", "grappling")
        self.throw_trait = self._trait(grappling, "throw_trait", "grappling")
        self.knockdown_traits = self._traits(grappling, "knockdown", "grappling")
        self.knockdown_difficulty = self._count(grappling, "knockdown_difficulty", "grappling", 1)

        surprise = require(data, "surprise", dict, "aeon")
        self.attacker_traits = self._traits(surprise, "attacker", "surprise")
        self.target_traits = self._traits(surprise, "target", "surprise")
        span = require(surprise, "target_dice", list, "surprise")
        if len(span) != 2 or not all(type(n) is int for n in span) or span[0] > span[1]:
            raise RulesDataError(f"surprise.target_dice: expected [lowest, highest], got {span!r}.")
        self.target_dice_range: tuple[int, int] = (span[0], span[1])
        self.plain_sight_difficulty = self._count(surprise, "plain_sight_difficulty", "surprise", 0)
        self.ties = require_choice(require(surprise, "ties", str, "surprise"), TIE_RULES, "surprise.ties")

        hiding = require(data, "hiding", dict, "aeon")
        self.hide_traits = self._traits(hiding, "traits", "hiding")
        self.witness_traits = self._traits(hiding, "witnesses", "hiding")
        self.witness_difficulty = self._count(hiding, "witness_difficulty", "hiding", 0)
        self.obscured_successes = self._count(hiding, "obscured_successes", "hiding", 0)
        self.witness_rule = require_choice(require(hiding, "witness_keeps_track", str, "hiding"),
                                           WITNESS_RULES, "hiding.witness_keeps_track")

        mounted = require(data, "mounted", dict, "aeon")
        self.ride_trait = self._trait(mounted, "ride_trait", "mounted")
        self.control_roll_traits = self._traits(mounted, "control_roll", "mounted")
        self.capped = self._traits(mounted, "capped", "mounted")
        self.max_control = self._count(mounted, "max_control", "mounted", 0)
        self.sizes: dict[str, dict[str, Any]] = {}
        for size, table in require(mounted, "sizes", dict, "mounted").items():
            where = f"mounted.sizes.{size}"
            if not isinstance(table, Mapping):
                raise RulesDataError(f"{where}: expected a table, got {table!r}.")
            self.sizes[size] = {"difficulty": self._count(table, "difficulty", where, 0),
                                "auto_successes": self._count(table, "auto_successes", where, 0),
                                "needs_reach": require(table, "needs_reach", bool, where)}
        if not self.sizes:
            raise RulesDataError("mounted.sizes: at least one size is needed.")
        self.mounts: dict[str, Mount] = {
            key: self._mount(key, table) for key, table in require(data, "mounts", dict, "aeon").items()}

    # --------------------------------------------------------------------- data checks
    def _trait(self, table: Mapping[str, Any], key: str, where: str) -> str:
        name = require(table, key, str, where)
        if name not in self.system.trait_names:
            raise RulesDataError(f"{where}.{key}: {name!r} is not among the [traits].")
        return name

    def _traits(self, table: Mapping[str, Any], key: str, where: str) -> tuple[str, ...]:
        names = require(table, key, list, where)
        if not names:
            raise RulesDataError(f"{where}.{key}: name at least one trait.")
        for name in names:
            if name not in self.system.trait_names:
                raise RulesDataError(f"{where}.{key}: {name!r} is not among the [traits].")
        return tuple(names)

    @staticmethod
    def _count(table: Mapping[str, Any], key: str, where: str, lowest: int) -> int:
        value = require(table, key, int, where)
        if value < lowest:
            raise RulesDataError(f"{where}.{key}: expected {lowest} or more, got {value!r}.")
        return value

    def _mount(self, key: str, table: Any) -> Mount:
        where = f"mounts.{key}"
        if not isinstance(table, Mapping):
            raise RulesDataError(f"{where}: expected a table, got {table!r}.")
        control = require(table, "control", int, where)
        if not 0 <= control <= self.max_control:
            raise RulesDataError(f"{where}.control: expected 0 to {self.max_control}, got {control!r}.")
        size = require_choice(require(table, "size", str, where), tuple(self.sizes), f"{where}.size")
        return Mount(key=key, name=require(table, "name", str, where), control=control, size=size)

    # ---------------------------------------------------------------------- helpers
    def _roll(self, actor: Combatant, label: str, parts: tuple[tuple[str, int], ...],
              difficulty: int, roller: Roller) -> ContestRoll:
        """``parts`` + the wound penalty, rolled at the system's TN needing ``difficulty``."""
        pool = self.system.action_pool(actor, parts, label)
        roll = roll_aeon(pool.size, roller, target_number=self.system.target_number,
                         difficulty=difficulty)
        return ContestRoll(actor.name, pool, roll, label)

    def _unable(self, actor: Combatant) -> str:
        """Why ``actor`` cannot act ("knocked out"/"dead"), or "" when it can."""
        health = self.system.health(actor.health, actor)
        if not health.incapacitated:
            return ""
        return "dead" if health.dead else "knocked out"

    @staticmethod
    def _best(actor: Combatant, names: Sequence[str]) -> tuple[str, int]:
        """The highest-rated of ``names``; a tie takes the first listed."""
        best = max(names, key=lambda name: (actor.trait(name), -names.index(name)))
        return best, actor.trait(best)

    # =================================================================== grappling
    def control_pool(self, actor: Combatant, dice_modifier: int = 0) -> Pool:
        """The control roll's pool (seed: Grappling): the higher of Dexterity / Strength
        (cross-matched) + the higher of Brawl / Martial Arts (ties: the first listed in
        ``[grappling]``) + ``dice_modifier`` + the wound penalty. E.g. ``Dexterity 3 + Brawl
        2 = 5``."""
        return self.system.action_pool(actor, (self._best(actor, self.control_attributes),
                                               self._best(actor, self.control_abilities))
                                       + modifier_parts(dice_modifier), "control roll")

    def contest(self, first: Combatant, second: Combatant, roller: Roller, *,
                first_declines: bool = False, second_declines: bool = False,
                first_dice: int = 0, second_dice: int = 0) -> ControlContest:
        """One turn's contest for control of a clinch (seed: Grappling): each participant who
        does not decline rolls its :meth:`control_pool` at TN 7. More successes controls, by
        the difference (``net``); a tie, or no success at all, controls nothing. A decliner
        rolls nothing: the other controls with ``net`` = its successes, if it has any. Both
        decline: the clinch ends (``ended``). A knocked-out or dead participant counts as
        declining (Fray default). ``first_dice``/``second_dice``: the ST's dice modifiers.
        Never raises."""
        lines: list[Line] = []
        rolls: list[ContestRoll] = []
        scores: list[tuple[str, int]] = []
        declined: list[str] = []
        for actor, declines, extra in ((first, first_declines, first_dice), (second, second_declines, second_dice)):
            unable = self._unable(actor)
            if unable:
                lines.append(Line("aeon.line.dead_no_contest" if unable == "dead" else "aeon.line.out_no_contest",
                                  {"name": actor.name}))
                declined.append(actor.name)
                scores.append((actor.name, 0))
            elif declines:
                lines.append(Line("aeon.line.declines", {"name": actor.name}))
                declined.append(actor.name)
                scores.append((actor.name, 0))
            else:
                pool = self.control_pool(actor, extra)
                roll = roll_aeon(pool.size, roller, target_number=self.system.target_number,
                                 difficulty=self.system.default_difficulty)
                rolls.append(ContestRoll(actor.name, pool, roll, "control"))
                lines.append(rolls[-1].describe())
                scores.append((actor.name, roll.successes))
        made = tuple(rolls)
        if len(declined) == 2:
            lines.append(Line("aeon.line.clinch_ends"))
            return ControlContest((), None, 0, True, tuple(lines))
        ranked = sorted(scores, key=lambda item: -item[1])
        (leader, best), (_, worst) = ranked
        if best == 0:
            lines.append(Line("aeon.line.no_control"))
            return ControlContest(made, None, 0, False, tuple(lines))
        if best == worst:
            lines.append(Line("aeon.line.control_tie", {"successes": successes(best)}))
            return ControlContest(made, None, 0, False, tuple(lines))
        net = best - worst
        lines.append(Line("aeon.line.controls_by_one" if net == 1 else "aeon.line.controls_by",
                          {"name": leader, "net": net, "best": best, "worst": worst}))
        return ControlContest(made, leader, net, False, tuple(lines))

    def accepted_clinch(self, attacker: Combatant, defender: Combatant, roller: Roller,
                        defender_dice: int = 0) -> ControlContest:
        """The defender accepted the clinch instead of dodging or parrying (seed: Grappling),
        so both roll to contest control of the first turn (:meth:`contest`, no decline).
        Without acceptance the attacker simply controls the first turn: no call needed.

        Raises:
            CombatError: either one is knocked out or dead ("Bob is knocked out and cannot
            act."). Whether the defender could defend at all (not surprised) is the caller's.
        """
        self.system.require_able(attacker)
        self.system.require_able(defender)
        result = self.contest(attacker, defender, roller, second_dice=defender_dice)
        head = Line("aeon.line.accepts", {"defender": defender.name, "attacker": attacker.name})
        return replace(result, lines=(head,) + result.lines)

    def control(self, choice: str, controller: Combatant, victim: Combatant, net: int,
                roller: Roller, *, throw: str = "") -> GrappleOutcome:
        """The controller's option this turn (seed: Grappling). ``choice`` is ``hold``,
        ``crush`` or ``break`` (a prefix will do); ``net``: the control roll's net successes.

        - hold: the victim is pinned, unhurt — ``("held", victim, controller)``.
        - crush: bashing damage, gross = Strength + ``net``, with Armor Piercing by ``net``
          (soak and hardness reduced) through ``AeonSystem.harm``; the clinch goes on, no pin.
        - break: ends the clinch — ``("released", victim, controller)`` — and per ``throw``:
          ``""``/``"release"`` nothing more; ``"ground"``/``"prone"`` → ``("prone", victim,
          True)``; ``"throw"`` → ``("thrown", victim, Strength yards)`` and a knockdown check
          (Fray default: Dexterity + Athletics, 1 success), failing → ``("prone", victim, True)``.

        Raises:
            CombatError: an unknown choice or way to break, ``throw`` without ``break``, a
            negative ``net``, or a controller who is knocked out or dead.
        """
        self.system.require_able(controller)
        kind = pick_choice(choice, CONTROL_CHOICES, Line("aeon.refusal.choose_control"))
        if net < 0:
            raise CombatError(Line("aeon.refusal.net_successes_cannot_negative"))
        if throw.strip() and kind != "break":
            raise CombatError(Line("aeon.refusal.only_breaking_hold_can"))
        held = (("held", victim.name, controller.name),)
        if kind == "hold":
            return GrappleOutcome(held, (), (Line("aeon.line.pins", {"controller": controller.name,
                                                                    "victim": victim.name}),))
        if kind == "crush":
            gross = Pool(((self.crush_trait, controller.trait(self.crush_trait)), (Line("aeon.value.part_net_successes"), net)))
            lines = [Line("aeon.line.crushes", {"controller": controller.name, "victim": victim.name,
                                                "gross": gross.line(), "net": net})]
            harm, more = self.system.harm(victim, gross.size, "bashing", roller, armor_piercing=net)
            return GrappleOutcome((), (harm,), tuple(lines + more))
        how = pick_choice(throw or "release", BREAK_CHOICES, Line("aeon.refusal.break_how"))
        released = ("released", victim.name, controller.name)
        if how == "release":
            return GrappleOutcome((released,), (), (Line("aeon.line.releases", {"controller": controller.name,
                                                                               "victim": victim.name}),))
        if how in ("ground", "prone"):
            return GrappleOutcome((released, ("prone", victim.name, True)), (),
                                  (Line("aeon.line.hurls", {"controller": controller.name, "victim": victim.name}),))
        yards = max(0, controller.trait(self.throw_trait))
        lines = [Line("aeon.line.throws_yard" if yards == 1 else "aeon.line.throws_yards",
                      {"controller": controller.name, "victim": victim.name, "yards": yards,
                       "trait": self.throw_trait})]
        check = self._roll(victim, "knockdown", trait_pool(victim, self.knockdown_traits).parts,
                           self.knockdown_difficulty, roller)
        lines.append(check.describe())
        effects = [released, ("thrown", victim.name, yards)]
        if check.roll.succeeded:
            lines.append(Line("aeon.line.keeps_feet", {"name": victim.name}))
        else:
            lines.append(Line("aeon.line.knocked_down", {"name": victim.name}))
            effects.append(("prone", victim.name, True))
        return GrappleOutcome(tuple(effects), (), tuple(lines))

    # ====================================================================== surprise
    def surprise(self, attacker: Combatant, target: Combatant, roller: Roller, *,
                 target_dice: int = 0, plain_sight: bool = False,
                 attacker_dice: int = 0) -> SurpriseResult:
        """A surprise attack's contest (seed: Surprise Attacks): the attacker's Dexterity +
        Stealth (+ ``attacker_dice``: invisibility, camouflage …) against the target's Wits +
        Awareness (+ ``target_dice``, its preparedness: -2 to +1), wound penalties included.
        ``plain_sight``: +2 difficulty for the attacker — it needs 2 more successes and 2 are
        taken off its successes for the comparison. The attacker wins on more successes; a
        tie goes to the target (data ``ties``).

        Raises:
            CombatError: ``target_dice`` outside the data's range, or an attacker who is
            knocked out or dead.
        """
        self.system.require_able(attacker)
        low, high = self.target_dice_range
        if not low <= target_dice <= high:
            raise CombatError(Line("aeon.refusal.target_preparedness_dice_not", {"low": format(low, '+d'), "high": format(high, '+d'), "target_dice": format(target_dice, '+d')}))
        extra = self.plain_sight_difficulty if plain_sight else 0
        base = self.system.default_difficulty
        sneak = self._roll(attacker, "stealth", trait_pool(attacker, self.attacker_traits).parts
                           + modifier_parts(attacker_dice), base + extra, roller)
        watch = self._roll(target, "awareness", trait_pool(target, self.target_traits).parts
                           + modifier_parts(target_dice), base, roller)
        lines = [sneak.describe(), watch.describe()]
        attack = sneak.roll.successes - extra
        if extra:
            lines.append(Line("aeon.line.plain_sight", {"extra": extra, "successes": successes(sneak.roll.successes),
                                                        "count": max(0, attack)}))
        guard = watch.roll.successes
        score = {"attacker": attacker.name, "target": target.name, "ambush": max(0, attack), "watch": guard}
        if attack >= base and (attack > guard or (attack == guard and self.ties == "attacker")):
            lines.append(Line("aeon.line.ambush_wins", score))
            return SurpriseResult(True, (sneak, watch), tuple(lines))
        lines.append(Line("aeon.line.target_wins_tie" if attack == guard else "aeon.line.target_wins", score))
        return SurpriseResult(False, (sneak, watch), tuple(lines))

    def hide(self, hider: Combatant, witnesses: Sequence[Combatant], roller: Roller, *,
             obscured: bool = False, dice_modifier: int = 0) -> HideResult:
        """Hiding mid-combat to surprise again (seed: Surprise Attacks): the hider's Dexterity
        + Stealth, needing 1 success, +2 difficulty (3) when there are ``witnesses``, with 2
        automatic successes when ``obscured`` (already invisible). On success each witness
        rolls Wits + Awareness: "those who succeed keep track" (1 success; data
        ``witness_keeps_track = "success"``; the option ``"match"``: at least the hider's
        total), else it loses track. A failed hiding roll hides nothing: every
        witness keeps track and none rolls. ``dice_modifier``: the ST's dice on the hider.

        Raises:
            CombatError: the hider is knocked out or dead.
        """
        self.system.require_able(hider)
        names = tuple(witness.name for witness in witnesses)
        difficulty = self.system.default_difficulty + (self.witness_difficulty if witnesses else 0)
        sneak = self._roll(hider, "hiding", trait_pool(hider, self.hide_traits).parts + modifier_parts(dice_modifier),
                           difficulty, roller)
        lines = [sneak.describe()]
        total = sneak.roll.successes
        if obscured and self.obscured_successes:
            lines.append(Line("aeon.line.obscured", {"successes": successes(total), "automatic": self.obscured_successes,
                                                     "total": successes(total + self.obscured_successes)}))
            total += self.obscured_successes
        if total < difficulty:
            lines.append(Line("aeon.line.fails_to_hide", {"name": hider.name, "successes": successes(total),
                                                          "needed": difficulty}))
            return HideResult(False, (), names, tuple(lines), (sneak,))
        lines.append(Line("aeon.line.hides", {"name": hider.name, "successes": successes(total), "needed": difficulty}))
        need = total if self.witness_rule == "match" else self.system.default_difficulty
        rolls = [sneak]
        lost: list[str] = []
        kept: list[str] = []
        for witness in witnesses:
            watch = self._roll(witness, "awareness", trait_pool(witness, self.witness_traits).parts,
                               need, roller)
            rolls.append(watch)
            lines.append(watch.describe())
            (kept if watch.roll.succeeded else lost).append(witness.name)
        if kept:
            lines.append(Line("aeon.line.still_tracking", {"name": hider.name, "names": ", ".join(kept)}))
        if lost:
            lines.append(Line("aeon.line.lost_track", {"name": hider.name, "names": ", ".join(lost)}))
        return HideResult(True, tuple(lost), tuple(kept), tuple(lines), tuple(rolls))

    # ======================================================================= mounted
    def mount(self, name: str, control: int | None = None) -> Mount:
        """The mount named by ``name``: a ``[mounts]`` key or name, case-insensitively,
        exactly or by unique prefix (spaces count as hyphens); ``control`` overrides its
        Control Rating (0 to 10).

        Raises:
            CombatError: no such mount (listing the keys), an ambiguous prefix, or a
            ``control`` out of range.
        """
        wanted = "-".join(name.casefold().split())
        if not wanted:
            raise CombatError(Line("aeon.refusal.name_mount", {"mounts": ', '.join(self.mounts)}))
        aliases = {key: {key.casefold(), "-".join(m.name.casefold().split())} for key, m in self.mounts.items()}
        found = [key for key, names in aliases.items() if wanted in names]
        if not found:
            found = [key for key, names in aliases.items() if any(n.startswith(wanted) for n in names)]
        if not found:
            raise CombatError(Line("aeon.refusal.no_mount_choose_from", {"name": name.strip()[:30], "mounts": ', '.join(self.mounts)}))
        if len(found) > 1:
            raise CombatError(Line("refusal.could", {"name": name.strip()[:30], "shown": ', '.join(found)}))
        chosen = self.mounts[found[0]]
        if control is None:
            return chosen
        if not 0 <= control <= self.max_control:
            raise CombatError(Line("aeon.refusal.control_rating_not", {"max_control": self.max_control, "control": control}))
        return replace(chosen, control=control)

    def mounted_traits(self, rider: Combatant) -> Combatant:
        """A copy of ``rider`` with each offensive and defensive Ability (data ``capped``)
        limited to its Ride rating (seed: Mounted Combat — Melee 4 and Ride 3 fight as
        Melee 3). Other traits are unchanged."""
        ride = rider.trait(self.ride_trait)
        traits = {name: (min(int(value), ride) if name in self.capped else value)
                  for name, value in rider.traits.items()}
        return replace(rider, traits=traits)

    def needs_control_roll(self, rider: Combatant, mount: Mount) -> bool:
        """Whether the mount's Control Rating exceeds the rider's Ride (seed: Mounted Combat)."""
        return mount.control > rider.trait(self.ride_trait)

    def control_roll(self, rider: Combatant, mount: Mount, roller: Roller) -> tuple[bool, tuple[Line, ...]]:
        """This turn's Ride roll to control ``mount`` (seed: Mounted Combat): Dexterity + Ride
        (data ``control_roll``; Fray default) + the wound penalty at TN 7, difficulty = the
        Control Rating; returns (kept control, lines). No roll — and (True, …) — when Ride is
        at least the Control Rating. False: loss of control.

        Raises:
            CombatError: the rider is knocked out or dead.
        """
        self.system.require_able(rider)
        ride = rider.trait(self.ride_trait)
        if not self.needs_control_roll(rider, mount):
            return True, (Line("aeon.line.masters", {"name": rider.name, "trait": self.ride_trait, "ride": ride,
                                                      "mount": mount.name, "control": mount.control}),)
        check = self._roll(rider, "ride", trait_pool(rider, self.control_roll_traits).parts,
                           mount.control, roller)
        if check.roll.succeeded:
            return True, (check.describe(), Line("aeon.line.keeps_control", {"name": rider.name, "mount": mount.name}))
        return False, (check.describe(), Line("aeon.line.loses_control", {"name": rider.name, "mount": mount.name}))

    def mounted_modifiers(self, attacker_mount: Mount | None, target_mount: Mount | None, *,
                          ranged: bool, weapon_reach: bool) -> tuple[int, int, tuple[Line, ...]]:
        """(extra difficulty, automatic successes, notes) for one attack (seed: Mounted
        Combat). Ranged attacks: none. Hand-to-hand by an attacker on foot against a rider:
        +1 difficulty (+2 on a large mount). By a rider against a target on foot: +1
        automatic success (+2 on a large mount). Both mounted: none.

        Raises:
            CombatError: a hand-to-hand attack to or from a rider of a large mount without a
            reach weapon.
        """
        if ranged:
            if attacker_mount or target_mount:
                return 0, 0, (Line("aeon.line.ranged_unmounted"),)
            return 0, 0, ()
        for mount in (attacker_mount, target_mount):
            if mount and self.sizes[mount.size]["needs_reach"] and not weapon_reach:
                raise CombatError(Line("aeon.refusal.hand_hand_attacks_from", {"mount": mount.name}))
        if attacker_mount and target_mount:
            return 0, 0, (Line("aeon.line.both_mounted"),)
        if target_mount:
            extra = self.sizes[target_mount.size]["difficulty"]
            return extra, 0, (Line("aeon.line.target_mounted", {"mount": target_mount.name, "extra": extra}),)
        if attacker_mount:
            auto = self.sizes[attacker_mount.size]["auto_successes"]
            return 0, auto, (Line("aeon.line.attacker_mounted_one" if auto == 1 else "aeon.line.attacker_mounted",
                                  {"mount": attacker_mount.name, "count": auto}),)
        return 0, 0, ()


def pick_choice(word: str, choices: Sequence[str], refusal: Line) -> str:
    """The one of ``choices`` that ``word`` names (a prefix will do). Raises CombatError
    (``refusal``)."""
    wanted = word.strip().casefold()
    found = [choice for choice in choices if wanted and choice.startswith(wanted)]
    if len(found) != 1:
        raise CombatError(refusal)
    return found[0]
