"""Your games, a new game, and a game's page (any kind: see web/pages.py)."""

from __future__ import annotations

import re
import secrets
import time
from typing import Any

from django.conf import settings
from django.contrib.auth.decorators import login_required
from django.http import HttpRequest, HttpResponse
from django.shortcuts import redirect, render
from django.utils.translation import gettext as _
from django.views.decorators.http import require_GET, require_http_methods, require_POST
from rest_framework.exceptions import ValidationError

from config.errors import ApiError
from games import errors, kinds, selectors, services
from games.services import idempotency
from social import selectors as social_selectors
from web import new_game as forms
from web import pages
from web.views.common import SignedInRequest, game_rows, page_errors

FINISHED_SHOWN = 20
# Games in progress on the home page before "show all" (your turn first, so the games waiting
# for you come first): a player with a hundred running games gets a page that renders fast.
ACTIVE_SHOWN = 20
# "Play again"'s one-time token (secrets.token_urlsafe), and how often a second click waits
# 0.2 s for the first click's game while that one is still being created.
AGAIN_TOKEN = re.compile(r"[A-Za-z0-9_-]{1,64}")
AGAIN_IN_FLIGHT_TRIES = 25


def _games(user, status: str, limit: int | None = None) -> list[Any]:
    return selectors.player_games_page(user=user, status=status, limit=limit)


def _summaries(user, games: list[Any]) -> list[dict[str, Any]]:
    return game_rows([selectors.game_summary(game=g, user=user) for g in games])


def _lists_context(request: HttpRequest) -> dict[str, Any]:
    """The home page's lists: the first ``ACTIVE_SHOWN`` games in progress (all of them with
    ``?playing=all``), the waiting requests, the last ``FINISHED_SHOWN`` finished games."""
    every = request.GET.get("playing") == "all"
    active = _games(request.user, "active", None if every else ACTIVE_SHOWN + 1)
    shown = active if every else active[:ACTIVE_SHOWN]
    waiting = _games(request.user, "waiting")
    finished = _games(request.user, "finished", FINISHED_SHOWN)
    selectors.prefetch_list_seats([*shown, *waiting, *finished])  # one query for the three
    return {
        "active": _summaries(request.user, shown),
        "more_active": not every and len(active) > ACTIVE_SHOWN,
        "all_active": every,
        "waiting": _summaries(request.user, waiting),
        "finished": _summaries(request.user, finished),
    }


@require_GET
def home(request: HttpRequest) -> HttpResponse:
    """Signed in: your games (your turn first, then by deadline; waiting; finished).
    Signed out: what this is, and the way in."""
    if not request.user.is_authenticated:
        return render(request, "web/welcome.html")
    return render(request, "web/home.html", _lists_context(request))


@login_required
@require_GET
def games_lists(request: SignedInRequest) -> HttpResponse:
    """The lists of the home page alone (and the badge), re-rendered when the player's event
    stream reports one of their games: a new game, a turn that came back, a result."""
    return render(request, "web/_games_lists.html", _lists_context(request))


@login_required
@require_GET
def badge(request: SignedInRequest) -> HttpResponse:
    """The menu's "waiting for you" badge alone (any page follows it through the stream)."""
    return render(request, "web/_badge.html")


@login_required
@require_http_methods(["GET", "POST"])
def new_game(request: SignedInRequest) -> HttpResponse:
    """Every kind's form (web/new_game.py); a posted one starts that kind's game."""
    posted, values, errors = None, None, None
    if request.method == "POST":
        name = request.POST.get("kind", "")
        kind = kinds.get(name) if name in kinds.names() else kinds.default()
        posted, values = kind.name, request.POST.dict()
        try:
            receipt = services.create_game_request(
                user=request.user, creation=forms.validated(kind, request.POST)
            )
        except ValidationError as exc:
            errors = _flatten(exc.detail)
        except ApiError as exc:
            errors = [exc.message]
        else:
            return redirect("web:game", game_id=receipt.body["id"])
    context = {
        "forms": forms.forms(posted, values, errors),
        "turn_hours": forms.TURN_HOURS,
        "friend": forms.FRIEND,
        "random": forms.RANDOM,
        "has_tables": any(k.table is not None for k in kinds.all_kinds()),
    }
    return render(request, "web/new_game.html", context, status=400 if errors else 200)


