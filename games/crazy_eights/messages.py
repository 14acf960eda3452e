"""Player-facing texts of Crazy Eights in the active language: the engine's refusals, the
reasons of hints and the coach's notes. The engine answers with stable codes and parameters;
translation happens here, at the service boundary. Cards and suits are said in words ("Queen of
spades", "hearts"), translated: a person reads these; the moves themselves (a hint's ``move``)
stay in notation."""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from django.utils.translation import gettext_lazy as _

from games.crazy_eights.engine.coach import COACH_CODES
from games.crazy_eights.engine.errors import ERROR_CODES
from games.crazy_eights.engine.hints import HINT_CODES

ERRORS: dict[str, Any] = {
    "bad_notation": _("That is not a move: write cards like 7H, 5C 5D or 8S/H, or draw, take, "
                      "pass."),
    "match_over": _("The match is over."),
    "not_your_turn": _("It is not your turn."),
    "not_a_player": _("There is no such seat at this table."),
    "not_in_hand": _("You do not hold that card."),
    "duplicate_card": _("The same card appears twice in this play."),
    "does_not_match": _("The first card must match the suit or the rank of the top card, or be "
                        "an 8."),
    "penalty_pending": _("A draw-two is pending: play a 2 or take the cards."),
    "no_penalty": _("There is no draw-two to take."),
    "must_play": _("You hold a card that fits: you may not draw."),
    "drawn_card_first": _("After drawing, only the card you just drew may be played."),
    "draw_limit": _("You have drawn three cards this turn: play the last one or pass."),
    "stock_empty": _("The stock is empty and cannot be rebuilt: pass."),
    "cannot_pass": _("You cannot pass yet: draw first, or play the card you drew."),
    "mixed_ranks": _("Several cards played at once must all have the same rank."),
    "several_not_allowed": _("This match allows only one card per turn."),
    "suit_required": _("Name the suit when your last card is an 8, e.g. 8S/H."),
    "suit_not_allowed": _("Only an 8 names a suit."),
}

# Each reason says only what the position shows; hint_keep_shield says where the hint departs
# from the strategy text's advice.
HINTS: dict[str, Any] = {
    "hint_wait": _("It is not your turn."),
    "hint_go_out": _("Play %(cards)s: your hand is empty and the round ends."),
    "hint_answer_two": _("Answer with a 2: the penalty grows to %(total)s for the next player."),
    "hint_take_penalty": _("Take the %(penalty)s cards: you have no 2 to answer with."),
    "hint_draw": _("Nothing fits %(suit)s or %(top)s and you have no 8: draw a card."),
    "hint_pass": _("The cards you drew do not fit: pass."),
    "hint_pass_no_stock": _("Nothing fits and there is no card left to draw: pass."),
    "hint_keep_drawn": _("%(card)s fits, but it is worth keeping: pass."),
    "hint_keep_shield": _("%(card)s fits, but keep it as your shield against a draw-two and "
                          "pass: the one time not to lay a drawn card that fits."),
    "hint_play_drawn": _("Play %(card)s, the card you just drew."),
    "hint_play_eight_last": _("Only your 8 fits: play %(card)s and name %(suit)s."),
    "hint_play_eight": _("Play %(card)s and name %(suit)s."),
    "hint_eight_danger": _("Someone holds a single card: play %(card)s now and name %(suit)s, "
                           "before it costs you 50 points."),
    "hint_attack": _("Play %(cards)s: the next player holds only %(cards_left)s cards."),
    "hint_shed_several": _("Play %(cards)s together: %(points)s points out of your hand."),
    "hint_shed": _("Play %(cards)s: the most expensive card that fits (%(points)s points)."),
    "hint_follow_suit": _("Play %(cards)s: it leaves %(suit)s on the pile, the suit you hold "
                          "most of."),
    "hint_play": _("Play %(cards)s: it fits, and it plays best from here."),
}

