"""Kind-neutral games (issue 11), step 3 of 3: the old Crazy10s-only columns go (their data
is in ``Seat.private`` and ``Move.public`` since 0004)."""

from django.db import migrations


class Migration(migrations.Migration):

    dependencies = [
        ("games", "0004_game_kinds_data"),
    ]

    operations = [
        migrations.RemoveField(model_name="seat", name="rack"),
        migrations.RemoveField(model_name="move", name="lines"),
        migrations.RemoveField(model_name="move", name="drawn"),
    ]
