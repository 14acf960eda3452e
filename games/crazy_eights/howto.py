"""The how-to-play text of Crazy Eights, in the project's own words (the rules of docs/rules.md,
"Crazy Eights"). Every string is a gettext message: the text comes in the active language."""

from __future__ import annotations

from typing import Any

from django.utils.translation import get_language
from django.utils.translation import gettext_lazy as _

TITLE = _("How to play Crazy Eights")

SECTIONS = (
    (
        _("The idea"),
        _(
            "Two to four players take turns laying cards from their hand on the discard pile. "
            "Be the first to empty your hand: the cards the others still hold score against "
            "them. The match ends when someone reaches the goal; the lowest total wins."
        ),
    ),
    (
        _("Your turn"),
        _(
            "Lay a card that matches the top card of the discard pile in suit or in rank. An 8 "
            "fits on anything: whoever lays it names the suit to follow (write 8S/H). If nothing "
            "fits, draw from the stock, up to three cards; you may lay the card you just drew, "
            "or pass once you have drawn."
        ),
    ),
    (
        _("Several cards"),
        _(
            "If the match allows it, you may lay several cards of one rank at once (5C 5D 5S): "
            "the first must fit, and the last one sets the suit."
        ),
    ),
    (
        _("Action cards"),
        _(
            "Unless the match uses the classic rules: a 2 makes the next player take two cards "
            "(or answer with a 2 of their own, which passes on a bigger penalty; write take to "
            "accept it); a Queen skips the next player; an Ace reverses the direction of play. "
            "With two players a Queen or an Ace gives you another turn."
        ),
    ),
    (
        _("Scoring"),
        _(
            "When a round ends, each card left in a hand counts: an 8 is worth 50, a 2, Queen "
            "or Ace 20, a Jack or King 10, any other card its face value. When the stock runs "
            "out, the discards under the top card are shuffled into a new one. With the classic "
            "rules only the player who goes out scores, the cards the others hold (an Ace is "
            "worth 1, a Queen 10), and the first to reach 100 wins."
        ),
    ),
    (
        _("The last stock"),
        _(
            "The stock is rebuilt from the discards at most three times a round; the game then "
            "marks it as the last stock. Once it is empty nobody draws any more: lay a card if "
            "one fits, else pass. The round ends when someone goes out, or when everyone has "
            "passed in turn and the cards left in hand are scored."
        ),
    ),
    (
        _("Notation"),
        _(
            "A card is its rank (2 to 10, J, Q, K, A) followed by its suit (C clubs, D diamonds, "
            "H hearts, S spades): 7H, 10D, QS. Moves are written 7H, 5C 5D 5S, 8C/S, draw, take, "
            "pass and resign."
        ),
    ),
)


def how_to_play() -> dict[str, Any]:
    return {
        "language": get_language(),
        "title": str(TITLE),
        "sections": [{"heading": str(h), "text": str(t)} for h, t in SECTIONS],
        "bonus_kinds": [],
        "bonus_squares": [],
    }
