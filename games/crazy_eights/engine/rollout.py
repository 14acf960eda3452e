"""A fast playout of the rest of a round, for the strong regular's search.

``apply_move`` builds a new frozen state and its events for every move; a search wants hundreds
of playouts per decision, so this module replays the same rules on plain lists with a quick
policy (the turn's steps of docs/rules.md, "a turn, step by step"). A test replays recorded playouts
through ``apply_move`` to keep the two in step; a stock rebuild is shuffled exactly as the engine
does it (from the state's seed, round and rebuild count).
"""

from __future__ import annotations

import random
from collections import Counter

from .cards import ACE, CARD_NAMES, DEFAULT_VALUE, EIGHT, QUEEN, RANK, SUIT, SUITS, TWO
from .scoring import round_points
from .state import MAX_DRAWS, MAX_REBUILDS, GameState, max_round_moves


def _named_suit(hand: list[int], rng: random.Random) -> int:
    counts = Counter(SUIT[c] for c in hand if RANK[c] != EIGHT)
    if not counts:
        return rng.randrange(4)
    return max(counts, key=lambda s: (counts[s], -s))


def rollout(
    state: GameState,
    rng: random.Random,
    greedy: float = 0.75,
    record: list[str] | None = None,
) -> tuple[int, ...]:
    """Play ``state``'s round to its end and return what each seat's total changes by.

    The policy: a pending penalty is answered with every 2 held, else taken; otherwise, with
    probability ``greedy``, the most expensive playable card that is not an 8 (an 8 only when
    nothing else fits) with all its same-rank cards, else a random playable card; a playable
    drawn card is always played. ``record`` collects the moves in notation (tests).
    """
    options = state.options
    n = options.players
    actions, several = options.actions, options.several
    hands = [list(h) for h in state.hands]
    stock = list(reversed(state.stock))  # pop() takes stock[0]
    discard = list(state.discard)
    suit = state.suit
    top_rank = RANK[discard[-1]]
    t = state.turn
    assert t is not None
    direction, penalty, passes = state.direction, state.penalty, state.passes
    rebuilds = state.rebuilds
    draws, drawn = state.draws, state.drawn

    def draw_one() -> int | None:
        nonlocal stock, discard, rebuilds
        if not stock:
            if len(discard) <= 1 or rebuilds >= MAX_REBUILDS:
                return None
            pile = discard[:-1]
            rebuilds += 1
            random.Random(
                f"crazy8s:{state.seed}:round:{state.round}:rebuild:{rebuilds}"
            ).shuffle(pile)
            stock = pile[::-1]
            discard = discard[-1:]
        return stock.pop()

    # Bounded: a step is at least one move, and docs/rules.md's rebuild limit bounds a round's
    # moves (``max_round_moves``; tests/engine/crazy_eights/test_round_bound.py).
    for _ in range(max_round_moves(options)):
        hand = hands[t]
        first: int | None = None
        if penalty:
            twos = [c for c in hand if RANK[c] == TWO]
            if twos:
                first = twos[0]
            else:
                got = 0
                while got < penalty:
                    c = draw_one()
                    if c is None:
                        break
                    hand.append(c)
                    got += 1
                if record is not None:
                    record.append("take")
                penalty, passes, t = 0, 0, (t + direction) % n
                continue
        elif draws == 0:
            playable = [
                c for c in hand if RANK[c] == EIGHT or SUIT[c] == suit or RANK[c] == top_rank
            ]
            if playable:
                if rng.random() < greedy:
                    plain = [c for c in playable if RANK[c] != EIGHT]
                    first = max(plain, key=DEFAULT_VALUE.__getitem__) if plain else playable[0]
                else:
                    first = rng.choice(playable)
        if first is None:
            # The draw phase, possibly resumed mid-turn (the state may come after a draw).
            if draws and drawn is not None and (
                RANK[drawn] == EIGHT or SUIT[drawn] == suit or RANK[drawn] == top_rank
            ):
                first = drawn
            while first is None and draws < MAX_DRAWS:
                c = draw_one()
                if c is None:
                    break
                hand.append(c)
                draws += 1
                if record is not None:
                    record.append("draw")
                if RANK[c] == EIGHT or SUIT[c] == suit or RANK[c] == top_rank:
                    first = c
            if first is None:
                if record is not None:
                    record.append("pass")
                draws, drawn = 0, None
                passes += 1
                t = (t + direction) % n
                if passes >= n and not stock and (len(discard) <= 1 or rebuilds >= MAX_REBUILDS):
                    points, _ = round_points(
                        options, tuple(tuple(h) for h in hands), "blocked", None
                    )
                    return points
                continue
        # Play ``first`` (with its same-rank cards when allowed).
        rank = RANK[first]
        cards = [first]
        if several:
            cards += [c for c in hand if RANK[c] == rank and c != first]
        for c in cards:
            hand.remove(c)
        discard.extend(cards)
        draws, drawn, passes = 0, None, 0
        top_rank = rank
        suit = _named_suit(hand, rng) if rank == EIGHT else SUIT[cards[-1]]
        if record is not None:
            text = " ".join(CARD_NAMES[c] for c in cards)
            record.append(f"{text}/{SUITS[suit]}" if rank == EIGHT else text)
        if not hand:
            points, _ = round_points(options, tuple(tuple(h) for h in hands), "out", t)
            return points
        k = len(cards)
        if actions and rank == TWO:
            penalty += 2 * k
        elif actions and rank == QUEEN:
            t = t if n == 2 else (t + direction * (k + 1)) % n
            continue
        elif actions and rank == ACE:
            if k % 2:
                direction = -direction
            t = t if n == 2 else (t + direction) % n
            continue
        t = (t + direction) % n
    raise RuntimeError("a playout did not end its round")
