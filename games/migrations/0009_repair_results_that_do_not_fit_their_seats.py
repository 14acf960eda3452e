"""Repair stored results that do not have one score and one adjustment per seat (issue 30).

Resigning a random-opponent request that was still waiting stored an ``aborted`` game whose
result had one score for its two seats, and every read of the player's games failed on it. Such
a game (or any whose result does not fit ``seat_count``) becomes: aborted when it never had
every seat filled or no real ending, with every seat's score (0 for an empty seat), no winner,
no adjustment; otherwise its termination and winners stay and the lists are rebuilt from the
seats' scores (adjustments kept where they were stored). The constraint that refuses such
results from now on is added by the next migration, once no row breaks it.
"""

from django.db import migrations
from django.db.models import F, Q
from django.utils import timezone

from games.results import JSONArrayLength

NOT_PLAYED = {"aborted", "cancelled"}


def _int(value, default=0):
    return value if isinstance(value, int) and not isinstance(value, bool) else default


def _fits(result, seat_count):
    return isinstance(result, dict) and all(
        isinstance(result.get(key), list)
        and len(result[key]) == seat_count
        and all(isinstance(v, int) and not isinstance(v, bool) for v in result[key])
        for key in ("scores", "adjustments")
    )


def repair(apps, schema_editor):
    Game = apps.get_model("games", "Game")
    Seat = apps.get_model("games", "Seat")
    now = timezone.now()
    # The database finds the lists of the wrong length (what the next migration's constraint
    # refuses) without reading every result; _fits then checks the entries too.
    games = (
        Game.objects.exclude(result=None)
        .annotate(n_scores=JSONArrayLength("result", "scores"),
                  n_adjustments=JSONArrayLength("result", "adjustments"))
        .filter(~Q(n_scores=F("seat_count")) | ~Q(n_adjustments=F("seat_count")))
        .only("id", "status", "seat_count", "result", "finished_at")
    )
    for game in games.iterator(chunk_size=500):
        n = game.seat_count
        if _fits(game.result, n):
            continue
        old = game.result if isinstance(game.result, dict) else {}
        seats = {s.index: s for s in Seat.objects.filter(game_id=game.pk)}
        scores = [seats[i].score if i in seats else 0 for i in range(n)]
        termination = old.get("termination")
        filled = all(i in seats for i in range(n))
        if not filled or not isinstance(termination, str) or termination in NOT_PLAYED:
            result = {"termination": "aborted", "winner": None, "winners": [],
                      "scores": scores, "adjustments": [0] * n}
            Seat.objects.filter(game_id=game.pk).update(result="none")
            game.status = "aborted"
        else:
            adjustments = old.get("adjustments") if isinstance(old.get("adjustments"), list) else []
            winners = [w for w in old.get("winners") or [] if _int(w, -1) in range(n)]
            result = {
                "termination": termination,
                "winner": winners[0] if len(winners) == 1 else None,
                "winners": winners,
                "scores": scores,
                "adjustments": [_int(adjustments[i]) if i < len(adjustments) else 0
                                for i in range(n)],
            }
        game.result = result
        game.finished_at = game.finished_at or now
        game.current_seat = None
        game.turn_started_at = None
        game.turn_deadline = None
        game.save(update_fields=["result", "status", "finished_at", "current_seat",
                                 "turn_started_at", "turn_deadline"])


class Migration(migrations.Migration):
    dependencies = [
        ("games", "0008_game_rated"),
    ]

    operations = [
        migrations.RunPython(repair, migrations.RunPython.noop),
    ]
