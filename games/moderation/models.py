"""The moderation log: every action a moderator takes, with who, what and when (append-only)."""

from django.conf import settings
from django.db import models
from django.utils import timezone
from django.utils.translation import gettext_lazy as _


class ModerationAction(models.Model):
    class Action(models.TextChoices):
        ABORT_GAME = "abort_game", "Abort game"
        AWARD_GAME = "award_game", "Award game"
        REQUEUE_AI_TURN = "requeue_ai_turn", "Re-queue computer turn"
        SUSPEND_USER = "suspend_user", "Suspend user"
        REMOVE_CHAT_MESSAGE = "remove_chat_message", "Remove chat message"
        MUTE_CHAT = "mute_chat", "Mute from chat"
        WARN_USER = "warn_user", "Warn user by email"
        DISMISS_REPORT = "dismiss_report", "Dismiss report"
        TAKE_REPORT = "take_report", "Take report in hand"

    # SET_NULL, not CASCADE: the log outlives the accounts and games it talks about.
    moderator = models.ForeignKey(
        settings.AUTH_USER_MODEL,
        null=True,
        on_delete=models.SET_NULL,
        related_name="moderation_actions_taken",
    )
    action = models.CharField(max_length=32, choices=Action.choices)
    game = models.ForeignKey(
        "games.Game",
        null=True,
        blank=True,
        on_delete=models.SET_NULL,
        related_name="moderation_actions",
    )
    target_user = models.ForeignKey(
        settings.AUTH_USER_MODEL,
        null=True,
        blank=True,
        on_delete=models.SET_NULL,
        related_name="moderation_actions_received",
    )
    report = models.ForeignKey(
        "moderation.Report",
        null=True,
        blank=True,
        on_delete=models.SET_NULL,
        related_name="actions",
    )
    reason = models.CharField(max_length=500, blank=True)
    details = models.JSONField(default=dict, blank=True)
    created_at = models.DateTimeField(auto_now_add=True, db_index=True)

    class Meta:
        ordering = ["-created_at", "-id"]

    def __str__(self) -> str:
        target = f"game {self.game_id}" if self.game_id else f"user {self.target_user_id}"
        return f"{self.get_action_display()} on {target} by {self.moderator_id}"


class Report(models.Model):
    """A player's report about another player or a game: the moderators' queue (admin)."""

    class Reason(models.TextChoices):
        CHEATING = "cheating", _("Cheating")
        ABUSE = "abuse", _("Abusive or offensive behaviour")
        STALLING = "stalling", _("Stalling or leaving games")
        NAME = "name", _("Offensive name")
        SPAM = "spam", _("Spam or advertising")
        OTHER = "other", _("Something else")

    class Status(models.TextChoices):
        OPEN = "open", "Open"
        IN_PROGRESS = "in_progress", "In progress"
        DONE = "done", "Done"

    reporter = models.ForeignKey(
        settings.AUTH_USER_MODEL, null=True, on_delete=models.SET_NULL, related_name="reports_made"
    )
    # What is reported: a player, or a game (``player`` is then the reporter's one opponent in
    # a two-seat game, else empty). Accounts are anonymised, never deleted: CASCADE is moot.
    player = models.ForeignKey(
        settings.AUTH_USER_MODEL,
        null=True,
        blank=True,
        on_delete=models.CASCADE,
        related_name="reports_received",
    )
    game = models.ForeignKey(
        "games.Game", null=True, blank=True, on_delete=models.CASCADE, related_name="reports"
    )
    reason = models.CharField(max_length=16, choices=Reason.choices)
    text = models.TextField(max_length=2000, blank=True)
    status = models.CharField(
        max_length=16, choices=Status.choices, default=Status.OPEN, db_index=True
    )
    # The UTC day of the report: one report per reporter, target and day (the constraints).
    day = models.DateField(editable=False)
    created_at = models.DateTimeField(default=timezone.now, editable=False)
    handled_by = models.ForeignKey(
        settings.AUTH_USER_MODEL, null=True, blank=True, on_delete=models.SET_NULL,
        related_name="+",
    )
    resolution = models.CharField(max_length=16, blank=True)  # warned, suspended, dismissed

    class Meta:
        ordering = ["created_at", "id"]
        constraints = [
            models.UniqueConstraint(
                fields=["reporter", "player", "day"],
                condition=models.Q(game__isnull=True),
                name="one_player_report_per_day",
            ),
            models.UniqueConstraint(
                fields=["reporter", "game", "day"],
                condition=models.Q(game__isnull=False),
                name="one_game_report_per_day",
            ),
            models.CheckConstraint(
                condition=models.Q(player__isnull=False) | models.Q(game__isnull=False),
                name="report_has_a_target",
            ),
        ]

    def __str__(self) -> str:
        target = f"game {self.game_id}" if self.game_id else f"player {self.player_id}"
        return f"report {self.pk} on {target} ({self.status})"
