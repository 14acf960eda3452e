"""The Crazy Eights game page: cards as the templates draw them, what the player may do now,
the players around the table, the last round's revealed hands and the move log.

Which cards may start a play and which buttons are offered is worked out here from the
player's own ``position`` (the same facts the API gives), only to guide the screen: the server
checks every move (``games/{id}/moves``), so a stale page gets the engine's translated error.
"""

from __future__ import annotations

from typing import Any

from django.http import HttpRequest
from django.utils.html import format_html
from django.utils.translation import gettext as _
from django.utils.translation import gettext_lazy, pgettext_lazy

from games.crazy_eights.messages import skip_message
from games.tables import services as tables

SUITS = ("C", "D", "H", "S")
SYMBOLS = {"C": "♣", "D": "♦", "H": "♥", "S": "♠"}
SUIT_NAMES = {
    "C": gettext_lazy("clubs"),
    "D": gettext_lazy("diamonds"),
    "H": gettext_lazy("hearts"),
    "S": gettext_lazy("spades"),
}
RANK_NAMES = {
    "J": gettext_lazy("Jack"),
    "Q": gettext_lazy("Queen"),
    "K": gettext_lazy("King"),
    "A": gettext_lazy("Ace"),
}
# The letter on a card's face in each language (German B, D, K, A; French V, D, R, A); the
# notation the API reads and writes keeps J, Q, K, A.
RANK_LETTERS = {
    "J": pgettext_lazy("card face: Jack", "J"),
    "Q": pgettext_lazy("card face: Queen", "Q"),
    "K": pgettext_lazy("card face: King", "K"),
    "A": pgettext_lazy("card face: Ace", "A"),
}
MAX_DRAWS = 3  # cards a player may draw in one turn (the rules)
HISTORY_SHOWN = 30  # the log's newest entries (a long match would outgrow the page)


def card(name: str) -> dict[str, Any]:
    """``"10H"`` -> rank, suit, symbol, colour and the spoken name ("10 of hearts")."""
    rank, suit = name[:-1], name[-1]
    red = suit in ("D", "H")
    return {
        "name": name,
        "rank": rank,
        "suit": suit,
        "symbol": SYMBOLS.get(suit, suit),
        "red": red,
        "label": _("%(rank)s of %(suit)s") % {
            "rank": RANK_NAMES.get(rank, rank), "suit": SUIT_NAMES.get(suit, suit)
        },
        # the face, built here: an {% include %} per card was most of the page's server time
        "face": format_html('<span class="face{}" aria-hidden="true"><b>{}</b><i>{}</i></span>',
                            " red" if red else "", RANK_LETTERS.get(rank, rank),
                            SYMBOLS.get(suit, suit)),
    }


def suit(letter: str) -> dict[str, Any]:
    return {"letter": letter, "symbol": SYMBOLS[letter], "name": SUIT_NAMES[letter],
            "red": letter in ("D", "H")}


def _fits(name: str, position: dict[str, Any]) -> bool:
    """The rules' "playable": an 8, the suit to follow or the top card's rank; while a
    draw-two penalty is pending, only a 2."""
    rank, suit_ = name[:-1], name[-1]
    if position["penalty"]:
        return rank == "2"
    return rank == "8" or suit_ == position["suit"] or rank == position["top"][:-1]


def turn_options(position: dict[str, Any], your_turn: bool) -> dict[str, Any]:
    """What the player may do now: the cards that may lead a play, and draw / take / pass."""
    none: dict[str, Any] = {"firsts": set(), "draw": False, "take": False, "pass": False}
    if not your_turn:
        return none
    hand = position["hand"]
    can_draw = position["stock_size"] > 0 or (
        position["discard_size"] > 1 and not position.get("last_stock", False)
    )
    if position["penalty"]:
        return {**none, "firsts": {c for c in hand if _fits(c, position)}, "take": True}
    drawn = position["drawn"]
    if position["draws_this_turn"] and drawn:
        if _fits(drawn, position):
            return {**none, "firsts": {drawn}, "pass": True}
        more = position["draws_this_turn"] < MAX_DRAWS and can_draw
        return {**none, "draw": more, "pass": not more}
    firsts = {c for c in hand if _fits(c, position)}
    if firsts:
        return {**none, "firsts": firsts}
    return {**none, "draw": can_draw, "pass": not can_draw}


def _seats(view: dict[str, Any]) -> list[dict[str, Any]]:
    position = view["position"]
    counts = {p["seat"]: p["card_count"] for p in position["players"]}
    return [
        {**p, "card_count": counts.get(p["seat"], p.get("piece_count", 0)),
         "to_move": p["seat"] == view["to_move"], "dealer": p["seat"] == position["dealer"]}
        for p in view["players"]
    ]


def last_round(view: dict[str, Any]) -> dict[str, Any] | None:
    """The finished round's revealed hands beside each player's name and points."""
    revealed = view["position"].get("revealed_hands")
    if not revealed:
        return None
    names = {p["seat"]: p["name"] for p in view["players"]}
    rows = []
    for seat, hand in enumerate(revealed["hands"]):
        cards = hand.split() if isinstance(hand, str) else list(hand)
        rows.append({
            "seat": seat,
            "name": names.get(seat),
            "is_you": seat == view["your_seat"],
            "cards": [card(c) for c in cards],
            "points": revealed["points"][seat],
            "winner": seat == revealed["winner"],
        })
    return {"round": revealed["round"], "reason": revealed["reason"],
            "winner": names.get(revealed["winner"]), "rows": rows}


