from django.apps import AppConfig


class NotificationsConfig(AppConfig):
    default_auto_field = "django.db.models.BigAutoField"
    name = "games.notifications"
    label = "notifications"

    def ready(self) -> None:
        from games import signals
        from games.notifications import receivers

        # Inside the write's transaction: the outbox row commits (or not) with the move.
        signals.recording.connect(receivers.on_recording, dispatch_uid="notify-outbox")
        signals.table_invitation.connect(receivers.on_invitation, dispatch_uid="notify-invite")
