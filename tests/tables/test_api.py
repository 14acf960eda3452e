"""Tables with friends through the API: create, show, join, leave, deal, back, invite, errors."""

import pytest

from games.models import Game, Seat
from games.notifications.models import Kind, SentNotification
from games.tables.codes import CODE_ALPHABET
from games.tables.models import Table, TableSeat

pytestmark = pytest.mark.django_db


@pytest.fixture
def table(alice_client):
    r = alice_client.post(
        "/api/v1/tables", {"target": 100, "rules": {"actions": True}}, format="json"
    )
    assert r.status_code == 201, r.content
    return r.json()


def test_create_answers_code_share_url_seats_rules_host(table, settings):
    assert len(table["code"]) == 6 and set(table["code"]) <= set(CODE_ALPHABET)
    assert not set(table["code"]) & set("0O1IL")
    assert table["share_url"] == f"{settings.SITE_BASE_URL}/tables/{table['code']}"
    assert table["host"] == "alice"
    assert table["kind"] == "crazy_eights" and table["title"] == "Crazy Eights"
    assert table["options"] == {
        "target": 100, "rules": {"actions": True, "several": True, "classic": False}
    }
    assert table["house_rules"][0] == "The match ends at 100 points."
    assert [s["username"] for s in table["seats"]] == ["alice", None, None, None]
    assert table["status"] == "open" and table["game_id"] is None


@pytest.mark.parametrize("body", [{"target": 150}, {}, {"target": 100, "rules": {"actions": "yes"}},
                                  {"target": "100"}])
def test_bad_create_is_refused_and_creates_nothing(alice_client, body):
    r = alice_client.post("/api/v1/tables", body, format="json")
    assert r.status_code == 400
    assert r.json()["error"]["code"] == "invalid"
    assert not Table.objects.exists()


def test_show_reads_code_case_insensitively(table, bob_client):
    r = bob_client.get(f"/api/v1/tables/ {table['code'].lower()} ")
    assert r.status_code == 200 and r.json()["code"] == table["code"]


def test_unknown_code_404(bob_client):
    for code in ("ZZZZZZ", "O0O0O0", "toolongcode"):
        for suffix in ("", "/join", "/deal", "/leave", "/back"):
            method = bob_client.get if not suffix else bob_client.post
            r = method(f"/api/v1/tables/{code}{suffix}", format="json")
            assert r.status_code == 404, (code, suffix)
            assert r.json()["error"]["code"] == "table_not_found"


def test_join_is_idempotent_and_full_table_409(table, make_client, user_factory):
    code = table["code"]
    clients = [make_client(user_factory(f"p{i}")) for i in range(4)]
    for c in clients[:3]:
        assert c.post(f"/api/v1/tables/{code}/join").status_code == 200
    again = clients[0].post(f"/api/v1/tables/{code}/join")
    assert again.status_code == 200
    assert [s["username"] for s in again.json()["seats"]] == ["alice", "p0", "p1", "p2"]
    r = clients[3].post(f"/api/v1/tables/{code}/join")
    assert r.status_code == 409 and r.json()["error"]["code"] == "table_full"
    assert TableSeat.objects.filter(table__code=code).count() == 4


def test_deal_host_only_then_409(table, bob_client, alice_client, ai_queue):
    code = table["code"]
    bob_client.post(f"/api/v1/tables/{code}/join")
    r = bob_client.post(f"/api/v1/tables/{code}/deal")
    assert r.status_code == 403 and r.json()["error"]["code"] == "not_host"
    assert Game.objects.count() == 0
    r = alice_client.post(f"/api/v1/tables/{code}/deal")
    assert r.status_code == 200, r.content
    body = r.json()
    assert body["status"] == "dealt" and body["game_id"]
    seats = body["seats"]
    assert [s["username"] for s in seats[:2]] == ["alice", "bob"]
    assert [s["is_computer"] for s in seats] == [False, False, True, True]
    game = Game.objects.get(pk=body["game_id"])
    # every empty seat gets a different regular, the configured one first
    computers = [s.ai_level for s in game.seats.order_by("index") if s.ai_level]
    assert computers == ["aggressive", "cautious"]
    assert seats[2]["name"] != seats[3]["name"]
    assert game.kind == "crazy_eights" and game.seat_count == 4 and game.turn_seconds == 30
    assert game.options["target"] == 100
    again = alice_client.post(f"/api/v1/tables/{code}/deal")
    assert again.status_code == 409 and again.json()["error"]["code"] == "already_dealt"
    assert Game.objects.count() == 1
    view = bob_client.get(f"/api/v1/games/{game.pk}").json()
    assert "hand" in view["position"] and len(view["players"]) == 4
    assert "seed" not in str(body) and "hand" not in str(body)


