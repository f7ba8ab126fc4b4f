"""Magical items on a character's sheet (the elethril seed, 3b): staff give and take them
with ``+item``, ``+items`` lists them; in a fight ``use`` discharges one
(``rules.systems.elethril.actions``: the items are the fighter's gear, a charge spent as it
goes off). And ``+spells`` under elethril: its spell table."""

from __future__ import annotations

from evennia.utils.dbserialize import deserialize

from rules.systems import CombatError, get_system
from rules.systems.elethril.actions import describe_item as describe
from rules.systems.elethril.actions import item_words
from rules.text import quote
from world.text import escape, table

KEY = "elethril"
ITEM_USAGE = "Usage: +item <name>=<type>/<spell>[=<charges>] (e.g. wand/fireball=5)"


def items_of(obj) -> list[dict]:
    """``obj``'s magical items as staff set them (``+item``), in the order given."""
    return [dict(item) for item in deserialize(getattr(obj, "magic_items", None) or [])]


def describe_item(item: dict) -> str:
    """``"#2 wand of Fireball (3 charges)"``."""
    return describe(item, get_system(KEY))


def give_item(target, spec: str, charges_text: str | None) -> dict:
    """Staff ``+item <name>=<type>/<spell>[=<charges>]``: a magical item on ``target``'s sheet
    (charges 0 to the type's ``max_charges``; 1 when not given). Returns the item. Raises
    CombatError."""
    system = get_system(KEY)
    kind_text, slash, spell_text = spec.partition("/")
    if not slash or not kind_text.strip() or not spell_text.strip():
        raise CombatError(ITEM_USAGE)
    kind, spell = system.item_type(kind_text), system.spell(spell_text)
    most = system.item_charges[kind]
    charges = 1
    if charges_text is not None:
        raw = charges_text.strip()
        if not raw.isascii() or not raw.isdigit() or len(raw.lstrip("0")) > 3 or int(raw) > most:
            raise CombatError(f"A {system.items[kind][0]} holds 0 to {most} charges, not '{quote(raw)}'.")
        charges = int(raw)
    items = items_of(target)
    number = max([int(target.magic_item_serial or 0), *(int(i["id"]) for i in items)]) + 1
    item = {"id": number, "type": kind, "spell": spell.key, "charges": charges}
    target.magic_items = [*items, item]
    target.magic_item_serial = number   # a removed item's number is never given again
    return item


def remove_item(target, number: int) -> dict:
    """Staff ``+item/remove <name>=<#>``: take item ``number`` off ``target``'s sheet.
    Returns it. Raises CombatError."""
    items = items_of(target)
    found = next((item for item in items if item["id"] == number), None)
    if found is None:
        raise CombatError(f"{target.key} has no magical item #{number}.")
    target.magic_items = [item for item in items if item["id"] != number]
    return found


def render_items(target, own: bool) -> str:
    """The 78-column list of ``target``'s magical items (``+items``)."""
    items = items_of(target)
    if not items:
        return ("You have no magical items (staff give them with +item)." if own
                else f"{escape(target.key)} has no magical items.")
    system = get_system(KEY)
    rows = []
    for item in items:
        spell = system.spells.get(item["spell"])
        effect = ("?" if spell is None else f"{spell.damage} damage" if spell.damage
                  else f"heals {spell.heal}" if spell.heal else "ST narrates")
        modifier = system.items.get(item["type"], ("", None))[1]
        rows.append((str(item["id"]), item_words(item, system), str(item["charges"]),
                     "?" if modifier is None else f"{modifier:+d}", effect))
    head = "Your magical items" if own else f"{escape(target.key)}'s magical items"
    shown = table(("#", "Item", "Charges", "Init", "Effect"), (6, 34, 9, 6), rows)
    return (f"|w{head}|n\n{shown}\nIn an elethril fight: use <item>[=<target>], a discharge at your "
            "initiative\n+ the item's Init modifier; each use spends a charge.")


def render_spells(system) -> str:
    """``+spells`` under elethril: casting time in segments, instant spells, effect dice."""
    rows = []
    for spell in system.spells.values():
        casting = "instant" if spell.instant else f"{spell.casting_time} segment{'s' if spell.casting_time > 1 else ''}"
        effect = f"{spell.damage} damage" if spell.damage else f"heals {spell.heal}" if spell.heal else "ST narrates"
        rows.append((spell.key, spell.name, str(spell.level), casting, effect))
    shown = table(("Spell", "Name", "Level", "Casting", "Effect"), (20, 20, 7, 13), rows)
    return (f"{shown}\nCasting begins at your initiative segment; the spell takes effect at the start\n"
            "of the segment after its casting time (instant: in its own segment, before\n"
            "missiles and melee). A hit while casting spoils it.")
