"""Armor notes: players request armor, staff approve or deny, approved armor is a note.

Requests are rows of Fray's table ``fray_armorrequest`` (``world.models.ArmorRequest``; the
row's id is the request's number, never reused); the services here hand them out as plain
dicts (``as_dict``). An approved request becomes an armor note appended to the character's
``armor_notes`` Attribute (shape documented on ``typeclasses.characters.Character``). Only
this module writes notes, and only for staff (``approve``, ``revoke``); players can list, wear,
take off and show the notes they were given. Soak reads the worn note through
``world.sheets.worn_armor``. The game's commands and the Django admin (``world/admin.py``)
both go through these functions.

Every function validates everything before it writes anything, and raises ``CombatError``
with one player-facing line. Player text (the armor asked for, the reason) is stored as typed
and escaped whenever it is shown; the reasons and comments are free text whose MUSH codes
(``%r``, ``%ch%cr``) act (``world.text.free_text``), a name is shown as typed.
"""

from __future__ import annotations

from datetime import datetime, timezone

from django.utils import timezone as django_time
from evennia.utils.dbserialize import deserialize
from evennia.utils.utils import inherits_from

from rules.systems import CombatError, RuleSystem, get_system
from rules.text import quote
from world.access import STAFF, has_perm, require_perm
from world.models import ArmorRequest
from world.sheets import default_system
from world.text import escape, free_text, plain, table

CHARACTER_TYPECLASS = "typeclasses.characters.Character"
ARMOR = "|g<Armor>|n"
MAX_SOAK = 10
MAX_ARMOR_TEXT = 40
MAX_WHY = 400
MAX_COMMENT = 200
MAX_OPEN = 5
MAX_NOTICES = 20
MAX_ID_DIGITS = 9
#: Request states; only ``open`` requests can be approved, denied or withdrawn.
OPEN, APPROVED, DENIED, WITHDRAWN, REVOKED = ArmorRequest.STATUSES


# --- storage -------------------------------------------------------------------------------

def _iso(moment: datetime | None) -> str | None:
    return moment.astimezone(timezone.utc).isoformat(timespec="seconds") if moment else None


def _moment(iso: str | None) -> datetime | None:
    """An ISO text (as ``now_iso`` gives) as an aware datetime; None for none or bad text."""
    try:
        moment = datetime.fromisoformat(str(iso)) if iso else None
    except ValueError:
        return None
    return moment.replace(tzinfo=timezone.utc) if moment and moment.tzinfo is None else moment


def as_dict(row: ArmorRequest) -> dict:
    """A request row as the dict the services and commands use: ``{"id", "kind" ("armor"),
    "requester" (the Character, None once deleted), "requester_name", "system", "armor" (the
    armor table key, None for a custom armor), "name", "why", "status", "created_at",
    "handled_by" (None until handled), "handled_at", "comment", "soak" (approved values or
    None), "revoked_by", "revoked_at", "revoke_reason"}``; times are ISO texts (UTC)."""
    return {"id": row.id, "kind": "armor", "requester": row.requester, "requester_name": row.requester_name,
            "system": row.system_key, "armor": row.armor or None, "name": row.name, "why": row.why,
            "status": row.status, "created_at": _iso(row.created_at), "handled_by": row.handled_by or None,
            "handled_at": _iso(row.handled_at), "comment": row.comment, "soak": row.soak,
            "revoked_by": row.revoked_by or None, "revoked_at": _iso(row.revoked_at),
            "revoke_reason": row.revoke_reason}


def all_requests() -> list[dict]:
    """Every request, oldest first, as plain dicts (copies: change rows through ``_update``)."""
    return [as_dict(row) for row in ArmorRequest.objects.select_related("requester")]


def _update(number: int, **fields) -> dict:
    """Write ``fields`` (dict keys of ``as_dict``) to request ``number``; returns it anew."""
    columns = {"handled_at": _moment, "revoked_at": _moment}
    values = {key: columns[key](value) if key in columns else ("" if value is None else value)
              for key, value in fields.items()}
    ArmorRequest.objects.filter(id=number).update(**values)
    return get_request(number)


