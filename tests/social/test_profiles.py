"""Profiles: GET players/{username} for signed-in players; hidden profiles; own statistics."""

from games import kinds, services
from games.models import Game
from games.services import analysis
from social.models import Rating
from tests.helpers import assert_error


def _play_and_finish(alice, bob):
    game = services.create_game(user=alice, opponent={"username": "bob"})
    services.submit_move(game_id=game.pk, user=alice, move="g7=5 h7=5", expected_move_number=0)
    services.resign(game_id=game.pk, user=bob)
    return game


def test_profile_shows_games_ratings_best_move_and_puzzle_streak(
    alice, bob, ai_queue, fixed_seed, bob_client, alice_client
):
    game = _play_and_finish(alice, bob)
    Rating.objects.create(user=alice, kind="crazy10s", rating=1612.4, deviation=80, games=1)
    body = bob_client.get("/api/v1/players/alice").json()
    assert body["username"] == "alice" and body["display_name"] == "Alice"
    assert body["member_since"]
    assert body["ratings"] == [{"kind": "crazy10s", "rating": 1612, "deviation": 80,
                                "volatility": 0.06, "games": 1, "provisional": False}]
    stats = body["games"]["crazy10s"]
    assert (stats["played"], stats["won"], stats["average_score"]) == (1, 1, 20.0)
    assert stats["best_move"] == {"score": 20, "notation": "g7=5 h7=5", "game": game.pk}
    assert body["puzzle_streak"] == 0 and body["best_puzzle_streak"] == 0
    assert "statistics" not in body and "hidden" not in body  # only on your own
    mine = alice_client.get("/api/v1/players/alice").json()
    assert mine["statistics"]["crazy10s"] == {"moves": 1, "points_per_move": 20.0,
                                              "best_move_share": None}  # not analysed yet
    assert mine["hidden"] is False
    loser = alice_client.get("/api/v1/players/bob").json()["games"]["crazy10s"]
    assert (loser["played"], loser["won"], loser["best_move"]) == (1, 0, None)


def test_share_of_best_moves(alice, bob, ai_queue, fixed_seed, alice_client):
    """alice plays the best opening in one game and a weaker one in another: once the games'
    analysis has run, half her moves were the best she had."""
    kind = kinds.get("crazy10s")
    opening = kind.new_state(seed=fixed_seed, options=kind.options(layout="classic"), seats=2)
    best = kind.best_move(opening, 0)
    assert best.score > 20  # g7=5 h7=5 (20) is not the best opening here
    for notation in (best.notation, "g7=5 h7=5"):
        game = services.create_game(user=alice, opponent={"username": "bob"})
        services.submit_move(game_id=game.pk, user=alice, move=notation, expected_move_number=0)
        services.resign(game_id=game.pk, user=bob)
    stats = alice_client.get("/api/v1/players/alice").json()["statistics"]["crazy10s"]
    assert stats["best_move_share"] is None  # not analysed yet
    for game in Game.objects.all():
        analysis.analyse_moves(game_id=game.pk)
    stats = alice_client.get("/api/v1/players/alice").json()["statistics"]["crazy10s"]
    assert stats["best_move_share"] == 0.5


def test_hidden_profile(alice, bob, alice_client, bob_client):
    response = alice_client.patch("/api/v1/me/social", {"hide_profile": True}, format="json")
    assert response.json()["hide_profile"] is True
    assert_error(bob_client.get("/api/v1/players/alice"), 403, "profile_hidden")
    assert_error(bob_client.get("/api/v1/players/alice/ratings"), 403, "profile_hidden")
    assert alice_client.get("/api/v1/players/alice").json()["hidden"] is True


def test_signed_in_players_only_and_unknown_players(api_client, alice_client, alice):
    assert_error(api_client.get("/api/v1/players/alice"), 401, "not_authenticated")
    assert_error(alice_client.get("/api/v1/players/nobody"), 404, "player_not_found")


def test_social_settings_bad_input_changes_nothing(alice, alice_client):
    assert_error(alice_client.patch("/api/v1/me/social", {"hide_profile": "yes"},
                                    format="json"), 400, "invalid")
    assert alice_client.get("/api/v1/me/social").json() == {
        "hide_profile": False, "mute_all_chat": False,
    }
