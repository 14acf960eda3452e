"""Tables of any kind that has them: ``Table.kind`` and the host's ``options`` (the kind's own
table options) instead of Crazy Eights' ``target`` and ``rules`` columns. Every table so far
dealt Crazy Eights, whose table options are ``{"target", "rules"}``."""

from django.db import migrations, models


def copy_options(apps, schema_editor):
    Table = apps.get_model("tables", "Table")
    for table in Table.objects.only("pk", "target", "rules"):
        Table.objects.filter(pk=table.pk).update(
            kind="crazy_eights", options={"target": table.target, "rules": table.rules or {}}
        )


class Migration(migrations.Migration):

    dependencies = [
        ("tables", "0001_initial"),
    ]

    operations = [
        migrations.AddField(
            model_name="table", name="kind",
            field=models.CharField(default="crazy_eights", max_length=32),
            preserve_default=False,
        ),
        migrations.AddField(
            model_name="table", name="options", field=models.JSONField(default=dict),
        ),
        migrations.RunPython(copy_options, migrations.RunPython.noop),
        migrations.RemoveField(model_name="table", name="target"),
        migrations.RemoveField(model_name="table", name="rules"),
    ]
