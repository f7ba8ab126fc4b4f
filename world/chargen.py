"""Character generation and approval: players build their own sheets, staff approve them.

The rules are pure (``rules.chargen``, one table per system in ``rules/data/chargen/``); this
module holds them to a character: the chargen sheet is the character's own sheet of that system
(``world.sheets``), written as the player sets each trait, with what chargen needs beside it in
the ``chargen`` Attribute (category ``fray``: ``{system key: {"scores", "faces", "class",
"roll"}}`` for a system whose scores are rolled). Submissions are rows of ``fray_sheetreview``
(``world.models.SheetReview``): a character's sheet of a system is approved while its latest
review is. Rolls of scores and staff edits of an approved sheet are rows of ``fray_sheetlog``.

The commands (``commands/chargen.py``) and the Django admin (``world/admin.py``) call these
functions; each checks everything before it writes, and raises ``CombatError`` with one line
for the player, so a refusal changes nothing.
"""

from __future__ import annotations

import secrets
from datetime import datetime, timezone

from django.conf import settings
from evennia.utils.dbserialize import deserialize

from rules import chargen as rules_chargen
from rules.chargen import ROLLED, ChargenError, ChargenRules
from rules.dice import TraitError, match_trait
from rules.dice.seeded import SeededRoller, commitment
from rules.systems import CombatError, RuleSystem, get_system, system_keys
from rules.text import quote
from world import fights, sheets
from world.access import STAFF, has_perm, require_perm
from world.armor import notify, staff_reason, when
from world.models import SheetLog, SheetReview, XpEntry
from world.text import columns, escape, fit, free_text
from world.wording import line_text

CHARGEN = "|c<Chargen>|n"
SUBMITTED, APPROVED, UNAPPROVED, WITHDRAWN = SheetReview.STATUSES
NEW = "new"
MAX_COMMENT = 200
#: Fields a player may set in chargen besides traits (``class`` only where scores are rolled).
FIELDS = ("kind", "base_kind", "weapon", "class")
STATUS_WORDS = {NEW: "in progress", SUBMITTED: "submitted, waiting for staff", APPROVED: "approved",
                UNAPPROVED: "sent back by staff", WITHDRAWN: "in progress (withdrawn)"}


def now() -> datetime:
    return datetime.now(timezone.utc)


def rules_for(system: RuleSystem) -> ChargenRules:
    """``system``'s chargen rules (``rules/data/chargen/<key>.toml``)."""
    return rules_chargen.load(system.key, system.trait_names)


def _refuse(error: ChargenError) -> CombatError:
    """The rules' refusal as the game's: its line kept (worded by the catalogue)."""
    return CombatError(error.line if error.line is not None else str(error))


# --- approval state ----------------------------------------------------------------------------

def latest(character, system: RuleSystem) -> SheetReview | None:
    """The latest review of ``character``'s sheet of ``system`` (None: never submitted)."""
    return SheetReview.objects.filter(character=character, system_key=system.key).order_by("-id").first()


def status(character, system: RuleSystem) -> str:
    """``new``, ``submitted``, ``approved``, ``unapproved`` or ``withdrawn``."""
    row = latest(character, system)
    return row.status if row is not None else NEW


def is_approved(character, system: RuleSystem) -> bool:
    return status(character, system) == APPROVED


def unapproved_may_join() -> bool:
    """The game setting ``FRAY_UNAPPROVED_MAY_JOIN`` (default False: only the fight's
    Storyteller brings an unapproved character in, with ``+combat/add``)."""
    return bool(getattr(settings, "FRAY_UNAPPROVED_MAY_JOIN", False))


def require_may_join(character, system: RuleSystem) -> None:
    """Raises CombatError when ``character`` may not ``+combat/join`` a fight of ``system``
    on their own: their sheet of it is not approved and the game does not allow that."""
    if sheets.is_npc(character) or unapproved_may_join() or is_approved(character, system):
        return
    raise CombatError(f"Your {system.key} sheet is not approved yet, so you cannot join on your own: "
                      f"the fight's Storyteller can add you (+combat/add), or +chargen/submit it for approval.")


