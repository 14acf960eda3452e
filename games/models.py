"""Games, seats, the append-only move log and idempotency records.

``Game.state`` is the engine's private state (the kind's ``dump``) and ``Game.seed`` decides the
bag or deck: neither is ever serialized to a player (the API's output serializers whitelist fields).
"""

from django.conf import settings
from django.core.exceptions import ValidationError
from django.db import models

from games.fields import FastJSONField
from games.results import JSONArrayLength, result_problems

# The short ones (1 h, 8 h) and the correspondence set of Lichess: 1, 2, 3, 5, 7, 10, 14 days.
TURN_HOURS_CHOICES = (1, 8, 24, 48, 72, 120, 168, 240, 336)
DEFAULT_TURN_HOURS = 72


def validate_turn_hours(value: int) -> None:
    if value not in TURN_HOURS_CHOICES:
        raise ValidationError(f"turn_hours must be one of {TURN_HOURS_CHOICES}, not {value}.")


class Game(models.Model):
    class Status(models.TextChoices):
        WAITING = "waiting", "Waiting for an opponent"
        ACTIVE = "active", "Active"
        FINISHED = "finished", "Finished"
        ABORTED = "aborted", "Aborted"

    kind = models.CharField(max_length=32, default="crazy10s")
    status = models.CharField(max_length=16, choices=Status.choices, default=Status.ACTIVE)
    options = FastJSONField(default=dict)
    # Random pairing's pool of a game waiting for random opponents: its kind, the kind's
    # pairing key of the options, turn time, rated choice and seat count ("" otherwise).
    pairing_pool = models.CharField(max_length=255, default="", blank=True)
    seed = models.BigIntegerField()
    state = FastJSONField(default=dict)
    move_number = models.PositiveIntegerField(default=0)
    # Seat index to move (None unless active): lets sweeps and "my turn" queries avoid the JSON.
    current_seat = models.SmallIntegerField(null=True, blank=True)
    turn_hours = models.PositiveSmallIntegerField(
        default=DEFAULT_TURN_HOURS, validators=[validate_turn_hours]
    )
    # A short turn clock in seconds (tables with friends); None: ``turn_hours`` applies. A turn
    # that passes it is taken over by the computer (the seat turns ``away``), not passed.
    turn_seconds = models.PositiveIntegerField(null=True, blank=True)
    turn_started_at = models.DateTimeField(null=True, blank=True)
    # Indexed with the status only (game_status_deadline): every query on the deadline asks
    # for active games, and each move writes the deadline (one index fewer to update).
    turn_deadline = models.DateTimeField(null=True, blank=True)
    created_at = models.DateTimeField(auto_now_add=True)
    started_at = models.DateTimeField(null=True, blank=True)
    finished_at = models.DateTimeField(null=True, blank=True)
    # How many seats the game has (2-4; the kind decides which counts it allows).
    seat_count = models.PositiveSmallIntegerField(default=2)
    # Chosen at creation: a rated game between people changes their ratings when it finishes
    # (social.ratings); games against the computer are never rated, whatever this says.
    rated = models.BooleanField(default=False)
    # {"termination": the kind's termination, or aborted|awarded|cancelled,
    #  "winners": [seat indexes] (empty: a draw or nobody), "scores": [one per seat],
    #  "adjustments": [one per seat], "winner": the single winner or None (two-seat readers)}
    # One score and one adjustment per seat of ``seat_count`` (seated or not): the constraint
    # below refuses anything else, whoever writes (games.results).
    result = FastJSONField(null=True, blank=True)

    class Meta:
        indexes = [models.Index(fields=["status", "turn_deadline"], name="game_status_deadline")]
        ordering = ["-created_at"]
        constraints = [
            models.CheckConstraint(
                condition=models.Q(result__isnull=True)
                | models.Q(
                    *(
                        models.lookups.Exact(JSONArrayLength("result", key), models.F("seat_count"))
                        for key in ("scores", "adjustments")
                    )
                ),
                name="game_result_fits_seats",
                violation_error_message="The result needs one score and one adjustment per seat.",
            ),
        ]

    def __str__(self) -> str:
        return f"{self.kind} #{self.pk} ({self.status})"

    def clean(self) -> None:
        problems = result_problems(self.result, self.seat_count)
        if problems:
            raise ValidationError({"result": problems})

    @property
    def is_over(self) -> bool:
        return self.status in (self.Status.FINISHED, self.Status.ABORTED)


