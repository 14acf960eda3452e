"""Rematches: after a game between two people ends, either offers to play again; the other
accepts (a new game, same settings, the other player starts) or declines; an offer expires
after 24 hours.

Exactly one new game: every step locks the finished game's row first, and the offer is one
row per game (``RematchOffer.game`` is unique), so a double accept, or both players offering
at the same moment, meet on that row one after the other: the second offer finds the first
and accepts it, the second accept finds the game already made.
"""

from __future__ import annotations

from dataclasses import dataclass
from datetime import datetime, timedelta
from typing import TYPE_CHECKING, Any

from django.db import transaction
from django.utils import timezone

from games import errors as game_errors
from games import services as game_services
from games.models import Game, Move, Seat
from live.publisher import publish_on_commit
from social import blocks, errors
from social.models import RematchOffer

if TYPE_CHECKING:
    from accounts.models import User

OFFER_LIFETIME = timedelta(hours=24)
Status = RematchOffer.Status


@dataclass
class RematchReceipt:
    offer: RematchOffer
    created: bool  # a new offer (201) rather than an answer to one


def _lock(game_id: int, user: User) -> tuple[Game, list[Seat], Seat, Seat]:
    game = Game.objects.select_for_update(no_key=True).filter(pk=game_id).first()
    if game is None:
        raise game_errors.game_not_found()
    seats = list(Seat.objects.filter(game=game).select_related("user").order_by("index"))
    mine = next((s for s in seats if s.user_id == user.pk), None)
    if mine is None:
        raise game_errors.not_a_player()
    if not game.is_over:
        raise errors.game_not_over()
    people = [s for s in seats if s.user_id is not None]
    if len(seats) != 2 or len(people) != 2:
        raise errors.rematch_unavailable()
    other = next(s for s in seats if s.index != mine.index)
    return game, seats, mine, other


def _person(seat: Seat) -> User:
    """The person in a seat of a game ``_lock`` let through (both seats are people's)."""
    assert seat.user is not None
    return seat.user


def status_of(offer: RematchOffer, now: datetime | None = None) -> str:
    now = now or timezone.now()
    if offer.status == Status.OPEN and offer.expires_at <= now:
        return "expired"
    return offer.status


def offer_data(offer: RematchOffer, viewer_id: int) -> dict[str, Any]:
    return {
        "game": offer.game_id,
        "status": status_of(offer),
        "offered_by_you": offer.offered_by_id == viewer_id,
        "expires_at": offer.expires_at,
        "new_game": offer.new_game_id,
        "streak": offer.streak,
    }


def _notify(game: Game, offer: RematchOffer, recipient_id: int, event: str) -> None:
    data = offer_data(offer, recipient_id)
    data["expires_at"] = offer.expires_at.isoformat()
    publish_on_commit(recipient_id, event, data, game_id=game.pk)


def _new_game(game: Game, seats: list[Seat]) -> Game:
    """Same kind, options, clock and rated choice; the player who did not make the
    first move of ``game`` makes the first move now."""
    first = Move.objects.filter(game=game, number=1).values_list("seat", flat=True).first()
    starter = seats[first if first is not None else 0]
    other = next(s for s in seats if s.index != starter.index)
    return game_services.create_seated_game(
        kind=game.kind,
        players=[_person(other), _person(starter)],
        options=game.options,
        turn_seconds=game.turn_seconds,
        turn_hours=game.turn_hours,
        rated=game.rated,
        first_moves=True,
    )


def _streak(game: Game) -> int:
    previous = RematchOffer.objects.filter(new_game=game).values_list("streak", flat=True).first()
    return (previous or 0) + 1


def offer_or_accept(*, game_id: int, user: User, now: datetime | None = None) -> RematchReceipt:
    """Offer a rematch, or accept the other player's open offer (then the new game starts).
    Offering again while one's own offer is open changes nothing; after an accept, every
    call answers the accepted offer and its one game."""
    now = now or timezone.now()
    with transaction.atomic():
        game, seats, mine, other = _lock(game_id, user)
        offer = RematchOffer.objects.select_for_update().filter(game=game).first()
        if offer is not None and offer.status == Status.ACCEPTED:
            return RematchReceipt(offer, created=False)
        if offer is not None and status_of(offer, now) == Status.OPEN:
            if offer.offered_by_id == user.pk:
                return RematchReceipt(offer, created=False)
            if blocks.blocks(offer.offered_by_id, user.pk):
                # The offerer blocked this player since: no game with them (said like any
                # unavailable player).
                raise game_errors.player_unavailable()
            offer.new_game = _new_game(game, seats)
            offer.status = Status.ACCEPTED
            offer.answered_at = now
            offer.streak = _streak(game)
            offer.save()
            _notify(game, offer, _person(other).pk, "rematch_accepted")
            return RematchReceipt(offer, created=False)
        # A new offer (or one after a decline, a withdrawal or an expiry: the view's throttle
        # keeps players from repeating it endlessly).
        if offer is None:
            offer = RematchOffer(game=game)
        offer.offered_by = user
        offer.status = Status.OPEN
        offer.expires_at = now + OFFER_LIFETIME
        offer.answered_at = None
        offer.save()
        # Never delivered to a player who blocked the offerer (who is not told).
        if not blocks.blocks(_person(other).pk, user.pk):
            _notify(game, offer, _person(other).pk, "rematch_offered")
        return RematchReceipt(offer, created=True)


def withdraw_or_decline(*, game_id: int, user: User, now: datetime | None = None
                        ) -> RematchOffer:
    """Withdraw one's own open offer, or decline the other player's."""
    now = now or timezone.now()
    with transaction.atomic():
        game, _seats, _mine, other = _lock(game_id, user)
        offer = RematchOffer.objects.select_for_update().filter(game=game).first()
        if offer is None or status_of(offer, now) != Status.OPEN:
            raise errors.no_rematch_offer()
        mine = offer.offered_by_id == user.pk
        offer.status = Status.WITHDRAWN if mine else Status.DECLINED
        offer.answered_at = now
        offer.save()
        if not mine or not blocks.blocks(_person(other).pk, user.pk):
            _notify(game, offer, _person(other).pk, f"rematch_{offer.status}")
        return offer

