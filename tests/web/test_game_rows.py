"""``{% game_rows %}`` (web/templatetags/game_rows.py) draws the same rows as including
web/_game_row.html once per entry, keeps each row's HTML, and never serves a row kept for
another entry, language or kind of value."""

from __future__ import annotations

import datetime

import pytest
from django.template import engines
from django.utils import translation
from django.utils.safestring import mark_safe
from django.utils.translation import gettext_lazy

from web.templatetags import game_rows

pytestmark = pytest.mark.django_db

INCLUDED = engines["django"].from_string(
    '{% for g in games %}{% include "web/_game_row.html" %}{% endfor %}'
)
TAGGED = engines["django"].from_string("{% load game_rows %}{% game_rows games %}")
DEADLINE = datetime.datetime(2030, 1, 2, 3, 4, tzinfo=datetime.UTC)


def _entry(**changes):
    entry = {
        "id": 7, "url": "/games/7", "kind": "crazy10s", "title": None, "status": "active",
        "your_turn": True, "opponent": {"display_name": "Bob <b>"},
        "scores": {"you": 12, "opponent": 3}, "result": None, "deadline": DEADLINE,
        "turn_seconds": None, "turn_hours": 72,
        "players": [
            {"name": "Alice", "is_you": True, "vacation_until": None},
            {"name": "Bob <b>", "is_you": False, "vacation_until": DEADLINE},
        ],
    }
    entry.update(changes)
    return entry


ENTRIES = [
    _entry(),
    _entry(your_turn=False, deadline=None, turn_hours=8),
    _entry(your_turn=1),
    _entry(scores={"you": 1, "opponent": 3}),
    _entry(scores={"you": True, "opponent": 3}),  # the same key but for the type: "True"
    _entry(opponent={"display_name": mark_safe("Bob <b>")}),
    _entry(opponent={"display_name": gettext_lazy("Computer")}),  # in the active language
    _entry(opponent={"display_name": "Computer"}),
    _entry(scores={"you": 12.0, "opponent": 3}),  # "12.0", not "12"
    _entry(status="finished", result={"outcome": "win"}, deadline=None),
    _entry(status="finished", result={"outcome": "draw"}, deadline=None),
    _entry(status="waiting", opponent=None, your_turn=False),
    _entry(turn_seconds=30, deadline=DEADLINE.astimezone(
        datetime.timezone(datetime.timedelta(hours=2)))),
    _entry(players={"not": "a list"}),
    _entry(extra={1, 2}),  # a value that cannot be a key: drawn every time
]


@pytest.mark.parametrize("language", ["en", "de"])
def test_the_tag_draws_what_the_include_draws(language):
    game_rows._kept.clear()
    with translation.override(language):
        expected = INCLUDED.render({"games": ENTRIES})
        assert TAGGED.render({"games": ENTRIES}) == expected
        assert TAGGED.render({"games": ENTRIES}) == expected  # from the kept rows
        assert TAGGED.render({"games": ENTRIES[::-1]}) == INCLUDED.render({"games": ENTRIES[::-1]})
    assert len(game_rows._kept) == len(ENTRIES) - 1


def test_rows_kept_in_one_language_are_not_served_in_another():
    game_rows._kept.clear()
    with translation.override("en"):
        english = TAGGED.render({"games": ENTRIES})
    with translation.override("de"):
        german = TAGGED.render({"games": ENTRIES})
        assert german == INCLUDED.render({"games": ENTRIES}) != english


def test_the_kept_rows_are_bounded(monkeypatch):
    game_rows._kept.clear()
    monkeypatch.setattr(game_rows, "MAX_KEPT", 3)
    many = [_entry(id=i, url=f"/games/{i}") for i in range(10)]
    assert TAGGED.render({"games": many}) == INCLUDED.render({"games": many})
    assert len(game_rows._kept) <= 3
