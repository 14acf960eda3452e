"""Four Queens at four seats (issue 24): the player who lays them is not "skipping their own
seat"; the words say what happens: the three others are skipped, then the layer's own turn,
and the next player plays."""

from django.utils import translation

from games.crazy_eights.engine.coach import coach_notes
from games.crazy_eights.messages import coach_message, skip_message
from tests.engine.crazy_eights.helpers import make_state, run

NAMES = {0: "Ann", 1: "Bob", 2: "Cy", 3: "Di"}


def skipped_event(result):
    return next(e.to_dict() for e in result.events if e.kind == "seats_skipped")


def test_four_queens_at_four_seats_in_words():
    state = make_state(["QC QD QH QS 5H", "4C 6C", "4D 6D", "4S 6S"], "9C")
    after, (result,) = run(state, "QC QD QH QS")
    assert after.turn == 1  # every turn round the table skipped, the layer's own too
    event = skipped_event(result)
    with translation.override("en"):
        text = skip_message(event, 4, NAMES)
        assert text == "every other player is skipped, then Ann's own turn too: Bob plays next"
        (note,) = [n for n in coach_notes(result) if n["code"].startswith("coach_skip")]
        assert note["code"] == "coach_skip_round"
        assert "skipped too" in coach_message(note["code"], note["params"])
    with translation.override("de"):
        assert "Bob" in skip_message(event, 4, NAMES)
        assert "every other" not in skip_message(event, 4, NAMES)


def test_fewer_queens_name_the_players_skipped_and_who_plays_next():
    state = make_state(["QC QD 5H", "4C 6C", "4D 6D", "4S 6S"], "9C")
    after, (result,) = run(state, "QC QD")
    assert after.turn == 3
    with translation.override("en"):
        assert skip_message(skipped_event(result), 4, NAMES) == "Bob, Cy skipped: Di plays next"
    (note,) = [n for n in coach_notes(result) if n["code"].startswith("coach_skip")]
    assert note["code"] == "coach_skip"


def test_against_the_direction_of_play_too():
    state = make_state(["QC QD QH QS 5H", "4C 6C", "4D 6D", "4S 6S"], "9C", direction=-1)
    after, (result,) = run(state, "QC QD QH QS")
    assert after.turn == 3
    with translation.override("en"):
        assert skip_message(skipped_event(result), 4, NAMES).endswith("Di plays next")