def now_iso() -> str:
    return datetime.now(timezone.utc).isoformat(timespec="seconds")


def when(iso: str | None) -> str:
    """``2024-05-01T12:00:00+00:00`` → ``2024-05-01 12:00 UTC``."""
    if not iso:
        return "?"
    try:
        moment = datetime.fromisoformat(iso).astimezone(timezone.utc)
    except ValueError:
        return str(iso)
    return moment.strftime("%Y-%m-%d %H:%M UTC")


def parse_number(text: str, what: str = "request") -> int:
    """``3`` or ``#3`` → 3. Raises CombatError for anything else (huge numbers included)."""
    raw = (text or "").strip()
    digits = raw[1:] if raw.startswith("#") else raw
    if not digits.isascii() or not digits.isdigit():
        raise CombatError(f"'{quote(raw)}' is not a {what} number; give a number like 3.")
    if len(digits.lstrip("0")) > MAX_ID_DIGITS or int(digits) == 0:
        raise CombatError(f"No {what} #{quote(digits)}.")
    return int(digits)


# --- notices -------------------------------------------------------------------------------

def is_online(character) -> bool:
    return bool(character.sessions.count())


def notify(character, text: str) -> None:
    """Tell ``character`` now if online, else keep ``text`` (already escaped) for next login."""
    if character is None:
        return
    if is_online(character):
        character.msg(text)
        return
    notices = list(deserialize(character.pending_notices or []))
    notices.append(text)
    character.pending_notices = notices[-MAX_NOTICES:]


def deliver_notices(character) -> None:
    """Show and clear the notices kept while ``character`` was away (from ``at_post_puppet``)."""
    notices = list(deserialize(getattr(character, "pending_notices", None) or []))
    if not notices:
        return
    character.pending_notices = []
    character.msg("\n".join(["While you were away:", *notices]))


# --- requests ------------------------------------------------------------------------------

def match_armor(system: RuleSystem, text: str) -> str | None:
    """The armor table key ``text`` names (key or name, exact or unique prefix), None if none
    (a custom armor). Raises CombatError when it could be several."""
    wanted = "-".join(text.casefold().split())
    table = system.armor_table or {}
    names = {key: "-".join(str(entry.get("name", key)).casefold().split()) for key, entry in table.items()}
    for test in (lambda key: key == wanted or names[key] == wanted,
                 lambda key: key.startswith(wanted) or names[key].startswith(wanted)):
        found = [key for key in table if test(key)]
        if len(found) == 1:
            return found[0]
        if found:
            raise CombatError(f"'{quote(text)}' could be: {', '.join(found)}.")
    return None


def soak_text(soak: dict, system_key: str | None = None) -> str:
    """``{"bashing": 2, "lethal": 2}`` → ``bashing 2, lethal 2`` (in the system's column order)."""
    order: tuple[str, ...] = ()
    try:
        order = get_system(system_key).armor_columns if system_key else ()
    except CombatError:
        pass
    columns = [c for c in order if c in soak] + [c for c in soak if c not in order]
    return ", ".join(f"{column} {soak[column]}" for column in columns) or "no soak"


