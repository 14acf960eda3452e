"""The computer regulars: named players with a personality, each deterministic given a
``random.Random``.

A regular decides from what its seat may know: its view (``view_for(state, seat)``) and the
public history (the ``MoveResult.public_dict()`` records of the match, oldest first), never the
full state. ``decide(regular, view, history, rng)`` is the one entry point; the service stores
the public records per move and calls it with the seat's view. ``choose_for_seat`` builds the
view from a state for self-play and tests.

- cautious: hoards 8s (plays one only when nothing else fits), sheds its most expensive cards.
- aggressive: aims Queens and 2s at the seat about to go out, keeps a 2 back as a shield
  against a draw-two, names the suit the next seat was seen to lack.
- chaotic: any card set that may be played, at random (8s less often while another card
  fits), a suit on a whim among those it holds; a drawn card that fits is laid.
- strong: determinised search: for a few promising moves (the aggressive regular's choice
  first) it deals the unseen cards many times consistently with what it has seen
  (``knowledge.sample_state``, voids included) and plays the round out with a quick policy
  (``rollout``); a move must beat the lead by a margin to replace it. The work is a fixed
  number of playouts (engines read no clock), tuned to stay under 50 ms a move at p99.
- random and first (not offered to players): a uniformly random legal move, and the first legal
  move; the benchmarks' baselines (``games/crazy_eights/levelstats.py``).
"""

from __future__ import annotations

import random
from collections.abc import Callable, Mapping, Sequence
from typing import Any

from .cards import ACE, CLASSIC_VALUE, DEFAULT_VALUE, EIGHT, QUEEN, RANK, SUIT, TWO
from .events import RoundOver
from .knowledge import Knowledge, Record, knowledge
from .moves import Move, Pass, Play
from .play import MoveResult, apply_legal
from .rollout import rollout
from .rules import legal_moves
from .state import GameState
from .view import view_for

Regular = Callable[[Knowledge, random.Random], Move]

# English names and one-sentence personalities; the service translates them.
LEVEL_INFO: dict[str, tuple[str, str]] = {
    "cautious": (
        "Prudence",
        "Hoards her 8s for a rainy day and gets rid of expensive cards first.",
    ),
    "aggressive": (
        "Rex",
        "Aims every Queen and 2 at whoever is about to go out, and keeps a 2 back as a shield.",
    ),
    "chaotic": ("Jinx", "Plays whatever catches her eye and names suits on a whim."),
    "strong": (
        "Vera",
        "Counts every card played, works out what you cannot hold and plays to win the match.",
    ),
}
LEVELS: tuple[str, ...] = tuple(LEVEL_INFO)

STRONG_ROLLOUTS = 100  # playouts per decision: p99 under 50 ms (bench/crazy_eights.py)
STRONG_CANDIDATES = 4  # moves searched: the aggressive choice, then by the cautious heuristic
STRONG_MARGIN = 3.0  # points a playout (see strong_player)


def _suit_support(hand: Sequence[int], suit: int) -> int:
    return sum(1 for c in hand if SUIT[c] == suit and RANK[c] != EIGHT)


def _left_after(hand: Sequence[int], play: Play) -> list[int]:
    return [c for c in hand if c not in play.cards]


def _result_suit(play: Play) -> int:
    return play.suit if play.suit is not None else SUIT[play.cards[-1]]


def _plays(moves: Sequence[Move]) -> list[Play]:
    return [m for m in moves if isinstance(m, Play)]


def _going_out(k: Knowledge, plays: Sequence[Play]) -> Play | None:
    for play in plays:
        if len(play.cards) == len(k.hand):
            return play
    return None


def _shed_score(k: Knowledge, play: Play) -> tuple[int, int, int]:
    """Points shed, cards shed, then how well the hand left follows the suit it sets."""
    values = CLASSIC_VALUE if k.options.classic else DEFAULT_VALUE
    left = _left_after(k.hand, play)
    return (
        sum(values[c] for c in play.cards),
        len(play.cards),
        _suit_support(left, _result_suit(play)),
    )


def _best_eight(k: Knowledge, plays: Sequence[Play], prefer: int | None = None) -> Play:
    """A single 8 naming ``prefer`` if given, else the suit the hand left holds most of."""
    singles = [p for p in plays if len(p.cards) == 1] or list(plays)

    def score(p: Play) -> tuple[int, int]:
        left = _left_after(k.hand, p)
        return (int(p.suit == prefer), _suit_support(left, _result_suit(p)))

    return max(singles, key=score)


def _other(moves: Sequence[Move]) -> Move:
    """The one move that is not a play (draw, take or pass)."""
    return next(m for m in moves if not isinstance(m, Play))