def test_leave_before_deal_frees_seat_and_passes_host(table, alice_client, bob_client):
    code = table["code"]
    bob_client.post(f"/api/v1/tables/{code}/join")
    r = alice_client.post(f"/api/v1/tables/{code}/leave")
    assert r.status_code == 200 and r.json()["host"] == "bob"
    assert [s["username"] for s in r.json()["seats"]] == [None, "bob", None, None]
    r = alice_client.post(f"/api/v1/tables/{code}/leave")
    assert r.status_code == 403 and r.json()["error"]["code"] == "not_seated"
    bob_client.post(f"/api/v1/tables/{code}/leave")
    assert Table.objects.get(code=code).status == "closed"
    assert bob_client.get(f"/api/v1/tables/{code}").json()["status"] == "closed"
    assert bob_client.post(f"/api/v1/tables/{code}/join").status_code == 404


def test_leave_during_match_hands_seat_to_computer_and_join_takes_it_back(
    table, alice_client, bob_client, ai_queue
):
    code = table["code"]
    bob_client.post(f"/api/v1/tables/{code}/join")
    game_id = alice_client.post(f"/api/v1/tables/{code}/deal").json()["game_id"]
    r = bob_client.post(f"/api/v1/tables/{code}/leave")
    assert r.json()["seats"][1]["left"] is True and r.json()["seats"][1]["away"] is True
    players = alice_client.get(f"/api/v1/games/{game_id}").json()["players"]
    assert players[1]["away"] is True
    r = bob_client.post(f"/api/v1/tables/{code}/join")
    assert r.json()["seats"][1]["left"] is False and r.json()["seats"][1]["away"] is False
    # A stranger cannot join a dealt table.
    assert Seat.objects.get(game_id=game_id, index=1).away is False


def test_stranger_cannot_join_dealt_table(table, alice_client, carol_client, ai_queue):
    code = table["code"]
    alice_client.post(f"/api/v1/tables/{code}/deal")
    r = carol_client.post(f"/api/v1/tables/{code}/join")
    assert r.status_code == 409 and r.json()["error"]["code"] == "already_dealt"


def test_last_person_leaving_closes_table_and_aborts_match(
    table, alice_client, bob_client, ai_queue
):
    code = table["code"]
    bob_client.post(f"/api/v1/tables/{code}/join")
    game_id = alice_client.post(f"/api/v1/tables/{code}/deal").json()["game_id"]
    bob_client.post(f"/api/v1/tables/{code}/leave")
    assert Game.objects.get(pk=game_id).status == "active"
    alice_client.post(f"/api/v1/tables/{code}/leave")
    assert Game.objects.get(pk=game_id).status == "aborted"
    assert Table.objects.get(code=code).status == "closed"


def test_back_before_deal_409(table, alice_client):
    r = alice_client.post(f"/api/v1/tables/{table['code']}/back")
    assert r.status_code == 409 and r.json()["error"]["code"] == "not_dealt"


def test_invite_claims_one_email_with_share_link(
    table, alice_client, bob, django_capture_on_commit_callbacks
):
    code = table["code"]
    with django_capture_on_commit_callbacks():
        r = alice_client.post(f"/api/v1/tables/{code}/invite", {"username": "bob"}, format="json")
    assert r.status_code == 200
    alice_client.post(f"/api/v1/tables/{code}/invite", {"username": "bob"}, format="json")
    sent = SentNotification.objects.get(kind=Kind.INVITE)
    assert sent.user == bob and sent.payload["code"] == code
    assert sent.payload["url"].endswith(f"/tables/{code}")
    from games.notifications.emails import content

    bob.language = "de"
    bob.save()
    parts = content(SentNotification.objects.get(pk=sent.pk))
    assert code in " ".join(parts["paragraphs"]) and "lädt" in parts["subject"]


def test_invite_unknown_player_changes_nothing(table, alice_client, bob_client):
    r = alice_client.post(
        f"/api/v1/tables/{table['code']}/invite", {"username": "nobody"}, format="json"
    )
    assert r.status_code == 400 and r.json()["error"]["code"] == "unknown_player"
    r = bob_client.post(
        f"/api/v1/tables/{table['code']}/invite", {"username": "alice"}, format="json"
    )
    assert r.status_code == 403 and r.json()["error"]["code"] == "not_seated"
    assert not SentNotification.objects.exists()


def test_errors_are_translated(table, bob_client):
    r = bob_client.post(f"/api/v1/tables/{table['code']}/deal", HTTP_ACCEPT_LANGUAGE="fr")
    assert r.json()["error"]["code"] == "not_host"
    assert r.json()["error"]["message"] != "Only the host of the table may deal."