def file_armor_request(caller, armor_text: str, why: str, system: RuleSystem) -> dict:
    """File ``caller``'s request for ``armor_text`` (a table armor of ``system`` or free text
    for a custom armor) because of ``why``. Returns the new request."""
    armor_text = " ".join(armor_text.split())
    why = why.strip()
    if not armor_text or not why:
        raise CombatError("Usage: +request/armor <armor>=<why>")
    if len(armor_text) > MAX_ARMOR_TEXT:
        raise CombatError(f"Name the armor in at most {MAX_ARMOR_TEXT} characters.")
    if len(why) > MAX_WHY:
        raise CombatError(f"Give your reason in at most {MAX_WHY} characters.")
    mine = ArmorRequest.objects.filter(status=OPEN, requester_id=caller.id).count()
    if mine >= MAX_OPEN:
        raise CombatError(f"You already have {MAX_OPEN} open requests; wait for staff, or "
                          f"+request/withdraw one.")
    key = match_armor(system, armor_text)
    row = ArmorRequest.objects.create(
        requester=caller, requester_name=caller.key, system_key=system.key, armor=key or "",
        name=system.armor_table[key]["name"] if key else armor_text, why=why, status=OPEN,
        created_at=django_time.now().replace(microsecond=0))
    request, number = as_dict(row), row.id
    tell_online_staff(f"{ARMOR} {escape(caller.key)} files armor request #{number} "
                      f"({escape(request['name'])}): +request/view {number}")
    return request


def tell_online_staff(text: str) -> None:
    """Send ``text`` to every connected account with Builder permission or above."""
    from evennia.server.sessionhandler import SESSION_HANDLER

    for account in SESSION_HANDLER.all_connected_accounts():
        if account.locks.check_lockstring(account, "fray:perm(Builder)"):
            account.msg(text)


def get_request(number: int) -> dict:
    row = ArmorRequest.objects.select_related("requester").filter(id=number).first()
    if row is None:
        raise CombatError(f"No request #{number}.")
    return as_dict(row)


def open_requests() -> list[dict]:
    return [as_dict(row) for row in ArmorRequest.objects.select_related("requester").filter(status=OPEN)]


def requests_of(character) -> list[dict]:
    return [as_dict(row) for row in ArmorRequest.objects.select_related("requester").filter(requester_id=character.id)]


def view_request(caller, number: int) -> dict:
    """Request ``number`` if ``caller`` filed it or is staff."""
    request = get_request(number)
    if request.get("requester") != caller and not has_perm(caller, STAFF):
        raise CombatError(f"Request #{number} is not yours; staff see every request.")
    return request


def _require_open(request: dict, done: str) -> None:
    """Refuse unless ``request`` is open (``done``: "approved", "denied", "withdrawn")."""
    number, status, by = request["id"], request["status"], request.get("handled_by") or "?"
    if status == APPROVED:
        raise CombatError(f"Request #{number} is already approved (by {by}, {when(request.get('handled_at'))}).")
    if status == DENIED:
        raise CombatError(f"Request #{number} was denied by {by}; it cannot be {done} now.")
    if status == WITHDRAWN:
        raise CombatError(f"Request #{number} was withdrawn by its requester.")
    if status == REVOKED:
        raise CombatError(f"Request #{number} was approved and later revoked by {request.get('revoked_by') or '?'}.")
    if status != OPEN:
        raise CombatError(f"Request #{number} is {status}.")


def soak_example(system: RuleSystem) -> str:
    """Soak values in ``system``'s own columns for a hint: its first table armor's
    (``bash:1,lethal:2`` in eldritch, ``armor_class:8`` in elethril), else 1 in its first two columns."""
    first = next(iter((system.armor_table or {}).values()), None)
    soak = {column: value for column, value in (first or {}).get("soak", {}).items()
            if column in system.armor_columns and value}
    return ",".join(f"{column}:{value}" for column, value in soak.items()) or \
        ",".join(f"{column}:1" for column in system.armor_columns[:2])


