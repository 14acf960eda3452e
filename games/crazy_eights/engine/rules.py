"""What may be played (docs/rules.md, "Crazy Eights: a turn, step by step").

``validate_move`` is the single authority on legality; ``legal_moves`` lists each distinct play it
accepts once and is tested against it. Two plays are the same play when they lay the same cards
and leave the same top card and suit (``play_key``): the order of the middle cards never
matters, nor which of several matching cards leads, nor, for 8s, which 8 is last (the named
suit is what counts). So ``8C 8H/S`` and ``8H 8C/S`` are one play, listed as ``8C 8H/S``.
"""

from __future__ import annotations

from itertools import combinations

from .cards import CARD_NAMES, EIGHT, RANK, SUIT, SUITS, TWO
from .errors import IllegalMoveError
from .moves import Draw, Move, Pass, Play, Resign, Take
from .state import MAX_DRAWS, GameState

DRAW, TAKE, PASS = Draw(), Take(), Pass()


def is_playable(state: GameState, c: int) -> bool:
    """docs/rules.md: matches the current suit or the top card's rank, or is an 8; while a draw-two
    penalty is pending, only a 2."""
    if state.penalty:
        return RANK[c] == TWO
    return RANK[c] == EIGHT or SUIT[c] == state.suit or RANK[c] == RANK[state.discard[-1]]


def playable_cards(state: GameState, seat: int | None = None) -> tuple[int, ...]:
    """The cards of ``seat``'s hand (default: the seat to act) that could start a play now."""
    seat = state.turn if seat is None else seat
    if seat is None:
        return ()
    return tuple(c for c in state.hands[seat] if is_playable(state, c))


_PLAYS: dict[tuple[int, tuple[int, ...]], tuple[Play, ...]] = {}


def plays_starting_with(first: int, group: tuple[int, ...]) -> tuple[Play, ...]:
    """Every play led by ``first`` with any subset of ``group`` (other cards of its rank, in
    ascending order): each choice of last card, middle cards ascending; an 8 last names each of
    the four suits. Memoised: there are few distinct (first, group) pairs."""
    key = (first, group)
    plays = _PLAYS.get(key)
    if plays is None:
        sequences: list[tuple[int, ...]] = [(first,)]
        for size in range(1, len(group) + 1):
            for subset in combinations(group, size):
                for last in subset:
                    sequences.append((first, *(c for c in subset if c != last), last))
        if RANK[first] == EIGHT:
            plays = tuple(Play(seq, suit) for seq in sequences for suit in range(4))
        else:
            plays = tuple(Play(seq) for seq in sequences)
        _PLAYS[key] = plays
    return plays


def play_key(play: Play) -> tuple[frozenset[int], int | None, int | None]:
    """What a play does: its cards, and the last card (it sets the suit) or, for 8s, the suit
    named. Equal keys are the same play."""
    if RANK[play.cards[-1]] == EIGHT:
        return frozenset(play.cards), None, play.suit
    return frozenset(play.cards), play.cards[-1], None


def _plays(state: GameState, hand: tuple[int, ...], firsts: tuple[int, ...]) -> list[Move]:
    """Each distinct play led by one of ``firsts`` once: the first listed of equal plays (the
    lowest leading card, the cards in ascending order) stands for them all."""
    moves: list[Move] = []
    several = state.options.several
    seen: set[tuple[frozenset[int], int | None, int | None]] = set()
    for first in firsts:
        rank = RANK[first]
        group = tuple(c for c in hand if RANK[c] == rank and c != first) if several else ()
        plays = plays_starting_with(first, group)
        if not group:
            moves.extend(plays)  # a single card: no other play can equal it
            continue
        for play in plays:
            key = play_key(play)
            if key not in seen:
                seen.add(key)
                moves.append(play)
    return moves


def legal_moves(state: GameState) -> list[Move]:
    """Every legal move of the seat to act (never ``Resign``, which is always allowed)."""
    seat = state.turn
    if seat is None:
        return []
    hand = state.hands[seat]
    if state.penalty:
        moves = _plays(state, hand, tuple(c for c in hand if RANK[c] == TWO))
        moves.append(TAKE)
        return moves
    if state.draws:
        drawn = state.drawn
        assert drawn is not None
        if is_playable(state, drawn):
            moves = _plays(state, hand, (drawn,))
            moves.append(PASS)
            return moves
        if state.draws < MAX_DRAWS and state.can_draw:
            return [DRAW]
        return [PASS]
    firsts = tuple(c for c in hand if is_playable(state, c))
    if firsts:
        return _plays(state, hand, firsts)
    return [DRAW] if state.can_draw else [PASS]


def _require_turn(state: GameState, seat: int | None) -> int:
    if state.turn is None:
        raise IllegalMoveError("match_over", "The match is over.")
    if seat is not None and seat != state.turn:
        raise IllegalMoveError(
            "not_your_turn", f"It is seat {state.turn}'s turn.", {"turn": state.turn}
        )
    return state.turn


