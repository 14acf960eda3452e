"""Moving the test database back to earlier migrations and forward again, for the tests of
data migrations: write rows with the models as they were, then migrate them."""

from __future__ import annotations

from django.apps.registry import Apps
from django.db import connection
from django.db.migrations.executor import MigrationExecutor

Targets = list[tuple[str, str]]


def migrate(targets: Targets) -> None:
    executor = MigrationExecutor(connection)
    executor.loader.build_graph()
    executor.migrate(targets)


def latest() -> Targets:
    """The newest migration of every app."""
    return MigrationExecutor(connection).loader.graph.leaf_nodes()


def apps_at(targets: Targets) -> Apps:
    """The models as they were at ``targets``."""
    return MigrationExecutor(connection).loader.project_state(targets).apps
