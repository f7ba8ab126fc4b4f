"""The admin's proxy models over game objects (Fray sheets, NPCs, armor notes): no tables.

Armor requests an earlier Fray kept on the ``fray_requests`` script move to rows at server
start by the Fray of that time, not here: they are pickled Evennia Attributes
holding game objects, which a migration's historical models cannot read back.
"""

from django.db import migrations


class Migration(migrations.Migration):

    dependencies = [
        ("fray", "0004_fight_narration_armor_requests"),
        ("objects", "0013_defaultobject_alter_objectdb_id_defaultcharacter_and_more"),
    ]

    operations = [
        migrations.CreateModel(
            name=name,
            fields=[],
            options={"proxy": True, "verbose_name": verbose, "verbose_name_plural": plural,
                     "indexes": [], "constraints": []},
            bases=("objects.objectdb",),
        )
        for name, verbose, plural in (("FraySheet", "Fray sheet", "Fray sheets"), ("FrayNpc", "NPC", "NPCs"),
                                      ("ArmorNotes", "armor notes", "armor notes"))
    ]
