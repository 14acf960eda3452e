from django.apps import AppConfig


class SocialConfig(AppConfig):
    """Chat, rematches, friends, blocking, ratings and profiles."""

    name = "social"
    verbose_name = "Playing with people"
    default_auto_field = "django.db.models.BigAutoField"
