"""Crazy Eights rules engine: pure Python, no Django/Celery/Redis, no clock, no global randomness.

Rules: docs/rules.md, "Crazy Eights" (with "a turn, step by step" and "Crazy Eights notation").

The API follows the Crazy10s engine:

- ``Options(players=2, actions=True, several=True, target=None, classic=False)``, validated
  (``InvalidOptionsError``), ``to_dict``/``from_dict``; ``options.goal``, ``options.hand_size``.
- ``new_match(seed=..., options=...)`` → ``GameState`` (frozen; the current round of the
  match; ``to_dict``/``from_dict``; its repr hides hands, stock, discards and seed).
- Moves: ``Play(cards, suit=None)``, ``Draw()``, ``Take()``, ``Pass()``, ``Resign(seat=None)``;
  ``parse_move``/``format_move`` in docs/rules.md notation (``7H``, ``5C 5D 5S``, ``8C 8D/S``,
  ``draw``, ``take``, ``pass``, ``resign``). Cards are ints 0–51 (``parse_card``,
  ``format_card``, ``RANK``, ``SUIT``).
- ``legal_moves(state)`` → every legal move of the seat to act (never ``Resign``);
  ``validate_move(state, move, seat=None)`` raises ``IllegalMoveError`` (``code`` in
  ``ERROR_CODES``); ``apply_move(state, move, seat=None)`` → ``MoveResult(state, seat, move,
  events, private)`` with public events (``events`` module) and the drawer's private
  ``CardsReceived``; ``apply_legal`` skips the re-check for moves from ``legal_moves``.
- A round that ends deals the next one within the same ``apply_move`` (``RoundOver`` then
  ``RoundStarted`` events); ``state.last_round`` keeps the finished round's revealed hands.
- ``outcome(state)`` → ``Outcome(termination, winners, ranking, scores, resigned)`` or None.
- ``view_for(state, seat)`` → what a seat (or a spectator, ``None``) may see.
- ``replay(seed, options, moves)`` rebuilds a match from notation (``replay_notation``).
"""

from .cards import (
    CARD_NAMES,
    CLASSIC_VALUE,
    DEFAULT_VALUE,
    FULL_DECK,
    RANK,
    SUIT,
    SUITS,
    card,
    format_card,
    format_hand,
    hand_value,
    parse_card,
    parse_hand,
    parse_suit,
)
from .errors import ERROR_CODES, IllegalMoveError, InvalidOptionsError
from .events import (
    CardDrawn,
    CardsPlayed,
    CardsReceived,
    DirectionReversed,
    Event,
    ExtraTurn,
    MatchOver,
    Passed,
    PenaltyRaised,
    PenaltyTaken,
    Resigned,
    RoundOver,
    RoundStarted,
    SeatsSkipped,
    StockRebuilt,
    SuitNamed,
)
from .moves import Draw, Move, Pass, Play, Resign, Take, canonical, format_move, parse_move
from .options import Options
from .play import MoveResult, apply_legal, apply_move, outcome, replay, replay_notation
from .rules import is_playable, legal_moves, playable_cards, validate_move
from .scoring import round_points
from .state import (
    MAX_DRAWS,
    GameState,
    Outcome,
    RoundResult,
    Termination,
    cards_in_play,
    new_match,
    new_match_random,
)
from .view import view_for

__all__ = [
    "CARD_NAMES", "CLASSIC_VALUE", "DEFAULT_VALUE", "ERROR_CODES", "FULL_DECK", "MAX_DRAWS",
    "RANK", "SUIT", "SUITS", "CardDrawn", "CardsPlayed", "CardsReceived", "DirectionReversed",
    "Draw", "Event", "ExtraTurn", "GameState", "IllegalMoveError", "InvalidOptionsError",
    "MatchOver", "Move", "MoveResult", "Options", "Outcome", "Pass", "Passed", "PenaltyRaised",
    "PenaltyTaken", "Play", "Resign", "Resigned", "RoundOver", "RoundResult", "RoundStarted",
    "SeatsSkipped", "StockRebuilt", "SuitNamed", "Take", "Termination", "apply_legal",
    "apply_move", "canonical", "card", "cards_in_play", "format_card", "format_hand",
    "format_move", "hand_value", "is_playable", "legal_moves", "new_match", "new_match_random",
    "outcome", "parse_card", "parse_hand", "parse_move", "parse_suit", "playable_cards",
    "replay", "replay_notation", "round_points", "validate_move", "view_for",
]
