"""A roll-log entry keeps its lines as a screen reader hears them too (``FightLogEntry.spoken``:
a health track's boxes as words, from the track's counts), when they differ."""

from django.db import migrations, models


class Migration(migrations.Migration):
    dependencies = [("fray", "0008_approve_existing_sheets")]

    operations = [
        migrations.AddField(
            model_name="fightlogentry",
            name="spoken",
            field=models.JSONField(blank=True, default=list),
        ),
    ]