def require_editable(character, system: RuleSystem) -> None:
    state = status(character, system)
    if state == APPROVED:
        raise CombatError(f"Your {system.key} sheet is approved: raise traits with +xp/spend, or ask staff.")
    if state == SUBMITTED:
        raise CombatError(f"Your {system.key} sheet is waiting for staff: +chargen/withdraw it to change it.")


# --- the chargen sheet -------------------------------------------------------------------------

def record_of(character, system: RuleSystem) -> dict:
    """What chargen keeps beside ``character``'s sheet of ``system`` (rolled scores, class)."""
    stored = deserialize(character.attributes.get("chargen", category="fray") or {})
    return dict(stored.get(system.key) or {})


def _save_record(character, system: RuleSystem, record: dict) -> None:
    stored = dict(deserialize(character.attributes.get("chargen", category="fray") or {}))
    stored[system.key] = record
    character.attributes.add("chargen", stored, category="fray")


def traits_in_chargen(character, system: RuleSystem) -> dict[str, int]:
    """The sheet as chargen counts it: every chargen trait at its base, then the sheet's."""
    rules = rules_for(system)
    return {**rules.start(), **sheets.traits_of(character, system)}


def _store_traits(character, system: RuleSystem, traits: dict[str, int]) -> None:
    """Write ``traits`` to the sheet, leaving out the zeros nobody set."""
    sheet = sheets.traits_of(character, system)
    kept = {trait: int(rating) for trait, rating in traits.items() if rating or trait in sheet}
    sheets.update_sheet(character, system, traits=kept)


def parse_rating(trait: str, text: str) -> int:
    """A whole number from player text (ASCII digits, an optional minus), the rules then
    judge its range. Raises CombatError."""
    raw = text.strip()
    digits = raw[1:] if raw.startswith("-") else raw
    if not raw:
        raise CombatError(f"Give {trait} a rating: +chargen/set {trait}=<rating>.")
    if not digits.isascii() or not digits.isdigit():
        raise CombatError(f"{trait}'s rating must be a whole number, not '{quote(raw)}'.")
    if len(digits.lstrip("0")) > 4:
        raise CombatError(f"{trait} {quote(raw)[:12]} is out of range.")
    return int(raw)


def match_field(system: RuleSystem, text: str) -> str:
    """The trait (canonical name) or field ``text`` names on ``system``'s sheet. Raises
    CombatError for another system's trait or an unknown one."""
    wanted = "_".join(text.strip().casefold().split())
    wanted = "base_kind" if wanted in ("base", "base-kind") else wanted
    if wanted in FIELDS or wanted == "transformed":
        return wanted
    if not wanted:
        raise CombatError("Name a trait: +chargen/set <trait>=<rating>.")
    try:
        return match_trait(text.strip(), system.trait_names)
    except TraitError as error:
        raise CombatError(f"On the {system.key} sheet: {error}") from None


def set_value(character, system: RuleSystem, field: str, value: str) -> str:
    """``+chargen/set <trait>=<rating>`` (or ``kind``, ``base kind``, ``weapon``, ``class``):
    one change within the chargen rules of ``system``. Returns the line saying it. Raises
    CombatError (nothing changed)."""
    require_editable(character, system)
    rules = rules_for(system)
    name = match_field(system, field)
    if name == "transformed":
        raise CombatError("Transformed is changed in play, not in character generation.")
    if name == "class":
        return _set_class(character, system, rules, value)
    if name in ("kind", "base_kind", "weapon"):
        return _set_field(character, system, rules, name, value)
    rating = parse_rating(name, value)
    try:
        traits = rules.set_trait(traits_in_chargen(character, system), name, rating)
    except ChargenError as error:
        raise _refuse(error) from None
    _store_traits(character, system, traits)
    return f"{system.key.capitalize()} chargen: your {name} is now {rating}. {left_line(rules, traits)}"


