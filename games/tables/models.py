"""Tables with friends: a code to share, the kind's seats, the host's options, then one game
(for every kind that declares table support, ``GameKind.table``).

Before the deal the seats are ``TableSeat`` rows; the deal creates the game (``Table.game``)
with a ``games.Seat`` per table seat and a computer player in every empty one. From then on
the game's seats are the truth (who left, who is away), and the table only lists who sat down.
"""

from django.conf import settings
from django.db import models


class Table(models.Model):
    class Status(models.TextChoices):
        OPEN = "open", "Open (waiting for the deal)"
        DEALT = "dealt", "Dealt (the match is on or over)"
        CLOSED = "closed", "Closed (nobody left)"

    # Six characters from CODE_ALPHABET (games.tables.codes), stored upper case.
    code = models.CharField(max_length=6)
    status = models.CharField(max_length=8, choices=Status.choices, default=Status.OPEN)
    host = models.ForeignKey(
        settings.AUTH_USER_MODEL, on_delete=models.PROTECT, related_name="hosted_tables"
    )
    kind = models.CharField(max_length=32)
    # What the host chose: the kind's table options (``GameKind.table.options_input``).
    options = models.JSONField(default=dict)
    game = models.OneToOneField(
        "games.Game", null=True, blank=True, on_delete=models.SET_NULL, related_name="table"
    )
    created_at = models.DateTimeField(auto_now_add=True)
    dealt_at = models.DateTimeField(null=True, blank=True)
    closed_at = models.DateTimeField(null=True, blank=True)

    class Meta:
        ordering = ["-created_at"]
        constraints = [
            # A code names one table among those not closed (a closed table frees its code).
            models.UniqueConstraint(
                fields=["code"],
                condition=~models.Q(status="closed"),
                name="table_code_unique_open",
            ),
        ]

    def __str__(self) -> str:
        return f"table {self.code} ({self.status})"


class TableSeat(models.Model):
    table = models.ForeignKey(Table, on_delete=models.CASCADE, related_name="seats")
    index = models.PositiveSmallIntegerField()
    user = models.ForeignKey(
        settings.AUTH_USER_MODEL, on_delete=models.PROTECT, related_name="table_seats"
    )
    joined_at = models.DateTimeField(auto_now_add=True)

    class Meta:
        ordering = ["index"]
        constraints = [
            models.UniqueConstraint(fields=["table", "index"], name="table_seat_unique_index"),
            models.UniqueConstraint(fields=["table", "user"], name="table_seat_unique_user"),
        ]

    def __str__(self) -> str:
        return f"seat {self.index} of {self.table}"