def parse_soak(system: RuleSystem, spec: str) -> dict[str, int]:
    """``bashing:1,lethal:1`` → ``{"bashing": 1, "lethal": 1}`` (columns by unique prefix,
    values 0-10, zeros dropped). Raises CombatError."""
    columns = tuple(system.armor_columns)
    soak: dict[str, int] = {}
    for part in spec.split(","):
        name, colon, value = part.strip().partition(":")
        name, value = name.strip().casefold(), value.strip()
        if not colon or not name:
            raise CombatError(f"Give soak values as <column>:<n> joined by commas (no spaces), "
                              f"e.g. +request/approve <#>={soak_example(system)} <comment>.")
        found = [c for c in columns if c == name] or [c for c in columns if c.startswith(name)]
        if len(found) != 1:
            raise CombatError(f"Unknown armor column '{quote(name)}'. Columns: {', '.join(columns)}.")
        if found[0] in soak:
            raise CombatError(f"Armor column '{found[0]}' is given twice.")
        if not value.isascii() or not value.isdigit() or len(value) > 2 or int(value) > MAX_SOAK:
            raise CombatError(f"Soak values are whole numbers 0-{MAX_SOAK}, not '{quote(value)}' "
                              f"for {found[0]}.")
        soak[found[0]] = int(value)
    soak = {column: value for column, value in soak.items() if value}
    if not soak:
        raise CombatError("Give at least one soak value above 0.")
    return soak


def split_approval(text: str) -> tuple[str, str]:
    """``bashing:1,lethal:1 fine`` → (soak spec, comment); no ``:`` in the first word → ("", text)."""
    text = (text or "").strip()
    first, _, rest = text.partition(" ")
    if ":" in first:
        return first, rest.strip()
    return "", text


def approve(staff, number: int, text: str = "", *, spec: str | None = None,
            comment: str | None = None) -> tuple[dict, dict]:
    """Approve request ``number``: ``text`` is ``[<col>:<n>[,<col>:<n>...]][ <comment>]``
    (the command's words), or the soak ``spec`` and ``comment`` come apart (the admin's form).
    A table armor takes the table's soak values unless explicit ones are given; a custom armor
    needs them. Appends the note to the requester's ``armor_notes`` and tells them.
    Returns (request, note)."""
    require_perm(staff, STAFF, "approve requests")
    request = get_request(number)
    _require_open(request, "approved")
    requester = request.get("requester")
    if requester is None:
        raise CombatError(f"Request #{number}'s character no longer exists; deny it instead.")
    system = get_system(request["system"])
    if spec is None and comment is None:
        spec, comment = split_approval(text)
    spec, comment = (spec or "").strip(), (comment or "").strip()
    if len(comment) > MAX_COMMENT:
        raise CombatError(f"Keep the comment to {MAX_COMMENT} characters.")
    if spec:
        soak = parse_soak(system, spec)
    elif request.get("armor") in (system.armor_table or {}):
        soak = dict(system.armor_table[request["armor"]]["soak"])
    else:
        raise CombatError(f"Request #{number} is for a custom armor: give its soak values, "
                          f"e.g. +request/approve {number}={soak_example(system)} <comment>.")
    stamp = now_iso()
    note = {"id": number, "system": system.key, "armor": request.get("armor"), "name": request["name"],
            "soak": soak, "approved_by": staff.key, "approved_at": stamp, "comment": comment,
            "request": number}
    request = _update(number, status=APPROVED, handled_by=staff.key, handled_at=stamp, comment=comment, soak=soak)
    requester.armor_notes = [*notes_of(requester), note]
    line = f"{ARMOR} Your armor request #{number} is approved by {escape(staff.key)}: {note_line(note)}"
    notify(requester, f"{line}. Wear it with +armor/wear {number}."
                      + (f" Comment: {free_text(comment)}" if comment else ""))
    return request, note


def staff_reason(text: str, usage: str, limit: int = MAX_COMMENT, *, needed: bool = True) -> str:
    """A staff member's reason (a denial, a note revoked, a sheet sent back, an award), as
    typed without the spaces around it. Raises CombatError: none given (when ``needed``), with
    ``usage`` (``Give the reason: <usage>.``), or longer than ``limit`` characters."""
    reason = (text or "").strip()
    if needed and not reason:
        raise CombatError(f"Give the reason: {usage}.")
    if len(reason) > limit:
        raise CombatError(f"Keep the reason to {limit} characters.")
    return reason


