from django.apps import AppConfig


class TablesConfig(AppConfig):
    name = "games.tables"
    label = "tables"
    verbose_name = "Tables with friends"
    default_auto_field = "django.db.models.BigAutoField"
