"""What the fight's views show beside each fighter and under the table: a fighter's short
marks and the game master's settings, decided here once for both HUDs (``world.hud``,
``world.segments``), the web tracker and GMCP."""

from __future__ import annotations

from world.access import STAFF, has_perm
from world.wording import line_text


def settings_lines(d) -> list[str]:
    """The game master's settings for the fight, one plain line each (both HUDs fit them)."""
    lines = []
    if d.settings.get("lethal"):
        lines.append(f"Lethal fight (set by {d.settings['lethal']}): player characters die with no decision.")
    if d.settings.get("helpless"):
        lines.append(f"The AI may attack the helpless (set by {d.settings['helpless']}).")
    if d.settings.get("posewait"):
        lines.append(f"The fight waits for every player's pose each round (set by {d.settings['posewait']}).")
    if d.settings.get("timeout"):
        lines.append(f"Defenses wait {d.settings['timeout']} seconds, then resolve with none (+combat/timeout).")
    return lines


def is_game_master(d, viewer) -> bool:
    """Whether ``viewer`` runs the fight ``d`` (a draft or a state: anything with ``gm``): its
    game master, or staff."""
    return viewer is not None and (getattr(viewer, "id", None) == d.gm or has_perm(viewer, STAFF))


def next_line(d, for_game_master: bool) -> list[str]:
    """For the fight's game master (or staff) only: the turn's number to pass it with, so a
    second press never passes a turn they did not see (``world.combat.next_turn``). None
    while nobody has rolled initiative in a system that rolls it by hand: no turn runs yet
    (the view's header says what the fight waits for)."""
    if not for_game_master or (not d.system.declared_rounds and not d.initiative):
        return []
    return [f"Storyteller: +combat/next {d.turn} passes this turn and no later one."]


def status(d, fighter_id: int, unposed=frozenset()) -> list[str]:
    """What both HUDs' Status column says after their own turn marks (``TO ACT``, ``to
    declare`` …): ``idle``, ``no pose`` (for the game master: ``unposed`` ids), then
    :func:`marks`."""
    found = ["idle"] if d.is_idle(fighter_id) else []
    if fighter_id in unposed:
        found.append("no pose")
    return found + marks(d, fighter_id)


def marks(d, fighter_id: int) -> list[str]:
    """A fighter's short HUD marks (plain text): the game's own (dying, a clinch, held, prone, a
    tackle's difficulty, the game master's shifts), then the system's
    (``RuleSystem.condition_marks``). The one place marks are decided (HUD, tracker)."""
    state = d.conditions.get(fighter_id, {})
    found = ["DYING"] if state.get("dying") else []
    if state.get("clinch_with"):
        found.append(f"clinch:{d.name(state['clinch_with']) if d.has(state['clinch_with']) else '?'}")
    if state.get("held_by"):
        found.append("held")
    if state.get("prone"):
        found.append("prone")
    if state.get("hidden_from"):
        found.append("hidden")
    found.extend(line_text(mark, d.system.key, plain=True) for mark in d.system.condition_marks(state))
    if state.get("difficulty"):
        found.append(f"diff+{state['difficulty']}")
    if state.get("adjust"):
        found.append(f"ST{state['adjust']:+d}")
    if state.get("mod"):
        found.append(f"{state['mod']:+d}d")
    if state.get("aim"):
        aim = state["aim"]
        found.append(f"aim:{d.name(aim['target']) if d.has(aim['target']) else '?'}")
    return found
