"""The web client's pages through Django's test client: sign up / in / out with the session
the API accepts too, settings, your games, a new game, the game page of each kind."""

import re

import pytest
from django.contrib.auth import get_user_model

from games import services
from tests.helpers import PASSWORD

pytestmark = pytest.mark.django_db


def csrf_client(client):
    client.handler.enforce_csrf_checks = True
    return client


def token_of(response) -> str:
    return re.search(r'name="csrfmiddlewaretoken" value="([^"]+)"', response.content.decode())[1]


def test_signup_signs_in_and_the_api_accepts_the_session(client):
    client = csrf_client(client)
    page = client.get("/signup")
    assert page.status_code == 200
    response = client.post("/signup", {
        "username": "dora", "email": "dora@example.test", "password": PASSWORD,
        "csrfmiddlewaretoken": token_of(page),
    })
    assert response.status_code == 302 and response.url == "/"
    assert client.get("/api/v1/me").json()["username"] == "dora"
    # A session write to the API needs the CSRF token like any form.
    assert client.patch("/api/v1/me", {"display_name": "D"}, content_type="application/json"
                        ).status_code == 403


def test_signup_refuses_a_taken_name_and_creates_nothing(client, alice):
    before = get_user_model().objects.count()
    response = client.post("/signup", {"username": "ALICE", "email": "x@example.test",
                                       "password": PASSWORD})
    assert response.status_code == 400
    assert "already exists" in response.content.decode()
    assert get_user_model().objects.count() == before


def test_signin_goes_back_to_the_page_asked_for(client, alice, human_game):
    page = client.get(f"/games/{human_game.pk}")
    assert page.status_code == 302 and page.url == f"/signin?next=/games/{human_game.pk}"
    wrong = client.post("/signin", {"username": "alice", "password": "nope"})
    assert wrong.status_code == 400 and "_auth_user_id" not in client.session
    response = client.post(
        "/signin", {"username": "alice", "password": PASSWORD, "next": f"/games/{human_game.pk}"}
    )
    assert response.status_code == 302 and response.url == f"/games/{human_game.pk}"
    assert client.get(response.url).status_code == 200


def test_signin_never_redirects_off_site(client, alice):
    response = client.post(
        "/signin", {"username": "alice", "password": PASSWORD, "next": "https://evil.test/"}
    )
    assert response.url == "/"


def test_signout(client, alice):
    client.force_login(alice)
    assert client.post("/signout").status_code == 302
    assert client.get("/api/v1/me").status_code in (401, 403)


def test_settings_saves_and_a_bad_email_changes_nothing(client, alice, bob):
    client.force_login(alice)
    assert client.get("/settings").status_code == 200
    response = client.post("/settings", {
        "display_name": "Alice A.", "email": "alice@example.test", "language": "de",
        "turn_emails": "digest", "reminder_emails": "on",
    })
    assert response.status_code == 302
    alice.refresh_from_db()
    assert (alice.display_name, alice.language, alice.turn_emails, alice.reminder_emails,
            alice.result_emails) == ("Alice A.", "de", "digest", True, False)
    taken = client.post("/settings", {"display_name": "X", "email": bob.email,
                                      "language": "fr", "turn_emails": "off"})
    assert taken.status_code == 400
    alice.refresh_from_db()
    assert (alice.display_name, alice.language, alice.email) == (
        "Alice A.", "de", "alice@example.test")


def test_home_lists_your_turn_first_with_the_badge(client, alice, bob, ai_queue):
    theirs = services.create_game(user=bob, opponent={"username": "alice"})
    mine = services.create_game(user=alice, opponent={"ai": "beginner"})
    client.force_login(alice)
    html = client.get("/").content.decode()
    ids = [int(i) for i in re.findall(r'href="/games/(\d+)"', html)]
    waiting = {g.pk for g in (theirs, mine) if g.current_seat == [
        s.index for s in g.seats.all() if s.user_id == alice.pk][0]}
    assert set(ids[: len(waiting)]) == waiting
    # (the badge's slot, id="waiting-badge-slot", is always there)
    assert ('id="waiting-badge"' in html) == bool(waiting)


def test_new_game_against_the_computer(client, alice, ai_queue):
    client.force_login(alice)
    assert client.get("/games/new").status_code == 200
    response = client.post("/games/new", {"kind": "crazy10s", "seat1": "casual",
                                          "turn_hours": "24", "options.layout": "random"})
    assert response.status_code == 302
    game_id = int(response.url.rsplit("/", 1)[1])
    view = client.get(f"/api/v1/games/{game_id}").json()
    assert (view["opponent"]["level"], view["turn_hours"], view["layout"] == "random") == (
        "casual", 24, True)