def _flatten(detail: Any) -> list[str]:
    """Every message of a (nested) DRF error detail: the form shows them above its fields."""
    if isinstance(detail, dict):
        return [m for value in detail.values() for m in _flatten(value)]
    if isinstance(detail, list):
        return [m for value in detail for m in _flatten(value)]
    return [str(detail)]


def _game_context(request: SignedInRequest, game_id: int) -> dict[str, Any]:
    game, seat = selectors.game_for_player(game_id=game_id, user=request.user)
    services.note_seen(seat=seat)  # the player is looking: no email about this game
    view = selectors.player_view(game=game, seat_index=seat.index, with_coach=True)
    history = selectors.move_history(game=game, seat_index=seat.index)
    kind = kinds.get(game.kind)
    usernames = {p["seat"]: p["username"] for p in view["players"]}  # names lead to profiles
    for entry in history:
        entry["username"] = usernames.get(entry["seat"])
        entry["description"] = kind.describe_move(
            kind=entry["kind"], notation=entry["notation"], is_timeout=entry["is_timeout"],
            mine=entry["mine"],
        )
    to_move = next((p for p in view["players"] if p["seat"] == view["to_move"]), None)
    context = {
        # the server plays this turn now: no countdown to watch
        "computer_to_move": bool(to_move and (to_move["is_computer"] or to_move["away"])),
        # nobody to talk to against computers only
        "chat": any(not p["is_computer"] and not p["is_you"] for p in view["players"]),
        "game": view,
        "title": kind.title,
        "history": history,
        "your_turn": view["your_turn"],
        "poll_seconds": settings.WEB_POLL_SECONDS,
        "howto": selectors.how_to_play(game=game),
        "panel_template_name": kind.web.panel,
        "rematch": social_selectors.rematch_state(game=view, user=request.user),
    }
    if game.is_over:
        context["game_over"] = game_over(game, seat.index, view, history)
        # each rendering of "Play again" gets its own token: one game per click (play_again)
        context["again_token"] = secrets.token_urlsafe(16)
    context.update(pages.kind_context(request, view, history))
    # a kind may tell how to play on the page (taps) instead of the API's notation
    rewrite = context.pop("howto_for_page", None)
    if rewrite is not None:
        context["howto"] = rewrite(context["howto"])
    return context


def _ending(view: dict[str, Any], history: list[dict[str, Any]]) -> str:
    """How the game ended, in words (the kind's own terminations and the service's)."""
    termination = (view["result"] or {}).get("termination")
    by_name = {p["seat"]: p["name"] for p in view["players"]}
    last = history[-1] if history else None
    if termination == "resignation":
        resigned = next((m for m in reversed(history) if m["kind"] == "resign"), None)
        if resigned is not None and resigned["mine"]:
            return _("You resigned.")
        if resigned is not None:
            return _("%(name)s resigned.") % {"name": resigned["player"]}
        return _("A player resigned.")
    if termination == "scoreless_turns":
        timed_out = any(m["is_timeout"] for m in history[-6:])
        return (_("Six turns in a row scored nothing (turns whose time ran out count as "
                  "passes).") if timed_out else _("Six turns in a row scored nothing."))
    if termination == "rack_emptied" and last is not None:
        if last["mine"]:
            return _("You laid your last tile with the bag empty.")
        return _("%(name)s laid their last tile with the bag empty.") % {
            "name": by_name.get(last["seat"])}
    if termination == "target_reached":
        return _("A player reached the match's points goal.")
    if termination == "awarded":
        return _("A moderator awarded the game.")
    if termination == "aborted":
        return _("The game was stopped before its end.")
    return ""


