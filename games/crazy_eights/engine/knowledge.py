"""What one seat knows: its view plus the public history, and hidden cards sampled to match it.

The computer regulars and the hint decide from this alone, never from the full ``GameState``,
so they cannot peek at another hand or the stock order.

The public history is the list of public move records, ``MoveResult.public_dict()`` (what the
service stores per move), oldest first; ``opening_record(state)`` is the match's first deal.
From the current round's records a seat learns:

- the discard pile's cards (the starter and every card played since the last stock rebuild);
- for each opponent, cards it cannot hold: a seat that draws (first draw of its turn) or passes
  without drawing had no playable card, so none of its cards was an 8, of the suit to follow or
  of the top card's rank; each further draw in the same turn shows the previous drawn card was
  unplayable too. Such a "void" covers ``count`` of the seat's cards (cards it receives later are
  free), and ``count`` only shrinks as the seat plays cards that could have been covered.

``sample_state`` deals the unseen cards to the opponents, the stock and any discards the history
does not name, keeping those voids when it can, and returns a ``GameState`` for search.
"""

from __future__ import annotations

import random
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field
from typing import Any

from .cards import EIGHT, RANK, SUIT, SUITS, parse_card
from .moves import Move
from .options import Options
from .rules import legal_moves
from .state import MAX_REBUILDS, GameState, deal_round, first_dealer

Record = Mapping[str, Any]
SAMPLE_ATTEMPTS = 8  # fresh deals tried before accepting one that breaks a tight void


# The cards playable on a top card of each rank with each suit to follow (no penalty).
_PLAYABLE: dict[tuple[int, int], frozenset[int]] = {
    (rank, suit): frozenset(
        c for c in range(52) if RANK[c] in (EIGHT, rank) or SUIT[c] == suit
    )
    for rank in range(2, 15)
    for suit in range(4)
}


@dataclass(frozen=True, slots=True)
class Void:
    """At least ``count`` of the seat's cards are none of ``excluded``."""

    excluded: frozenset[int]
    count: int


@dataclass
class _Tracker:
    """Walks the current round's public records (mutable while reading, then frozen into
    ``Knowledge``)."""

    players: int
    sizes: list[int]
    discard: list[int]
    top: int | None
    suit: int | None
    voids: dict[int, Void] = field(default_factory=dict)
    played: list[int] = field(default_factory=list)
    drawing_seat: int | None = None

    def playable_set(self) -> frozenset[int] | None:
        if self.top is None or self.suit is None:
            return None
        return _PLAYABLE[RANK[self.top], self.suit]

    def no_playable_card(self, seat: int) -> None:
        excluded = self.playable_set()
        if excluded is None:
            return
        size = self.sizes[seat]
        old = self.voids.get(seat)
        if old is not None and old.count >= size:
            excluded = excluded | old.excluded  # the same cards: both voids hold
        self.voids[seat] = Void(excluded, size)

    def record(self, rec: Record) -> None:
        seat = rec.get("seat")
        move = rec.get("move")
        if move == "draw" and seat is not None:
            if self.drawing_seat == seat:
                # A second draw: the card drawn before could not be played now. It was not
                # covered by an older void merged in at the first draw, so the void narrows to
                # what is playable now (which every covered card also avoids).
                void = self.voids.get(seat)
                now = self.playable_set()
                if void is not None and now is not None:
                    self.voids[seat] = Void(now, min(void.count + 1, self.sizes[seat]))
            else:
                self.no_playable_card(seat)
                self.drawing_seat = seat
        elif move == "pass" and seat is not None and self.drawing_seat != seat:
            self.no_playable_card(seat)
        if move != "draw":
            self.drawing_seat = None
        for event in rec.get("events", ()):
            self.event(event)

    def event(self, e: Record) -> None:
        kind = e.get("kind")
        if kind == "cards_played":
            seat, cards = e["seat"], [parse_card(c) for c in e["cards"]]
            self.discard.extend(cards)
            self.played.extend(cards)
            self.top, self.suit = cards[-1], SUIT[cards[-1]]
            self.sizes[seat] = max(0, self.sizes[seat] - len(cards))
            void = self.voids.get(seat)
            if void is not None:
                free = sum(1 for c in cards if c not in void.excluded)
                count = min(void.count - free, self.sizes[seat])
                self.voids[seat] = Void(void.excluded, max(0, count))
        elif kind == "suit_named":
            self.suit = SUITS.index(e["suit"])
        elif kind == "card_drawn":
            self.sizes[e["seat"]] += 1
        elif kind == "penalty_taken":
            self.sizes[e["seat"]] += e["drawn"]
        elif kind == "stock_rebuilt":
            self.discard = self.discard[-1:]