def deny(staff, number: int, why: str) -> dict:
    """Deny request ``number`` because of ``why``, and tell the requester."""
    require_perm(staff, STAFF, "deny requests")
    why = staff_reason(why, "+request/deny <#>=<why>")
    request = get_request(number)
    _require_open(request, "denied")
    request = _update(number, status=DENIED, handled_by=staff.key, handled_at=now_iso(), comment=why)
    notify(request.get("requester"), f"{ARMOR} Your armor request #{number} ({escape(request['name'])}) "
                                     f"is denied by {escape(staff.key)}: {free_text(why)}")
    return request


def withdraw(caller, number: int) -> dict:
    """The requester takes back their own open request."""
    request = get_request(number)
    if request.get("requester") != caller:
        raise CombatError(f"Request #{number} is not yours.")
    _require_open(request, "withdrawn")
    request = _update(number, status=WITHDRAWN, handled_by=caller.key, handled_at=now_iso())
    return request


# --- notes ---------------------------------------------------------------------------------

def notes_of(character) -> list[dict]:
    """``character``'s approved armor notes, as plain dicts."""
    return [dict(note) for note in deserialize(getattr(character, "armor_notes", None) or [])]


def worn_note(character) -> dict | None:
    worn = getattr(character, "worn_armor", None)
    return next((note for note in notes_of(character) if note.get("id") == worn), None)


def note_line(note: dict) -> str:
    """``#3 Goblin-made Mail (storyteller: bashing 2, lethal 2)``, escaped."""
    return (f"#{note.get('id')} {escape(note.get('name') or '?')} "
            f"({escape(note.get('system') or '?')}: {soak_text(note.get('soak') or {}, note.get('system'))})")


def find_note(character, text: str, *, own: bool = True) -> dict:
    """``character``'s note by number (``3``/``#3``) or name/armor key (exact or unique prefix)."""
    text = (text or "").strip()
    whose = "You have" if own else f"{character.key} has"
    notes = notes_of(character)
    if text.lstrip("#").isdigit():
        number = parse_number(text, "note")
        found = [note for note in notes if note.get("id") == number]
        if not found:
            raise CombatError(f"{whose} no armor note #{number}.")
        return found[0]
    wanted = "-".join(text.casefold().split())
    if not wanted:
        raise CombatError("Name a note by its number or name.")

    def names(note):
        return ("-".join(str(note.get("name") or "").casefold().split()), str(note.get("armor") or ""))

    found = [note for note in notes if wanted in names(note)] or \
        [note for note in notes if any(name.startswith(wanted) for name in names(note) if name)]
    if len(found) == 1:
        return found[0]
    if found:
        raise CombatError(f"'{quote(text)}' could be: {', '.join('#' + str(n['id']) for n in found)}.")
    raise CombatError(f"{whose} no armor note '{quote(text)}'.")


def wear(character, text: str) -> dict:
    """Wear one of ``character``'s own notes (by number or name)."""
    note = find_note(character, text)
    if getattr(character, "worn_armor", None) == note["id"]:
        raise CombatError(f"You already wear #{note['id']}.")
    character.worn_armor = note["id"]
    return note


def take_off(character) -> dict:
    """Stop wearing armor; returns the note taken off."""
    note = worn_note(character)
    if note is None:
        if getattr(character, "worn_armor", None) is not None:
            character.worn_armor = None
        raise CombatError("You wear no armor.")
    character.worn_armor = None
    return note


def find_here(caller, name: str):
    """Another character in ``caller``'s room by name (exact or unique prefix)."""
    name = name.strip()
    if not name:
        raise CombatError("Name someone here.")
    others = [obj for obj in (caller.location.contents if caller.location else []) if obj != caller]
    found = [obj for obj in caller.search(name, quiet=True, candidates=others) or []
             if inherits_from(obj, CHARACTER_TYPECLASS)]
    if len(found) == 1:
        return found[0]
    if found:
        raise CombatError(f"'{quote(name)}' could be: {', '.join(obj.key for obj in found)}.")
    if name.casefold() in (caller.key.casefold(), "me", "self"):
        raise CombatError("Show it to someone else; +armor lists your own notes.")
    raise CombatError(f"No one called '{quote(name)}' here.")


