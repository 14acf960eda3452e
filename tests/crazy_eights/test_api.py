"""The Crazy Eights solo API: creation, the view's shape, moves, hints, coach, levels, and that
no answer carries another seat's hand, the stock or the seed."""

import json
import re

import pytest

from games import kinds
from games.models import Game, Move
from tests.crazy_eights.conftest import run_computers
from tests.helpers import assert_error

pytestmark = pytest.mark.django_db
CARD = r"\b(?:10|[2-9JQKA])[CDHS]\b"

CREATE = {
    "kind": "crazy_eights",
    "opponents": ["cautious", "aggressive", "strong"],
    "rules": {"actions": True, "several": True, "classic": False},
}


def create(client, body=CREATE, **extra):
    return client.post("/api/v1/games", body, format="json", **extra)


def test_create_answers_the_view_with_the_position(alice_client, ai_queue, c8_seed):
    response = create(alice_client)
    assert response.status_code == 201, response.content
    body = response.json()
    assert body["kind"] == "crazy_eights" and body["seat_count"] == 4
    assert body["deadline"] is None and body["your_seat"] == 0 and body["to_move"] == 0
    assert [p["name"] for p in body["players"][1:]] == ["Prudence", "Rex", "Vera"]
    assert [p["level"] for p in body["players"][1:]] == ["cautious", "aggressive", "strong"]
    assert "board" not in body and "rack" not in body  # no v1 fields
    position = body["position"]
    assert set(position) >= {
        "hand", "top", "suit", "penalty", "draws_this_turn", "direction", "stock_size",
        "discard_size", "round", "players", "revealed_hands",
    }
    assert len(position["hand"]) == 7 and position["revealed_hands"] is None
    assert [p["card_count"] for p in position["players"]] == [7, 7, 7, 7]


@pytest.mark.parametrize(
    "body",
    [
        {"kind": "crazy_eights", "opponents": []},
        {"kind": "crazy_eights", "opponents": ["cautious", "cautious", "cautious", "strong"]},
        {"kind": "crazy_eights", "opponents": ["beginner"]},
        {"kind": "crazy_eights"},
        {"kind": "crazy_eights", "opponents": ["strong"], "rules": {"target": 99}},
        {"kind": "chess", "opponent": {"ai": "strong"}},
    ],
)
def test_bad_creation_gets_the_envelope_and_creates_nothing(alice_client, ai_queue, body):
    response = create(alice_client, body)
    assert_error(response, 400, "invalid")
    assert not Game.objects.exists()


def test_moves_idempotency_and_409s(alice_client, ai_queue, c8_seed):
    game_id = create(alice_client).json()["id"]
    url = f"/api/v1/games/{game_id}/moves"
    stale = alice_client.post(url, {"move": "10H", "expected_move_number": 5}, format="json")
    assert_error(stale, 409, "stale_move_number")
    bad = alice_client.post(url, {"move": "8S", "expected_move_number": 0}, format="json")
    assert bad.status_code == 400 and bad.json()["error"]["code"] in {"not_in_hand"}
    assert Move.objects.count() == 0
    key = {"HTTP_IDEMPOTENCY_KEY": "c8-move-1"}
    first = alice_client.post(url, {"move": "10H", "expected_move_number": 0}, format="json", **key)
    again = alice_client.post(url, {"move": "10H", "expected_move_number": 0}, format="json", **key)
    assert first.status_code == 201 and again.status_code == 201
    assert again.headers["Idempotent-Replayed"] == "true" and again.json() == first.json()
    assert Move.objects.count() == 1
    double = alice_client.post(url, {"move": "10H", "expected_move_number": 0}, format="json")
    assert double.status_code == 409
    assert first.json()["events"][0]["kind"] == "cards_played"


def test_the_view_speaks_german_and_the_hint_is_translated(alice_client, ai_queue, c8_seed):
    game_id = create(alice_client).json()["id"]
    hint = alice_client.get(f"/api/v1/games/{game_id}/hint", HTTP_ACCEPT_LANGUAGE="de")
    assert hint.status_code == 200
    assert hint.json()["move"] in {"10H", "QH", "KC"}  # the cards alice may play
    assert hint.json()["reason"]["code"].startswith("hint_")
    levels = alice_client.get(
        "/api/v1/games/computer-levels?kind=crazy_eights", HTTP_ACCEPT_LANGUAGE="de"
    ).json()
    assert [lv["name"] for lv in levels] == ["Prudence", "Rex", "Jinx", "Vera"]
    assert levels[0]["description"].startswith("Hortet")
    howto = alice_client.get(f"/api/v1/games/{game_id}/how-to-play", HTTP_ACCEPT_LANGUAGE="fr")
    assert howto.json()["title"] == "Comment jouer au Huit américain"


def test_coach_notes_in_a_first_match(alice_client, ai_queue, c8_seed, monkeypatch):
    game_id = create(alice_client).json()["id"]
    game = Game.objects.get(pk=game_id)
    kind = kinds.get("crazy_eights")
    state = kind.load(game.state)
    record = {"seat": 1, "move": "2C", "events": [
        {"kind": "penalty_raised", "seat": 1, "added": 2, "total": 2}
    ]}
    game.state = kind.dump(type(state)(state.engine, (*state.history, record)))
    game.save()
    body = alice_client.get(f"/api/v1/games/{game_id}").json()
    assert body["coach"] == [
        {"code": "coach_draw_two", "message": "A 2: the next player answers with a 2 or takes "
         "2 cards."}
    ]


def _hidden_cards(game: Game) -> set[str]:
    """Every card alice may not know: the others' hands and the stock."""
    engine = kinds.get("crazy_eights").load(game.state).engine
    from games.crazy_eights.engine import format_card

    cards = {format_card(c) for seat in (1, 2, 3) for c in engine.hands[seat]}
    cards |= {format_card(c) for c in engine.stock}
    return cards


def test_no_answer_carries_another_hand_the_stock_or_the_seed(
    alice_client, ai_queue, c8_seed, django_capture_on_commit_callbacks
):
    game_id = create(alice_client).json()["id"]
    base = f"/api/v1/games/{game_id}"
    with django_capture_on_commit_callbacks(execute=True):
        played = alice_client.post(
            f"{base}/moves", {"move": "10H", "expected_move_number": 0}, format="json"
        )
    run_computers(ai_queue, django_capture_on_commit_callbacks)
    game = Game.objects.get(pk=game_id)
    answers = [
        played,
        alice_client.get(base),
        alice_client.get(f"{base}/moves"),
        alice_client.get(f"{base}/hint"),
        alice_client.get("/api/v1/games"),
        alice_client.get("/api/v1/games?status=active"),
    ]
    hidden = _hidden_cards(game)
    # Cards named by the public record (played, a starter, a finished round's hands) may appear;
    # the rest of the others' hands and the stock may not. The stored records are the whole
    # match here: it is too short for any to be dropped (kind._still_read).
    assert game.state["history"][0]["seat"] is None  # the deal's record is still there
    public = set(re.findall(CARD, json.dumps(game.state["history"])))
    secret = hidden - public
    assert secret
    for response in answers:
        assert response.status_code == 200 or response.status_code == 201, response.content
        text = json.dumps(response.json())
        tokens = set(re.findall(CARD, text))
        # Only the first answer (before the computers moved) may differ: check every answer
        # against the cards hidden from alice now.
        assert not (tokens & secret), (response.request["PATH_INFO"], tokens & secret)
        assert '"seed"' not in text  # (seed 5 itself is too short to look for)
        assert '"stock"' not in text and '"engine"' not in text
