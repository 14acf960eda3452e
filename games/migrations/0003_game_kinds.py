"""Kind-neutral games (issue 11), step 1 of 3: the new columns (``Game.seat_count``,
``Seat.private``, ``Seat.result``, ``Move.public``); 0004 moves the data, 0005 drops the old
columns. Three migrations, so that PostgreSQL never alters a table that has pending deferred
constraint checks from the data step (one transaction per migration)."""

from django.db import migrations, models


class Migration(migrations.Migration):

    dependencies = [
        ("games", "0002_idempotency_request_fingerprint"),
    ]

    operations = [
        migrations.AddField(
            model_name="game",
            name="seat_count",
            field=models.PositiveSmallIntegerField(default=2),
        ),
        migrations.AddField(
            model_name="seat",
            name="private",
            field=models.JSONField(default=dict),
        ),
        migrations.AddField(
            model_name="seat",
            name="result",
            field=models.CharField(
                blank=True,
                choices=[("win", "Win"), ("loss", "Loss"), ("draw", "Draw"), ("none", "None")],
                max_length=8,
                null=True,
            ),
        ),
        migrations.AddField(
            model_name="move",
            name="public",
            field=models.JSONField(default=dict),
        ),
        migrations.AlterField(
            model_name="move",
            name="kind",
            field=models.CharField(max_length=16),
        ),
    ]
