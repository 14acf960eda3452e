"""Vacations: a player's days off, during which their correspondence turn clocks stand still.

A vacation runs while ``ended_at`` is NULL (even past ``ends_at``: until it is ended and its
games' deadlines are moved on, the clocks stay paused — see ``games.correspondence.services``).
``VacationAllowance`` is the player's bank of days, accrued lazily when it is read.
"""

from django.conf import settings
from django.db import models


class Vacation(models.Model):
    user = models.ForeignKey(
        settings.AUTH_USER_MODEL, on_delete=models.CASCADE, related_name="vacations"
    )
    started_at = models.DateTimeField()
    ends_at = models.DateTimeField()
    # When it ended (its end time, or earlier if ended early); NULL: it still runs.
    ended_at = models.DateTimeField(null=True, blank=True)
    # A moderator who ended it (NULL: the player, or it ran out).
    ended_by = models.ForeignKey(
        settings.AUTH_USER_MODEL, null=True, blank=True, on_delete=models.SET_NULL,
        related_name="+",
    )

    class Meta:
        ordering = ["-started_at"]
        constraints = [
            models.UniqueConstraint(
                fields=["user"], condition=models.Q(ended_at__isnull=True),
                name="vacation_one_running_per_user",
            ),
            models.CheckConstraint(
                condition=models.Q(ends_at__gt=models.F("started_at")),
                name="vacation_ends_after_start",
            ),
        ]
        indexes = [models.Index(fields=["ends_at"], condition=models.Q(ended_at__isnull=True),
                                name="vacation_running_ends_at")]

    def __str__(self) -> str:
        return f"vacation of user {self.user_id} from {self.started_at:%Y-%m-%d}"


class VacationAllowance(models.Model):
    """The days a player may still take, as seconds, as of ``accrued_at``."""

    user = models.OneToOneField(
        settings.AUTH_USER_MODEL, on_delete=models.CASCADE, related_name="vacation_allowance"
    )
    balance_seconds = models.PositiveIntegerField()
    accrued_at = models.DateTimeField()

    def __str__(self) -> str:
        return f"vacation allowance of user {self.user_id}"


class WatchSettings(models.Model):
    """Whether the player lets anyone watch their games (off by default): a game is public
    when every person playing in it says so. Friends may watch without it."""

    user = models.OneToOneField(
        settings.AUTH_USER_MODEL, on_delete=models.CASCADE, related_name="watch_settings"
    )
    public_games = models.BooleanField(default=False)

    def __str__(self) -> str:
        return f"watch settings of user {self.user_id}"


class Spectator(models.Model):
    """Someone watching a game: written when their page asks for the game (at most every
    ``spectating.SEEN_WRITE_SECONDS``), counted while ``seen_at`` is recent."""

    game = models.ForeignKey("games.Game", on_delete=models.CASCADE, related_name="+")
    user = models.ForeignKey(settings.AUTH_USER_MODEL, on_delete=models.CASCADE, related_name="+")
    seen_at = models.DateTimeField()

    class Meta:
        constraints = [
            models.UniqueConstraint(fields=["game", "user"], name="spectator_unique_per_game"),
        ]
        indexes = [models.Index(fields=["game", "seen_at"], name="spectator_game_seen")]

    def __str__(self) -> str:
        return f"user {self.user_id} watching game {self.game_id}"
