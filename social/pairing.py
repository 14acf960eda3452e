"""Random pairing's preference for close ratings: an ordering for the waiting games' query.

A base module like ``social.blocks``: the games service orders its candidates with it.
"""

from __future__ import annotations

from django.db.models import F, FloatField, OuterRef, Subquery, Value
from django.db.models.functions import Abs, Coalesce, Floor

from social.glicko2 import DEFAULT_RATING
from social.models import Rating

# Ratings within one band count as equally close, so that among them the oldest request wins
# (nobody waits forever behind newer requests a few points closer).
BAND = 100.0


def rating_of(user_id: int, kind: str) -> float:
    value = Rating.objects.filter(user_id=user_id, kind=kind).values_list("rating", flat=True)
    return next(iter(value), DEFAULT_RATING)


def annotate_rating_band(games, *, user_id: int, kind: str):
    """``games`` (waiting games) annotated with ``rating_band``: how many bands of ``BAND``
    points the rating of the person in the game's first taken seat (its creator, in any seat
    they chose) is from ``user_id``'s."""
    mine = rating_of(user_id, kind)
    theirs = (
        Rating.objects.filter(kind=kind, user__seats__game=OuterRef("pk"))
        .order_by("user__seats__index")
        .values("rating")[:1]
    )
    creator = Coalesce(Subquery(theirs, output_field=FloatField()), Value(DEFAULT_RATING))
    return games.annotate(rating_band=Floor(Abs(creator - Value(mine)) / Value(BAND))).order_by(
        F("rating_band").asc(), "created_at", "id"
    )