COACH: dict[str, Any] = {
    "coach_eight": _("An 8 fits on anything: its player names the suit to follow (%(suit)s)."),
    "coach_draw_two": _("A 2: the next player answers with a 2 or takes %(total)s cards."),
    "coach_stacked_twos": _("2s stacked: each one adds two cards, %(total)s now."),
    "coach_skip": _("A Queen skips the next player; two Queens skip two."),
    "coach_skip_round": _("Each Queen skips one turn, going round the table: with as many "
                          "Queens as players, the turn of whoever laid them comes round and is "
                          "skipped too."),
    "coach_reverse": _("An Ace reverses the direction of play."),
    "coach_two_players": _("With two players a Queen or an Ace gives its player another turn."),
    "coach_penalty_taken": _("A player took the penalty: %(size)s cards, and the turn is over."),
    "coach_stock_rebuilt": _("The stock ran out: the discards under the top card were "
                             "shuffled into a new stock."),
    "coach_round_scored": _("Round %(round)s is over: the points of the cards left in hand are "
                            "scored."),
}

assert set(ERRORS) == ERROR_CODES and set(HINTS) == HINT_CODES and set(COACH) == set(COACH_CODES)


SUIT_WORDS: dict[str, Any] = {
    "C": _("clubs"), "D": _("diamonds"), "H": _("hearts"), "S": _("spades"),
}
RANK_WORDS: dict[str, Any] = {"J": _("Jack"), "Q": _("Queen"), "K": _("King"), "A": _("Ace")}
CARD_PARAMS = ("card", "top")  # a card's notation ("QS")
SUIT_PARAMS = ("suit",)  # a suit's letter ("H")


def card_words(name: str) -> str:
    """``"QS"`` -> "Queen of spades" in the active language (a name that is no card stays)."""
    rank, suit = name[:-1], name[-1:]
    if suit not in SUIT_WORDS or not rank:
        return name
    return str(_("%(rank)s of %(suit)s")) % {
        "rank": RANK_WORDS.get(rank, rank), "suit": SUIT_WORDS[suit]
    }


def _words(names: list[Any] | tuple[Any, ...]) -> str:
    said = [card_words(str(n)) for n in names]
    if len(said) < 2:
        return "".join(said)
    return str(_("%(cards)s and %(last)s")) % {"cards": ", ".join(said[:-1]), "last": said[-1]}


def _param(key: str, value: Any) -> Any:
    if key == "cards" and isinstance(value, list | tuple):
        return _words(value)
    if key in CARD_PARAMS and isinstance(value, str):
        return card_words(value)
    if key in SUIT_PARAMS and isinstance(value, str):
        return str(SUIT_WORDS.get(value, value))
    return " ".join(map(str, value)) if isinstance(value, list | tuple) else value


def _params(params: Mapping[str, Any]) -> dict[str, Any]:
    return {k: _param(k, v) for k, v in params.items()}


def _fill(template: Any, params: Mapping[str, Any]) -> str:
    text = str(template)
    try:
        return text % _params(params) if "%(" in text else text
    except (KeyError, TypeError, ValueError):
        return text


def error_message(code: str, details: Mapping[str, Any]) -> str:
    text = ERRORS.get(code)
    return str(text) if text is not None else code


def hint_message(code: str, params: Mapping[str, Any]) -> str:
    return _fill(HINTS.get(code, code), params)


def coach_message(code: str, params: Mapping[str, Any]) -> str:
    return _fill(COACH.get(code, code), params)


def skip_message(event: Mapping[str, Any], players: int, names: Mapping[int, str]) -> str:
    """A ``seats_skipped`` event in words: who is skipped, and who plays next. When the skips
    come round to the player who laid the Queens (four Queens at four seats), it says their
    own turn is skipped too, not that they skipped their own seat."""
    seat, skipped = event["seat"], list(event["skipped"])
    if players == 2 or not skipped:
        return ""
    direction = 1 if skipped[0] == (seat + 1) % players else -1
    following = names.get((seat + direction * (len(skipped) + 1)) % players, "?")
    if seat in skipped:
        return str(_("every other player is skipped, then %(player)s's own turn too: "
                     "%(next)s plays next")) % {"player": names.get(seat, "?"),
                                                 "next": following}
    who = ", ".join(names.get(s, "?") for s in skipped)
    return str(_("%(skipped)s skipped: %(next)s plays next")) % {"skipped": who,
                                                                "next": following}