def show(caller, target_name: str, note_text: str = "") -> tuple[object, dict]:
    """Show one of ``caller``'s notes (named, else the worn one, else the only one) to someone
    in the room. Returns (target, note)."""
    target = find_here(caller, target_name)
    if note_text.strip():
        note = find_note(caller, note_text)
    else:
        notes = notes_of(caller)
        note = worn_note(caller) or (notes[0] if len(notes) == 1 else None)
        if note is None:
            raise CombatError("You have no armor notes." if not notes else
                              "Wear a note or name one: +armor/show <player>=<note>.")
    worn = " (worn)" if getattr(caller, "worn_armor", None) == note["id"] else ""
    lines = [f"{ARMOR} {escape(caller.key)} shows you an approved armor note{worn}:",
             f"  {note_line(note)}",
             f"  Approved by {escape(note.get('approved_by') or '?')} on {when(note.get('approved_at'))}"
             + (f": {free_text(note['comment'])}" if note.get("comment") else ".")]
    target.msg("\n".join(lines))
    return target, note


def _numbered_note(target, number: int) -> tuple[list[dict], dict]:
    """(all of ``target``'s notes, note ``number`` among them). Raises CombatError."""
    notes = notes_of(target)
    note = next((n for n in notes if n.get("id") == number), None)
    if note is None:
        raise CombatError(f"{target.key} has no armor note #{number}.")
    return notes, note


def revoke(staff, target, number: int, why: str = "") -> dict:
    """Staff take note ``number`` away from ``target`` (off their back if worn) and tell them."""
    require_perm(staff, STAFF, "revoke armor notes")
    why = staff_reason(why, "", needed=False)
    notes, note = _numbered_note(target, number)
    stamp = now_iso()
    ArmorRequest.objects.filter(id=note.get("request") or 0, status=APPROVED).update(
        status=REVOKED, revoked_by=staff.key, revoked_at=_moment(stamp), revoke_reason=why)
    target.armor_notes = [n for n in notes if n.get("id") != number]
    if getattr(target, "worn_armor", None) == number:
        target.worn_armor = None
    if target != staff:
        notify(target, f"{ARMOR} {escape(staff.key)} revoked your armor note {note_line(note)}"
                       + (f": {free_text(why)}" if why else "."))
    return note


def edit_note(staff, target, number: int, name: str, spec: str) -> dict:
    """Staff change the name and soak (``<col>:<n>[,<col>:<n>...]``, as ``+request/approve``
    takes them, for the note's system) of ``target``'s note ``number``, and tell them.
    Returns the note as changed. Raises CombatError (nothing changed)."""
    require_perm(staff, STAFF, "change armor notes")
    name = " ".join((name or "").split())
    if not name:
        raise CombatError("Give the armor a name.")
    if len(name) > MAX_ARMOR_TEXT:
        raise CombatError(f"Name the armor in at most {MAX_ARMOR_TEXT} characters.")
    notes, note = _numbered_note(target, number)
    soak = parse_soak(get_system(note.get("system")), spec or "")
    if (name, soak) == (note.get("name"), note.get("soak")):
        return note
    before = note_line(note)
    note.update(name=name, soak=soak)
    target.armor_notes = notes
    notify(target, f"{ARMOR} {escape(staff.key)} changed your armor note {before} to {note_line(note)}.")
    return note


def view_notes(caller, target) -> list[dict]:
    if target != caller:
        require_perm(caller, STAFF, "see other characters' armor notes")
    return notes_of(target)


# --- rendering -----------------------------------------------------------------------------

def _cut(text: str, width: int) -> str:
    text = " ".join(str(text).split())
    return escape(text if len(text) <= width else text[: width - 3] + "...")


