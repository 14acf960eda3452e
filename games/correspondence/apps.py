from django.apps import AppConfig


class CorrespondenceConfig(AppConfig):
    default_auto_field = "django.db.models.BigAutoField"
    name = "games.correspondence"
    label = "correspondence"
    verbose_name = "Correspondence play"
