"""Playing a move: ``apply_move`` returns the new state and what happened; ``replay``.

The state is immutable, so a refused move leaves it unchanged by construction.
"""

from __future__ import annotations

import random
from dataclasses import dataclass, field, replace
from typing import Any

from .cards import ACE, EIGHT, QUEEN, RANK, SUIT, TWO
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
    SeatsSkipped,
    StockRebuilt,
    SuitNamed,
)
from .moves import Draw, Move, Pass, Play, Resign, Take, canonical, format_move, parse_move
from .options import Options
from .rules import validate_move
from .scoring import match_winner, ranking, round_points
from .state import (
    MAX_REBUILDS,
    GameState,
    Outcome,
    RoundResult,
    Termination,
    new_match,
    new_round_state,
)


@dataclass(frozen=True, slots=True)
class MoveResult:
    """What ``apply_move`` did. ``events`` are public; ``private`` (the drawn cards) is for
    ``seat`` only and stays out of repr()."""

    state: GameState
    seat: int
    move: Move  # as played: a Play with its middle cards in order, a Resign naming its seat
    events: tuple[Event, ...]
    private: CardsReceived | None = field(default=None, repr=False)

    @property
    def round_over(self) -> bool:
        return any(isinstance(e, RoundOver) for e in self.events)

    @property
    def match_over(self) -> bool:
        return self.state.result is not None

    def public_dict(self) -> dict[str, Any]:
        """The kind-neutral public record of this move (JSON-ready)."""
        return {
            "seat": self.seat,
            "move": format_move(self.move),
            "events": [e.to_dict() for e in self.events],
        }

    def private_dict(self) -> dict[str, Any] | None:
        return self.private.to_dict() if self.private else None


def apply_move(state: GameState, move: Move | str, seat: int | None = None) -> MoveResult:
    """Play ``move`` (a move or its notation) for ``seat`` (None: the seat to act); raise
    ``IllegalMoveError`` if it is illegal. ``state`` is never changed."""
    if isinstance(move, str):
        move = parse_move(move)
    validate_move(state, move, seat)
    if isinstance(move, Resign):
        who = move.seat if move.seat is not None else seat
        if who is None:
            who = state.turn
        assert who is not None, "a resignation names its seat when nobody is to act"
        return _resign(state, who)
    return apply_legal(state, move)


def apply_legal(state: GameState, move: Move) -> MoveResult:
    """Play a move taken from ``legal_moves(state)`` without checking it again (playouts)."""
    if isinstance(move, Play):
        return _play(state, move)
    if isinstance(move, Draw):
        return _draw(state)
    if isinstance(move, Pass):
        return _pass(state)
    if isinstance(move, Take):
        return _take(state)
    if isinstance(move, Resign):
        assert state.turn is not None
        return _resign(state, state.turn if move.seat is None else move.seat)
    raise TypeError(f"not a move: {move!r}")


def _deal_from_stock(
    state: GameState, count: int
) -> tuple[tuple[int, ...], tuple[int, ...], tuple[int, ...], int, list[Event]]:
    """Up to ``count`` cards from the stock, rebuilding it from the discards (all but the top
    card, shuffled from the seed, round and rebuild count) when it runs out, at most
    ``MAX_REBUILDS`` times a round."""
    stock, discard, rebuilds = state.stock, state.discard, state.rebuilds
    drawn: tuple[int, ...] = ()
    events: list[Event] = []
    while len(drawn) < count:
        if not stock:
            if len(discard) <= 1 or rebuilds >= MAX_REBUILDS:
                break
            pile = list(discard[:-1])
            rebuilds += 1
            random.Random(f"crazy8s:{state.seed}:round:{state.round}:rebuild:{rebuilds}").shuffle(
                pile
            )
            stock, discard = tuple(pile), discard[-1:]
            events.append(StockRebuilt(len(stock)))
        k = min(count - len(drawn), len(stock))
        drawn += stock[:k]
        stock = stock[k:]
    return drawn, stock, discard, rebuilds, events


def _with_hand(
    hands: tuple[tuple[int, ...], ...], seat: int, hand: tuple[int, ...]
) -> tuple[tuple[int, ...], ...]:
    return hands[:seat] + (hand,) + hands[seat + 1 :]


def _play(state: GameState, move: Play) -> MoveResult:
    seat = state.turn
    assert seat is not None
    move = canonical(move)
    cards = move.cards
    hand = tuple(c for c in state.hands[seat] if c not in cards)
    hands = _with_hand(state.hands, seat, hand)
    last = cards[-1]
    rank = RANK[last]
    suit = move.suit if rank == EIGHT else SUIT[last]
    assert suit is not None
    events: list[Event] = [CardsPlayed(seat, cards)]
    if rank == EIGHT:
        events.append(SuitNamed(seat, suit))
    after = replace(
        state,
        hands=hands,
        discard=state.discard + cards,
        suit=suit,
        draws=0,
        drawn=None,
        passes=0,
        move_number=state.move_number + 1,
    )
    if not hand:
        # docs/rules.md: the round ends the moment a player plays their last card; an action card's
        # effect is not carried into the next round.
        return _end_round(after, seat, move, events, "out", seat)
    n = state.options.players
    direction = state.direction
    penalty = state.penalty
    nxt = (seat + direction) % n
    if state.options.actions:
        k = len(cards)
        if rank == TWO:
            penalty += 2 * k
            events.append(PenaltyRaised(seat, 2 * k, penalty))
        elif rank == QUEEN:
            if n == 2:
                events.append(SeatsSkipped(seat, (1 - seat,) * k))
                events.append(ExtraTurn(seat))
                nxt = seat
            else:
                skipped = tuple((seat + direction * i) % n for i in range(1, k + 1))
                events.append(SeatsSkipped(seat, skipped))
                nxt = (seat + direction * (k + 1)) % n
        elif rank == ACE:
            if k % 2:
                direction = -direction
            events.append(DirectionReversed(seat, k, direction))
            if n == 2:
                events.append(ExtraTurn(seat))
                nxt = seat
            else:
                nxt = (seat + direction) % n
    after = replace(after, direction=direction, penalty=penalty, turn=nxt)
    return MoveResult(after, seat, move, tuple(events))


