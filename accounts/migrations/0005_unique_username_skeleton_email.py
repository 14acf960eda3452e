# A migration of its own: PostgreSQL adds the unique indexes after 0004's updates committed.

import accounts.models
import accounts.validators
from django.db import migrations, models


class Migration(migrations.Migration):

    dependencies = [
        ("accounts", "0004_username_canonical_unsubscribe_key"),
    ]

    operations = [
        migrations.AlterField(
            model_name="user",
            name="username_skeleton",
            field=models.CharField(editable=False, max_length=150, null=True, unique=True),
        ),
        migrations.AlterField(
            model_name="user",
            name="email_canonical",
            field=models.CharField(editable=False, max_length=254, null=True, unique=True),
        ),
        migrations.AlterField(
            model_name="user",
            name="unsubscribe_key",
            field=models.CharField(
                default=accounts.models.new_unsubscribe_key, editable=False, max_length=32,
                unique=True,
            ),
        ),
        migrations.AlterField(
            model_name="user",
            name="display_name",
            field=models.CharField(
                blank=True, max_length=150,
                validators=[accounts.validators.refuse_control_characters],
                verbose_name="display name",
            ),
        ),
    ]