def spent_text(pool) -> str:
    """What a pool has spent: ``"5 of 7 spent, 2 left"``; past its size the rest is the
    freebies': ``"7 of 7 spent, 4 more from freebies"``."""
    if pool.left < 0:
        return f"{pool.size} of {pool.size} spent, {-pool.left} more from freebies"
    return f"{pool.spent} of {pool.size} spent, {pool.left} left"


def left_line(rules: ChargenRules, traits: dict[str, int]) -> str:
    """``Left: Physical 2, Talents 13, freebies 15.``"""
    tally = rules.tally(traits)
    parts = [f"{pool.name} {pool.left}" for pool in tally.pools if pool.left > 0]
    if rules.freebies:
        parts.append(f"freebies {tally.freebies_left}")
    return f"Left: {', '.join(parts)}." if parts else "Every point is spent."


def _set_field(character, system: RuleSystem, rules: ChargenRules, name: str, value: str) -> str:
    if name == "weapon" and not rules.weapon:
        raise CombatError(f"The weapon in hand is set in play under the {system.key} rules.")
    if name in ("kind", "base_kind") and not rules.kinds:
        raise CombatError(f"The {system.key} rules have no kinds to choose.")
    scratch = sheets.scratch_copy(character)
    line = sheets.set_stat(scratch, name, value, system)   # the system's own names and errors
    chosen = scratch.sheets[system.key]
    if name == "kind" and chosen.get("kind") not in rules.kinds:
        raise CombatError(f"Kind ({system.key}) at creation must be one of: {', '.join(rules.kinds)}.")
    sheets.update_sheet(character, system, **{key: value for key, value in chosen.items() if key != "traits"})
    return line


def _set_class(character, system: RuleSystem, rules: ChargenRules, value: str) -> str:
    if rules.method != ROLLED:
        raise CombatError(f"The {system.key} rules have no classes.")
    record = record_of(character, system)
    if not record.get("scores"):
        raise CombatError("Roll your ability scores first: +chargen/roll.")
    try:
        klass = rules.require_class(value)
        traits = rules.derive(record["scores"], klass)
    except ChargenError as error:
        raise _refuse(error) from None
    sheets.update_sheet(character, system, traits={**sheets.traits_of(character, system), **traits})
    _save_record(character, system, {**record, "class": klass.name})
    shown = ", ".join(f"{trait} {rating}" for trait, rating in traits.items())
    return f"{system.key.capitalize()} chargen: you are a {klass.name}: {shown}."


def roll(character, system: RuleSystem) -> str:
    """``+chargen/roll``: the ability scores of a rolled system, once, with verifiable dice: a
    new secret seed; its SHA-256, the seed and every face are logged (``SheetLog``)."""
    require_editable(character, system)
    rules = rules_for(system)
    if rules.method != ROLLED:
        raise CombatError(f"The {system.key} rules buy traits with points; nothing is rolled.")
    record = record_of(character, system)
    if record.get("scores"):
        raise CombatError("Your scores are rolled already; staff may change them.")
    seed = secrets.token_bytes(32)
    roller = SeededRoller(seed)
    rolled = rules.roll_scores(roller)
    entry = SheetLog.objects.create(
        character=character, character_name=character.key, system_key=system.key, kind=SheetLog.ROLL,
        by=character.key, at=now(), what=f"{rules.dice}d{rules.sides} in order",
        data={"seed": seed.hex(), "commitment": commitment(seed), "dice": [d.to_record() for d in roller.draws],
              "scores": dict(rolled.scores)})
    _save_record(character, system, {**record, "scores": dict(rolled.scores),
                                     "faces": {k: list(v) for k, v in rolled.faces.items()}, "roll": entry.id})
    return (f"{system.key.capitalize()} chargen: you roll {rules.dice}d{rules.sides} for each score, in order: "
            f"{scores_text(rolled.scores, rolled.faces)}. Logged as roll #{entry.id} "
            f"(seed SHA-256 {entry.data['commitment'][:16]}...). Now +chargen/set class=<class>.")


def scores_text(scores, faces) -> str:
    return ", ".join(f"{score} {total} ({'+'.join(str(f) for f in faces.get(score, ()))})"
                     for score, total in scores.items())