def game_over(
    game: Any, seat_index: int, view: dict[str, Any], history: list[dict[str, Any]]
) -> dict[str, Any]:
    """What the end of a game says: how it ended, the final scores (best first), the player's
    "% of best" and best move of the game (the same figures as GET games/{id}/analysis), and
    whether "Play again" (same seats, turn time, rating and settings) is offered."""
    result = view["result"] or {}
    players = sorted(view["players"], key=lambda p: -p["score"])
    out: dict[str, Any] = {
        "ending": _ending(view, history),
        "players": players,
        "adjustments": result.get("adjustments"),
        "again": result.get("termination") != "cancelled",
        "analysis": None,
    }
    if kinds.get(game.kind).analysed_move_kinds:
        analysis = selectors.game_analysis(game=game, seat_index=seat_index, history=history)
        mine = next((s for s in analysis["seats"] if s["is_you"]), None)
        analysed = [m for m in analysis["moves"] if m["mine"] and m["best_score"] is not None]
        out["analysis"] = {
            "complete": analysis["complete"],
            "percent": mine and mine["average_percent_of_best"],
            "moves": mine["moves_analysed"] if mine else 0,
            "best": max(analysed, key=lambda m: m["score"], default=None),
            "missed": max((m for m in analysed if m["best_score"] > m["score"]),
                          key=lambda m: m["best_score"] - m["score"], default=None),
        }
    return out


@login_required
@require_POST
@page_errors
def play_again(request: SignedInRequest, game_id: int) -> HttpResponse:
    """A new game with the same seats (the computer's level, the same people), turn time,
    rating and settings as a game that is over."""
    game, seat = selectors.game_for_player(game_id=game_id, user=request.user)
    if not game.is_over:
        raise errors.game_not_over()
    token = request.POST.get("again_token", "").strip()
    if token and not AGAIN_TOKEN.fullmatch(token):
        raise errors.invalid(_("This form is out of date. Reload the page and try again."),
                             again_token=["letters, digits, - and _ only, at most 64"])

    def create() -> tuple[Any, int, dict[str, Any]]:  # (the new Game, status, body)
        new = services.create_game(
            user=request.user, **selectors.play_again_settings(game=game, seat_index=seat.index))
        return new, 303, {"game_id": new.pk}

    # The page's one-time token is the Idempotency-Key: a double click or a resubmitted form
    # answers the first click's game instead of creating another (a form without a token,
    # from a page older than the token, still creates one).
    key = f"web.play_again:{game_id}:{token}" if token else None
    for attempt in range(1, AGAIN_IN_FLIGHT_TRIES + 1):
        try:
            receipt = idempotency.run_once(user=request.user, key=key,
                                           operation="web.play_again",
                                           payload={"game_id": game_id}, create=create)
            return redirect("web:game", game_id=receipt.body["game_id"])
        except ApiError as exc:  # the first click is still creating it: wait for its game
            if exc.code != "idempotency_key_in_use" or attempt == AGAIN_IN_FLIGHT_TRIES:
                raise
            time.sleep(0.2)
    raise AssertionError("unreachable: the last attempt returns or raises")


@login_required
@require_GET
@page_errors
def game_page(request: SignedInRequest, game_id: int) -> HttpResponse:
    context = _game_context(request, game_id)
    # the player's first game of this kind: the page may show its first-game tips
    context["first_of_kind"] = selectors.player_games(user=request.user).filter(
        kind=context["game"]["kind"]).count() <= 1
    return HttpResponse(pages.page_template(context["game"]["kind"]).render(context, request))


@login_required
@require_GET
@page_errors
def game_panel(request: SignedInRequest, game_id: int) -> HttpResponse:
    """The live part of the game page alone (htmx swaps it in after a move or an event)."""
    context = _game_context(request, game_id)
    return HttpResponse(pages.panel_template(context["game"]["kind"]).render(context, request))
