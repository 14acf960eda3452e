"""Match and round state, dealing and the end of a match.

A match is fully determined by its seed and its moves: the first dealer, every deal and the
starter-card returns come from ``Random(f"crazy8s:{seed}:...")`` streams named after what they
decide, and a stock rebuilt from the discards is shuffled from (seed, round, rebuild count), so
``apply_move`` needs no RNG argument and ``replay`` reproduces any stored state exactly.
"""

from __future__ import annotations

import enum
import random
from dataclasses import dataclass, field
from typing import Any

from .cards import ACE, CARD_NAMES, EIGHT, QUEEN, RANK, SUIT, TWO, format_hand, parse_hand
from .events import RoundStarted
from .options import Options

# docs/rules.md: a starter card that is an 8, 2, Queen or Ace goes back into the deck. This holds in
# classic mode too (where 2/Q/A have no effect): the rule is about not opening on a wild or an
# action card, and keeping one starter rule for every mode keeps deals comparable.
STARTER_RETURNED = frozenset({EIGHT, TWO, QUEEN, ACE})
MAX_DRAWS = 3
# docs/rules.md, "Every round ends": the stock is rebuilt from the discards at most this many
# times in a round; the fourth time it runs out it stays empty, nobody draws, and the round ends
# by someone going out or as a blocked round (without the limit, 8s could cycle for ever).
MAX_REBUILDS = 3


class Termination(enum.Enum):
    TARGET_REACHED = "target_reached"  # default: lowest total once someone reached the target;
    #                                    classic: the first to reach the target
    RESIGNATION = "resignation"


@dataclass(frozen=True, slots=True)
class Outcome:
    """``ranking``: every seat, best first (a resigner last); ``winners`` share the best place
    (one seat, except after a resignation that leaves a tie)."""

    termination: Termination
    winners: tuple[int, ...]
    ranking: tuple[int, ...]
    scores: tuple[int, ...]
    resigned: int | None = None

    @property
    def winner(self) -> int | None:
        return self.winners[0] if len(self.winners) == 1 else None

    def to_dict(self) -> dict[str, Any]:
        return {
            "termination": self.termination.value,
            "winners": list(self.winners),
            "ranking": list(self.ranking),
            "scores": list(self.scores),
            "resigned": self.resigned,
        }

    @classmethod
    def from_dict(cls, data: dict[str, Any]) -> Outcome:
        return cls(
            Termination(data["termination"]),
            tuple(data["winners"]),
            tuple(data["ranking"]),
            tuple(data["scores"]),
            data["resigned"],
        )


@dataclass(frozen=True, slots=True)
class RoundResult:
    """A finished round, with every hand as it was at its end (shown to everyone)."""

    round: int
    reason: str  # "out" or "blocked"
    winner: int | None  # the goer-out, the lowest classic blocked hand, else None
    # Public once the round is over, but kept out of repr() so a state's repr never lists hands.
    hands: tuple[tuple[int, ...], ...] = field(repr=False)
    points: tuple[int, ...]  # what each seat's total changed by

    def to_dict(self) -> dict[str, Any]:
        return {
            "round": self.round,
            "reason": self.reason,
            "winner": self.winner,
            "hands": [format_hand(h) for h in self.hands],
            "points": list(self.points),
        }

    @classmethod
    def from_dict(cls, data: dict[str, Any]) -> RoundResult:
        return cls(
            data["round"],
            data["reason"],
            data["winner"],
            tuple(parse_hand(h) for h in data["hands"]),
            tuple(data["points"]),
        )


@dataclass(frozen=True, slots=True)
class GameState:
    """A match in progress (or over). Hands are sorted tuples; ``stock[0]`` is drawn next;
    ``discard[-1]`` is the top card; ``suit`` is the suit to follow (an 8's named suit)."""

    options: Options
    # Hidden information stays out of repr(): tracebacks, debug pages and error reporters
    # print object reprs, and a player may see those.
    seed: int = field(repr=False)
    round: int  # 1-based
    dealer: int
    hands: tuple[tuple[int, ...], ...] = field(repr=False)
    stock: tuple[int, ...] = field(repr=False)
    discard: tuple[int, ...] = field(repr=False)
    suit: int
    direction: int  # 1: clockwise (seat + 1 is next), -1: counter-clockwise
    turn: int | None  # the seat to act; None once the match is over
    scores: tuple[int, ...]
    penalty: int = 0  # pending draw-two cards
    draws: int = 0  # cards drawn this turn
    drawn: int | None = field(default=None, repr=False)  # the card drawn last this turn
    passes: int = 0  # consecutive passes without a play (a blocked round needs every seat)
    rebuilds: int = 0  # stock rebuilds this round (at most MAX_REBUILDS; seeds the shuffle)
    move_number: int = 0
    last_round: RoundResult | None = None
    result: Outcome | None = None

    @property
    def is_over(self) -> bool:
        return self.result is not None

    @property
    def players(self) -> int:
        return self.options.players

    @property
    def top(self) -> int:
        return self.discard[-1]

    @property
    def last_stock(self) -> bool:
        """The stock has been rebuilt for the last time: once empty, it stays empty."""
        return self.rebuilds >= MAX_REBUILDS

    @property
    def can_draw(self) -> bool:
        """A card can be drawn: the stock holds one or can (still) be rebuilt from the
        discards."""
        return bool(self.stock) or (len(self.discard) > 1 and not self.last_stock)

    def to_dict(self) -> dict[str, Any]:
        return {
            "options": self.options.to_dict(),
            "seed": self.seed,
            "round": self.round,
            "dealer": self.dealer,
            "hands": [list(h) for h in self.hands],
            "stock": list(self.stock),
            "discard": list(self.discard),
            "suit": self.suit,
            "direction": self.direction,
            "turn": self.turn,
            "scores": list(self.scores),
            "penalty": self.penalty,
            "draws": self.draws,
            "drawn": self.drawn,
            "passes": self.passes,
            "rebuilds": self.rebuilds,
            "move_number": self.move_number,
            "last_round": self.last_round.to_dict() if self.last_round else None,
            "result": self.result.to_dict() if self.result else None,
        }

    @classmethod
    def from_dict(cls, data: dict[str, Any]) -> GameState:
        return cls(
            options=Options.from_dict(data["options"]),
            seed=data["seed"],
            round=data["round"],
            dealer=data["dealer"],
            hands=tuple(tuple(h) for h in data["hands"]),
            stock=tuple(data["stock"]),
            discard=tuple(data["discard"]),
            suit=data["suit"],
            direction=data["direction"],
            turn=data["turn"],
            scores=tuple(data["scores"]),
            penalty=data["penalty"],
            draws=data["draws"],
            drawn=data["drawn"],
            passes=data["passes"],
            # States stored before the rebuild limit may lack the count: none yet.
            rebuilds=data.get("rebuilds", 0),
            move_number=data["move_number"],
            last_round=RoundResult.from_dict(data["last_round"]) if data["last_round"] else None,
            result=Outcome.from_dict(data["result"]) if data["result"] else None,
        )

    def __str__(self) -> str:
        top = CARD_NAMES[self.discard[-1]] if self.discard else "-"
        return (
            f"round {self.round}, seat {self.turn} to act, top {top}, "
            f"hand sizes {[len(h) for h in self.hands]}, scores {list(self.scores)}"
        )


