"""The fight engine (``rules.engine``): a fight is its row alone (no Encounter script), its
state a ``FightState`` record, its intents logged (``FightIntent``) for ``+combat/verify``.

A fight running when this migration runs keeps going: its state is rewritten in the engine's
shape (fighters by id, their conditions with them, the system's own fields in ``extra``);
the fighters' sheets are read again at its next command (``world.fights.state``).
"""

from django.db import migrations, models


def _decoded(data):
    """The old state's JSON (``{"#obj": id}``, ``{"#tuple": [...]}``, ``{"#map": [[k, v]]}``)
    as plain data, objects as their ids."""
    if isinstance(data, list):
        return [_decoded(item) for item in data]
    if not isinstance(data, dict):
        return data
    if len(data) == 1:
        if "#obj" in data:
            return int(data["#obj"])
        if "#tuple" in data:
            return [_decoded(item) for item in data["#tuple"]]
        if "#map" in data:
            return {str(_decoded(key)): _decoded(value) for key, value in data["#map"]}
    return {key: _decoded(value) for key, value in data.items()}


EXTRA = ("declarations", "sides", "parties", "segment", "segment_actions", "segment_initiative")


def forward(apps, schema_editor):
    Fight = apps.get_model("fray", "Fight")
    ObjectDB = apps.get_model("objects", "ObjectDB")
    for row in Fight.objects.filter(ended__isnull=True):
        old = _decoded(row.state or {})
        if "fighters" in old:
            continue
        ids = [item for item in old.get("combatants", []) if isinstance(item, int)]
        objects = {obj.id: obj for obj in ObjectDB.objects.filter(id__in=ids)}
        conditions = old.get("conditions") or {}
        fighters = [{"id": obj_id, "name": objects[obj_id].db_key,
                     "npc": objects[obj_id].db_typeclass_path == "typeclasses.npcs.NPC",
                     "conditions": conditions.get(str(obj_id)) or {}}
                    for obj_id in ids if obj_id in objects]
        pending = [{"id": p["id"], "attacker": p["attacker"], "target": p["target"], "attack": p["attack"],
                    "round": p.get("round", 1)} for p in old.get("pending") or []
                   if isinstance(p.get("attacker"), int) and isinstance(p.get("target"), int)]
        row.state = {
            "system": old.get("system_key") or row.system_key, "round": old.get("round") or 1,
            "gm": old.get("storyteller") if isinstance(old.get("storyteller"), int) else None,
            "fighters": fighters, "initiative": old.get("initiative") or {},
            "acted": old.get("acted") or [], "pending": pending,
            "next_attack_id": old.get("next_attack_id") or 1, "idle": old.get("idle") or [],
            "ai": old.get("ai") or [], "order": old.get("order"), "scene": old.get("scene") or {},
            "shields": old.get("shields") or {}, "dropped": old.get("dropped") or [],
            "extra": {key: old[key] for key in EXTRA if key in old},
        }
        row.save(update_fields=["state"])
    ScriptDB = apps.get_model("scripts", "ScriptDB")
    ScriptDB.objects.filter(db_typeclass_path="typeclasses.encounters.Encounter").delete()
    Attribute = apps.get_model("typeclasses", "Attribute")
    Attribute.objects.filter(db_key="encounter", db_category="fray").delete()


class Migration(migrations.Migration):

    dependencies = [
        ("fray", "0005_admin_proxies"),
        ("typeclasses", "0017_use_index_instead_of_index_together_in_tags"), ("scripts", "0016_scriptbase_alter_scriptdb_id_defaultscript_and_more"),
    ]

    operations = [
        migrations.AddField(model_name="fight", name="intent_count",
                            field=models.PositiveIntegerField(default=0)),
        migrations.AddField(model_name="fight", name="moved_at", field=models.FloatField(default=0)),
        migrations.CreateModel(
            name="FightIntent",
            fields=[
                ("id", models.BigAutoField(auto_created=True, primary_key=True, serialize=False, verbose_name="ID")),
                ("number", models.PositiveIntegerField()),
                ("intent", models.JSONField()),
                ("dice", models.JSONField(blank=True, default=list)),
                ("after", models.CharField(blank=True, default="", max_length=16)),
                ("created", models.DateTimeField(auto_now_add=True)),
                ("fight", models.ForeignKey(on_delete=models.deletion.CASCADE, related_name="intents",
                                            to="fray.fight")),
            ],
            options={"ordering": ["fight", "number"]},
        ),
        migrations.AddConstraint(model_name="fightintent",
                                 constraint=models.UniqueConstraint(fields=("fight", "number"),
                                                                    name="fray_intent_number")),
        migrations.RunPython(forward, migrations.RunPython.noop),
        migrations.RemoveField(model_name="fight", name="script"),
    ]
