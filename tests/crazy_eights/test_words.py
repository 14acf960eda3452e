"""Crazy Eights in words (issue 26): hints and coach notes say the cards and suits ("Queen of
spades", "hearts") in the player's language, never the notation ("QS", "(D)"); the move a hint
gives stays in notation for the API."""

from __future__ import annotations

import re

import pytest
from django.utils import translation

from games.crazy_eights.messages import card_words, coach_message, hint_message

NOTATION = re.compile(r"\b(10|[2-9JQKA])[CDHS]\b|\([CDHS]\)")


@pytest.mark.parametrize(("language", "expected"), [
    ("en", "Play 8 of spades and name hearts."),
    ("de", "Pik 8"),
    ("fr", "8 de pique"),
    ("pt-br", "8 de espadas"),
])
def test_a_hint_says_cards_and_suits_in_words(language, expected):
    with translation.override(language):
        text = hint_message("hint_play_eight", {"card": "8S", "suit": "H"})
    assert expected in text
    assert not NOTATION.search(text)


def test_several_cards_and_the_top_card_in_words():
    with translation.override("en"):
        assert hint_message("hint_shed_several", {"cards": ["5C", "5D", "5S"], "points": 15}) == (
            "Play 5 of clubs, 5 of diamonds and 5 of spades together: 15 points out of your hand.")
        text = hint_message("hint_draw", {"suit": "H", "top": "QH"})
        assert "hearts" in text and "Queen of hearts" in text and not NOTATION.search(text)
        assert card_words("10D") == "10 of diamonds"
        assert card_words("draw") == "draw"  # not a card: left as it is


def test_a_coach_note_names_the_suit_in_words():
    with translation.override("en"):
        text = coach_message("coach_eight", {"seat": 1, "suit": "D"})
    assert "(diamonds)" in text and not NOTATION.search(text)
