"""Ratings are applied once per finished rated game between people; never for computer,
aborted or casual games; the API shows them with their history."""

import pytest

from games import dispatch, services
from games.models import Game
from social.models import Block, RatedGame, Rating, RatingChange
from social.services import ratings
from tests.helpers import assert_error


@pytest.fixture
def queued_ratings(monkeypatch):
    sent: list[int] = []
    monkeypatch.setattr(dispatch, "enqueue_rating", lambda game_id: sent.append(game_id))
    return sent


def _resign(game, user, capture):
    with capture(execute=True):
        services.resign(game_id=game.pk, user=user)
    game.refresh_from_db()


def test_a_finished_game_queues_its_rating_through_dispatch(
    human_game, alice, queued_ratings, django_capture_on_commit_callbacks
):
    _resign(human_game, alice, django_capture_on_commit_callbacks)
    assert queued_ratings == [human_game.pk]


def test_the_rating_task_rates_both_players_once(
    human_game, alice, bob, queued_ratings, django_capture_on_commit_callbacks
):
    _resign(human_game, alice, django_capture_on_commit_callbacks)
    assert ratings.rate_game(game_id=human_game.pk) is True
    assert ratings.rate_game(game_id=human_game.pk) is False  # a redelivered task
    a = Rating.objects.get(user=alice, kind="crazy10s")
    b = Rating.objects.get(user=bob, kind="crazy10s")
    assert a.rating < 1500 < b.rating and a.games == b.games == 1
    assert RatingChange.objects.filter(game=human_game).count() == 2
    assert RatedGame.objects.get(game=human_game).applied is True


def test_the_task_itself_runs_the_service(human_game, alice, django_capture_on_commit_callbacks,
                                          settings):
    from social.tasks import rate_game

    _resign(human_game, alice, django_capture_on_commit_callbacks)
    assert rate_game(human_game.pk) is True
    assert rate_game(human_game.pk) is False


def test_the_sweep_rates_a_game_whose_message_was_lost(
    human_game, alice, bob, queued_ratings, django_capture_on_commit_callbacks
):
    from datetime import timedelta

    _resign(human_game, alice, django_capture_on_commit_callbacks)
    queued_ratings.clear()  # the message of the end of the game is lost
    assert ratings.sweep(now=human_game.finished_at + timedelta(seconds=30)) == []  # too soon
    later = human_game.finished_at + timedelta(minutes=10)
    assert ratings.sweep(now=later) == [human_game.pk]
    assert queued_ratings == [human_game.pk]
    assert ratings.rate_game(game_id=human_game.pk) is True
    assert ratings.sweep(now=later) == []
    assert Rating.objects.filter(kind="crazy10s").count() == 2


def test_computer_games_are_never_rated(alice, ai_queue, fixed_seed, queued_ratings,
                                        django_capture_on_commit_callbacks):
    game = services.create_game(user=alice, opponent={"ai": "strong"}, rated=True)
    assert game.rated is False
    _resign(game, alice, django_capture_on_commit_callbacks)
    assert ratings.rate_game(game_id=game.pk) is False
    assert not Rating.objects.exists() and not RatingChange.objects.exists()
    assert RatedGame.objects.get(game=game).applied is False


def test_aborted_games_are_never_rated(human_game, queued_ratings):
    services.abort_game(game_id=human_game.pk)
    assert ratings.rate_game(game_id=human_game.pk) is False
    assert not Rating.objects.exists()


def test_casual_games_are_not_rated(alice, bob, ai_queue, fixed_seed, queued_ratings,
                                    django_capture_on_commit_callbacks):
    game = services.create_game(user=alice, opponent={"username": "bob"}, rated=False)
    _resign(game, alice, django_capture_on_commit_callbacks)
    assert ratings.rate_game(game_id=game.pk) is False
    assert not Rating.objects.exists()