class Seat(models.Model):
    class Result(models.TextChoices):
        WIN = "win"
        LOSS = "loss"
        DRAW = "draw"
        NONE = "none"  # the game was aborted

    # Both keys are looked up through the composite indexes they lead (seat_unique_index,
    # seat_finished_by_user): an index of their own would be written for nothing.
    game = models.ForeignKey(Game, on_delete=models.CASCADE, related_name="seats",
                             db_index=False)
    index = models.PositiveSmallIntegerField()
    user = models.ForeignKey(
        settings.AUTH_USER_MODEL,
        null=True,
        blank=True,
        on_delete=models.PROTECT,
        related_name="seats",
        db_index=False,
    )
    ai_level = models.CharField(max_length=16, null=True, blank=True)
    score = models.IntegerField(default=0)
    # What only this seat knows (Crazy10s: {"rack": [...]}), mirrored for staff pages only.
    private = FastJSONField(default=dict)
    result = models.CharField(max_length=8, choices=Result.choices, null=True, blank=True)
    last_seen_at = models.DateTimeField(null=True, blank=True)
    # The computer plays this person's seat meanwhile: they missed their turn's deadline
    # (``away``) or left the table (``left``, which also sets ``away``). A move, "back" or
    # joining again clears both.
    away = models.BooleanField(default=False)
    left = models.BooleanField(default=False)
    # The game's ``finished_at``, copied when it ends: a player's finished games are listed
    # newest first from the seats' index alone (``seat_finished_by_user``), without sorting
    # every game they ever played (issue 28: 1,000 of them were most of the list's time).
    finished_at = models.DateTimeField(null=True, blank=True, editable=False)

    class Meta:
        ordering = ["index"]
        indexes = [
            # Not partial, and no NULLS LAST (SQLite refuses it in an index): a finished game
            # whose seats somehow lack the time is still listed (first, on PostgreSQL).
            models.Index(fields=["user", "-finished_at", "-game"], name="seat_finished_by_user"),
        ]
        constraints = [
            models.UniqueConstraint(fields=["game", "index"], name="seat_unique_index"),
            models.CheckConstraint(
                condition=~models.Q(user__isnull=False, ai_level__isnull=False),
                name="seat_user_or_computer",
            ),
        ]

    def __str__(self) -> str:
        return f"seat {self.index} of game {self.game_id}"

    @property
    def is_computer(self) -> bool:
        return self.ai_level is not None

    @property
    def plays_itself(self) -> bool:
        """The server plays this seat: a computer, or a person who is away."""
        return self.ai_level is not None or self.away


class Move(models.Model):
    """One played turn. Append-only: rows are never deleted, and what was played is never
    changed; only the analysis (``best_score``, ``best_notation``) is filled in once, later.

    ``kind`` is the game kind's name for the move (Crazy10s: placement, pass, swap, resign,
    timeout); ``public`` is what every player may see of it beside the notation (Crazy10s:
    ``{"lines": [...], "drawn": n}``).

    ``best_score`` / ``best_notation``: the highest score the mover could have made with the
    pieces they held, and that move ("" when nothing could be placed), written by a worker
    after the move (``games.services.analysis``). NULL until then, and for moves a kind does
    not analyse (a resignation, Crazy Eights). ``best_notation`` names the mover's pieces:
    another seat sees it only once the game is over (``selectors.best_visible``).
    """

    # Looked up through move_unique_number (game, number), which every move writes anyway.
    game = models.ForeignKey(Game, on_delete=models.CASCADE, related_name="moves",
                             db_index=False)
    number = models.PositiveIntegerField()  # 1-based
    seat = models.PositiveSmallIntegerField()
    kind = models.CharField(max_length=16)
    notation = models.CharField(max_length=200)  # full; a swap names its (private) tiles
    public_notation = models.CharField(max_length=200)  # a swap shows only the count
    score = models.IntegerField(default=0)
    public = FastJSONField(default=dict)
    is_timeout = models.BooleanField(default=False)
    best_score = models.IntegerField(null=True, blank=True)
    best_notation = models.CharField(max_length=200, blank=True, default="")
    created_at = models.DateTimeField(auto_now_add=True)

    class Meta:
        ordering = ["game", "number"]
        constraints = [
            models.UniqueConstraint(fields=["game", "number"], name="move_unique_number"),
        ]

    def __str__(self) -> str:
        return f"game {self.game_id} move {self.number}: {self.public_notation}"


class IdempotencyRecord(models.Model):
    """The first response to a POST carrying an ``Idempotency-Key``; a retry gets it back."""

    user = models.ForeignKey(settings.AUTH_USER_MODEL, on_delete=models.CASCADE)
    key = models.CharField(max_length=255)
    game = models.ForeignKey(Game, on_delete=models.CASCADE, related_name="+")
    response_status = models.PositiveSmallIntegerField()
    response_body = FastJSONField()
    # sha256 of the request (game, move, expected move number): a retry must be the same
    # request; empty for records stored before fingerprints existed.
    request_fingerprint = models.CharField(max_length=64, blank=True, default="")
    created_at = models.DateTimeField(auto_now_add=True)

    class Meta:
        constraints = [
            models.UniqueConstraint(fields=["user", "key"], name="idempotency_unique_key"),
        ]
