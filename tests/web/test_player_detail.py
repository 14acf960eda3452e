"""Issue 26's small points through Django's test client: no countdown while the computer
plays, no chat against computers only, the favicon, the Daily Puzzle's "day before" only when
there is one, a game over that says how it ended with Play again (same seats, turn time,
rating and settings), names that link to profiles, "My profile" in the menu."""

from __future__ import annotations

import re
from datetime import timedelta

import pytest

from games import services
from games.models import Game

pytestmark = pytest.mark.django_db


def test_no_chat_and_no_countdown_against_the_computer(client, alice, ai_queue):
    client.force_login(alice)
    for _ in range(40):  # until a game where the computer moves first (each: one in two)
        solo = services.create_game(user=alice, opponent={"ai": "beginner"})
        if solo.current_seat == 1:
            break
    else:
        pytest.fail("alice started forty games in a row: the first player is not drawn")
    html = client.get(f"/games/{solo.pk}").content.decode()
    assert 'id="chat"' not in html
    assert "data-countdown" not in html  # the computer is thinking: nothing to count down


def test_chat_and_countdown_between_people(client, alice, bob, human_game):
    client.force_login(bob)  # alice is to move first: bob waits for her, with her clock
    html = client.get(f"/games/{human_game.pk}").content.decode()
    assert 'id="chat"' in html
    assert "data-countdown" in html


def test_names_link_to_profiles_and_my_profile_is_in_the_menu(client, alice, bob, human_game):
    client.force_login(alice)
    html = client.get(f"/games/{human_game.pk}").content.decode()
    assert 'class="name" href="/players/bob"' in html
    assert 'href="/players/alice" id="my-profile"' in html
    assert 'href="/report?player=bob"' in html
    profile = client.get("/players/bob").content.decode()
    assert 'id="report-player"' in profile and 'data-block="block"' in profile


def test_the_favicon(client):
    html = client.get("/signin").content.decode()
    assert 'rel="icon"' in html and "favicon.svg" in html
    response = client.get("/favicon.ico")
    assert response.status_code == 301 and response.url.endswith("favicon.svg")


def test_the_day_before_is_offered_only_when_it_had_a_puzzle(client, alice):
    from games.crazy10s.puzzles import services as puzzles
    from games.crazy10s.puzzles.selectors import utc_today

    client.force_login(alice)
    today = client.get("/puzzle").content.decode()
    assert 'id="day-before"' not in today  # the first day
    yesterday = utc_today() - timedelta(days=1)
    puzzles.ensure_puzzle(yesterday)
    today = client.get("/puzzle").content.decode()
    assert f'href="/puzzle/{yesterday.isoformat()}" id="day-before"' in today


def test_a_resignation_says_who_resigned_with_the_final_scores(client, alice, bob, human_game):
    services.resign(game_id=human_game.pk, user=bob)
    client.force_login(alice)
    html = client.get(f"/games/{human_game.pk}").content.decode()
    assert 'id="game-over"' in html
    assert f"{bob.public_name} resigned." in html
    assert 'id="final-scores"' in html and 'id="play-again"' in html
    client.force_login(bob)
    assert "You resigned." in client.get(f"/games/{human_game.pk}").content.decode()


def test_play_again_starts_the_same_game_and_a_running_one_is_refused(
    client, alice, bob, human_game
):
    client.force_login(alice)
    before = Game.objects.count()
    refused = client.post(f"/games/{human_game.pk}/again")
    assert refused.status_code == 409 and Game.objects.count() == before
    services.resign(game_id=human_game.pk, user=bob)
    response = client.post(f"/games/{human_game.pk}/again")
    assert response.status_code == 302
    again = Game.objects.get(pk=int(response.url.rsplit("/", 1)[1]))
    old = Game.objects.get(pk=human_game.pk)
    assert (again.kind, again.options, again.turn_hours, again.rated) == (
        old.kind, old.options, old.turn_hours, old.rated)
    assert {s.user.username for s in again.seats.all()} == {"alice", "bob"}
    client.force_login(bob)  # not bob's to start again from alice's seat: his own
    assert client.post(f"/games/{human_game.pk}/again").status_code == 302


def _again_token(client, game_id: int) -> str:
    html = client.get(f"/games/{game_id}").content.decode()
    match = re.search(r'name="again_token" value="([^"]+)"', html)
    assert match, "the game over's Play again form carries a one-time token"
    return match.group(1)


def test_play_again_twice_with_one_token_makes_one_game_and_a_new_page_another(
    client, alice, bob, human_game
):
    services.resign(game_id=human_game.pk, user=bob)
    client.force_login(alice)
    token = _again_token(client, human_game.pk)
    before = Game.objects.count()
    first = client.post(f"/games/{human_game.pk}/again", {"again_token": token})
    second = client.post(f"/games/{human_game.pk}/again", {"again_token": token})
    assert first.status_code == second.status_code == 302
    assert second.url == first.url  # the double click lands on the first click's game
    assert Game.objects.count() == before + 1
    again = Game.objects.get(pk=int(first.url.rsplit("/", 1)[1]))
    assert {s.user.username for s in again.seats.all()} == {"alice", "bob"}

    fresh = _again_token(client, human_game.pk)  # a new page load: a new token, a new game
    assert fresh != token
    third = client.post(f"/games/{human_game.pk}/again", {"again_token": fresh})
    assert third.status_code == 302 and third.url != first.url
    assert Game.objects.count() == before + 2

    client.force_login(bob)  # bob's own click with the same token is his own game
    assert client.post(f"/games/{human_game.pk}/again", {"again_token": token}).url not in (
        first.url, third.url)
    assert Game.objects.count() == before + 3


