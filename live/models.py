from django.conf import settings
from django.db import models


class LiveEvent(models.Model):
    """One event for one player: the ``db`` backend's store (polled by the web processes) and
    its replay log for Last-Event-ID. The ``redis`` backend keeps events in Redis streams."""

    user = models.ForeignKey(settings.AUTH_USER_MODEL, on_delete=models.CASCADE, related_name="+")
    game_id = models.BigIntegerField(null=True, blank=True)
    type = models.CharField(max_length=32)
    data = models.JSONField(default=dict)
    created_at = models.DateTimeField(auto_now_add=True, db_index=True)

    class Meta:
        indexes = [models.Index(fields=["user", "id"], name="live_event_user_id")]

    def __str__(self) -> str:
        return f"{self.type} for user {self.user_id} (#{self.pk})"
