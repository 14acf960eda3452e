"""Crazy Eights games stored before their state kept only the public records something still
reads (issue 28, ``games.crazy_eights.kind._still_read``) get their ``history`` cut the same way,
so that a replay of their moves (``manage.py verify_games``) finds the stored state again. The
cut only ever moves forward, so cutting a stored history now gives what the moves would have
kept. The function is copied here as it is today: a migration must not change with the code."""

from django.db import migrations


def _still_read(history, seats):
    opening = None
    latest = {}
    for index in range(len(history) - 1, -1, -1):
        record = history[index]
        seat = record.get("seat")
        if seat is not None and seat not in latest:
            latest[seat] = index
        if opening is None and any(
            event.get("kind") == "round_started" for event in record.get("events", ())
        ):
            opening = index
        if opening is not None and len(latest) == seats:
            return history[min(opening, *latest.values()):]
    return history


def cut_histories(apps, schema_editor):
    Game = apps.get_model("games", "Game")
    games = Game.objects.filter(kind="crazy_eights").only("id", "state", "seat_count")
    for game in games.iterator(chunk_size=200):
        state = game.state or {}
        history = state.get("history")
        if not isinstance(history, list):
            continue
        kept = _still_read(history, game.seat_count)
        if len(kept) < len(history):
            Game.objects.filter(pk=game.pk).update(state={**state, "history": kept})


class Migration(migrations.Migration):
    dependencies = [("games", "0011_game_pairing_pool")]
    operations = [migrations.RunPython(cut_histories, migrations.RunPython.noop)]
