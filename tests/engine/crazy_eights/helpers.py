"""Builders shared by the Crazy Eights engine tests (pure engine, no Django)."""

from __future__ import annotations

import random

from games.crazy_eights.engine import (
    SUITS,
    GameState,
    IllegalMoveError,
    Move,
    MoveResult,
    Options,
    apply_move,
    legal_moves,
    parse_card,
    parse_hand,
)


def make_state(
    hands: list[str],
    top: str,
    *,
    suit: str | None = None,
    stock: str | None = None,
    under: str = "",
    turn: int = 0,
    dealer: int | None = None,
    direction: int = 1,
    penalty: int = 0,
    draws: int = 0,
    drawn: str | None = None,
    passes: int = 0,
    scores: tuple[int, ...] | None = None,
    seed: int = 7,
    **options: object,
) -> GameState:
    """A position mid-round. ``stock`` (drawn left to right) defaults to every card not in a
    hand or the discards, in deck order, so the 52 cards are all there; ``under`` lies below the
    top card in the discard pile."""
    n = len(hands)
    parsed = tuple(parse_hand(h) for h in hands)
    top_card = parse_card(top)
    under_cards = tuple(parse_card(c) for c in under.split())
    if stock is None:
        used = {c for h in parsed for c in h} | {top_card, *under_cards}
        stock_cards = tuple(c for c in range(52) if c not in used)
    else:
        stock_cards = tuple(parse_card(c) for c in stock.split())
    state = GameState(
        options=Options(players=n, **options),  # type: ignore[arg-type]
        seed=seed,
        round=1,
        dealer=(turn - 1) % n if dealer is None else dealer,
        hands=parsed,
        stock=stock_cards,
        discard=(*under_cards, top_card),
        suit=SUITS.index(suit) if suit else top_card % 4,
        direction=direction,
        turn=turn,
        scores=scores if scores is not None else (0,) * n,
        penalty=penalty,
        draws=draws,
        drawn=parse_card(drawn) if drawn else None,
        passes=passes,
    )
    return state


def run(state: GameState, *moves: str) -> tuple[GameState, list[MoveResult]]:
    """Play ``moves`` in notation one after the other; the final state and every result."""
    results = []
    for text in moves:
        result = apply_move(state, text)
        results.append(result)
        state = result.state
    return state, results


def kinds(result: MoveResult) -> list[str]:
    return [e.kind for e in result.events]


def refusal(state: GameState, move: Move | str, seat: int | None = None) -> str:
    """The code ``apply_move`` refuses ``move`` with; the state must be unchanged."""
    before = state.to_dict()
    try:
        apply_move(state, move, seat)
    except IllegalMoveError as error:
        assert state.to_dict() == before
        return error.code
    raise AssertionError(f"{move!r} was accepted")


def random_options(rng: random.Random) -> Options:
    return Options(
        players=rng.randint(2, 4),
        actions=rng.random() < 0.7,
        several=rng.random() < 0.7,
        target=rng.choice([None, None, 100, 150, 200]),
        classic=rng.random() < 0.3,
    )


def random_move(state: GameState, rng: random.Random) -> Move:
    return rng.choice(legal_moves(state))