def _draw(state: GameState) -> MoveResult:
    seat = state.turn
    assert seat is not None
    drawn, stock, discard, rebuilds, events = _deal_from_stock(state, 1)
    card = drawn[0]
    hand = tuple(sorted(state.hands[seat] + drawn))
    events.append(CardDrawn(seat))
    after = replace(
        state,
        hands=_with_hand(state.hands, seat, hand),
        stock=stock,
        discard=discard,
        rebuilds=rebuilds,
        draws=state.draws + 1,
        drawn=card,
        move_number=state.move_number + 1,
    )
    return MoveResult(after, seat, Draw(), tuple(events), CardsReceived(seat, drawn))


def _take(state: GameState) -> MoveResult:
    seat = state.turn
    assert seat is not None
    size = state.penalty
    drawn, stock, discard, rebuilds, events = _deal_from_stock(state, size)
    hand = tuple(sorted(state.hands[seat] + drawn))
    events.append(PenaltyTaken(seat, size, len(drawn)))
    after = replace(
        state,
        hands=_with_hand(state.hands, seat, hand),
        stock=stock,
        discard=discard,
        rebuilds=rebuilds,
        penalty=0,
        draws=0,
        drawn=None,
        passes=0,
        turn=(seat + state.direction) % state.options.players,
        move_number=state.move_number + 1,
    )
    return MoveResult(after, seat, Take(), tuple(events), CardsReceived(seat, drawn))


def _pass(state: GameState) -> MoveResult:
    seat = state.turn
    assert seat is not None
    events: list[Event] = [Passed(seat)]
    after = replace(
        state,
        draws=0,
        drawn=None,
        passes=state.passes + 1,
        turn=(seat + state.direction) % state.options.players,
        move_number=state.move_number + 1,
    )
    if after.passes >= state.options.players and not after.can_draw:
        # docs/rules.md: every player in turn passed without playing and the stock cannot be
        # rebuilt.
        return _end_round(after, seat, Pass(), events, "blocked", None)
    return MoveResult(after, seat, Pass(), tuple(events))


def _end_round(
    state: GameState, seat: int, move: Move, events: list[Event], reason: str, out: int | None
) -> MoveResult:
    options = state.options
    points, winner = round_points(options, state.hands, reason, out)
    scores = tuple(s + p for s, p in zip(state.scores, points, strict=True))
    finished = RoundResult(state.round, reason, winner, state.hands, points)
    events.append(RoundOver(state.round, reason, winner, state.hands, points, scores))
    champion = match_winner(options, scores)
    if champion is not None:
        order = ranking(options, scores)
        outcome = Outcome(Termination.TARGET_REACHED, (champion,), order, scores)
        events.append(MatchOver(outcome.termination.value, (champion,), order, scores))
        after = replace(
            state, scores=scores, turn=None, penalty=0, draws=0, drawn=None,
            last_round=finished, result=outcome,
        )
        return MoveResult(after, seat, move, tuple(events))
    after, started = new_round_state(
        options,
        state.seed,
        state.round + 1,
        (state.dealer + 1) % options.players,
        scores,
        state.move_number,
        finished,
    )
    events.append(started)
    return MoveResult(after, seat, move, tuple(events))


def _resign(state: GameState, seat: int) -> MoveResult:
    """A resignation ends the match with the resigner last; the others are ranked by their
    totals (the service hands a leaver's seat to a computer instead when the match goes on)."""
    options = state.options
    others = tuple(s for s in ranking(options, state.scores) if s != seat)
    best = state.scores[others[0]]
    winners = tuple(s for s in others if state.scores[s] == best)
    order = (*others, seat)
    outcome = Outcome(Termination.RESIGNATION, winners, order, state.scores, resigned=seat)
    after = replace(
        state, turn=None, result=outcome, move_number=state.move_number + 1
    )
    events = (
        Resigned(seat),
        MatchOver(outcome.termination.value, winners, order, state.scores),
    )
    return MoveResult(after, seat, Resign(seat), events)


def outcome(state: GameState) -> Outcome | None:
    return state.result


def replay(seed: int, options: Options, moves: list[str]) -> GameState:
    """Rebuild a match from its seed, options and moves in notation (``resign@N`` names the
    resigning seat, as ``replay_notation`` writes it)."""
    state = new_match(seed=seed, options=options)
    for text in moves:
        if text.startswith("resign@"):
            move: Move = Resign(int(text.split("@", 1)[1]))
        else:
            move = parse_move(text)
        state = apply_move(state, move).state
    return state


def replay_notation(result: MoveResult) -> str:
    """The notation of a played move as ``replay`` reads it back."""
    if isinstance(result.move, Resign):
        return f"resign@{result.seat}"
    return format_move(result.move)
