"""What one seat may see of a match: its own hand, never another hand during a round, never
the stock order, never the seed. Every hand is shown once a round is over (``last_round``)."""

from __future__ import annotations

from typing import Any

from .cards import CARD_NAMES, SUITS
from .state import GameState


def view_for(state: GameState, seat: int | None) -> dict[str, Any]:
    """The match as ``seat`` sees it (JSON-ready); ``seat=None`` is a spectator (no hand)."""
    top = state.discard[-1]
    view: dict[str, Any] = {
        "seat": seat,
        "options": state.options.to_dict(),
        "players": state.options.players,
        "goal": state.options.goal,
        "round": state.round,
        "dealer": state.dealer,
        "turn": state.turn,
        "your_turn": seat is not None and state.turn == seat,
        "direction": state.direction,
        "top": CARD_NAMES[top],
        "suit": SUITS[state.suit],
        "hand_sizes": [len(h) for h in state.hands],
        "stock_size": len(state.stock),
        "discard_size": len(state.discard),
        # Public (every rebuild is announced): after the last rebuild an empty stock stays empty.
        "rebuilds": state.rebuilds,
        "last_stock": state.last_stock,
        "penalty": state.penalty,
        "draws": state.draws,
        "passes": state.passes,
        "scores": list(state.scores),
        "move_number": state.move_number,
        "last_round": state.last_round.to_dict() if state.last_round else None,
        "result": state.result.to_dict() if state.result else None,
        "match_over": state.result is not None,
    }
    if seat is not None:
        view["hand"] = [CARD_NAMES[c] for c in state.hands[seat]]
        # The card this seat drew this turn (the only one it may now play): its own knowledge.
        mine = state.turn == seat and state.drawn is not None
        view["drawn"] = CARD_NAMES[state.drawn] if mine and state.drawn is not None else None
    return view
