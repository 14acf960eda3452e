"""The social rows: blocks, chat, rematch offers, friendships, ratings and profile settings.

Relations to games are by string ("games.Game"): this module imports nothing of the games app,
so that ``social.blocks`` (which the games services ask) stays below them.
"""

from __future__ import annotations

from django.conf import settings
from django.db import models
from django.db.models import F, Q

USER = settings.AUTH_USER_MODEL


class Block(models.Model):
    """``blocker`` never hears from ``blocked`` again (chat, requests, invitations, nudges,
    friend requests) and is never paired with them at random. Running games go on."""

    blocker = models.ForeignKey(USER, on_delete=models.CASCADE, related_name="blocks_made")
    blocked = models.ForeignKey(USER, on_delete=models.CASCADE, related_name="blocks_received")
    created_at = models.DateTimeField(auto_now_add=True)

    class Meta:
        ordering = ["-created_at", "-id"]
        constraints = [
            models.UniqueConstraint(fields=["blocker", "blocked"], name="block_unique_pair"),
            models.CheckConstraint(condition=~Q(blocker=F("blocked")), name="block_not_self"),
        ]

    def __str__(self) -> str:
        return f"{self.blocker_id} blocks {self.blocked_id}"


class SocialSettings(models.Model):
    """A player's social choices (a row only once they change a default)."""

    user = models.OneToOneField(USER, on_delete=models.CASCADE, related_name="social_settings")
    hide_profile = models.BooleanField(default=False)
    mute_all_chat = models.BooleanField(default=False)
    # Moderation: no chat from this player until then (None: allowed).
    chat_banned_until = models.DateTimeField(null=True, blank=True)

    def __str__(self) -> str:
        return f"social settings of {self.user_id}"


class ChatMessage(models.Model):
    """One chat line in a game. ``text`` is stored as typed (plain text, never HTML); a
    moderator's removal keeps the row (``removed_at``/``removed_by``) for the record, and the
    players then no longer see it."""

    game = models.ForeignKey("games.Game", on_delete=models.CASCADE, related_name="chat")
    author = models.ForeignKey(USER, null=True, on_delete=models.SET_NULL, related_name="+")
    # Which seat wrote it (the game's history names seats); kept if the account goes away.
    seat = models.PositiveSmallIntegerField()
    # The move number when it was written: places the line in the game's history.
    move_number = models.PositiveIntegerField(default=0)
    text = models.CharField(max_length=500)
    created_at = models.DateTimeField(auto_now_add=True, db_index=True)
    removed_at = models.DateTimeField(null=True, blank=True)
    removed_by = models.ForeignKey(
        USER, null=True, blank=True, on_delete=models.SET_NULL, related_name="+"
    )

    class Meta:
        ordering = ["game", "id"]
        indexes = [models.Index(fields=["game", "id"], name="chat_game_id")]

    def __str__(self) -> str:
        return f"chat {self.pk} in game {self.game_id}"


class ChatMute(models.Model):
    """The player does not want this game's chat (``mute_all_chat`` silences every game)."""

    user = models.ForeignKey(USER, on_delete=models.CASCADE, related_name="+")
    game = models.ForeignKey("games.Game", on_delete=models.CASCADE, related_name="+")
    created_at = models.DateTimeField(auto_now_add=True)

    class Meta:
        constraints = [
            models.UniqueConstraint(fields=["user", "game"], name="chat_mute_unique"),
        ]


class RematchOffer(models.Model):
    """An offer to play ``game`` again. One row per finished game (the unique constraint):
    both players offering at once meet on the same row, and its ``new_game`` is set once."""

    class Status(models.TextChoices):
        OPEN = "open"
        ACCEPTED = "accepted"
        DECLINED = "declined"
        WITHDRAWN = "withdrawn"

    game = models.OneToOneField(
        "games.Game", on_delete=models.CASCADE, related_name="rematch_offer"
    )
    offered_by = models.ForeignKey(USER, on_delete=models.CASCADE, related_name="+")
    status = models.CharField(max_length=16, choices=Status.choices, default=Status.OPEN)
    created_at = models.DateTimeField(auto_now_add=True)
    expires_at = models.DateTimeField()
    answered_at = models.DateTimeField(null=True, blank=True)
    new_game = models.OneToOneField(
        "games.Game", null=True, blank=True, on_delete=models.SET_NULL, related_name="rematch_of"
    )
    # How many games in a row these players have rematched, this one included.
    streak = models.PositiveIntegerField(default=0)

    def __str__(self) -> str:
        return f"rematch of game {self.game_id} ({self.status})"


class Friendship(models.Model):
    """A friend request (``accepted_at`` None) or a friendship. One row per pair: the pair is
    stored with the smaller id first (``low``/``high``), ``requested_by`` says who asked."""

    low = models.ForeignKey(USER, on_delete=models.CASCADE, related_name="+")
    high = models.ForeignKey(USER, on_delete=models.CASCADE, related_name="+")
    requested_by = models.ForeignKey(USER, on_delete=models.CASCADE, related_name="+")
    created_at = models.DateTimeField(auto_now_add=True)
    accepted_at = models.DateTimeField(null=True, blank=True)

    class Meta:
        constraints = [
            models.UniqueConstraint(fields=["low", "high"], name="friendship_unique_pair"),
            models.CheckConstraint(condition=Q(low__lt=F("high")), name="friendship_ordered"),
        ]


class Rating(models.Model):
    """A player's Glicko-2 rating in one game kind (human-vs-human rated games only)."""

    user = models.ForeignKey(USER, on_delete=models.CASCADE, related_name="ratings")
    kind = models.CharField(max_length=32)
    rating = models.FloatField(default=1500.0)
    deviation = models.FloatField(default=350.0)
    volatility = models.FloatField(default=0.06)
    games = models.PositiveIntegerField(default=0)
    updated_at = models.DateTimeField(auto_now=True)

    class Meta:
        constraints = [
            models.UniqueConstraint(fields=["user", "kind"], name="rating_unique_kind"),
        ]

    def __str__(self) -> str:
        return f"{self.user_id} {self.kind} {self.rating:.0f}"


class RatingChange(models.Model):
    """One player's rating before and after one game: the rating history. The unique
    (game, user) is what makes a game count once, however often its rating task runs."""

    user = models.ForeignKey(USER, on_delete=models.CASCADE, related_name="rating_changes")
    game = models.ForeignKey("games.Game", on_delete=models.CASCADE, related_name="+")
    kind = models.CharField(max_length=32)
    rating_before = models.FloatField()
    deviation_before = models.FloatField()
    rating_after = models.FloatField()
    deviation_after = models.FloatField()
    volatility_after = models.FloatField()
    # The game's result for this player as Glicko sees it (1 win, 0 loss; with a score
    # margin in between for Crazy10s).
    score = models.FloatField()
    created_at = models.DateTimeField(auto_now_add=True, db_index=True)

    class Meta:
        ordering = ["-created_at", "-id"]
        constraints = [
            models.UniqueConstraint(fields=["game", "user"], name="rating_change_once"),
        ]


class RatedGame(models.Model):
    """A finished game the rating path has dealt with (rated, or found unrated): the sweep
    looks for finished games without one."""

    game = models.OneToOneField("games.Game", on_delete=models.CASCADE, related_name="+")
    applied = models.BooleanField()
    created_at = models.DateTimeField(auto_now_add=True)

