"""Each seat keeps its game's end time (issue 28): a player's finished games are then read
newest first from the index ``seat_finished_by_user`` (the player's seats in end order) instead
of sorting every game they ever finished. The seats of games that ended before get their game's
``finished_at`` here; from now on the write that ends a game sets both."""

from django.conf import settings
from django.db import migrations, models
from django.db.models import OuterRef, Subquery


def copy_end_times(apps, schema_editor):
    Game = apps.get_model("games", "Game")
    Seat = apps.get_model("games", "Seat")
    ended = Game.objects.filter(pk=OuterRef("game_id")).values("finished_at")[:1]
    Seat.objects.filter(game__finished_at__isnull=False, finished_at__isnull=True).update(
        finished_at=Subquery(ended)
    )


class Migration(migrations.Migration):

    dependencies = [
        ('games', '0012_crazy_eights_keep_records_still_read'),
        migrations.swappable_dependency(settings.AUTH_USER_MODEL),
    ]

    operations = [
        migrations.AddField(
            model_name='seat',
            name='finished_at',
            field=models.DateTimeField(blank=True, editable=False, null=True),
        ),
        migrations.RunPython(copy_end_times, migrations.RunPython.noop, elidable=True),
        migrations.AddIndex(
            model_name='seat',
            index=models.Index(
                fields=['user', '-finished_at', '-game'], name='seat_finished_by_user'
            ),
        ),
    ]