def validate_move(state: GameState, move: Move, seat: int | None = None) -> None:
    """Raise ``IllegalMoveError`` if ``move`` is illegal. ``seat``: the seat asking (None: the
    seat to act); any seat may resign at any time, every other move needs the turn."""
    if isinstance(move, Resign):
        if state.turn is None:
            raise IllegalMoveError("match_over", "The match is over.")
        who = move.seat if move.seat is not None else seat
        if who is not None and not (
            isinstance(who, int) and 0 <= who < state.options.players
        ):
            raise IllegalMoveError("not_a_player", f"There is no seat {who}.", {"seat": who})
        return
    turn = _require_turn(state, seat)
    if isinstance(move, Play):
        _validate_play(state, move, turn)
    elif isinstance(move, Draw):
        _validate_draw(state, turn)
    elif isinstance(move, Take):
        if not state.penalty:
            raise IllegalMoveError("no_penalty", "There is no draw-two penalty to take.")
    elif isinstance(move, Pass):
        _validate_pass(state, turn)
    else:
        raise IllegalMoveError("bad_notation", f"Not a move: {move!r}")


def _validate_play(state: GameState, move: Play, turn: int) -> None:
    cards = move.cards
    if not cards or not all(isinstance(c, int) and 0 <= c < 52 for c in cards):
        raise IllegalMoveError("bad_notation", "A play needs one or more cards.")
    if move.suit is not None and move.suit not in range(4):
        raise IllegalMoveError("bad_notation", "The named suit is C, D, H or S.")
    if len(set(cards)) != len(cards):
        raise IllegalMoveError("duplicate_card", "A card cannot be played twice in one move.")
    hand = state.hands[turn]
    missing = [CARD_NAMES[c] for c in cards if c not in hand]
    if missing:
        raise IllegalMoveError(
            "not_in_hand", f"Your hand does not hold {' '.join(missing)}.", {"cards": missing}
        )
    if len(cards) > 1:
        if not state.options.several:
            raise IllegalMoveError(
                "several_not_allowed", "Only one card per turn is played at this table."
            )
        if len({RANK[c] for c in cards}) > 1:
            raise IllegalMoveError(
                "mixed_ranks", "Several cards played at once must all have the same rank."
            )
    last = cards[-1]
    if RANK[last] == EIGHT and move.suit is None:
        raise IllegalMoveError(
            "suit_required", f"Name the suit to follow, e.g. {CARD_NAMES[last]}/H."
        )
    if RANK[last] != EIGHT and move.suit is not None:
        raise IllegalMoveError("suit_not_allowed", "Only an 8 names a suit.")
    first = cards[0]
    if state.penalty and RANK[first] != TWO:
        raise IllegalMoveError(
            "penalty_pending",
            f"A draw-two penalty of {state.penalty} is pending: answer with a 2 or take it.",
            {"penalty": state.penalty},
        )
    if state.draws and first != state.drawn:
        assert state.drawn is not None
        raise IllegalMoveError(
            "drawn_card_first",
            f"After drawing, only the drawn card {CARD_NAMES[state.drawn]} may be played "
            "(first, with cards of its rank).",
            {"drawn": CARD_NAMES[state.drawn]},
        )
    if not is_playable(state, first):
        raise IllegalMoveError(
            "does_not_match",
            f"{CARD_NAMES[first]} matches neither the suit {SUITS[state.suit]} nor the rank of "
            f"{CARD_NAMES[state.discard[-1]]}.",
            {"card": CARD_NAMES[first], "suit": SUITS[state.suit],
             "top": CARD_NAMES[state.discard[-1]]},
        )


def _validate_draw(state: GameState, turn: int) -> None:
    if state.penalty:
        raise IllegalMoveError(
            "penalty_pending",
            f"A draw-two penalty of {state.penalty} is pending: answer with a 2 or take it.",
            {"penalty": state.penalty},
        )
    if state.draws >= MAX_DRAWS:
        raise IllegalMoveError("draw_limit", f"At most {MAX_DRAWS} cards are drawn per turn.")
    if state.draws:
        assert state.drawn is not None
        if is_playable(state, state.drawn):
            raise IllegalMoveError(
                "must_play",
                f"The drawn card {CARD_NAMES[state.drawn]} can be played: play it or pass.",
                {"drawn": CARD_NAMES[state.drawn]},
            )
    else:
        playable = [CARD_NAMES[c] for c in state.hands[turn] if is_playable(state, c)]
        if playable:
            raise IllegalMoveError(
                "must_play", "You hold a playable card: play it.", {"playable": playable}
            )
    if not state.can_draw:
        raise IllegalMoveError("stock_empty", "The stock is empty and cannot be rebuilt.")


def _validate_pass(state: GameState, turn: int) -> None:
    if state.penalty:
        raise IllegalMoveError(
            "penalty_pending",
            f"A draw-two penalty of {state.penalty} is pending: answer with a 2 or take it.",
            {"penalty": state.penalty},
        )
    if state.draws:
        assert state.drawn is not None
        if is_playable(state, state.drawn) or state.draws >= MAX_DRAWS or not state.can_draw:
            return
        raise IllegalMoveError(
            "cannot_pass", "The drawn card cannot be played: draw again.", {"draws": state.draws}
        )
    if any(is_playable(state, c) for c in state.hands[turn]):
        raise IllegalMoveError("cannot_pass", "You hold a playable card: play it.")
    if state.can_draw:
        raise IllegalMoveError("cannot_pass", "Draw a card first: you pass only after drawing.")