# --- submission and approval -------------------------------------------------------------------

def problems(character, system: RuleSystem) -> list[str]:
    """What ``character``'s sheet of ``system`` lacks before it may be submitted, one line of
    plain text each (the catalogue's words: ``chargen.line``)."""
    rules = rules_for(system)
    return [line_text(line, plain=True)
            for line in rules.problems(traits_in_chargen(character, system), record_of(character, system))]


def submit(character, system: RuleSystem) -> SheetReview:
    """``+chargen/submit``: the sheet of ``system`` into the review queue, if the chargen
    rules find it complete."""
    require_editable(character, system)
    missing = problems(character, system)
    if missing:
        more = f" ({len(missing) - 1} more: +chargen)" if len(missing) > 1 else ""
        raise CombatError(f"Your {system.key} sheet is not ready to submit: {missing[0]}{more}")
    rules = rules_for(system)
    if rules.method != ROLLED:
        _store_traits(character, system, traits_in_chargen(character, system))
    row = SheetReview.objects.create(
        character=character, character_name=character.key, system_key=system.key, status=SUBMITTED,
        sheet={"sheet": sheets.sheet_of(character, system), "chargen": record_of(character, system)},
        submitted_at=now())
    line = (f"{CHARGEN} {escape(character.key)} submits their {system.key} sheet for approval (#{row.id}): "
            f"+chargen/queue, +approve {escape(character.key)}")
    fights.afterwards(lambda: tell_staff(line, character))
    return row


def tell_staff(line: str, but=None) -> None:
    """``line`` to every connected staff member's character (Builder and above) but ``but``."""
    from evennia.server.sessionhandler import SESSION_HANDLER

    told = set()
    for session in SESSION_HANDLER.get_sessions():
        puppet = session.get_puppet()
        if puppet is not None and puppet != but and puppet.id not in told and has_perm(puppet, STAFF):
            told.add(puppet.id)
            puppet.msg(line)


def withdraw(character, system: RuleSystem) -> SheetReview:
    row = latest(character, system)
    if row is None or row.status != SUBMITTED:
        raise CombatError(f"Your {system.key} sheet is not waiting for staff.")
    SheetReview.objects.filter(id=row.id, status=SUBMITTED).update(status=WITHDRAWN, handled_by=character.key,
                                                                   handled_at=now())
    row.refresh_from_db()
    return row


def queue() -> list[SheetReview]:
    """Every sheet waiting for staff, oldest first."""
    return list(SheetReview.objects.filter(status=SUBMITTED).order_by("id"))


def review_of(character, system: RuleSystem | None, statuses: tuple[str, ...], doing: str) -> SheetReview:
    """``character``'s latest review in one of ``statuses`` (of ``system``, or the only one).
    Raises CombatError."""
    every = [row for row in (latest(character, get_system(key)) for key in system_keys()
                             if system is None or key == system.key) if row is not None]
    rows = [row for row in every if row.status in statuses]
    if not rows:
        decided = [row for row in every if row.status == APPROVED]
        if decided and doing == "approve":   # another staffer was first
            raise CombatError(_handled(decided[0]))
        what = f"{system.key} sheet" if system else "sheet"
        raise CombatError(f"{character.key} has no {what} to {doing}.")
    if len(rows) > 1:
        raise CombatError(f"{character.key} has sheets of {', '.join(r.system_key for r in rows)}: "
                          f"name one, e.g. /{rows[0].system_key}.")
    return rows[0]


def approve(staff, review_id: int, comment: str = "") -> SheetReview:
    """Approve review ``review_id`` (it must still be waiting), and tell the player. Two staff
    at once: the first UPDATE wins; the second is told who approved it."""
    require_perm(staff, STAFF, "approve sheets")
    comment = comment.strip()
    if len(comment) > MAX_COMMENT:
        raise CombatError(f"Keep the comment to {MAX_COMMENT} characters.")
    changed = SheetReview.objects.filter(id=review_id, status=SUBMITTED).update(
        status=APPROVED, handled_by=staff.key, handled_at=now(), comment=comment)
    row = SheetReview.objects.filter(id=review_id).first()
    if row is None:
        raise CombatError(f"No sheet #{review_id} in the queue.")
    if not changed:
        raise CombatError(_handled(row))
    notify(row.character, f"{CHARGEN} Your {row.system_key} sheet is approved by {escape(staff.key)}."
                          + (f" Comment: {free_text(comment)}" if comment else "")
                          + " It is locked now: raise it with +xp/spend.")
    return row


