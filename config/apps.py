"""The project's own app: what hooks into the frameworks once, at start-up."""

from django.apps import AppConfig


class ProjectConfig(AppConfig):
    name = "config"
    label = "project"
    verbose_name = "Crazy10s Online"

    def ready(self) -> None:
        from django.core.signals import got_request_exception
        from django.db.backends.signals import connection_created

        from config import pg_loaders, unavailable, unknown_fields

        unknown_fields.install()  # every API body: fields nobody takes are refused
        # A database or Redis outage raised in a middleware answers 503, not Django's 500.
        got_request_exception.connect(
            unavailable.note_request_exception, dispatch_uid="config.unavailable"
        )
        # PostgreSQL's timestamps parsed by psycopg's C loader, not Django's Python one.
        connection_created.connect(pg_loaders.install, dispatch_uid="config.pg_loaders")
