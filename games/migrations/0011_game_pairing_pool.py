"""Random pairing pools by kind and the kind's pairing key (``Game.pairing_pool``) instead of
Crazy10s's ``layout`` column: the pool of every game still waiting is written from its kind,
layout, turn time and rated choice (the only kind that paired at random was Crazy10s, whose
pairing key is its layout), then the column goes."""

from django.db import migrations, models


def fill_pools(apps, schema_editor):
    Game = apps.get_model("games", "Game")
    waiting = Game.objects.filter(status="waiting")
    for game in waiting.only("pk", "kind", "layout", "turn_hours", "rated", "seat_count"):
        pool = f"{game.kind}:{game.layout}:{game.turn_hours}:{game.rated}:{game.seat_count}"
        Game.objects.filter(pk=game.pk).update(pairing_pool=pool)


class Migration(migrations.Migration):

    dependencies = [
        ("games", "0010_game_result_fits_seats"),
    ]

    operations = [
        migrations.AddField(
            model_name="game",
            name="pairing_pool",
            field=models.CharField(blank=True, default="", max_length=255),
        ),
        migrations.RunPython(fill_pools, migrations.RunPython.noop),
        migrations.RemoveField(model_name="game", name="layout"),
    ]
