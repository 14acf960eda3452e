from django.apps import AppConfig


class SocialConfig(AppConfig):
    """Chat, rematches, friends, blocking, ratings and profiles (issues 14 and 15)."""

    name = "social"
    verbose_name = "Playing with people"
    default_auto_field = "django.db.models.BigAutoField"

    def ready(self) -> None:
        from social import receivers

        receivers.connect()