def unapprove(staff, review_id: int, reason: str) -> SheetReview:
    """Send back review ``review_id`` (waiting or approved) with ``reason``: the player may
    change the sheet again and submit it anew. Tells the player."""
    require_perm(staff, STAFF, "unapprove sheets")
    reason = staff_reason(reason, "+unapprove <name>=<reason>")
    row = SheetReview.objects.filter(id=review_id).first()
    if row is None:
        raise CombatError(f"No sheet #{review_id}.")
    if row.character is not None and latest(row.character, get_system(row.system_key)).id != row.id:
        raise CombatError(f"Sheet #{review_id} is not {row.character_name}'s latest.")
    bought = XpEntry.objects.filter(character=row.character, system_key=row.system_key, kind=XpEntry.SPEND,
                                    undone_by="").values_list("id", flat=True) if row.character else []
    if bought:   # chargen would count the bought dots as its own and the experience would be lost
        numbers = ", ".join(f"#{number}" for number in bought)
        raise CombatError(f"{row.character_name}'s {row.system_key} sheet has experience spent on it ({numbers}): "
                          f"undo the spends first (+xp/undo {row.character_name}=<#>), or change it with +stat.")
    changed = SheetReview.objects.filter(id=review_id, status__in=(SUBMITTED, APPROVED)).update(
        status=UNAPPROVED, handled_by=staff.key, handled_at=now(), comment=reason)
    row.refresh_from_db()
    if not changed:
        raise CombatError(_handled(row))
    notify(row.character, f"{CHARGEN} Your {row.system_key} sheet is sent back by {escape(staff.key)}: "
                          f"{free_text(reason)} Change it with +chargen/set and +chargen/submit it again.")
    return row


def _handled(row: SheetReview) -> str:
    return (f"{row.character_name}'s {row.system_key} sheet (#{row.id}) is {row.status} already"
            + (f", by {row.handled_by} at {when(row.handled_at.isoformat())}." if row.handled_by else "."))


# --- staff edits of an approved sheet ----------------------------------------------------------

def staff_edits(staff, target, system: RuleSystem, before: dict, after: dict) -> list[SheetLog]:
    """Log what staff changed on ``target``'s approved sheet of ``system`` (``before`` and
    ``after``: ``world.sheets.sheet_of``), one row per trait or field: who, when, old -> new.
    Nothing is logged for an unapproved sheet (it is still chargen) or an NPC."""
    if sheets.is_npc(target) or not is_approved(target, system):
        return []
    rows = []
    stamp = now()
    old_traits, new_traits = before.get("traits", {}), after.get("traits", {})
    changes = [(trait, old_traits.get(trait), new_traits.get(trait))
               for trait in dict.fromkeys([*old_traits, *new_traits]) if old_traits.get(trait) != new_traits.get(trait)]
    changes += [(field, before.get(field), after.get(field)) for field in sheets.FIELDS
                if before.get(field) != after.get(field)]
    for what, old, new in changes:
        rows.append(SheetLog(character=target, character_name=target.key, system_key=system.key, kind=SheetLog.EDIT,
                             by=staff.key, at=stamp, what=str(what)[:80],
                             old="" if old is None else str(old)[:80], new="" if new is None else str(new)[:80]))
    SheetLog.objects.bulk_create(rows)
    return rows


def history(target, system: RuleSystem | None = None, limit: int = 20) -> list[SheetLog]:
    rows = SheetLog.objects.filter(character=target)
    if system is not None:
        rows = rows.filter(system_key=system.key)
    return list(rows.order_by("-id")[:limit])[::-1]


