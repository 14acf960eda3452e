"""Watching games: who may (friends; public games of every player; never across a block), the
spectator's view (its own shape: no rack, hand, bag or stock, tested like the players'
views), the spectator count, the chat staying with the players, the setting and the profile's
Watch links."""

import re
from datetime import timedelta

import pytest
from django.utils import timezone

from games import services
from games.correspondence import spectating
from games.correspondence.models import WatchSettings
from games.models import Seat
from social.models import Block, Friendship
from tests.helpers import assert_error

pytestmark = pytest.mark.django_db


@pytest.fixture(autouse=True)
def _creator_moves_first(fixed_seed):
    pass


def _friends(a, b) -> None:
    low, high = sorted((a, b), key=lambda u: u.pk)
    Friendship.objects.create(low=low, high=high, requested_by=a, accepted_at=timezone.now())


def _strings(value) -> list[str]:
    if isinstance(value, dict):
        return [s for v in value.values() for s in _strings(v)] + list(value)
    if isinstance(value, list):
        return [s for v in value for s in _strings(v)]
    return [value] if isinstance(value, str) else []


def test_who_may_watch(alice, bob, carol, carol_client, ai_queue):
    game = services.create_game(user=alice, opponent={"username": "bob"})
    assert_error(carol_client.get(f"/api/v1/games/{game.pk}/watch"), 403, "not_watchable")
    WatchSettings.objects.create(user=alice, public_games=True)
    assert_error(carol_client.get(f"/api/v1/games/{game.pk}/watch"), 403, "not_watchable")
    WatchSettings.objects.create(user=bob, public_games=True)
    assert carol_client.get(f"/api/v1/games/{game.pk}/watch").status_code == 200
    WatchSettings.objects.filter(user=bob).update(public_games=False)
    _friends(carol, bob)
    assert carol_client.get(f"/api/v1/games/{game.pk}/watch").status_code == 200
    Block.objects.create(blocker=alice, blocked=carol)
    assert_error(carol_client.get(f"/api/v1/games/{game.pk}/watch"), 403, "not_watchable")
    assert carol_client.get("/api/v1/games/999999/watch").status_code == 404


def test_players_do_not_watch_their_own_game_and_no_public_default(alice, bob, alice_client,
                                                                    ai_queue):
    game = services.create_game(user=alice, opponent={"username": "bob"})
    assert_error(alice_client.get(f"/api/v1/games/{game.pk}/watch"), 403, "not_watchable")
    assert alice_client.get("/api/v1/me/watching").json() == {"public_games": False}


def test_a_spectator_never_sees_a_rack_or_a_swaps_tiles(alice, bob, carol, carol_client,
                                                         ai_queue):
    _friends(carol, alice)
    game = services.create_game(user=alice, opponent={"username": "bob"})
    services.submit_move(game_id=game.pk, user=alice, move="swap 0 1", expected_move_number=0)
    services.submit_move(game_id=game.pk, user=bob, move="pass", expected_move_number=1)
    body = carol_client.get(f"/api/v1/games/{game.pk}/watch").json()
    assert set(body["position"]) == {"layout", "board", "bonus_squares", "bag_size",
                                     "scoreless_turns", "rack_sizes", "final_racks"}
    assert body["position"]["final_racks"] is None
    assert body["moves"][0]["notation"] != "swap 0 1" and "swap 0 1" not in str(body)
    racks = ["".join(s.private["rack"]) for s in Seat.objects.filter(game=game)]
    text = str(body)
    for rack in racks:
        assert rack not in text
    for key in ("rack", "hand", "seed", "state", "private", "bag"):
        assert key not in _strings(body)