@dataclass(frozen=True, slots=True)
class Knowledge:
    """A seat's knowledge of the current round (cards as ints)."""

    seat: int
    options: Options
    hand: tuple[int, ...]
    top: int
    suit: int
    turn: int | None
    direction: int
    penalty: int
    draws: int
    drawn: int | None
    passes: int
    hand_sizes: tuple[int, ...]
    stock_size: int
    discard_size: int
    scores: tuple[int, ...]
    round: int
    dealer: int
    move_number: int
    discard: tuple[int, ...]  # the known discard cards, bottom first, the top last
    unknown_discards: int  # discards the history did not name (a partial history)
    voids: Mapping[int, Void]
    played: tuple[int, ...]  # cards played this round (seen by everyone), in order
    rebuilds: int = 0  # stock rebuilds this round (public)

    @property
    def players(self) -> int:
        return self.options.players

    @property
    def can_draw(self) -> bool:
        return self.stock_size > 0 or (self.discard_size > 1 and self.rebuilds < MAX_REBUILDS)

    def unseen(self) -> list[int]:
        """Cards this seat cannot place: other hands, the stock, unnamed discards."""
        known = set(self.hand) | set(self.discard)
        return [c for c in range(52) if c not in known]

    def lacks(self, seat: int, suit: int) -> bool:
        """Whether the history shows ``seat`` holds no card of ``suit`` at all."""
        void = self.voids.get(seat)
        if void is None or void.count < self.hand_sizes[seat]:
            return False
        return all(c in void.excluded for c in range(52) if SUIT[c] == suit and RANK[c] != EIGHT)

    def next_seat(self, seat: int, steps: int = 1) -> int:
        return (seat + self.direction * steps) % self.players

    def sample_state(self, rng: random.Random) -> GameState:
        """A full state consistent with this knowledge: unseen cards dealt at random (voids
        kept whenever the cards allow), the stock in random order, a random seed."""
        for _ in range(SAMPLE_ATTEMPTS):
            hands, under, stock, kept = self._deal(rng)
            if kept:
                break
        if len(stock) != self.stock_size or any(
            len(hands[s]) != self.hand_sizes[s] for s in range(self.players)
        ):
            raise ValueError("the view's card counts do not add up to the 52 cards")
        return GameState(
            options=self.options,
            seed=rng.getrandbits(63),
            round=self.round,
            dealer=self.dealer,
            hands=tuple(tuple(sorted(h)) for h in hands),
            stock=tuple(stock),
            discard=(*under, *self.discard),
            suit=self.suit,
            direction=self.direction,
            turn=self.turn,
            scores=self.scores,
            penalty=self.penalty,
            draws=self.draws,
            drawn=self.drawn,
            passes=self.passes,
            rebuilds=self.rebuilds,
            move_number=self.move_number,
        )

    def _deal(self, rng: random.Random) -> tuple[list[list[int]], list[int], list[int], bool]:
        """One random deal of the unseen cards: (hands, unnamed discards, stock, whether every
        void was kept). Greedy: the most constrained seats pick their covered cards first."""
        pool = self.unseen()
        rng.shuffle(pool)
        hands: list[list[int]] = [[] for _ in range(self.players)]
        hands[self.seat] = list(self.hand)
        order = sorted(
            (s for s in self.voids if s != self.seat), key=lambda s: -self.voids[s].count
        )
        kept = True
        for s in order:
            void = self.voids[s]
            need = min(void.count, self.hand_sizes[s])
            taken = [c for c in pool if c not in void.excluded][:need]
            kept = kept and len(taken) == need
            hands[s] = taken
            chosen = set(taken)
            pool = [c for c in pool if c not in chosen]
        for s in range(self.players):
            if s != self.seat:
                k = self.hand_sizes[s] - len(hands[s])
                hands[s].extend(pool[:k])
                pool = pool[k:]
        return hands, pool[: self.unknown_discards], pool[self.unknown_discards :], kept