def test_new_game_with_an_unknown_friend_shows_the_error_and_creates_nothing(client, alice):
    client.force_login(alice)
    response = client.post("/games/new", {"kind": "crazy10s", "seat1": "@friend",
                                          "username1": "nobody", "turn_hours": "72"})
    assert response.status_code == 400
    assert "nobody" in response.content.decode()
    assert client.get("/api/v1/games").json()["count"] == 0


def test_game_page_draws_the_board_and_hides_the_other_rack(client, alice, bob, human_game):
    client.force_login(alice)
    html = client.get(f"/games/{human_game.pk}").content.decode()
    assert html.count('data-sq="') == 169
    for label in ("DN", "TN", "DL", "TL", "★"):
        assert f"<small>{label}</small>" in html
    rack = client.get(f"/api/v1/games/{human_game.pk}").json()["rack"]
    assert re.findall(r'class="tile" data-i="\d" data-t="(.)"', html) == rack
    assert html.count('class="tile"') == 7  # alice's rack only: bob's never reaches her page
    assert client.get(f"/games/{human_game.pk}/panel").status_code == 200


def test_game_page_of_someone_else_is_refused(client, carol, human_game):
    client.force_login(carol)
    response = client.get(f"/games/{human_game.pk}")
    assert response.status_code == 403
    assert client.get("/games/999999").status_code == 404


def test_the_turn_email_links_to_the_web_page(settings):
    from games.notifications.emails import game_url

    assert game_url(7) == f"{settings.SITE_BASE_URL}/games/7"


def test_language_switch_saves_and_translates(client, alice):
    client.force_login(alice)
    response = client.post("/language", {"language": "de", "next": "/settings"})
    assert response.status_code == 302 and response.url == "/settings"
    alice.refresh_from_db()
    assert alice.language == "de"
    page = client.get("/settings")
    assert '<html lang="de">' in page.content.decode()


def test_first_visit_follows_accept_language(client):
    page = client.get("/signin", HTTP_ACCEPT_LANGUAGE="fr-FR,fr;q=0.9")
    assert '<html lang="fr">' in page.content.decode()


def test_a_person_keeping_you_waiting_can_be_nudged_not_the_computer(client, alice, bob,
                                                                      human_game, ai_queue):
    client.force_login(bob)  # alice is to move first
    assert 'id="nudge"' in client.get(f"/games/{human_game.pk}").content.decode()
    client.force_login(alice)
    assert 'id="nudge"' not in client.get(f"/games/{human_game.pk}").content.decode()
    solo = services.create_game(user=alice, opponent={"ai": "beginner"})
    if solo.current_seat == 1:  # the computer's turn: still no nudge
        assert 'id="nudge"' not in client.get(f"/games/{solo.pk}").content.decode()


def test_a_past_puzzle_day_that_never_was_is_a_404_page(client, alice):
    client.force_login(alice)
    response = client.get("/puzzle/2001-01-01")
    assert response.status_code == 404
    assert 'data-code="not_found"' in response.content.decode()


def test_web_sign_in_shares_the_api_login_throttle(client, alice):
    """Guessing through the form counts against the same limit as POST /auth/token (10 a
    minute per address): the eleventh try is refused even with the right password."""
    for _ in range(5):
        assert client.post("/signin", {"username": "alice", "password": "x"}).status_code == 400
    for _ in range(5):
        client.post("/api/v1/auth/token", {"username": "alice", "password": "x"},
                    content_type="application/json")
    response = client.post("/signin", {"username": "alice", "password": PASSWORD})
    assert response.status_code == 429
    assert "_auth_user_id" not in client.session


def test_web_sign_up_is_throttled_per_address(client, db):
    for i in range(5):
        client.post("/signup", {"username": f"new{i}", "email": f"n{i}@example.test",
                                "password": PASSWORD})
    response = client.post("/signup", {"username": "late", "email": "late@example.test",
                                       "password": PASSWORD})
    assert response.status_code == 429
    assert not get_user_model().objects.filter(username="late").exists()


def test_an_unknown_address_is_a_404_page_in_the_site_style(client, alice):
    client.force_login(alice)
    response = client.get("/no-such-page", HTTP_ACCEPT_LANGUAGE="en")
    assert response.status_code == 404
    html = response.content.decode()
    assert "Page not found" in html and 'href="/settings"' in html
    # the API keeps its JSON envelope
    assert client.get("/api/v1/no-such-thing").json()["error"]["code"] == "not_found"