def _round_ended_by(entry: dict[str, Any]) -> bool:
    return any(e.get("kind") == "round_over" for e in entry.get("events", []))


def _round_over_since_my_move(history: list[dict[str, Any]], seat: int | None) -> bool:
    """Whether a round ended with or after my newest move: the computers may already have
    played on in the next round, and I have not seen the hands yet."""
    for entry in reversed(history):
        if _round_ended_by(entry):
            return True
        if entry.get("seat") == seat:
            return False
    return False


def log(
    history: list[dict[str, Any]], names: dict[int, str] | None = None
) -> list[dict[str, Any]]:
    """The newest moves, each with its cards drawn as cards, the suit an 8 named, and the
    turns Queens skipped, in words (``names``: each seat's player)."""
    names = names or {}
    rows = []
    for entry in history[-HISTORY_SHOWN:]:
        notation = entry.get("notation") or ""
        cards, named = [], None
        if entry["kind"] in ("play", "timeout") and notation not in ("draw", "take", "pass"):
            text, _sep, named_letter = notation.partition("/")
            cards = [card(c) for c in text.split()]
            named = suit(named_letter) if named_letter in SYMBOLS else None
        taken = next((e.get("drawn") for e in entry.get("events", [])
                      if e.get("kind") == "penalty_taken"), None)
        skips = [skip_message(e, len(names), names) for e in entry.get("events", [])
                 if e.get("kind") == "seats_skipped"]
        rows.append({
            "number": entry["number"],
            "player": entry["player"],
            "username": entry.get("username"),
            "mine": entry["mine"],
            "kind": entry["kind"],
            "action": notation if entry["kind"] == "timeout" else entry["kind"],
            "cards": cards,
            "named": named,
            "taken": taken,
            "skips": [text for text in skips if text],
            "round_over": _round_ended_by(entry),
        })
    return rows


# How to play on this page: the API's text tells how to write moves; here nothing is typed.
# The sections are found by their heading (the same message as the API's, so the same
# translation): these get the page's text, "Notation" is left out.
WEB_HOWTO = {
    "Your turn": gettext_lazy(
        "Tap a card of your hand that matches the top card of the discard pile in suit or in "
        "rank (the cards that fit stand out), then Play. An 8 fits on anything: after Play you "
        "choose the suit to follow. If nothing fits, tap Draw a card, up to three times; you may "
        "play the card you just drew, or Pass."
    ),
    "Several cards": gettext_lazy(
        "If the match allows it, tap several cards of one rank in the order you want to lay "
        "them: the first must fit, and the last one sets the suit. Tap a chosen card again to "
        "put it back."
    ),
    "Action cards": gettext_lazy(
        "Unless the match uses the classic rules: a 2 makes the next player take two cards (or "
        "answer with a 2 of their own, which passes on a bigger penalty; tap Take to accept "
        "it); a Queen skips the next player; an Ace reverses the direction of play. With two "
        "players a Queen or an Ace gives you another turn. Stuck? Hint chooses the cards for "
        "you and says why."
    ),
}
LEFT_OUT = ("Notation",)


def web_howto(howto: dict[str, Any] | None) -> dict[str, Any] | None:
    if not howto:
        return howto
    by_heading = {_(heading): text for heading, text in WEB_HOWTO.items()}
    left_out = {_(heading) for heading in LEFT_OUT}
    sections = [
        {**section, "text": str(by_heading[section["heading"]])}
        if section["heading"] in by_heading else section
        for section in howto["sections"] if section["heading"] not in left_out
    ]
    return {**howto, "sections": sections}


def game_context(
    request: HttpRequest, view: dict[str, Any], history: list[dict[str, Any]]
) -> dict[str, Any]:
    position = view["position"]
    your_turn = view["status"] == "active" and view["to_move"] == view["your_seat"]
    options = turn_options(position, your_turn)
    hand = []
    for name in position["hand"]:
        hand.append({**card(name), "first": name in options["firsts"],
                     "drawn": name == position["drawn"]})
    seats = _seats(view)
    me = next((s for s in seats if s["is_you"]), None)
    code = tables.code_of_game(view["id"])
    ended = last_round(view)
    return {
        "hand": hand,
        "top": card(position["top"]),
        "suit_to_follow": suit(position["suit"]),
        "suits": [suit(s) for s in SUITS],
        "options": options,
        "seats": seats,
        "me": me,
        "table_code": code,
        "turn_seconds": tables.turn_seconds() if code else None,
        "last_round": ended,
        # the hands of a round that ended since my last move are shown opened
        "round_just_over": bool(ended and _round_over_since_my_move(history, view["your_seat"])),
        "log": log(history, {p["seat"]: p["name"] for p in view["players"]}),
        "log_hidden": max(0, len(history) - HISTORY_SHOWN),
        "ranking": _ranking(view),
        "howto_for_page": web_howto,
    }


def _ranking(view: dict[str, Any]) -> list[dict[str, Any]]:
    ranking = view["position"].get("ranking") or []
    by_seat = {p["seat"]: p for p in view["players"]}
    return [by_seat[s] for s in ranking if s in by_seat]