def first_dealer(seed: int, players: int) -> int:
    return random.Random(f"crazy8s:{seed}:dealer").randrange(players)


def deal_round(
    options: Options, seed: int, round_number: int, dealer: int
) -> tuple[tuple[tuple[int, ...], ...], tuple[int, ...], tuple[int, ...], RoundStarted]:
    """Shuffle and deal round ``round_number``: (hands, stock, discard, its RoundStarted)."""
    rng = random.Random(f"crazy8s:{seed}:round:{round_number}")
    deck = list(range(52))
    rng.shuffle(deck)
    n, size = options.players, options.hand_size
    # Dealt one card at a time from the seat left of the dealer, as at a table.
    hands = [
        sorted(deck[k * n + (seat - dealer - 1) % n] for k in range(size)) for seat in range(n)
    ]
    stock = deck[n * size :]
    returned: list[int] = []
    starter = stock.pop(0)
    while RANK[starter] in STARTER_RETURNED:
        returned.append(starter)
        # Back at a random place below the top, so the very same card is never turned again.
        stock.insert(rng.randrange(1, len(stock) + 1), starter)
        starter = stock.pop(0)
    event = RoundStarted(round_number, dealer, starter, tuple(returned), size)
    return tuple(tuple(h) for h in hands), tuple(stock), (starter,), event


def new_round_state(
    options: Options,
    seed: int,
    round_number: int,
    dealer: int,
    scores: tuple[int, ...],
    move_number: int,
    last_round: RoundResult | None,
) -> tuple[GameState, RoundStarted]:
    hands, stock, discard, event = deal_round(options, seed, round_number, dealer)
    state = GameState(
        options=options,
        seed=seed,
        round=round_number,
        dealer=dealer,
        hands=hands,
        stock=stock,
        discard=discard,
        suit=SUIT[discard[-1]],
        direction=1,
        turn=(dealer + 1) % options.players,
        scores=scores,
        move_number=move_number,
        last_round=last_round,
    )
    return state, event


def new_match(*, seed: int, options: Options | None = None) -> GameState:
    """A new match from ``seed``: the first dealer and the first round's deal."""
    options = options or Options()
    dealer = first_dealer(seed, options.players)
    state, _ = new_round_state(options, seed, 1, dealer, (0,) * options.players, 0, None)
    return state


def new_match_random(*, rng: random.Random, options: Options | None = None) -> GameState:
    """A new match whose seed is drawn from ``rng``."""
    return new_match(seed=rng.getrandbits(63), options=options)


def cards_in_play(state: GameState) -> list[int]:
    """Every card of the match wherever it is: always the 52 of the deck."""
    cards = [c for hand in state.hands for c in hand]
    return sorted(cards + list(state.stock) + list(state.discard))


def max_round_moves(options: Options) -> int:
    """An upper bound on the moves of one round (docs/rules.md, "Every round ends"), proved
    from the rules, not measured. With n players, h cards each and S0 = 52 - n*h - 1 in the
    first stock:

    - D, the cards ever drawn from the stock: the stock is filled only at the deal and by at
      most ``MAX_REBUILDS`` rebuilds, each of at most 52 - n - 1 cards (the top card stays, and
      every hand holds a card while the round lasts): D <= S0 + MAX_REBUILDS * (51 - n).
    - Draw moves take one card each: <= D. A pass after drawing ends a turn that drew: <= D.
    - Plays P each lay a card from the hands, which receive n*h + D cards: P <= n*h + D.
    - Takes T answer a penalty raised by a play of 2s, once each: T <= P.
    - A pass without drawing needs a stock that cannot give a card, and nothing but a play
      makes it able to again; n such passes in a row (no play or take between) end the round
      as blocked: at most n of them after each play or take, and n before the first.

    So moves <= 2D + P + T + n(P + T + 1) <= 2D + 2P + n(2P + 1).
    """
    n, h = options.players, options.hand_size
    drawn = 52 - n * h - 1 + MAX_REBUILDS * (51 - n)
    plays = n * h + drawn
    return 2 * drawn + 2 * plays + n * (2 * plays + 1)
