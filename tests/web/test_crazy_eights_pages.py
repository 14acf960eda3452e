"""The Crazy Eights pages through Django's test client: the new-match form, the game page
(your hand only, the pile, what you may do), the table lobby behind sign-in, and the turn
helpers the page uses to offer draw / take / pass."""

import re

import pytest

from games import services
from games.models import Game, Seat
from games.tables import services as tables
from tests.web.c8_match import play_on
from web.crazy_eights import card, log, turn_options

pytestmark = pytest.mark.django_db


@pytest.fixture
def solo(alice, ai_queue):
    rules = {"actions": True, "several": True, "classic": False}
    return services.create_game(user=alice, kind="crazy_eights", opponents=["cautious", "strong"],
                                options={"rules": rules})


def test_new_match_form_starts_a_match_against_the_regulars(client, alice, ai_queue):
    client.force_login(alice)
    page = client.get("/games/new").content.decode()
    assert 'id="new-crazy_eights"' in page and 'id="new-table-crazy_eights"' in page
    assert 'id="find-table"' in page
    response = client.post("/games/new", {
        "kind": "crazy_eights", "seat1": "chaotic", "seat2": "", "seat3": "strong",
        # as a browser sends the boxes: a hidden "false", then "true" if ticked
        "options.rules.actions": ["false"], "options.rules.several": ["false", "true"],
        "options.rules.classic": ["false"], "options.rules.target": "100", "turn_hours": "72",
    })
    assert response.status_code == 302
    game = Game.objects.get(pk=int(response.url.rsplit("/", 1)[1]))
    assert game.kind == "crazy_eights" and game.seat_count == 3
    assert [s.ai_level for s in game.seats.order_by("index")] == [None, "chaotic", "strong"]
    view = client.get(f"/api/v1/games/{game.pk}").json()
    assert view["position"]["rules"] == {"actions": False, "several": True, "classic": False,
                                         "target": 100}


def test_a_bad_new_match_shows_the_error_and_creates_nothing(client, alice):
    client.force_login(alice)
    response = client.post("/games/new", {"kind": "crazy_eights", "seat1": "nobody-at-all",
                                          "options.rules.target": "7"})
    assert response.status_code == 400
    html = response.content.decode()
    assert "nobody-at-all" in html and 'id="new-crazy_eights"' in html
    assert not Game.objects.exists()


def test_game_page_shows_my_hand_only_the_pile_and_the_others_counts(client, alice, solo):
    client.force_login(alice)
    html = client.get(f"/games/{solo.pk}").content.decode()
    view = client.get(f"/api/v1/games/{solo.pk}").json()
    position = view["position"]
    assert re.findall(r'class="card[^"]*" data-card="([^"]+)"', html) == position["hand"]
    others = [" ".join(s.private["hand"]) for s in Seat.objects.filter(game=solo, index__gt=0)]
    for hand in others:  # no card of another hand is drawn as a card of mine
        assert not set(hand.split()) & set(re.findall(r'data-card="([^"]+)"', html))
    top = card(position["top"])
    assert f'aria-label="Top card: {top["label"]}"' in html
    assert html.count("7 cards") == 3
    assert "clockwise" in html and "Stock" in html
    panel = client.get(f"/games/{solo.pk}/panel").content.decode()
    assert panel.startswith('<div id="game-panel" class="c8"')


def test_the_buttons_follow_the_turn():
    base = {"hand": ["7H", "2C", "8S", "KD"], "top": "7C", "suit": "C", "penalty": 0,
            "drawn": None, "draws_this_turn": 0, "stock_size": 20, "discard_size": 3}
    assert turn_options(base, your_turn=False)["firsts"] == set()
    fits = turn_options(base, your_turn=True)
    assert fits["firsts"] == {"7H", "2C", "8S"} and not (fits["draw"] or fits["pass"])
    nothing = {**base, "hand": ["KD", "3H"]}
    assert turn_options(nothing, your_turn=True)["draw"] is True
    penalty = {**base, "penalty": 2, "top": "2C"}
    assert turn_options(penalty, your_turn=True) == {
        "firsts": {"2C"}, "draw": False, "take": True, "pass": False}
    drew_fit = {**nothing, "hand": ["KD", "3H", "9C"], "drawn": "9C", "draws_this_turn": 1}
    assert turn_options(drew_fit, your_turn=True)["firsts"] == {"9C"}
    assert turn_options(drew_fit, your_turn=True)["pass"] is True
    drew_three = {**nothing, "drawn": "3H", "draws_this_turn": 3}
    assert turn_options(drew_three, your_turn=True)["pass"] is True
    empty = {**nothing, "stock_size": 0, "discard_size": 1}
    assert turn_options(empty, your_turn=True)["pass"] is True