def test_a_spectator_never_sees_a_hand_or_the_stock(alice, carol, carol_client, ai_queue,
                                                     monkeypatch):
    monkeypatch.setattr("games.services.creation._new_seed", lambda: 5)
    _friends(carol, alice)
    game = services.create_game(user=alice, kind="crazy_eights", opponents=["cautious"])
    body = carol_client.get(f"/api/v1/games/{game.pk}/watch").json()
    assert "hand" not in body["position"] and "drawn" not in body["position"]
    seen = {token for s in _strings(body) for token in re.split(r"[ /]", s)}
    hands = [card for seat in Seat.objects.filter(game=game)
             for card in seat.private.get("hand", [])]
    assert len(hands) == 14
    assert not seen & set(hands)


def test_spectators_are_counted_and_kept_out_of_the_chat(client, alice, bob, carol,
                                                          carol_client, ai_queue):
    _friends(carol, bob)
    game = services.create_game(user=alice, opponent={"username": "bob"})
    assert carol_client.get(f"/api/v1/games/{game.pk}/watch").json()["spectators"] == 1
    client.force_login(alice)
    assert "1 person is watching." in client.get(f"/games/{game.pk}").content.decode()
    assert spectating.spectator_count(
        game_id=game.pk, now=timezone.now() + timedelta(minutes=2)
    ) == 0
    assert_error(carol_client.post(f"/api/v1/games/{game.pk}/chat", {"text": "hi"},
                                   format="json"), 403, "not_a_player")


def test_the_setting_from_the_api_and_the_settings_page(client, alice, alice_client):
    assert alice_client.put("/api/v1/me/watching", {"public_games": True},
                            format="json").json() == {"public_games": True}
    assert_error(alice_client.put("/api/v1/me/watching", {"public_games": "yes"},
                                  format="json"), 400, "invalid")
    client.force_login(alice)
    client.post("/settings/watching", {})
    assert WatchSettings.objects.get(user=alice).public_games is False
    client.post("/settings/watching", {"public_games": "on"})
    assert WatchSettings.objects.get(user=alice).public_games is True
    assert 'id="public-games" checked' in client.get("/settings").content.decode()


def test_a_friends_profile_lists_the_games_to_watch(client, alice, bob, carol, ai_queue):
    game = services.create_game(user=alice, opponent={"username": "bob"})
    client.force_login(carol)
    assert f"/games/{game.pk}/watch" not in client.get("/players/alice").content.decode()
    _friends(carol, alice)
    profile = client.get("/players/alice").content.decode()
    assert f'href="/games/{game.pk}/watch"' in profile and ">Watch</a>" in profile
    page = client.get(f"/games/{game.pk}/watch")
    assert page.status_code == 200 and 'id="watch-view"' in page.content.decode()
    client.force_login(bob)  # a player gets no spectator page of their own game
    assert client.get(f"/games/{game.pk}/watch").status_code == 403


def test_after_the_end_a_spectator_still_sees_no_rack_and_no_best_move(
    alice, bob, carol, carol_client, ai_queue
):
    """After a game ended by play its full record is open to its players only: a spectator
    gets neither the final racks nor any seat's best move (which names the tiles it held)."""
    from games.models import Game, Move

    _friends(carol, alice)
    game = services.create_game(user=alice, opponent={"username": "bob"})
    services.submit_move(game_id=game.pk, user=alice, move="g7=5 h7=5", expected_move_number=0)
    Move.objects.filter(game=game).update(best_score=30, best_notation="g7=5 g8=5")
    services.resign(game_id=game.pk, user=bob)
    assert Game.objects.get(pk=game.pk).status == Game.Status.FINISHED
    body = carol_client.get(f"/api/v1/games/{game.pk}/watch").json()
    assert body["position"]["final_racks"] is None
    assert all(m.get("best_notation") is None and m.get("best_score") is None
               for m in body["moves"]), body["moves"]
    text = str(body)
    assert "g7=5 g8=5" not in text
    for seat in Seat.objects.filter(game=game):
        assert "".join(seat.private["rack"]) not in text
    # The players themselves see the record.
    assert "g7=5 g8=5" in str(services_history(game, alice))


def services_history(game, user):
    from games import selectors

    return selectors.move_history(game=game, seat_index=Seat.objects.get(game=game,
                                                                          user=user).index)
