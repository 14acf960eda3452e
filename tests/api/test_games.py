"""POST/GET games, GET games/{id} (ETag, query counts), preview, resign and how-to-play."""

import pytest
from rest_framework.test import APIClient

from games import services
from games.crazy10s import engine, levels
from games.models import Game
from tests.helpers import assert_error

pytestmark = pytest.mark.django_db


def test_create_against_the_computer(alice_client, fixed_seed, ai_queue):
    response = alice_client.post(
        "/api/v1/games",
        {"kind": "crazy10s", "opponent": {"ai": "strong"}, "turn_hours": 8, "layout": "classic"},
        format="json",
    )
    assert response.status_code == 201, response.content
    view = response.json()
    assert view["status"] == "active" and view["your_turn"] is True
    assert view["opponent"] == {
        "kind": "computer", "username": None, "display_name": "Computer (Strong)",
        "level": "strong",
        "level_description": levels.description("strong"),
    }
    assert view["opponent"]["level_description"].startswith(
        "Weighs points against the tiles it keeps, swaps wisely and plans the end of the game. "
        "Against a player who always takes the highest score it wins "
    )
    assert view["rack"] == ["0", "1", "2", "3", "5", "5", "5"]
    assert view["opponent_rack_size"] == 7 and view["bag_size"] == 66
    assert len(view["board"]) == 13 and view["board"][6] == "............."
    assert {"square": "g7", "kind": "★"} in view["bonus_squares"]
    assert view["turn_hours"] == 8 and view["deadline"] is not None
    assert view["move_number"] == 0 and view["result"] is None


@pytest.mark.parametrize(
    "body",
    [
        {"opponent": {"ai": "godlike"}},
        {"opponent": {}},
        {"opponent": {"ai": "casual", "random": True}},
        {"opponent": {"random": "yes"}},
        {"opponent": {"random": "true"}},
        {"opponent": {"random": 1}},
        {"opponent": {"random": False}},
        {"opponent": {"ai": "casual"}, "turn_hours": 2},
        {"opponent": {"ai": "casual"}, "layout": "weird"},
        {"kind": "chess", "opponent": {"ai": "casual"}},
        # The schema's types only: DRF alone would read "72" as 72 and 7 as "7".
        {"opponent": {"ai": "casual"}, "turn_hours": "72"},
        {"opponent": {"username": 7}},
        {"kind": 0, "opponent": {"ai": "casual"}},
    ],
)
def test_create_refuses_bad_input(alice_client, body):
    assert_error(alice_client.post("/api/v1/games", body, format="json"), 400, "invalid")
    assert Game.objects.count() == 0


@pytest.mark.parametrize(
    ("username", "code"), [("nobody", "unknown_player"), ("alice", "cannot_play_yourself")]
)
def test_create_refuses_an_opponent_by_a_rule_with_its_own_code(alice_client, username, code):
    """A well-formed request refused by a rule (not by its shape) says which rule."""
    body = {"opponent": {"username": username}}
    error = assert_error(alice_client.post("/api/v1/games", body, format="json"), 400, code)
    assert error["details"] == {"username": ["unknown player" if code == "unknown_player"
                                             else "yourself"]}
    assert Game.objects.count() == 0


def test_create_takes_json_only(alice_client):
    """Games nest objects (opponent, tiles), which a form cannot carry: forms are refused."""
    response = alice_client.post("/api/v1/games", {"turn_hours": "72"}, format="multipart")
    assert_error(response, 415, "unsupported_media_type")
    assert Game.objects.count() == 0


def test_random_opponent_over_http(alice_client, bob_client):
    waiting = alice_client.post("/api/v1/games", {"opponent": {"random": True}}, format="json")
    assert waiting.status_code == 201 and waiting.json()["status"] == "waiting"
    assert waiting.json()["opponent"] is None and waiting.json()["your_turn"] is False
    paired = bob_client.post("/api/v1/games", {"opponent": {"random": True}}, format="json")
    assert paired.json()["id"] == waiting.json()["id"] and paired.json()["status"] == "active"
    assert paired.json()["opponent"]["username"] == "alice"


