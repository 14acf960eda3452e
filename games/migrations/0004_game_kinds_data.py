"""Kind-neutral games (issue 11), step 2 of 3: the data. Seat counts, per-seat results,
private mirrors and a public JSON part of each move. Every existing game and move is kept:

- ``Seat.rack`` (the staff mirror of a Crazy10s rack) becomes ``Seat.private = {"rack": ...}``;
- ``Move.lines`` / ``Move.drawn`` become ``Move.public = {"lines": ..., "drawn": ...}``;
- ``Game.result`` gains ``winners`` (a list) beside ``winner``, and each seat of an ended game
  its ``result`` (win, loss, draw; none when the game was aborted).
"""

from django.db import migrations


def forward(apps, schema_editor):
    Game = apps.get_model("games", "Game")
    Seat = apps.get_model("games", "Seat")
    Move = apps.get_model("games", "Move")
    for seat in Seat.objects.all().iterator(chunk_size=500):
        seat.private = {"rack": seat.rack}
        seat.save(update_fields=["private"])
    for move in Move.objects.all().iterator(chunk_size=2000):
        move.public = {"lines": move.lines, "drawn": move.drawn}
        move.save(update_fields=["public"])
    for game in Game.objects.exclude(result=None).iterator(chunk_size=500):
        result = dict(game.result)
        winner = result.get("winner")
        result["winners"] = [] if winner is None else [winner]
        game.result = result
        game.save(update_fields=["result"])
        for seat in Seat.objects.filter(game=game):
            if result.get("termination") == "aborted":
                seat.result = "none"
            elif winner is None:
                seat.result = "draw"
            else:
                seat.result = "win" if seat.index == winner else "loss"
            seat.save(update_fields=["result"])


def backward(apps, schema_editor):
    Game = apps.get_model("games", "Game")
    Seat = apps.get_model("games", "Seat")
    Move = apps.get_model("games", "Move")
    for seat in Seat.objects.all().iterator(chunk_size=500):
        seat.rack = (seat.private or {}).get("rack", [])
        seat.save(update_fields=["rack"])
    for move in Move.objects.all().iterator(chunk_size=2000):
        public = move.public or {}
        move.lines = public.get("lines", [])
        move.drawn = public.get("drawn", 0)
        move.save(update_fields=["lines", "drawn"])
    for game in Game.objects.exclude(result=None).iterator(chunk_size=500):
        result = dict(game.result)
        result.pop("winners", None)
        game.result = result
        game.save(update_fields=["result"])


class Migration(migrations.Migration):

    dependencies = [
        ("games", "0003_game_kinds"),
    ]

    operations = [
        migrations.RunPython(forward, backward),
    ]