def _round_records(
    history: Sequence[Record], round_number: int
) -> tuple[Record | None, list[Record]]:
    """The current round's opening event and its records after it (None if not in history)."""
    for i in range(len(history) - 1, -1, -1):
        for event in history[i].get("events", ()):
            if event.get("kind") == "round_started" and event.get("round") == round_number:
                return event, list(history[i + 1 :])
    return None, []


def knowledge(view: Mapping[str, Any], history: Sequence[Record] = ()) -> Knowledge:
    """What ``view["seat"]`` knows. ``history``: public move records, oldest first (records
    of earlier rounds are skipped; a missing or partial history only means knowing less)."""
    seat = view["seat"]
    if seat is None or view.get("hand") is None:
        raise ValueError("a seat's view (with its hand) is needed")
    options = Options.from_dict(view["options"])
    n = options.players
    top = parse_card(view["top"])
    hand_sizes = tuple(view["hand_sizes"])
    opening, records = _round_records(history, view["round"])
    discard: list[int] = [top]
    voids: dict[int, Void] = {}
    played: tuple[int, ...] = ()
    if opening is not None:
        starter = parse_card(opening["starter"])
        tracker = _Tracker(n, [opening["hand_size"]] * n, [starter], starter, SUIT[starter])
        for rec in records:
            tracker.record(rec)
        # Trust the walk only if it arrives where the view stands.
        if tuple(tracker.sizes) == hand_sizes and tracker.discard[-1:] == [top] and len(
            tracker.discard
        ) == view["discard_size"]:
            discard, voids, played = tracker.discard, tracker.voids, tuple(tracker.played)
    return Knowledge(
        seat=seat,
        options=options,
        hand=tuple(sorted(parse_card(c) for c in view["hand"])),
        top=top,
        suit=SUITS.index(view["suit"]),
        turn=view["turn"],
        direction=view["direction"],
        penalty=view["penalty"],
        draws=view["draws"],
        drawn=parse_card(view["drawn"]) if view.get("drawn") else None,
        passes=view["passes"],
        hand_sizes=hand_sizes,
        stock_size=view["stock_size"],
        discard_size=view["discard_size"],
        scores=tuple(view["scores"]),
        round=view["round"],
        dealer=view["dealer"],
        move_number=view["move_number"],
        discard=tuple(discard),
        unknown_discards=view["discard_size"] - len(discard),
        voids=voids,
        played=played,
        rebuilds=view.get("rebuilds", 0),
    )


def legal_moves_for_view(view: Mapping[str, Any]) -> list[Move]:
    """Every legal move of the seat whose view this is (empty when it is not its turn): they
    depend only on what the seat sees."""
    if not view.get("your_turn"):
        return []
    state = knowledge(view).sample_state(random.Random(0))
    return legal_moves(state)


def opening_record(state: GameState) -> dict[str, Any]:
    """The public record of a match's first deal (later deals are in the moves' records): the
    service stores it first so the history names the first starter card."""
    dealer = first_dealer(state.seed, state.options.players)
    *_, started = deal_round(state.options, state.seed, 1, dealer)
    return {"seat": None, "move": None, "events": [started.to_dict()]}

