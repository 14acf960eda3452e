"""One game view for every kind, and the v1 fields a Crazy10s client reads, unchanged."""

import pytest
import yaml
from django.core.management import call_command

from games.crazy10s import engine

pytestmark = pytest.mark.django_db

# The v1 game view (before game kinds): every field, required, with the same meaning.
V1_FIELDS = {
    "id", "kind", "status", "layout", "board", "bonus_squares", "rack", "opponent",
    "opponent_rack_size", "bag_size", "scores", "your_turn", "move_number", "scoreless_turns",
    "deadline", "turn_hours", "created_at", "started_at", "finished_at", "result", "final_racks",
}
GENERIC_FIELDS = {"seat_count", "players", "your_seat", "to_move", "position", "rated"}


def test_the_v1_fields_keep_their_values(human_game, alice_client, bob_client, fixed_seed):
    response = alice_client.post(
        f"/api/v1/games/{human_game.pk}/moves",
        {"move": "g7=5 h7=5", "expected_move_number": 0}, format="json",
    )
    assert response.status_code == 201, response.content
    state = engine.new_game_from_seed(fixed_seed, engine.Options())
    state = engine.apply_move(state, engine.parse_move("g7=5 h7=5")).state
    for seat, client in ((0, alice_client), (1, bob_client)):
        view = client.get(f"/api/v1/games/{human_game.pk}").json()
        assert set(view) == V1_FIELDS | GENERIC_FIELDS
        engine_view = engine.view_for(state, seat)
        for field in ("board", "bonus_squares", "rack", "opponent_rack_size", "bag_size",
                      "scores", "your_turn", "move_number", "scoreless_turns"):
            assert view[field] == engine_view[field], field
        assert view["layout"] == "classic" and view["final_racks"] is None
        assert view["opponent"]["username"] == ("bob" if seat == 0 else "alice")
        # The generic part says the same in seat terms.
        assert view["your_seat"] == seat and view["to_move"] == 1 and view["seat_count"] == 2
        assert [p["seat"] for p in view["players"]] == [0, 1]
        me, other = view["players"][seat], view["players"][1 - seat]
        assert me["is_you"] and not other["is_you"]
        assert (me["score"], other["score"]) == (view["scores"]["you"],
                                                 view["scores"]["opponent"])
        assert other["piece_count"] == view["opponent_rack_size"] == 7
        assert not other["is_computer"] and other["away"] is False
        assert view["position"]["rack"] == view["rack"]
        assert view["position"]["board"] == view["board"]
        assert set(view["position"]) == {
            "layout", "board", "bonus_squares", "rack", "bag_size", "scoreless_turns",
            "final_racks",
        }
        assert view["position"]["final_racks"] is None  # nobody's rack while it is running


def test_the_finished_view_shows_both_racks_by_seat(human_game, alice_client, bob_client):
    bob_client.post(f"/api/v1/games/{human_game.pk}/resign")
    view = alice_client.get(f"/api/v1/games/{human_game.pk}").json()
    assert view["result"]["outcome"] == "win" and view["result"]["winners"] == [0]
    assert [p["result"] for p in view["players"]] == ["win", "loss"]
    finals = view["position"]["final_racks"]
    assert view["final_racks"] == {"you": finals[0], "opponent": finals[1]}
    assert view["to_move"] is None and view["your_turn"] is False


def test_the_schema_keeps_the_v1_fields(tmp_path):
    out = tmp_path / "schema.yaml"
    call_command("spectacular", "--file", str(out))
    schema = yaml.safe_load(out.read_text())
    game_view = schema["components"]["schemas"]["Crazy10sGameView"]
    assert V1_FIELDS | GENERIC_FIELDS <= set(game_view["properties"])
    assert V1_FIELDS <= set(game_view["required"])
    position = game_view["properties"]["position"]
    assert position == {"$ref": "#/components/schemas/Crazy10sPosition"}
