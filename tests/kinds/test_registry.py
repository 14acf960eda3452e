"""The registry of game kinds and the Crazy10s adapter's side of the protocol."""

import random

import pytest

from games import kinds
from games.crazy10s.kind import Crazy10sKind
from games.kinds.base import GameKind, MoveRecord, PlayedMove, StateSummary


def test_the_registry_loads_the_kinds_named_in_the_settings(settings):
    assert kinds.names()[0] == "crazy10s" and kinds.default() is kinds.get("crazy10s")
    assert isinstance(kinds.get("crazy10s"), Crazy10sKind)
    assert isinstance(kinds.get("crazy10s"), GameKind)  # every protocol member is there
    with pytest.raises(KeyError):
        kinds.get("chess")


def test_a_kind_registered_twice_is_refused(settings):
    kinds._registry.cache_clear()
    settings.GAME_KINDS = ["games.crazy10s.kind.Crazy10sKind"] * 2
    try:
        with pytest.raises(ValueError, match="registered twice"):
            kinds.all_kinds()
    finally:
        kinds._registry.cache_clear()
        settings.GAME_KINDS = ["games.crazy10s.kind.Crazy10sKind"]
        kinds._registry.cache_clear()


def test_a_played_move_carries_public_and_private_parts_apart():
    kind = kinds.get("crazy10s")
    state = kind.new_state(seed=20240602, options=kind.options(layout="classic"), seats=2)
    summary = kind.summary(state)
    assert isinstance(summary, StateSummary) and summary.to_move == 0
    assert summary.piece_counts == (7, 7) and summary.outcome is None
    assert summary.private[0] == {"rack": ["0", "1", "2", "3", "5", "5", "5"]}
    played = kind.play(state, kind.parse_notation("swap 0 1"))
    assert isinstance(played, PlayedMove) and isinstance(played.record, MoveRecord)
    record = played.record
    assert (record.kind, record.notation, record.public_notation) == ("swap", "swap 0 1", "swap 2")
    assert record.public == {"lines": [], "drawn": 2}  # the count, never the tiles
    assert set(record.private) == {0} and len(record.private[0]["drawn"]) == 2
    # The position a seat sees holds its own rack only.
    position = kind.position(played.state, 1)
    assert position["rack"] == played.summary.private[1]["rack"]
    assert position["final_racks"] is None and "bag" not in position


def test_resignation_outcome_names_every_seats_result():
    kind = kinds.get("crazy10s")
    state = kind.new_state(seed=1, options=kind.options(layout="classic"), seats=2)
    played = kind.play(state, kind.resign(1), seat=1)
    outcome = played.summary.outcome
    assert outcome is not None and outcome.termination == "resignation"
    assert outcome.winners == (0,) and outcome.results == ("win", "loss")
    assert outcome.to_json()["winner"] == 0 and outcome.to_json()["winners"] == [0]


def test_the_computer_plays_through_the_kind():
    kind = kinds.get("crazy10s")
    state = kind.new_state(seed=20240602, options=kind.options(layout="classic"), seats=2)
    move = kind.computer_move(state, "strong", random.Random(1))
    played = kind.play(state, move)
    assert played.record.seat == 0 and played.record.score > 0
    assert [level.level for level in kind.computer_levels()] == list(kind.levels)