def test_the_log_draws_cards_and_the_named_suit():
    rows = log([
        {"number": 1, "player": "Vera", "mine": False, "kind": "play", "notation": "8S/H",
         "events": []},
        {"number": 2, "player": "me", "mine": True, "kind": "take", "notation": "take",
         "events": [{"kind": "penalty_taken", "seat": 0, "size": 2, "drawn": 2}]},
    ])
    assert [c["name"] for c in rows[0]["cards"]] == ["8S"] and rows[0]["named"]["letter"] == "H"
    assert rows[1]["cards"] == [] and rows[1]["taken"] == 2


def test_table_page_leads_through_sign_in_and_shows_the_table(client, alice, bob):
    rules = {"actions": True, "several": False, "classic": False}
    table = tables.create_table(user=alice, options={"target": 100, "rules": rules})
    url = f"/tables/{table.code}"
    response = client.get(url)
    assert response.status_code == 302 and response.url == f"/signin?next={url}"
    client.force_login(bob)
    html = client.get(url.lower()).content.decode()
    assert table.code in html and tables.share_url(table) in html
    assert 'id="join"' in html and 'id="deal"' not in html
    assert "One card per turn." in html and "100 points" in html
    client.force_login(alice)
    html = client.get(url).content.decode()
    assert 'id="deal"' in html and 'id="join"' not in html
    assert client.get(f"{url}/panel").status_code == 200


def test_unknown_table_is_a_404_page(client, bob):
    client.force_login(bob)
    response = client.get("/tables/ZZZZZZ")
    assert response.status_code == 404
    assert 'data-code="table_not_found"' in response.content.decode()
    assert client.get("/tables?code= zzz zzz ").url == "/tables/ZZZZZZ"


def test_after_the_deal_a_seated_player_goes_to_the_match(client, alice, bob, ai_queue):
    rules = {}
    table = tables.create_table(user=alice, options={"target": 100, "rules": rules})
    tables.join(user=bob, code=table.code)
    tables.deal(user=alice, code=table.code)
    table.refresh_from_db()
    client.force_login(bob)
    response = client.get(f"/tables/{table.code}")
    assert response.status_code == 302 and response.url == f"/games/{table.game_id}"
    html = client.get(response.url).content.decode()
    assert f'data-table="{table.code}"' in html and 'class="timer"' in html
    tables.leave(user=bob, code=table.code)  # the computer plays bob's seat: he may come back
    html = client.get(f"/tables/{table.code}").content.decode()
    assert "Take your seat back" in html
    game_page = client.get(f"/games/{table.game_id}").content.decode()
    assert "The computer is playing your seat." in game_page and 'id="back"' in game_page


def test_the_game_page_in_german(client, alice, solo):
    alice.language = "de"
    alice.save(update_fields=["language"])
    client.force_login(alice)
    html = client.get(f"/games/{solo.pk}").content.decode()
    assert '<html lang="de">' in html
    for words in ("Nachziehstapel", "Deine Hand", "So spielt man Crazy 8s",
                  "im Uhrzeigersinn", "Welche Farbe wünschst du dir?"):
        assert words in html, words
    page = client.get("/games/new").content.decode()
    assert "Stammgäste" in page and "Zieh 2, Aussetzen, Richtungswechsel" in page


def test_a_long_match_and_the_table_stay_under_50_kb(client, alice, bob, fixed_seed, solo):
    game = play_on(solo, alice, 110)
    assert game.move_number >= 100, game.move_number
    client.force_login(alice)
    rules = {}
    table = tables.create_table(user=alice, options={"target": 200, "rules": rules})
    tables.join(user=bob, code=table.code)
    sizes = {url: len(client.get(url).content) for url in (
        f"/games/{game.pk}", f"/games/{game.pk}/panel", "/games/new", f"/tables/{table.code}")}
    assert all(size < 50 * 1024 for size in sizes.values()), sizes
    html = client.get(f"/games/{game.pk}").content.decode()
    assert html.count("<li value=") == 30  # the newest moves of the log only
    # the last finished round: every hand revealed with its points
    assert 'id="round-over"' in html and "is over:" in html
    assert html.count('<tr><th scope="row">') + html.count('<tr class="you">') == 3


def test_a_finished_rounds_hands_stay_open_until_my_next_move():
    from web.crazy_eights import _round_over_since_my_move

    quiet = {"seat": 1, "events": []}
    went_out = {"seat": 0, "events": [{"kind": "round_over"}]}
    assert _round_over_since_my_move([quiet, went_out], 0)  # I went out
    # the computers already played on in the next round: I have not seen the hands yet
    assert _round_over_since_my_move([went_out, quiet, {"seat": 2, "events": []}], 0)
    assert _round_over_since_my_move([{**went_out, "seat": 2}, quiet], 0)  # another went out
    assert not _round_over_since_my_move([went_out, quiet, {"seat": 0, "events": []}], 0)
    assert not _round_over_since_my_move([quiet], 0)
