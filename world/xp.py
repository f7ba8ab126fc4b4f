"""Experience: staff award it, players spend it on an approved sheet, staff undo a spend.

Every award, spend and refund is a row of ``fray_xpentry`` (``world.models.XpEntry``); a
character's balance is the sum of their rows' amounts. The costs are the system's chargen
table's (``rules.chargen``: ``xp`` per group; eldritch's advanced maneuver 5). Each function
checks everything before it writes and raises ``CombatError`` with one line.
"""

from __future__ import annotations

from django.db import transaction
from django.db.models import Sum

from rules.chargen import ChargenError
from rules.systems import CombatError, RuleSystem, get_system
from world import chargen, sheets
from world.access import STAFF, require_perm
from world.armor import notify, staff_reason, when
from world.models import XpEntry
from world.text import columns, escape, free_text

XP = "|y<XP>|n"
MAX_AWARD = 1000
MAX_REASON = 200


def balance(character) -> int:
    return XpEntry.objects.filter(character=character).aggregate(total=Sum("amount"))["total"] or 0


def award(staff, character, amount_text: str, reason: str) -> XpEntry:
    """Staff award ``amount_text`` XP (1 to 1000) to ``character`` for ``reason``; the player is told."""
    require_perm(staff, STAFF, "award experience")
    if sheets.is_npc(character):
        raise CombatError(f"{character.key} is an NPC; experience is for player characters.")
    amount = sheets.parse_rating(amount_text, "The award", 1, MAX_AWARD)
    reason = staff_reason(reason, "+xp/award <name>=<n>/<reason>", MAX_REASON)
    entry = XpEntry.objects.create(character=character, character_name=character.key, kind=XpEntry.AWARD,
                                   amount=amount, reason=reason, by=staff.key, at=chargen.now())
    if character != staff:
        notify(character, f"{XP} {escape(staff.key)} awards you {amount} XP: {free_text(reason)} "
                          f"(balance {balance(character)}).")
    return entry


def spend(character, system: RuleSystem, trait_text: str, rating_text: str | None) -> XpEntry:
    """Raise ``character``'s trait (or buy a maneuver) on their approved sheet of ``system``
    to ``rating_text`` (default one dot more) at the system's XP cost."""
    if not chargen.is_approved(character, system):
        raise CombatError(f"Your {system.key} sheet is not approved yet: build it with +chargen and +chargen/submit.")
    trait = chargen.match_field(system, trait_text)
    if trait in chargen.FIELDS or trait == "transformed":
        raise CombatError(f"{trait.replace('_', ' ').capitalize()} is not bought with experience.")
    old = int(sheets.traits_of(character, system).get(trait, 0))
    new = old + 1 if rating_text is None or not rating_text.strip() else chargen.parse_rating(trait, rating_text)
    rules = chargen.rules_for(system)
    try:
        cost = rules.xp_cost(trait, old, new, system.trait_range(trait)[1])
    except ChargenError as error:   # the rules' line, worded by the catalogue
        raise CombatError(error.line if error.line is not None else str(error)) from None
    have = balance(character)
    if cost > have:
        raise CombatError(f"{trait} {new} costs {cost} XP; you have {have}.")
    with transaction.atomic():
        entry = XpEntry.objects.create(character=character, character_name=character.key, kind=XpEntry.SPEND,
                                       amount=-cost, system_key=system.key, trait=trait, old=old, new=new,
                                       by=character.key, at=chargen.now())
        sheets.add_traits(character, system, **{trait: new})
    return entry


def undo(staff, character, number_text: str) -> XpEntry:
    """Staff undo spend entry ``number_text`` of ``character``: the trait back to its old
    rating (if it still has the rating bought), the XP refunded as an entry of its own."""
    require_perm(staff, STAFF, "undo experience spends")
    number = sheets.parse_rating(number_text, "The entry number", 1, 10**9, mark="#")
    entry = XpEntry.objects.filter(id=number, character=character).first()
    if entry is None:
        raise CombatError(f"{character.key} has no XP entry #{number}.")
    if entry.kind != XpEntry.SPEND:
        raise CombatError(f"Entry #{number} is an {entry.kind}, not a spend.")
    if entry.undone_by:
        raise CombatError(f"Entry #{number} was undone already by {entry.undone_by}.")
    system = get_system(entry.system_key)
    now_rating = int(sheets.traits_of(character, system).get(entry.trait, 0))
    if now_rating != entry.new:
        raise CombatError(f"{character.key}'s {entry.trait} is {now_rating} now, not the {entry.new} bought; "
                          "set it with +stat.")
    with transaction.atomic():
        if not XpEntry.objects.filter(id=number, undone_by="").update(undone_by=staff.key, undone_at=chargen.now()):
            raise CombatError(f"Entry #{number} was undone already.")
        XpEntry.objects.create(character=character, character_name=character.key, kind=XpEntry.UNDO,
                               amount=-entry.amount, system_key=entry.system_key, trait=entry.trait,
                               old=entry.new, new=entry.old, reason=f"undo of #{number}", by=staff.key,
                               at=chargen.now())
        traits = sheets.traits_of(character, system)
        if entry.old:
            traits[entry.trait] = entry.old
        else:
            traits.pop(entry.trait, None)
        sheets.update_sheet(character, system, traits=traits)
    notify(character, f"{XP} {escape(staff.key)} undid your spend #{number}: {escape(entry.trait)} is {entry.old} "
                      f"again and {-entry.amount} XP is back (balance {balance(character)}).")
    entry.refresh_from_db()
    return entry


def render_log(target) -> str:
    rows = list(XpEntry.objects.filter(character=target).order_by("id"))
    if not rows:
        return f"{XP} {escape(target.key)} has no experience entries."
    body = columns(("#", "When", "XP", "What"), (6, 20, 7), [
        (str(row.id), when(row.at.isoformat()), f"{row.amount:+d}",
         f"award by {row.by}: {row.reason}" if row.kind == XpEntry.AWARD else
         f"{row.system_key} {row.trait} {row.old} -> {row.new}" + (f" (undone by {row.undone_by})" if row.undone_by else "")
         if row.kind == XpEntry.SPEND else f"refund by {row.by}: {row.reason}")
        for row in rows])
    return f"|w{escape(target.key)}'s experience|n\n{body}\nBalance: {balance(target)} XP"
