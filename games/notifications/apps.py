from django.apps import AppConfig


class NotificationsConfig(AppConfig):
    default_auto_field = "django.db.models.BigAutoField"
    name = "games.notifications"
    label = "notifications"

    def ready(self) -> None:
        from games import signals
        from games.notifications import receivers

        signals.game_started.connect(receivers.on_game_started, dispatch_uid="notify-started")
        signals.turn_started.connect(receivers.on_turn_started, dispatch_uid="notify-turn")
        signals.game_finished.connect(receivers.on_game_finished, dispatch_uid="notify-finished")
