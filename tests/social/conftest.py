import pytest

from live.models import LiveEvent
from tests.live.conftest import live_backend  # noqa: F401  (both live backends, for streams)


@pytest.fixture
def db_backend(settings):
    """Live events in the database table, so tests can read what each player received."""
    settings.LIVE_BACKEND = "db"


def events_of(user, type_: str | None = None) -> list[dict]:
    rows = LiveEvent.objects.filter(user=user).order_by("pk")
    return [e.data for e in rows if type_ is None or e.type == type_]


@pytest.fixture
def finished_game(human_game, alice, django_capture_on_commit_callbacks):
    """alice (seat 0, moved first... resigned at once) vs bob: finished, bob won."""
    from games import services

    with django_capture_on_commit_callbacks(execute=True):
        services.resign(game_id=human_game.pk, user=alice)
    human_game.refresh_from_db()
    return human_game