def test_the_saved_language_wins_over_the_browser_s(client, alice):
    alice.language = "fr"
    alice.save()
    client.force_login(alice)
    page = client.get("/", HTTP_ACCEPT_LANGUAGE="de")
    assert '<html lang="fr">' in page.content.decode() and page["Content-Language"] == "fr"


def test_a_game_waiting_for_a_random_opponent_has_a_page(client, alice):
    client.force_login(alice)
    response = client.post("/games/new", {"kind": "crazy10s", "seat1": "@random",
                                          "turn_hours": "24"})
    assert response.status_code == 302
    page = client.get(response.url).content.decode()
    assert "Waiting for an opponent to join." in page
    assert 'class="tile"' not in page  # nothing to play yet
    home = client.get("/").content.decode()
    assert response.url in home  # listed under "waiting for an opponent"


@pytest.mark.parametrize(("language", "cancel", "cancelled"), [
    ("en", "Cancel", "Cancelled before an opponent joined."),
    ("de", "Abbrechen", "Abgebrochen, bevor ein Gegner beigetreten ist."),
    ("fr", "Annuler", "Annulée avant qu’un adversaire ne la rejoigne."),
    ("pt-br", "Cancelar", "Cancelada antes que um adversário entrasse."),
])
def test_a_waiting_game_offers_cancel_not_resign(client, alice, language, cancel, cancelled):
    """Nobody joined yet: the page offers to cancel the request (the API's games_cancel, sent
    by live.js), never to resign; once cancelled it says so and leaves the home page."""
    alice.language = language
    alice.save(update_fields=["language"])
    game = services.create_game(user=alice, opponent={"random": True})
    client.force_login(alice)
    page = client.get(f"/games/{game.pk}").content.decode()
    button = re.search(r'<button[^>]*data-cancel-game="(\d+)"[^>]*>([^<]*)</button>', page)
    assert button and button.groups() == (str(game.pk), cancel)
    assert 'id="resign"' not in page
    services.cancel(game_id=game.pk, user=alice)
    page = client.get(f"/games/{game.pk}").content.decode()
    assert cancelled in page and "data-cancel-game" not in page
    assert f'href="/games/{game.pk}"' not in client.get("/").content.decode()


def test_finished_games_are_listed_with_their_result(client, alice, bob, human_game):
    services.resign(game_id=human_game.pk, user=bob)
    client.force_login(alice)
    html = client.get("/").content.decode()
    finished = html.split('id="finished-games"', 1)[1]
    assert f'href="/games/{human_game.pk}"' in finished and "You won" in finished
    assert "Game over: you won." in client.get(f"/games/{human_game.pk}").content.decode()


def test_a_past_puzzle_shows_its_best_move_and_links_to_today(client, alice):
    from datetime import timedelta

    from games.crazy10s.puzzles import services as puzzles
    from games.crazy10s.puzzles.selectors import utc_today

    yesterday = utc_today() - timedelta(days=1)
    puzzle, _created = puzzles.ensure_puzzle(yesterday)
    client.force_login(alice)
    page = client.get(f"/puzzle/{yesterday.isoformat()}").content.decode()
    assert f'id="best-move">{puzzle.best_move}<' in page  # the day is over: shown unplayed
    assert 'id="play"' not in page and 'href="/puzzle"' in page
    today = client.get("/puzzle").content.decode()
    assert f'href="/puzzle/{yesterday.isoformat()}"' in today
    assert 'id="best-move"' not in today  # today's solution only after the attempt


def test_the_history_shows_score_best_and_percent_of_your_own_moves_only(
    client, alice, bob, human_game
):
    """"% of best" on the game page: alice sees hers; bob sees nothing of her best move (it
    names her tiles) until the game is over."""
    from games import services
    from games.models import Move

    services.submit_move(game_id=human_game.pk, user=alice, move="g7=5 h7=5",
                         expected_move_number=0)
    services.analyse_moves(game_id=human_game.pk)
    best = Move.objects.get(game=human_game, number=1)
    shown = f"/ {best.best_score} ({round(100 * 20 / best.best_score, 1)} %)"
    client.force_login(alice)
    html = client.get(f"/games/{human_game.pk}").content.decode()
    assert shown in html and best.best_notation in html
    client.force_login(bob)
    html = client.get(f"/games/{human_game.pk}").content.decode()
    assert shown not in html and best.best_notation not in html
    services.resign(game_id=human_game.pk, user=alice)
    html = client.get(f"/games/{human_game.pk}").content.decode()
    assert shown in html and best.best_notation in html  # over: both players see it