def test_an_active_game_is_not_rated(human_game):
    assert ratings.rate_game(game_id=human_game.pk) is False
    assert not RatedGame.objects.exists()


def test_the_score_margin_counts_in_crazy10s(human_game, alice, bob, queued_ratings,
                                            django_capture_on_commit_callbacks):
    _resign(human_game, alice, django_capture_on_commit_callbacks)
    Game.objects.filter(pk=human_game.pk).update(
        result={**human_game.result, "scores": [10, 130]}
    )
    ratings.rate_game(game_id=human_game.pk)
    assert RatingChange.objects.get(user=bob).score == pytest.approx(1.0)
    assert RatingChange.objects.get(user=alice).score == pytest.approx(0.0)


def test_a_resignation_while_ahead_is_the_narrowest_win(human_game, alice, bob, queued_ratings,
                                                       django_capture_on_commit_callbacks):
    _resign(human_game, alice, django_capture_on_commit_callbacks)
    Game.objects.filter(pk=human_game.pk).update(
        result={**human_game.result, "scores": [60, 20]}
    )
    ratings.rate_game(game_id=human_game.pk)
    assert RatingChange.objects.get(user=bob).score == pytest.approx(0.8)


def test_create_game_api_takes_rated(alice_client, bob, ai_queue):
    casual = alice_client.post("/api/v1/games", {"opponent": {"username": "bob"},
                                                 "rated": False}, format="json")
    assert casual.status_code == 201 and casual.json()["rated"] is False
    rated = alice_client.post("/api/v1/games", {"opponent": {"username": "bob"}}, format="json")
    assert rated.json()["rated"] is True
    bad = alice_client.post("/api/v1/games", {"opponent": {"username": "bob"}, "rated": "yes"},
                            format="json")
    assert_error(bad, 400, "invalid")
    assert Game.objects.count() == 2


def test_ratings_endpoint_with_history(human_game, alice, bob, bob_client, alice_client,
                                       queued_ratings, django_capture_on_commit_callbacks):
    _resign(human_game, alice, django_capture_on_commit_callbacks)
    ratings.rate_game(game_id=human_game.pk)
    body = alice_client.get("/api/v1/players/bob/ratings").json()
    (rating,) = body["ratings"]
    assert rating["kind"] == "crazy10s" and rating["rating"] > 1500 and rating["games"] == 1
    assert rating["provisional"] is True
    (change,) = body["history"]
    assert change["game"] == human_game.pk and change["rating_before"] == 1500
    assert change["score"] == 0.8  # a resignation at 0-0: the narrowest win
    assert_error(alice_client.get("/api/v1/players/nobody/ratings"), 404, "player_not_found")


def test_random_pairing_prefers_close_ratings(user_factory, ai_queue):
    me = user_factory("me")
    far, close = user_factory("far"), user_factory("close")
    Rating.objects.create(user=me, kind="crazy10s", rating=1800)
    Rating.objects.create(user=far, kind="crazy10s", rating=1200)
    Rating.objects.create(user=close, kind="crazy10s", rating=1750)
    Block.objects.create(blocker=far, blocked=close)  # so that these two wait side by side
    older = services.create_game(user=far, opponent={"random": True})
    newer = services.create_game(user=close, opponent={"random": True})
    assert older.status == newer.status == Game.Status.WAITING
    paired = services.create_game(user=me, opponent={"random": True})
    assert paired.pk == newer.pk  # the closer rating, although it waited less


def test_random_pairing_keeps_rated_and_casual_apart(user_factory, ai_queue):
    a, b = user_factory("a1"), user_factory("b1")
    waiting = services.create_game(user=a, opponent={"random": True}, rated=False)
    mine = services.create_game(user=b, opponent={"random": True}, rated=True)
    assert mine.pk != waiting.pk and mine.status == Game.Status.WAITING
    casual = services.create_game(user=user_factory("c1"), opponent={"random": True},
                                  rated=False)
    assert casual.pk == waiting.pk