def test_no_token_is_401(api_client, human_game):
    for method, url in [
        ("get", "/api/v1/games"),
        ("post", "/api/v1/games"),
        ("get", f"/api/v1/games/{human_game.pk}"),
        ("get", f"/api/v1/games/{human_game.pk}/moves"),
        ("post", f"/api/v1/games/{human_game.pk}/moves"),
        ("post", f"/api/v1/games/{human_game.pk}/preview"),
        ("post", f"/api/v1/games/{human_game.pk}/resign"),
        ("get", f"/api/v1/games/{human_game.pk}/how-to-play"),
    ]:
        assert getattr(api_client, method)(url).status_code == 401, url


def test_strangers_get_403_and_unknown_games_404(carol_client, human_game):
    for method, url in [
        ("get", f"/api/v1/games/{human_game.pk}"),
        ("get", f"/api/v1/games/{human_game.pk}/moves"),
        ("post", f"/api/v1/games/{human_game.pk}/preview"),
        ("post", f"/api/v1/games/{human_game.pk}/resign"),
        ("get", f"/api/v1/games/{human_game.pk}/how-to-play"),
    ]:
        body = {"move": "pass"} if url.endswith("preview") else None
        assert_error(getattr(carol_client, method)(url, body, format="json"), 403, "not_a_player")
    assert_error(carol_client.get("/api/v1/games/999999"), 404, "not_found")
    assert_error(carol_client.get(f"/api/v1/games/{2**63}"), 404, "not_found")


def test_list_orders_my_turn_first_and_filters(alice, bob, alice_client, ai_queue, monkeypatch):
    # seat 1 (the other) first
    monkeypatch.setattr("games.services.creation._new_seed", lambda: 20240601)
    theirs = services.create_game(user=alice, opponent={"username": "bob"})
    # seat 0 (alice) first
    monkeypatch.setattr("games.services.creation._new_seed", lambda: 20240602)
    mine = services.create_game(user=alice, opponent={"username": "bob"})
    over = services.create_game(user=alice, opponent={"username": "bob"})
    services.resign(game_id=over.pk, user=bob)
    services.create_game(user=bob, opponent={"ai": "casual"})  # not alice's

    active = alice_client.get("/api/v1/games?status=active").json()
    assert [g["id"] for g in active["results"]] == [mine.pk, theirs.pk]
    assert [g["your_turn"] for g in active["results"]] == [True, False]
    finished = alice_client.get("/api/v1/games?status=finished").json()
    assert [g["id"] for g in finished["results"]] == [over.pk]
    assert finished["results"][0]["result"]["outcome"] == "win"
    everything = alice_client.get("/api/v1/games").json()
    assert everything["count"] == 3 and everything["results"][-1]["id"] == over.pk
    assert_error(alice_client.get("/api/v1/games?status=someday"), 400, "invalid")


def test_list_query_count_does_not_grow_with_games(
    alice, alice_client, ai_queue, django_assert_num_queries
):
    services.create_game(user=alice, opponent={"ai": "casual"})
    with django_assert_num_queries(3):  # token, games and their count, seats+users
        first = alice_client.get("/api/v1/games")
    for _ in range(4):
        services.create_game(user=alice, opponent={"ai": "casual"})
    with django_assert_num_queries(3):
        second = alice_client.get("/api/v1/games")
    assert first.json()["count"] == 1 and second.json()["count"] == 5


def test_detail_etag_and_304(human_game, alice_client, django_assert_num_queries):
    first = alice_client.get(f"/api/v1/games/{human_game.pk}")
    assert first.status_code == 200 and first["ETag"].startswith('"')
    with django_assert_num_queries(3):  # token, game, seats+users (last_seen is fresh)
        same = alice_client.get(f"/api/v1/games/{human_game.pk}", HTTP_IF_NONE_MATCH=first["ETag"])
    assert same.status_code == 304 and same["ETag"] == first["ETag"] and not same.content
    alice_client.post(
        f"/api/v1/games/{human_game.pk}/moves",
        {"move": "pass", "expected_move_number": 0},
        format="json",
    )
    changed = alice_client.get(f"/api/v1/games/{human_game.pk}", HTTP_IF_NONE_MATCH=first["ETag"])
    assert changed.status_code == 200 and changed["ETag"] != first["ETag"]


def test_detail_records_that_the_player_looked(human_game, bob_client):
    assert human_game.seats.get(index=1).last_seen_at is None
    bob_client.get(f"/api/v1/games/{human_game.pk}")
    assert human_game.seats.get(index=1).last_seen_at is not None
    assert human_game.seats.get(index=0).last_seen_at is None