def test_play_again_with_a_malformed_token_changes_nothing(client, alice, bob, human_game):
    services.resign(game_id=human_game.pk, user=bob)
    client.force_login(alice)
    before = Game.objects.count()
    response = client.post(f"/games/{human_game.pk}/again", {"again_token": "<script>"})
    assert response.status_code == 400 and Game.objects.count() == before


def test_play_again_of_someone_else_s_game_is_refused(client, carol, alice, bob, human_game):
    services.resign(game_id=human_game.pk, user=bob)
    client.force_login(carol)
    before = Game.objects.count()
    assert client.post(f"/games/{human_game.pk}/again").status_code == 403
    assert Game.objects.count() == before


@pytest.mark.parametrize(("language", "queen", "jack"), [
    ("en", "Q", "J"), ("de", "D", "B"), ("fr", "D", "V"), ("pt-br", "D", "V"),
])
def test_card_faces_use_the_language_s_letters_and_the_notation_stays(language, queen, jack):
    from django.utils import translation

    from web.crazy_eights import card

    with translation.override(language):
        qs, jh = card("QS"), card("JH")
    assert f"<b>{queen}</b>" in qs["face"] and f"<b>{jack}</b>" in jh["face"]
    assert (qs["name"], jh["name"]) == ("QS", "JH")  # what the page sends to the API


def test_crazy_eights_how_to_play_tells_taps_not_notation(client, alice, ai_queue):
    game = services.create_game(user=alice, kind="crazy_eights", opponents=["cautious"])
    client.force_login(alice)
    html = client.get(f"/games/{game.pk}").content.decode()
    howto = html.split('id="how-to-play"', 1)[1]
    assert "Tap a card of your hand" in howto
    assert "8S/H" not in howto and "write take" not in howto and "Notation" not in howto
    api = client.get(f"/api/v1/games/{game.pk}/how-to-play").json()
    assert any("8S/H" in s["text"] for s in api["sections"])  # the API still teaches notation


def test_the_german_name_of_the_card_game_follows_the_seed(client, alice):
    client.force_login(alice)
    client.post("/language", {"language": "de", "next": "/games/new"})
    assert "Crazy 8s" in client.get("/games/new").content.decode()


def test_the_first_crazy10s_game_has_its_tips_the_second_not(client, alice, ai_queue):
    client.force_login(alice)
    first = services.create_game(user=alice, opponent={"ai": "beginner"})
    html = client.get(f"/games/{first.pk}").content.decode()
    assert 'id="first-tips"' in html and html.count("<li>", html.index('id="first-tips"'),
                                                       html.index("first-tips-close")) == 3
    second = services.create_game(user=alice, opponent={"ai": "beginner"})
    assert 'id="first-tips"' not in client.get(f"/games/{second.pk}").content.decode()


def test_the_tips_are_not_shown_once_the_first_game_is_over(client, alice, bob, human_game):
    services.resign(game_id=human_game.pk, user=bob)
    client.force_login(alice)
    assert 'id="first-tips"' not in client.get(f"/games/{human_game.pk}").content.decode()


def _queries(client, url: str) -> int:
    from django.db import connection
    from django.test.utils import CaptureQueriesContext

    with CaptureQueriesContext(connection) as captured:
        assert client.get(url).status_code == 200
    return len(captured)


def test_the_games_lists_and_badge_cost_the_same_queries_whatever_the_games(
    client, alice, bob, ai_queue
):
    client.force_login(alice)
    services.create_game(user=alice, opponent={"username": "bob"})
    one = (_queries(client, "/games/lists"), _queries(client, "/games/badge"))
    for _ in range(3):
        services.create_game(user=alice, opponent={"username": "bob"})
        services.create_game(user=alice, opponent={"ai": "beginner"})
    assert (_queries(client, "/games/lists"), _queries(client, "/games/badge")) == one


def test_a_game_over_costs_the_same_queries_whatever_its_length(client, alice, bob, ai_queue):
    from tests.browser.helpers import a_legal_move

    client.force_login(alice)

    def finished_after(moves: int) -> int:
        game = services.create_game(user=alice, opponent={"username": "bob"})
        for _ in range(moves):
            game.refresh_from_db()
            user = alice if game.current_seat == 0 else bob
            services.submit_move(game_id=game.pk, user=user, move=a_legal_move(game.pk) or "pass",
                                 expected_move_number=game.move_number)
        services.resign(game_id=game.pk, user=bob)
        return _queries(client, f"/games/{game.pk}/panel")

    assert finished_after(2) == finished_after(6)
