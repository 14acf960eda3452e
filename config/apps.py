"""The project's own app: what hooks into the frameworks once, at start-up."""

from django.apps import AppConfig


class ProjectConfig(AppConfig):
    name = "config"
    label = "project"
    verbose_name = "Crazy10s Online"

    def ready(self) -> None:
        from config import unknown_fields

        unknown_fields.install()  # every API body: fields nobody takes are refused