def render_notes(target, own: bool) -> str:
    """The 78-column list of ``target``'s notes (``*`` marks the worn one)."""
    notes = notes_of(target)
    if not notes:
        return ("You have no armor notes. Ask staff with +request/armor <armor>=<why>." if own
                else f"{escape(target.key)} has no armor notes.")
    worn = getattr(target, "worn_armor", None)
    default = default_system().key
    rows = []
    for note in notes:
        mark = "*" if note.get("id") == worn else " "
        system_key = note.get("system")
        soak = soak_text(note.get("soak") or {}, system_key)
        if system_key != default:
            soak += f" [{escape(system_key or '?')}]"
        rows.append((f"{mark}{note.get('id')}", _cut(note.get("name") or "?", 20), soak,
                     f"{_cut(note.get('approved_by') or '?', 8)} {(note.get('approved_at') or '?')[:10]}"))
    head = "Your armor notes" if own else f"{escape(target.key)}'s armor notes"
    foot = "* worn" if worn is not None and any(n.get("id") == worn for n in notes) else "Nothing worn."
    return f"|w{head}|n\n{table(('#', 'Armor', 'Soak', 'Approved'), (7, 22, 29), rows)}\n{foot}"


def render_requests(requests: list[dict], title: str) -> str:
    """A 78-column table of ``requests``."""
    if not requests:
        return f"{title}: none."
    rows = []
    for req in requests:
        name = req["name"] + ("" if req.get("armor") else " (custom)")
        rows.append((str(req["id"]), _cut(req.get("requester_name") or "?", 12), _cut(name, 18),
                     req["status"], _cut(plain(req.get("why") or ""), 26)))
    return f"|w{title}|n\n{table(('#', 'From', 'Armor', 'Status', 'Why'), (6, 14, 20, 11), rows)}"


def render_request(request: dict) -> str:
    """Everything about one request."""
    number, system_key = request["id"], request.get("system")
    if request.get("armor"):
        armor = f"{escape(request['name'])} ({request['armor']})"
        try:
            entry = get_system(system_key).armor_table.get(request["armor"])
        except CombatError:
            entry = None
        if entry:
            armor += f": {soak_text(entry['soak'], system_key)}"
    else:
        armor = f"{escape(request['name'])} (custom: staff give its soak values)"
    who = escape(request.get("requester_name") or "?")
    if request.get("requester") is None:
        who += " (deleted)"
    lines = [f"|wRequest #{number}|n  armor, {request['status']}",
             f"  From: {who}   Filed: {when(request.get('created_at'))}   System: {escape(system_key or '?')}",
             f"  Armor: {armor}",
             f"  Why: {free_text(request.get('why') or '')}"]
    status = request["status"]
    if status in (APPROVED, REVOKED):
        lines.append(f"  Approved by {escape(request.get('handled_by') or '?')} on {when(request.get('handled_at'))}: "
                     f"{soak_text(request.get('soak') or {}, system_key)}"
                     + (f". {free_text(request['comment'])}" if request.get("comment") else ""))
    if status == REVOKED:
        lines.append(f"  Revoked by {escape(request.get('revoked_by') or '?')} on "
                     f"{when(request.get('revoked_at'))}" + (f": {free_text(request['revoke_reason'])}"
                                                          if request.get("revoke_reason") else ""))
    if status == DENIED:
        lines.append(f"  Denied by {escape(request.get('handled_by') or '?')} on {when(request.get('handled_at'))}: "
                     f"{free_text(request.get('comment') or '')}")
    if status == WITHDRAWN:
        lines.append(f"  Withdrawn on {when(request.get('handled_at'))}.")
    if status == OPEN:
        if request.get("armor"):
            lines.append(f"  Staff: +request/approve {number}[=<comment>] or +request/deny {number}=<why>")
        else:
            lines.append(f"  Staff: +request/approve {number}=<col>:<n>[,<col>:<n>...][ <comment>]")
            try:
                example = soak_example(get_system(system_key))
            except CombatError:   # a system gone from the game: its columns are unknown
                example = "<col>:<n>"
            lines.append(f"         e.g. +request/approve {number}={example} fine;"
                         f" or +request/deny {number}=<why>")
    return "\n".join(lines)
