"""Upgrading a game: a player character whose sheet of a rule system already has traits (set
by staff with +stat before character generation existed) is approved as it is, by
"migration", so it keeps joining fights. NPCs (tagged ``npc``) and the NPC templates (data
files) are untouched; a sheet without traits is left to character generation."""

import json

from django.db import migrations
from django.utils import timezone

CHARACTER_TYPECLASSES = "typeclasses.characters."


def plain(value):
    """A stored sheet as JSON: Evennia's saved dicts and lists as plain ones."""
    return json.loads(json.dumps(value, default=lambda thing: dict(thing) if hasattr(thing, "items") else
                                 list(thing) if hasattr(thing, "__iter__") else str(thing)))


def approve_existing(apps, schema_editor=None):
    ObjectDB = apps.get_model("objects", "ObjectDB")
    SheetReview = apps.get_model("fray", "SheetReview")
    stamp = timezone.now()
    rows = []
    for obj in ObjectDB.objects.filter(db_typeclass_path__startswith=CHARACTER_TYPECLASSES):
        if obj.db_tags.filter(db_key="npc", db_category="fray").exists():
            continue
        attribute = obj.db_attributes.filter(db_key="sheets", db_category="fray").first()
        stored = plain(attribute.db_value or {}) if attribute is not None else {}
        for key, sheet in stored.items():
            if not isinstance(sheet, dict) or not sheet.get("traits"):
                continue
            if SheetReview.objects.filter(character_id=obj.id, system_key=key).exists():
                continue
            rows.append(SheetReview(character_id=obj.id, character_name=obj.db_key, system_key=key,
                                    status="approved", sheet={"sheet": sheet, "chargen": {}}, submitted_at=stamp,
                                    handled_by="migration", handled_at=stamp, comment="approved by migration"))
    SheetReview.objects.bulk_create(rows)


class Migration(migrations.Migration):

    dependencies = [
        ("fray", "0007_sheet_review_xp"),
        ("typeclasses", "0017_use_index_instead_of_index_together_in_tags"),
    ]

    operations = [migrations.RunPython(approve_existing, migrations.RunPython.noop)]