# --- views -------------------------------------------------------------------------------------

def render(character, system: RuleSystem) -> str:
    """``+chargen``: the chargen sheet of ``system``, what is spent and left, what is next."""
    rules = rules_for(system)
    state = status(character, system)
    sheet = sheets.sheet_of(character, system)
    lines = [fit(f"{character.key}: {system.key} character generation ({STATUS_WORDS[state]})")]
    if rules.method == ROLLED:
        lines += _render_rolled(character, system, rules)
    else:
        traits = traits_in_chargen(character, system)
        tally = rules.tally(traits)
        for group in rules.groups:
            highest = group.maximum
            names = group.categories or {group.name: group.traits}
            for name, traits_of in names.items():
                pool = tally.pool(name)
                head = f"{name}: {spent_text(pool)}" if pool else \
                    (f"{group.name}: from the {group.pool} points" if group.pool else f"{group.name}: freebies")
                if name == next(iter(names)):
                    head += f" ({group.minimum} to {highest}"
                    if group.costs:
                        head += "; a level's cost varies: help +chargen"
                    elif group.cost != 1:
                        head += f"; {group.cost} points each"
                    if pool is None and not group.pool:
                        head += f"; {group.freebie_cost} a dot" + "".join(
                            f", {trait} {cost}" for trait, cost in group.freebie_costs.items())
                    elif group.freebie_cost:
                        head += f"; past the points, {group.freebie_cost} freebies a dot"
                    head += ")"
                lines.append(fit(head))
                cells = [f"{trait} {traits.get(trait, group.base)}" for trait in traits_of]
                per_row = 3
                rows = [cells[i:i + per_row] for i in range(0, len(cells), per_row)]
                lines.append(columns(None, (26, 26), [row + [""] * (per_row - len(row)) for row in rows]))
        if rules.freebies:
            lines.append(fit(f"Freebies: {tally.freebies_spent} of {tally.freebies} spent, {tally.freebies_left} left"))
        if rules.locked:
            lines.append(fit(f"Set by staff: {', '.join(rules.locked)}"))
    extras = []
    if rules.kinds:
        extras.append(f"Kind: {sheets.shown_kind(system, sheet.get('kind'))} (choose from {', '.join(rules.kinds)})")
    if rules.weapon:
        weapon = sheet.get("weapon")
        extras.append(f"Weapon: {sheets.weapon_name(system, weapon) if weapon else 'none'}")
    lines += [fit(line) for line in extras]
    if state in (NEW, WITHDRAWN, UNAPPROVED):
        if state == UNAPPROVED:
            row = latest(character, system)
            lines.append(fit(f"Sent back by {row.handled_by}: {row.comment}"))
        missing = problems(character, system)
        lines.append(fit(f"Next: {missing[0]}" + (f" ({len(missing) - 1} more)" if len(missing) > 1 else "")
                         if missing else "Ready: +chargen/submit"))
    elif state == APPROVED:
        row = latest(character, system)
        lines.append(fit(f"Approved by {row.handled_by} on {when(row.handled_at.isoformat())}. "
                         "Raise it with +xp/spend."))
    return "\n".join(lines)


def _render_rolled(character, system: RuleSystem, rules: ChargenRules) -> list[str]:
    record = record_of(character, system)
    if not record.get("scores"):
        return [fit(f"Ability scores: not rolled ({rules.dice}d{rules.sides} each, in order): +chargen/roll"),
                fit(f"Classes: {', '.join(rules.classes)}")]
    lines = [fit(f"Ability scores: {scores_text(record['scores'], record.get('faces', {}))}")]
    entry = SheetLog.objects.filter(id=record.get("roll") or 0).first()
    if entry is not None:
        lines.append(fit(f"Rolled {when(entry.at.isoformat())}, roll #{entry.id}, "
                         f"seed SHA-256 {entry.data.get('commitment', '?')}"))
    lines.append(fit(f"Class: {record.get('class') or 'not chosen'} (choose from {', '.join(rules.classes)})"))
    traits = sheets.traits_of(character, system)
    if record.get("class"):
        lines.append(fit(", ".join(f"{trait} {rating}" for trait, rating in traits.items())))
    return lines