def _legal(k: Knowledge) -> list[Move]:
    # The legal moves depend only on the seat's own cards and the table: any deal of the
    # unseen cards gives the same list, so a fixed generator keeps ``rng`` for the decision.
    return legal_moves(k.sample_state(random.Random(0)))


def cautious(k: Knowledge, rng: random.Random) -> Move:
    moves = _legal(k)
    plays = _plays(moves)
    if not plays:
        return moves[0]
    out = _going_out(k, plays)
    if out is not None:
        return out
    plain = [p for p in plays if RANK[p.cards[0]] != EIGHT]
    if plain:
        return max(plain, key=lambda p: _shed_score(k, p))
    if any(isinstance(m, Pass) for m in moves):
        return Pass()  # a drawn 8 goes into the hoard
    return _best_eight(k, plays)


def _threat(k: Knowledge) -> int:
    """The opponent nearest to going out (fewest cards; ties: the one who acts sooner)."""
    others = [k.next_seat(k.seat, i) for i in range(1, k.players)]
    return min(others, key=lambda s: k.hand_sizes[s])


def aggressive(k: Knowledge, rng: random.Random) -> Move:
    moves = _legal(k)
    plays = _plays(moves)
    if not plays:
        return _other(moves)
    out = _going_out(k, plays)
    if out is not None:
        return out
    if k.penalty:
        return max(plays, key=lambda p: len(p.cards))  # stack every 2 onto the penalty
    nxt = k.next_seat(k.seat)
    threat = _threat(k)
    danger = k.hand_sizes[threat] <= 3
    twos = sum(1 for c in k.hand if RANK[c] == TWO)
    actions = k.options.actions

    def score(p: Play) -> tuple[int, int, int, int]:
        rank = RANK[p.cards[0]]
        attack = 0
        if actions and danger and nxt == threat and rank in (QUEEN, TWO):
            attack = 3
        elif actions and danger and k.players > 2 and rank == ACE and nxt == threat:
            attack = 2  # turn the play away from the threat
        elif actions and rank in (QUEEN, ACE):
            attack = 1
        # The last 2 is a shield: keep it unless it is the attack.
        shield = int(actions and rank == TWO and len(p.cards) >= twos and attack < 3)
        eight = int(rank == EIGHT)
        value, count, support = _shed_score(k, p)
        return (attack - 2 * shield - 3 * eight, value, count, support)

    best = max(plays, key=score)
    if RANK[best.cards[0]] == EIGHT:
        lacking = [s for s in range(4) if k.lacks(nxt, s)]
        prefer = lacking[0] if lacking else None
        eights = [p for p in plays if RANK[p.cards[0]] == EIGHT]
        return _best_eight(k, eights, prefer)
    if any(isinstance(m, Pass) for m in moves) and score(best)[0] < 0:
        return Pass()  # a drawn shield 2 is kept
    return best


def chaotic(k: Knowledge, rng: random.Random) -> Move:
    """Any set of cards that may be played, chosen at random (an 8 only a third as often as
    another card while one fits), and a suit on a whim: that of a random card of the hand
    left. Unpredictable, but never worse than a random player: it lays a drawn card that fits
    rather than keeping it, and names a suit it holds."""
    moves = _legal(k)
    plays = _plays(moves)
    if not plays:
        return moves[0]
    # One choice per set of cards, then a suit for an 8: a whim per card set, not per suit.
    groups: dict[frozenset[int], list[Play]] = {}
    for p in plays:
        groups.setdefault(frozenset(p.cards), []).append(p)
    options = list(groups.values())
    weights = [1 if RANK[g[0].cards[0]] == EIGHT else 3 for g in options]
    group = rng.choices(options, weights)[0]
    if len(group) == 1 or group[0].suit is None:
        return rng.choice(group)
    left = [c for c in _left_after(k.hand, group[0]) if RANK[c] != EIGHT]
    suit = SUIT[rng.choice(left)] if left else rng.randrange(4)
    return next((p for p in group if p.suit == suit), rng.choice(group))


def random_legal(k: Knowledge, rng: random.Random) -> Move:
    return rng.choice(_legal(k))


def first_legal(k: Knowledge, rng: random.Random) -> Move:
    """The first legal move: the first card that fits (lowest first), else draw, take or
    pass. A benchmarks' baseline, and the simplest policy there is."""
    return _legal(k)[0]


def _utility(k: Knowledge, points: Sequence[int]) -> float:
    """What a round's points are worth to the seat: its gain over the average opponent (default
    scoring counts against, classic scores for the goer-out)."""
    mine = points[k.seat]
    others = (sum(points) - mine) / (k.players - 1)
    return mine - others if k.options.classic else others - mine


