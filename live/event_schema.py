"""Each event of the streams as its own schema (the ``data:`` line's JSON), in one union told
apart by ``type`` (``LiveEvent``), added to the OpenAPI components by ``live.schema``.
tests/live/test_event_schema.py validates the events real games publish against them."""

from __future__ import annotations

from typing import Any

INT: dict[str, Any] = {"type": "integer"}
STR: dict[str, Any] = {"type": "string"}
BOOL: dict[str, Any] = {"type": "boolean"}
NULLABLE_INT: dict[str, Any] = {"type": "integer", "nullable": True}
TIME: dict[str, Any] = {"type": "string", "format": "date-time"}
NULLABLE_TIME: dict[str, Any] = {"type": "string", "format": "date-time", "nullable": True}


def _event(type_: str, description: str, properties: dict[str, Any],
           optional: tuple[str, ...] = (), open_: bool = False) -> dict[str, Any]:
    return {
        "type": "object",
        "description": description,
        "properties": {"type": {"type": "string", "enum": [type_]}, **properties},
        "required": ["type", *(name for name in properties if name not in optional)],
        "additionalProperties": open_,
    }


_TURN = {"game": INT, "move_number": INT, "turn": NULLABLE_INT, "deadline": NULLABLE_TIME}
_REMATCH = {"game": INT, "status": STR, "offered_by_you": BOOL, "expires_at": TIME,
            "new_game": NULLABLE_INT, "streak": INT}
_FRIEND = {"username": STR, "name": STR}
_TABLE = {"table": STR, "game": NULLABLE_INT, "event": STR, "player": {**STR, "nullable": True},
          "status": STR}

EVENTS: dict[str, dict[str, Any]] = {
    "game_started": _event("game_started", "the game's seats are filled: it began", {
        "game": INT, "seat": INT, "turn": NULLABLE_INT, "your_turn": BOOL,
        "deadline": NULLABLE_TIME,
    }),
    "move": _event(
        "move",
        "a move was played. Beside these fields it carries the game's kind's public facts of "
        "the move, also as `public` (Crazy10s: `lines`, `drawn`; Crazy Eights: `events`, each "
        "a CrazyEightsEvent); the mover's own copy adds `own`, their pieces after the move",
        {
            "game": INT, "move_number": INT, "seat": INT, "by_you": BOOL,
            "kind": {**STR, "description": "the move's kind (placement, play, pass, ...)"},
            "notation": {**STR, "description": "as everyone may see it"},
            "score": INT,
            "public": {"type": "object", "additionalProperties": {},
                       "description": "the kind's public facts of the move"},
            "scores": {"type": "object", "additionalProperties": INT,
                       "description": "each seat's score, by seat index"},
            "status": STR, "turn": NULLABLE_INT, "your_turn": BOOL,
            "own": {"type": "object", "additionalProperties": {},
                    "description": "your rack or hand after your move (your copy only)"},
        },
        optional=("own",), open_=True,
    ),
    "your_turn": _event("your_turn", "it is your turn", _TURN),
    "deadline": _event("deadline", "a turn began: whose it is and until when", _TURN),
    "game_finished": _event("game_finished", "the game is over", {
        "game": INT, "status": STR, "move_number": INT,
        "result": {"type": "object", "additionalProperties": {}, "nullable": True,
                   "description": "termination, winners, scores and adjustments by seat"},
    }),
    "taken_over": _event("taken_over", "the computer plays a seat whose time ran out", {
        "game": INT, "seat": INT, "yours": BOOL,
    }),
    "round_over": _event(
        "round_over", "a Crazy Eights round ended (every hand is public now)",
        {"game": INT, "move_number": INT, "round": INT, "reason": STR,
         "winner": NULLABLE_INT, "hands": {"type": "array", "items": {"type": "array",
                                                                      "items": STR}},
         "points": {"type": "array", "items": INT}, "scores": {"type": "array", "items": INT}},
    ),
    "match_over": _event(
        "match_over", "a Crazy Eights match ended",
        {"game": INT, "move_number": INT, "termination": STR,
         "winners": {"type": "array", "items": INT}, "ranking": {"type": "array", "items": INT},
         "scores": {"type": "array", "items": INT}},
    ),
    "nudge": _event("nudge", "the player waiting for you sent a reminder", {
        "game": INT, "move_number": INT, "from_seat": NULLABLE_INT,
    }),
    "chat": _event("chat", "a chat line of a game", {
        "id": INT, "game": INT, "seat": NULLABLE_INT, "username": {**STR, "nullable": True},
        "name": {**STR, "nullable": True}, "text": STR, "move_number": INT, "created_at": TIME,
        "by_you": BOOL,
    }),
    "rematch_offered": _event("rematch_offered", "a rematch was offered", _REMATCH),
    "rematch_accepted": _event("rematch_accepted", "the rematch began", _REMATCH),
    "rematch_declined": _event("rematch_declined", "the rematch was declined", _REMATCH),
    "rematch_withdrawn": _event("rematch_withdrawn", "the offer was withdrawn", _REMATCH),
    "friend_request": _event("friend_request", "someone asks to be your friend", _FRIEND),
    "friend_accepted": _event("friend_accepted", "your friend request was accepted", _FRIEND),
    "move_analysed": _event("move_analysed", "your move's % of best", {
        "game": INT, "move_number": INT, "seat": INT, "kind": STR, "notation": STR,
        "score": INT, "best_score": INT, "best_notation": STR,
        "percent_of_best": {"type": "number"},
    }),
    "analysis_ready": _event("analysis_ready", "every move of the game is analysed", {
        "game": INT,
    }),
    "table_joined": _event("table_joined", "someone sat down at a table", _TABLE),
    "table_left": _event("table_left", "someone left a table", _TABLE),
    "table_back": _event("table_back", "someone took their seat back", _TABLE),
    "table_dealt": _event("table_dealt", "the host dealt: the game began", _TABLE),
    "resync": _event("resync", "events were missed: reload what you show", {
        "game": NULLABLE_INT,
    }),
    "reconnect": _event("reconnect", "the server is going away: reconnect (no id)", {
        "reason": STR,
    }),
}


def component_name(type_: str) -> str:
    """``LiveRoundOverEvent``: "Live" keeps the stream's events apart from the schemas of a
    move's own events (a Crazy Eights ``RoundOverEvent``, which has no ``type``): the same name
    made one of them replace the other, and clients then failed to read a round's last move."""
    return "Live" + "".join(part.title() for part in type_.split("_")) + "Event"


def components() -> dict[str, dict[str, Any]]:
    """The events' schemas and ``LiveEvent``, their union."""
    found = {component_name(t): schema for t, schema in EVENTS.items()}
    found["LiveEvent"] = {
        "oneOf": [{"$ref": f"#/components/schemas/{component_name(t)}"} for t in EVENTS],
        "discriminator": {
            "propertyName": "type",
            "mapping": {t: f"#/components/schemas/{component_name(t)}" for t in EVENTS},
        },
    }
    return found
