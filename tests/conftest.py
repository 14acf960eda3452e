import itertools

import pytest
from django.core.cache import cache
from rest_framework.authtoken.models import Token
from rest_framework.test import APIClient

from tests.helpers import PASSWORD

_counter = itertools.count(1)


@pytest.fixture(autouse=True)
def _clear_cache():
    """Throttle counters live in the cache: start every test with a clean one."""
    cache.clear()
    yield
    cache.clear()


@pytest.fixture
def api_client():
    return APIClient()


@pytest.fixture
def user_factory(db, django_user_model):
    def create(username: str | None = None, **fields):
        n = next(_counter)
        username = username or f"player{n}"
        fields.setdefault("email", f"{username}@example.test")
        return django_user_model.objects.create_user(
            username=username, password=fields.pop("password", PASSWORD), **fields
        )

    return create


@pytest.fixture
def make_client(db):
    """``make_client(user)`` -> an APIClient authenticated with the user's token."""

    def create(user) -> APIClient:
        token, _ = Token.objects.get_or_create(user=user)
        client = APIClient()
        client.credentials(HTTP_AUTHORIZATION=f"Token {token.key}")
        client.token = token.key
        return client

    return create


@pytest.fixture
def alice(user_factory):
    return user_factory("alice", display_name="Alice")


@pytest.fixture
def alice_client(make_client, alice):
    return make_client(alice)
