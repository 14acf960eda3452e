"""The moderation log: every action a moderator takes, with who, what and when (append-only)."""

from django.conf import settings
from django.db import models


class ModerationAction(models.Model):
    class Action(models.TextChoices):
        ABORT_GAME = "abort_game", "Abort game"
        AWARD_GAME = "award_game", "Award game"
        REQUEUE_AI_TURN = "requeue_ai_turn", "Re-queue computer turn"
        SUSPEND_USER = "suspend_user", "Suspend user"
        REMOVE_CHAT_MESSAGE = "remove_chat_message", "Remove chat message"
        MUTE_CHAT = "mute_chat", "Mute from chat"

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
    reason = models.CharField(max_length=500, blank=True)
    details = models.JSONField(default=dict, blank=True)
    created_at = models.DateTimeField(auto_now_add=True, db_index=True)

    class Meta:
        ordering = ["-created_at", "-id"]

    def __str__(self) -> str:
        target = f"game {self.game_id}" if self.game_id else f"user {self.target_user_id}"
        return f"{self.get_action_display()} on {target} by {self.moderator_id}"
