"""Guessing table codes is throttled: lookups and joins of codes that name no table count per
user and per client address; past either rate every request by code (even of a real table,
which would tell the guesser it exists) answers 429 with Retry-After. Tables one was given are
never counted."""

import pytest
from rest_framework.settings import api_settings

from games.tables.models import TableSeat
from tests.helpers import assert_error

pytestmark = pytest.mark.django_db

@pytest.fixture(autouse=True)
def _small_rates(monkeypatch):
    monkeypatch.setitem(api_settings.DEFAULT_THROTTLE_RATES, "table_misses", "5/hour")
    monkeypatch.setitem(api_settings.DEFAULT_THROTTLE_RATES, "table_misses_address", "8/hour")


@pytest.fixture
def table(alice_client):
    r = alice_client.post("/api/v1/tables", {"target": 100}, format="json")
    assert r.status_code == 201, r.content
    return r.json()


def test_unknown_codes_are_throttled_per_user(bob_client, table):
    for i in range(5):
        assert_error(bob_client.get(f"/api/v1/tables/ZZZZ{i:04d}"), 404, "table_not_found")
    refused = bob_client.post("/api/v1/tables/ZZZZ0009/join")
    error = assert_error(refused, 429, "throttled")
    assert int(refused["Retry-After"]) == error["details"]["retry_after"] > 0
    # A real table is refused too: a 200 would tell the guesser which codes exist...
    assert_error(bob_client.get(f"/api/v1/tables/{table['code']}"), 429, "throttled")
    joined = bob_client.post(f"/api/v1/tables/{table['code']}/join")
    assert_error(joined, 429, "throttled")
    assert not TableSeat.objects.filter(user__username="bob").exists()  # and nothing changed


def test_a_player_opening_real_tables_is_never_counted(bob_client, table):
    for _ in range(20):
        assert bob_client.get(f"/api/v1/tables/{table['code']}").status_code == 200
    assert bob_client.post(f"/api/v1/tables/{table['code']}/join").status_code == 200


def test_unknown_codes_are_throttled_per_address_across_accounts(make_client, user_factory,
                                                                  table):
    """Many accounts from one address (the rate per address is the larger one)."""
    statuses = []
    for n in range(10):
        client = make_client(user_factory(f"guesser{n}"))
        statuses.append(client.get(f"/api/v1/tables/YYYY{n:04d}").status_code)
    assert statuses == [404] * 8 + [429] * 2
    other = make_client(user_factory("carol"))
    assert_error(other.get(f"/api/v1/tables/{table['code']}"), 429, "throttled")


def test_the_table_page_is_throttled_too(client, user_factory):
    client.force_login(user_factory("erin"))
    for i in range(5):
        assert client.get(f"/tables/QQQQ{i:04d}").status_code == 404
    page = client.get("/tables/QQQQ0099")
    assert page.status_code == 429 and int(page["Retry-After"]) > 0
    assert b'data-code="throttled"' in page.content