def test_preview(human_game, alice_client):
    url = f"/api/v1/games/{human_game.pk}/preview"
    good = alice_client.post(url, {"move": "g7=5 h7=5"}, format="json")
    assert good.status_code == 200
    assert good.json()["legal"] is True and good.json()["score"] == 20
    assert good.json()["lines"][0]["values"] == [5, 5]
    bad = alice_client.post(url, {"tiles": [{"square": "a1", "digit": 5}]}, format="json")
    assert bad.json()["legal"] is False
    assert bad.json()["error"]["code"] == "first_move_too_short"
    assert_error(alice_client.post(url, {}, format="json"), 400, "invalid")


def test_resign(human_game, alice_client, bob_client):
    response = bob_client.post(f"/api/v1/games/{human_game.pk}/resign")
    assert response.status_code == 200
    assert response.json()["status"] == "finished"
    assert response.json()["result"]["outcome"] == "loss"
    assert alice_client.get(f"/api/v1/games/{human_game.pk}").json()["result"]["outcome"] == "win"
    assert_error(bob_client.post(f"/api/v1/games/{human_game.pk}/resign"), 409, "game_over")
    assert_error(alice_client.post(
        f"/api/v1/games/{human_game.pk}/preview", {"move": "pass"}, format="json"
    ), 409, "game_over")


def test_how_to_play(human_game, alice_client):
    body = alice_client.get(f"/api/v1/games/{human_game.pk}/how-to-play").json()
    assert body["language"] == "en" and body["title"] == "How to play Crazy10s"
    assert len(body["sections"]) >= 5 and all(s["text"] for s in body["sections"])
    assert {"square": "a1", "kind": "TL"} in body["bonus_squares"]
    assert {b["kind"] for b in body["bonus_kinds"]} == {"DN", "TN", "DL", "TL", "★"}


def test_how_to_play_lists_this_games_own_squares_on_a_random_layout(alice_client):
    created = alice_client.post(
        "/api/v1/games", {"opponent": {"ai": "casual"}, "layout": "random"}, format="json"
    ).json()
    shown = alice_client.get(f"/api/v1/games/{created['id']}").json()["bonus_squares"]
    listed = alice_client.get(f"/api/v1/games/{created['id']}/how-to-play").json()
    assert listed["bonus_squares"] == shown
    classic = [{"square": n, "kind": k} for n, k in engine.classic_layout(13).bonus_squares()]
    assert shown != classic


def test_writes_are_throttled_per_user_and_say_how_much_is_left(alice_client, monkeypatch):
    from rest_framework.settings import api_settings

    monkeypatch.setitem(api_settings.DEFAULT_THROTTLE_RATES, "game_writes", "2/min")
    answers = [alice_client.post("/api/v1/games", {"opponent": {"ai": "nope"}}, format="json")
               for _ in range(2)]
    assert [(r["RateLimit-Limit"], r["RateLimit-Remaining"]) for r in answers] == [
        ("2", "1"), ("2", "0")
    ]
    assert 1 <= int(answers[0]["RateLimit-Reset"]) <= 60
    refused = alice_client.post("/api/v1/games", {"opponent": {"ai": "casual"}}, format="json")
    error = assert_error(refused, 429, "throttled")
    assert error["details"]["wait"] > 0
    assert 1 <= int(refused["Retry-After"]) <= 60 and refused["RateLimit-Remaining"] == "0"
    read = alice_client.get("/api/v1/games")
    assert read.status_code == 200 and "RateLimit-Limit" not in read  # reads are not throttled


def test_schema_documents_every_games_endpoint():
    client = APIClient()
    schema = client.get("/api/v1/schema/", HTTP_ACCEPT="application/json").json()
    paths = schema["paths"]
    assert set(paths["/api/v1/games"]) >= {"get", "post"}
    assert set(paths["/api/v1/games/{game_id}/moves"]) >= {"get", "post"}
    for path in ("", "/preview", "/resign", "/how-to-play"):
        assert f"/api/v1/games/{{game_id}}{path}" in paths
    moves = paths["/api/v1/games/{game_id}/moves"]["post"]["responses"]
    assert {"201", "400", "401", "403", "404", "409", "429"} <= set(moves)
