"""Indexes that a composite index already covers are dropped (issue 28): a move wrote the
game's deadline index and the move's game index for nothing (every deadline query asks for
active games: ``game_status_deadline``; moves are looked up by ``move_unique_number``), and
the seats' game and user are the first columns of ``seat_unique_index`` and
``seat_finished_by_user``. Django drops and adds the foreign keys' constraints again around
the index (it validates them once more)."""

import django.db.models.deletion
from django.conf import settings
from django.db import migrations, models


class Migration(migrations.Migration):

    dependencies = [
        ('games', '0013_seat_finished_at'),
        migrations.swappable_dependency(settings.AUTH_USER_MODEL),
    ]

    operations = [
        migrations.AlterField(
            model_name='game',
            name='turn_deadline',
            field=models.DateTimeField(blank=True, null=True),
        ),
        migrations.AlterField(
            model_name='move',
            name='game',
            field=models.ForeignKey(db_index=False, on_delete=django.db.models.deletion.CASCADE, related_name='moves', to='games.game'),
        ),
        migrations.AlterField(
            model_name='seat',
            name='game',
            field=models.ForeignKey(db_index=False, on_delete=django.db.models.deletion.CASCADE, related_name='seats', to='games.game'),
        ),
        migrations.AlterField(
            model_name='seat',
            name='user',
            field=models.ForeignKey(blank=True, db_index=False, null=True, on_delete=django.db.models.deletion.PROTECT, related_name='seats', to=settings.AUTH_USER_MODEL),
        ),
    ]