def _candidates(k: Knowledge, moves: Sequence[Move], limit: int) -> list[Move]:
    """Distinct moves (a play is its set of cards and the suit it leaves), the most promising
    first by the cautious heuristic."""
    seen: dict[tuple[frozenset[int], int], Play] = {}
    others: list[Move] = []
    for m in moves:
        if isinstance(m, Play):
            seen.setdefault((frozenset(m.cards), _result_suit(m)), m)
        else:
            others.append(m)

    def score(p: Play) -> tuple[int, int, int, int]:
        return (-int(RANK[p.cards[0]] == EIGHT), *_shed_score(k, p))

    plays = sorted(seen.values(), key=score, reverse=True)
    return (plays[: limit - len(others)] if len(others) < limit else []) + others


def _same(a: Move, b: Move) -> bool:
    """The same move up to the order of its cards (what a play does)."""
    if isinstance(a, Play) and isinstance(b, Play):
        return frozenset(a.cards) == frozenset(b.cards) and _result_suit(a) == _result_suit(b)
    return a == b


def _evaluate(k: Knowledge, state: GameState, move: Move, rng: random.Random) -> float:
    result: MoveResult = apply_legal(state, move)
    if result.round_over:
        over = next(e for e in result.events if isinstance(e, RoundOver))
        return _utility(k, over.points)
    return _utility(k, rollout(result.state, rng))


Allowed = Callable[[Knowledge, list[Move]], list[Move]]


def strong_player(
    rollouts: int = STRONG_ROLLOUTS,
    candidates: int = STRONG_CANDIDATES,
    margin: float = STRONG_MARGIN,
    allowed: Allowed | None = None,
) -> Regular:
    """The strong regular with another budget (benchmarks and tests). ``margin``: the points
    per playout a move must gain over the heuristic's choice to replace it (a few playouts are
    noisy; without a margin the search would often trade a sound move for a lucky one).
    ``allowed``: keeps only some of the legal moves (the hint keeps those the strategy text
    advises); going out is always allowed.

    The search is bounded: ``rollouts`` playouts, each bounded by the rules' round bound
    (``rollout``), and a bounded number of deals tried per sample (``knowledge``)."""

    def strong(k: Knowledge, rng: random.Random) -> Move:
        moves = _legal(k)
        plays = _plays(moves)
        out = _going_out(k, plays)
        if out is not None:
            return out
        if allowed is not None:
            moves = allowed(k, moves) or moves
        # The aggressive regular's choice leads (the best heuristic in self-play); the
        # search replaces it only by a move that does better by ``margin`` points a playout.
        lead = aggressive(k, rng)
        rest = _candidates(k, moves, max(1, candidates - 1))
        if allowed is not None and not any(_same(lead, m) for m in moves):
            lead, rest = rest[0], rest[1:]
        cands = [lead, *(m for m in rest if not _same(m, lead))]
        if len(cands) == 1:
            return cands[0]
        totals = [0.0] * len(cands)
        # Every candidate is tried on the same deals (common random numbers): the comparison
        # is between moves, not between lucky and unlucky deals.
        samples = max(1, rollouts // len(cands))
        for _ in range(samples):
            state = k.sample_state(rng)
            seed = rng.getrandbits(32)
            for i, move in enumerate(cands):
                totals[i] += _evaluate(k, state, move, random.Random(seed))
        totals[0] += margin * samples
        best = max(range(len(cands)), key=lambda i: (totals[i], -i))
        return cands[best]

    return strong


REGULARS: dict[str, Regular] = {
    "cautious": cautious,
    "aggressive": aggressive,
    "chaotic": chaotic,
    "strong": strong_player(),
    "random": random_legal,
    "first": first_legal,
}


def decide(
    regular: str | Regular,
    view: Mapping[str, Any],
    history: Sequence[Record],
    rng: random.Random,
) -> Move:
    """The regular's move for the seat whose ``view`` this is (it must be that seat's turn).
    ``history``: the match's public records, oldest first."""
    player = REGULARS[regular] if isinstance(regular, str) else regular
    if not view.get("your_turn"):
        raise ValueError("it is not this seat's turn")
    return player(knowledge(view, history), rng)


def public_history(results: Sequence[MoveResult | Record]) -> list[Record]:
    """Public records from move results (records pass through unchanged)."""
    return [r.public_dict() if isinstance(r, MoveResult) else r for r in results]


def choose_for_seat(
    state: GameState,
    history: Sequence[MoveResult | Record],
    seat: int,
    regular: str | Regular,
    rng: random.Random,
) -> Move:
    """``decide`` on ``seat``'s view of ``state``: the regular never sees the state itself."""
    return decide(regular, view_for(state, seat), public_history(history), rng)

