import itertools
import time
import weakref
from collections import defaultdict

import pytest
from django.conf import settings as django_settings
from django.core.cache import cache
from django.test import override_settings
from rest_framework.test import APIClient

from tests.django_env import assert_test_cache
from tests.helpers import PASSWORD

_counter = itertools.count(1)

# Plain storage for the suite: the manifest storage needs `collectstatic` first and raises for
# any file missing from its manifest with DEBUG off (tests/test_static_files.py runs it once).
PLAIN_STATIC_STORAGES = {
    **django_settings.STORAGES,
    "staticfiles": {"BACKEND": "django.contrib.staticfiles.storage.StaticFilesStorage"},
}


# What the post_migrate handlers of contenttypes and auth would only make again after a flush
# (the models' content types and permissions, the same for the whole run): kept, and then
# there is nothing for those handlers to do (``_post_migrate_unless_only_django``).
KEPT_BY_FLUSH = {"django_content_type", "auth_permission"}
# Whether a database's last flush kept them (the fast one did; Django's own, asked for a
# sequence reset or a cascade, did not).
_last_flush_kept_rows: dict[str, bool] = defaultdict(bool)
DJANGO_POST_MIGRATE = {"django.contrib.auth.management", "django.contrib.contenttypes.management"}


def _post_migrate_unless_only_django(original):
    """Django's flush sends post_migrate after every transactional test, for contenttypes and
    auth to make their rows again (~0.3-0.8 s of queries on a busy machine). With those rows
    kept (``KEPT_BY_FLUSH``) it is skipped, as long as nothing else listens to it: a handler
    that seeds data (another app's) still gets it after every flush."""

    def emit(verbosity, interactive, db, **kwargs):
        from django.db import connections
        from django.db.models.signals import post_migrate

        if connections[db].vendor != "postgresql" or not _last_flush_kept_rows[db]:
            return original(verbosity, interactive, db, **kwargs)  # those tables were emptied

        modules = set()
        for entry in post_migrate.receivers:
            ref = entry[1]
            receiver = ref() if isinstance(ref, weakref.ReferenceType) else ref
            modules.add(getattr(receiver, "__module__", None))
        if modules - {None} - DJANGO_POST_MIGRATE:
            return original(verbosity, interactive, db, **kwargs)

    return emit


FAST_FLUSH_START = "SET CONSTRAINTS ALL DEFERRED;"
RETRY_SQLSTATES = {"55P03", "40P01"}  # lock_not_available, deadlock_detected


def _lock_without_waiting(original):
    """Runs the fast flush, taking its locks with NOWAIT and trying again (for up to 30 s,
    then waiting as TRUNCATE does): a module's or the session's server or worker may still
    be reading one table and about to read another (a stream whose client has gone), and a
    flush holding some tables while it waits for the rest would deadlock with it."""

    def execute_sql_flush(self, sql_list):
        if not sql_list or sql_list[0] != FAST_FLUSH_START:
            return original(self, sql_list)
        from django.db import OperationalError, transaction

        give_up_nowait = time.monotonic() + 30
        while True:
            nowait = time.monotonic() < give_up_nowait
            try:
                with transaction.atomic(using=self.connection.alias):
                    with self.connection.cursor() as cursor:
                        for sql in sql_list:
                            if nowait and sql.startswith("LOCK TABLE"):
                                sql = sql.replace(" MODE;", " MODE NOWAIT;")
                            cursor.execute(sql)
                return
            except OperationalError as error:
                if getattr(error.__cause__, "sqlstate", None) not in RETRY_SQLSTATES:
                    raise
                if not nowait:
                    raise
                time.sleep(0.05)

    return execute_sql_flush


