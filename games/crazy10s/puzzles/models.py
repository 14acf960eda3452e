"""The Daily Puzzle: one position per UTC day and each player's single attempt at it."""

from __future__ import annotations

from django.conf import settings
from django.db import models


class Puzzle(models.Model):
    date = models.DateField(unique=True, help_text="The UTC day the puzzle is played.")
    board = models.CharField(max_length=200, help_text="Board in docs/rules.md notation.")
    layout = models.CharField(max_length=200, help_text="Layout in docs/rules.md notation.")
    rack = models.CharField(max_length=7, help_text="The 7 tiles to play, e.g. 1237*55.")
    best_score = models.PositiveIntegerField()
    best_move = models.CharField(max_length=100)
    legal_move_count = models.PositiveIntegerField()
    generation_attempt = models.PositiveIntegerField(
        default=0, help_text="Generator attempt number; 'regenerate' continues after it."
    )
    generated_at = models.DateTimeField()

    # Not a column: the attempts so far, set on the instance the views hand to PuzzleSerializer.
    attempt_count: int

    class Meta:
        ordering = ("-date",)

    def __str__(self) -> str:
        return f"Puzzle {self.date.isoformat()}"


class PuzzleAttempt(models.Model):
    puzzle = models.ForeignKey(Puzzle, on_delete=models.CASCADE, related_name="attempts")
    user = models.ForeignKey(
        settings.AUTH_USER_MODEL, on_delete=models.CASCADE, related_name="puzzle_attempts"
    )
    move = models.CharField(max_length=100)
    score = models.PositiveIntegerField()
    created_at = models.DateTimeField(auto_now_add=True)

    class Meta:
        constraints = [
            models.UniqueConstraint(fields=("puzzle", "user"), name="one_attempt_per_puzzle"),
        ]
        indexes = [
            # The leaderboard order: best score first, ties by submission time.
            models.Index(fields=("puzzle", "-score", "created_at"), name="puzzle_leaderboard"),
        ]

    def __str__(self) -> str:
        return f"{self.user} on {self.puzzle.date}: {self.score}"
