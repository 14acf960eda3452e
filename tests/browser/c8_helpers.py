"""Arranging a Crazy Eights hand for a browser test: on the player's turn, cards are swapped
between their hand and the stock (the deck stays whole), so the test knows a card that fits,
an 8, or a hand where nothing fits and a draw is the only move."""

from __future__ import annotations

import copy
from collections.abc import Callable

from django.db import transaction

from games.crazy_eights.engine.cards import CARD_NAMES, EIGHT, RANK, SUIT, TWO
from games.models import Game, Seat

Chooser = Callable[[dict, list[int], int], list[int]]


def rig_hand(game_id: int, seat: int, choose: Chooser, size: int | None = None) -> list[str]:
    """Give ``seat`` the hand ``choose(engine_state, pool, size)`` picks from its hand and the
    stock (``size`` cards, by default as many as it holds); the rest goes back to the stock.
    Returns the new hand in notation."""
    with transaction.atomic():
        game = Game.objects.select_for_update().get(pk=game_id)
        data = copy.deepcopy(game.state)
        engine = data["engine"]
        assert engine["turn"] == seat and engine["draws"] == 0, "rig only at the start of a turn"
        hand, stock = engine["hands"][seat], engine["stock"]
        size = len(hand) if size is None else size
        new = choose(engine, hand + stock, size)
        assert len(new) == size and len(set(new)) == len(new)
        engine["hands"][seat] = sorted(new)
        engine["stock"] = [c for c in stock if c not in new] + [c for c in hand if c not in new]
        game.state = data
        game.save(update_fields=["state"])
        names = [CARD_NAMES[c] for c in sorted(new)]
        Seat.objects.filter(game=game, index=seat).update(private={"hand": names})
    return names


def _fits(engine: dict, c: int) -> bool:
    if engine["penalty"]:
        return RANK[c] == TWO
    top = engine["discard"][-1]
    return RANK[c] == EIGHT or SUIT[c] == engine["suit"] or RANK[c] == RANK[top]


def with_a_plain_fit(engine: dict, pool: list[int], size: int) -> list[int]:
    """A card that fits and is not an 8 (a 2 while a penalty is pending), the rest anything."""
    lead = next(c for c in pool if _fits(engine, c) and RANK[c] != EIGHT)
    return [lead] + [c for c in pool if c != lead][: size - 1]


def with_a_pair(engine: dict, pool: list[int], size: int) -> list[int]:
    """A card that fits (not an 8) and another of its rank: both may be laid at once."""
    lead = next(c for c in pool if _fits(engine, c) and RANK[c] not in (EIGHT, TWO)
                and any(RANK[o] == RANK[c] and o != c for o in pool))
    second = next(o for o in pool if RANK[o] == RANK[lead] and o != lead)
    return [lead, second] + [c for c in pool if c not in (lead, second)][: size - 2]


def pair_of(engine: dict, hand: list[str]) -> tuple[str, str]:
    lead = next(n for n in hand if _fits(engine, CARD_NAMES.index(n))
                and sum(o[:-1] == n[:-1] for o in hand) >= 2 and n[:-1] not in ("8", "2"))
    return lead, next(o for o in hand if o[:-1] == lead[:-1] and o != lead)


def with_an_eight(engine: dict, pool: list[int], size: int) -> list[int]:
    eight = next(c for c in pool if RANK[c] == EIGHT)
    return [eight] + [c for c in pool if c != eight][: size - 1]


def with_nothing_that_fits(engine: dict, pool: list[int], size: int) -> list[int]:
    misfits = [c for c in pool if not _fits(engine, c)]
    assert len(misfits) >= size
    return misfits[:size]


def plain_fit_of(engine: dict, hand: list[str]) -> str:
    return next(n for n in hand if _fits(engine, CARD_NAMES.index(n)) and not n.startswith("8"))


def engine_of(game_id: int) -> dict:
    return Game.objects.get(pk=game_id).state["engine"]


def seat_of(game_id: int, username: str) -> int:
    return Seat.objects.get(game_id=game_id, user__username=username).index