def _delete_instead_of_truncate(original):
    """PostgreSQL's flush (after every transactional test: ``transaction=True``, the browser,
    live and worker tests) is one ``TRUNCATE`` of every table, which makes new files for each
    table and waits for the disk: about 1 s per test on a busy machine, against ~0.05 s for a
    ``DELETE`` of the few rows a test leaves, under the same lock as ``TRUNCATE``'s. Django's
    foreign keys are ``DEFERRABLE INITIALLY DEFERRED`` on PostgreSQL, so deleting table after
    table in one transaction (what ``execute_sql_flush`` runs) is checked once at its commit;
    a non-deferrable key would fail loudly here, not leave rows behind. Sequences are not
    reset either way (``TRUNCATE`` without ``RESTART IDENTITY``); a flush that asks for a
    reset or a cascade keeps Django's statement. ``KEPT_BY_FLUSH`` stays (see above)."""

    def sql_flush(self, style, tables, *, reset_sequences=False, allow_cascade=False):
        _last_flush_kept_rows[self.connection.alias] = not (reset_sequences or allow_cascade)
        if reset_sequences or allow_cascade or not tables:
            return original(self, style, tables, reset_sequences=reset_sequences,
                            allow_cascade=allow_cascade)
        names = [style.SQL_FIELD(self.quote_name(table)) for table in tables
                 if table not in KEPT_BY_FLUSH]
        # TRUNCATE's lock first, on every table at once: a worker or server still running
        # (session or module fixtures) waits for the flush to end instead of slipping a row
        # in between two DELETEs (which would then break a foreign key at the commit).
        return [
            FAST_FLUSH_START,
            f"LOCK TABLE {', '.join(names)} IN ACCESS EXCLUSIVE MODE;",
            *(f"{style.SQL_KEYWORD('DELETE FROM')} {name};" for name in names),
        ]

    return sql_flush


@pytest.fixture(autouse=True, scope="session")
def _fast_flush():
    from django.core.management.commands import flush
    from django.db.backends.postgresql.operations import DatabaseOperations

    original = DatabaseOperations.sql_flush
    original_execute = DatabaseOperations.execute_sql_flush
    original_emit = flush.emit_post_migrate_signal
    DatabaseOperations.sql_flush = _delete_instead_of_truncate(original)
    DatabaseOperations.execute_sql_flush = _lock_without_waiting(original_execute)
    flush.emit_post_migrate_signal = _post_migrate_unless_only_django(original_emit)
    yield
    DatabaseOperations.sql_flush = original
    DatabaseOperations.execute_sql_flush = original_execute
    flush.emit_post_migrate_signal = original_emit


@pytest.fixture(autouse=True, scope="session")
def _plain_static_files():
    with override_settings(STORAGES=PLAIN_STATIC_STORAGES):
        yield


def clear_test_cache() -> None:
    """Flush the cache, after making sure it is this test run's own (see tests/django_env.py)."""
    assert_test_cache(django_settings.CACHES["default"])
    cache.clear()


@pytest.fixture(autouse=True)
def _clear_cache():
    """Throttle counters live in the cache: start every test with a clean one (and with the
    throttles trusting the cache again, whatever an earlier test did to it)."""
    from config import throttling

    throttling._cache_down_until = 0.0
    clear_test_cache()
    yield
    clear_test_cache()
    throttling._cache_down_until = 0.0


@pytest.fixture(autouse=True)
def _broker_trusted():
    """Best-effort messages (the move analysis) are skipped for a while after a refused send in
    the process: a test that made the broker refuse must not silence the next test's."""
    from config import redis_health
    from games import dispatch

    dispatch._last_refusal = float("-inf")
    redis_health.forget()
    yield
    dispatch._last_refusal = float("-inf")
    redis_health.forget()


@pytest.fixture(autouse=True)
def _not_inside_a_task():
    """The test process is never a worker: calling ``.apply().get()`` must work in any order.
    A test that ran Celery's worker-side code in this process (a prefork initializer, a task
    body calling another synchronously) can leave the flag that forbids it set."""
    from celery._state import _set_task_join_will_block

    _set_task_join_will_block(False)
    yield


@pytest.fixture
def api_client():
    return APIClient()


@pytest.fixture
def user_factory(db, django_user_model):
    def create(username: str | None = None, **fields):
        n = next(_counter)
        username = username or f"player{n}"
        fields.setdefault("email", f"{username}@example.test")
        # Fixture players have confirmed their address (game emails go only to verified ones).
        fields.setdefault("email_verified", True)
        return django_user_model.objects.create_user(
            username=username, password=fields.pop("password", PASSWORD), **fields
        )

    return create