def render_queue(rows: list[SheetReview]) -> str:
    if not rows:
        return f"{CHARGEN} No sheets are waiting for approval."
    table = columns(("#", "Character", "System", "Submitted"), (6, 24, 14),
                    [(str(row.id), row.character_name, row.system_key, when(row.submitted_at.isoformat()))
                     for row in rows])
    return f"|wSheets waiting for approval|n\n{table}\nStaff: +approve <name>[=<comment>], +unapprove <name>=<reason>"


def render_history(target, rows: list[SheetLog]) -> str:
    if not rows:
        return f"{escape(target.key)}'s sheet log is empty."
    body = columns(("#", "When", "By", "What"), (6, 20, 14),
                   [(str(row.id), when(row.at.isoformat()), row.by,
                     f"{row.system_key} {row.what}: {row.old or '-'} -> {row.new or '-'}" if row.kind == SheetLog.EDIT
                     else f"{row.system_key} rolled {row.what}: " + ", ".join(
                         f"{score} {total}" for score, total in (row.data.get("scores") or {}).items()))
                    for row in rows])
    return f"|w{escape(target.key)}'s sheet log|n\n{body}"



def staff_set_stats(staff, target, changes: list[tuple[str, str]], system: RuleSystem) -> list[str]:
    """``world.sheets.set_stats`` by staff (the admin's sheet form), with the changes to an
    approved sheet logged as ``+stat``'s are."""
    before = sheets.sheet_of(target, system)
    lines = sheets.set_stats(target, changes, system)
    staff_edits(staff, target, system, before, sheets.sheet_of(target, system))
    return lines


def page(character, system: RuleSystem) -> dict:
    """The chargen sheet as data for the web page: ``{"system", "status", "status_text",
    "method", "groups": [{"name", "head", "traits": [(trait, rating)]}], "freebies": (spent,
    total, left) or None, "kind", "kinds", "weapon", "weapons", "scores", "class", "classes",
    "problems", "traits" (every trait a player may set), "editable", "comment"}``."""
    rules = rules_for(system)
    state = status(character, system)
    sheet = sheets.sheet_of(character, system)
    data = {"system": system.key, "status": state, "status_text": STATUS_WORDS[state], "method": rules.method,
            "groups": [], "freebies": None, "kinds": list(rules.kinds),
            "kind": sheets.shown_kind(system, sheet.get("kind")) if rules.kinds else "",
            "weapons": sorted(system.weapon_names) if rules.weapon else [], "weapon": sheet.get("weapon") or "",
            "editable": state not in (SUBMITTED, APPROVED), "traits": list(rules.trait_names),
            "problems": problems(character, system) if state not in (SUBMITTED, APPROVED) else [],
            "comment": "", "locked": list(rules.locked)}
    row = latest(character, system)
    if row is not None and row.status in (APPROVED, UNAPPROVED):
        data["comment"] = f"{row.handled_by}: {row.comment}" if row.comment else row.handled_by
    if rules.method == ROLLED:
        record = record_of(character, system)
        data.update(scores=record.get("scores") or {}, faces=record.get("faces") or {},
                    klass=record.get("class") or "", classes=list(rules.classes),
                    sheet_traits=sorted(sheets.traits_of(character, system).items()))
        return data
    traits = traits_in_chargen(character, system)
    tally = rules.tally(traits)
    for group in rules.groups:
        for name, names in (group.categories or {group.name: group.traits}).items():
            pool = tally.pool(name)
            head = spent_text(pool) if pool else \
                (f"from the {group.pool} points" if group.pool else "freebies")
            data["groups"].append({"name": name, "head": f"{head} ({group.minimum} to {group.maximum})",
                                   "traits": [(trait, traits.get(trait, group.base)) for trait in names]})
    if rules.freebies:
        data["freebies"] = (tally.freebies_spent, tally.freebies, tally.freebies_left)
    return data
