"""Adds the canonical/skeleton username, the email key and the unsubscribe key, and fills them.

Accounts that already collide (``Bob`` beside ``bob``, Cyrillic ``р22`` beside ``p22``, one email
in two cases) are reported on stdout and in the log, and left as they are: the oldest account of
a group gets the key, the others keep ``NULL`` (outside the unique indexes added by 0005).
Nothing is merged or renamed; a moderator decides.
"""

import logging
import secrets

from django.db import migrations, models

from accounts.usernames import derived_fields

log = logging.getLogger("accounts.migrations")


def report_duplicates(user_model, *, write=print) -> list:
    """Fill the derived fields of every account; report (and return) the collisions."""
    rows = user_model.objects.order_by("pk").values_list("pk", "username", "email")
    fields, duplicates = derived_fields(rows.iterator())
    for pk, values in fields.items():
        user_model.objects.filter(pk=pk).update(
            **values, unsubscribe_key=secrets.token_urlsafe(16)
        )
    for duplicate in duplicates:
        message = f"accounts: duplicate left as it is: {duplicate}"
        log.warning(message)
        write(message)
    return duplicates


def fill(apps, schema_editor) -> None:
    report_duplicates(apps.get_model("accounts", "User"))


class Migration(migrations.Migration):

    dependencies = [
        ("accounts", "0003_hourly_digest_label"),
    ]

    operations = [
        migrations.AddField(
            model_name="user",
            name="username_canonical",
            field=models.CharField(db_index=True, default="", editable=False, max_length=150),
            preserve_default=False,
        ),
        migrations.AddField(
            model_name="user",
            name="username_skeleton",
            field=models.CharField(editable=False, max_length=150, null=True),
        ),
        migrations.AddField(
            model_name="user",
            name="email_canonical",
            field=models.CharField(editable=False, max_length=254, null=True),
        ),
        migrations.AddField(
            model_name="user",
            name="unsubscribe_key",
            field=models.CharField(editable=False, max_length=32, null=True),
        ),
        migrations.RunPython(fill, migrations.RunPython.noop),
    ]