@pytest.fixture
def make_client(db):
    """``make_client(user)`` -> an APIClient authenticated with the user's token."""

    def create(user) -> APIClient:
        from accounts import tokens

        _, key = tokens.issue(user=user, name="tests")
        client = APIClient()
        client.credentials(HTTP_AUTHORIZATION=f"Token {key}")
        client.token = key
        return client

    return create


@pytest.fixture
def alice(user_factory):
    return user_factory("alice", display_name="Alice")


@pytest.fixture
def alice_client(make_client, alice):
    return make_client(alice)


# --- games (service-core) -------------------------------------------------------------------
@pytest.fixture
def bob(user_factory):
    return user_factory("bob", display_name="Bob")


@pytest.fixture
def bob_client(make_client, bob):
    return make_client(bob)


@pytest.fixture
def carol(user_factory):
    return user_factory("carol")


@pytest.fixture
def carol_client(make_client, carol):
    return make_client(carol)


@pytest.fixture
def fixed_seed(monkeypatch):
    """New games get this seed: seat 0 moves first, `g7=5 h7=5` is a legal opening (scores 20)."""
    seed = 20240602  # seat 0 moves first; racks 0123555 and 1234668
    monkeypatch.setattr("games.services.creation._new_seed", lambda: seed)
    return seed


@pytest.fixture
def ai_queue(monkeypatch):
    """Record computer turns queued on commit instead of sending them to a broker."""
    from games import dispatch

    queued: list[tuple[int, int]] = []
    monkeypatch.setattr(dispatch, "enqueue_ai_turn", lambda g, n: queued.append((g, n)))
    return queued


@pytest.fixture
def human_game(alice, bob, ai_queue, fixed_seed):
    """An active game alice (seat 0, to move first) vs bob (seat 1)."""
    from games import services

    return services.create_game(user=alice, opponent={"username": "bob"})


@pytest.fixture(autouse=True)
def _fast_password_hashing(settings):
    """PBKDF2 costs ~0.5 s per user on a busy CI core: tests hash with MD5 instead."""
    settings.PASSWORD_HASHERS = ["django.contrib.auth.hashers.MD5PasswordHasher"]


@pytest.fixture
def force_result(db):
    """``force_result(game_id, result, **fields)`` stores ``result`` on the game as it is, past
    the check that refuses a result that does not fit the game's seats
    (``game_result_fits_seats``): a game broken before the check existed. PostgreSQL drops the
    constraint inside the test's transaction (the rollback brings it back); SQLite ignores
    check constraints on the connection until the test ends."""
    from django.db import connection

    from games.models import Game

    dropped = False

    def force(game_id: int, result, **fields) -> None:
        nonlocal dropped
        if not dropped:
            with connection.cursor() as cursor:
                if connection.vendor == "postgresql":
                    cursor.execute("ALTER TABLE games_game DROP CONSTRAINT game_result_fits_seats")
                else:
                    cursor.execute("PRAGMA ignore_check_constraints = ON")
            dropped = True
        Game.objects.filter(pk=game_id).update(result=result, **fields)

    yield force
    if dropped and connection.vendor != "postgresql":
        with connection.cursor() as cursor:
            cursor.execute("PRAGMA ignore_check_constraints = OFF")


@pytest.fixture
def game_effects(monkeypatch):
    """The after-commit effects of game writes, as they are published (``live.game_events``):
    ``(name, game_id, details)`` in order; the events are still published."""
    from live import game_events

    seen: list[tuple[str, int, dict]] = []

    def recorder(name, original, game_id_of):
        def record(*args, **kwargs):
            game_id, details = game_id_of(*args, **kwargs)
            seen.append((name, game_id, details))
            return original(*args, **kwargs)

        return record

    def snapshot(snap, *rest):
        details = {"seat": snap.current_seat, "move_number": snap.move_number}
        if rest:
            details["extra"] = rest[0]
        return snap.game_id, details

    for name in ("game_started", "turn_started", "move_played", "game_finished",
                 "seat_taken_over"):
        monkeypatch.setattr(game_events, name,
                            recorder(name, getattr(game_events, name), snapshot))
    for name in ("move_analysed", "analysis_ready"):
        monkeypatch.setattr(game_events, name, recorder(
            name, getattr(game_events, name),
            lambda **kw: (kw["game_id"], {k: v for k, v in kw.items() if k != "game_id"}),
        ))
    return seen
