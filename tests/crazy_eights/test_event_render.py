"""A Crazy Eights event renders through ``EventField`` (compiled once per thread) exactly as
its kind's own DRF serializer renders it, for every kind of event."""

from __future__ import annotations

import json
import random

from games import kinds
from games.crazy_eights import engine as c8
from games.crazy_eights.event_serializers import EVENTS, EventField


def _events_of_seeded_matches() -> list[dict]:
    kind = kinds.get("crazy_eights")
    events: list[dict] = []
    for seats, seed in ((2, 3), (3, 3), (4, 8)):
        rng = random.Random(seed)
        state = kind.new_state(seed=seed, options=kind.options(), seats=seats)
        while not state.engine.is_over:
            move = rng.choice(c8.legal_moves(state.engine))
            seat = state.engine.turn
            events += c8.apply_move(state.engine, move, seat).public_dict()["events"]
            state = kind.play(state, move, seat=seat).state
    # Random moves never resign, and may never give a two-player extra turn (a Queen or
    # an Ace): both by hand, so that every kind is covered.
    return [*events, {"kind": "resigned", "seat": 1}, {"kind": "extra_turn", "seat": 0}]


def test_every_event_renders_as_its_serializer_does():
    events = _events_of_seeded_matches()
    assert {event["kind"] for event in events} == set(EVENTS)
    field = EventField()
    for event in events:
        fast = field.to_representation(event)
        drf = dict(EVENTS[event["kind"]](event).data)
        assert list(fast) == list(drf)
        assert json.dumps(fast) == json.dumps(drf)


def test_keys_outside_an_events_schema_are_left_out():
    event = {"kind": "card_drawn", "seat": 1, "card": "8S"}  # the card is the drawer's alone
    assert EventField().to_representation(event) == {"kind": "card_drawn", "seat": 1}
