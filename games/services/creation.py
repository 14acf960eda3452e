"""New games: against the computer, a named player, or a random opponent (pair or wait)."""

from __future__ import annotations

import secrets
import zlib
from typing import TYPE_CHECKING, Any

from django.contrib.auth import get_user_model
from django.db import connection, transaction
from django.utils import timezone
from django.utils.translation import gettext as _

from games import errors, kinds, selectors
from games.models import TURN_HOURS_CHOICES, Game, Seat
from games.services import idempotency
from games.services._common import _seats, _start
from games.services.idempotency import Receipt
from games.services.moves import _jsonable
from social import blocks, pairing

if TYPE_CHECKING:
    from accounts.models import User

DEFAULT_KIND = "crazy10s"


def _new_seed() -> int:
    """A game's seed decides its bag: it must not be guessable, so it comes from the OS."""
    return secrets.randbits(63)


def _validate_create(
    opponent: dict[str, Any] | None,
    opponents: list[str] | None,
    turn_hours: int,
    layout: str,
    kind: str,
) -> None:
    if kind not in kinds.names():
        raise errors.invalid(
            _("Unknown game kind '%(kind)s'.") % {"kind": kind},
            kind=[f"one of {kinds.names()}"],
        )
    if turn_hours not in TURN_HOURS_CHOICES:
        raise errors.invalid(
            _("turn_hours must be one of %(choices)s.") % {"choices": list(TURN_HOURS_CHOICES)},
            turn_hours=[f"one of {list(TURN_HOURS_CHOICES)}"],
        )
    game_kind = kinds.get(kind)
    fields = game_kind.options_input().fields
    layouts = fields["layout"].choices if "layout" in fields else {"classic": "classic"}
    if layout not in layouts:
        raise errors.invalid(
            _("layout must be one of %(choices)s.") % {"choices": list(layouts)},
            layout=[f"one of {list(layouts)}"],
        )
    if _multi_seat(kind):
        # Kinds with more than two seats take a list of computer opponents (solo matches).
        seats = game_kind.seats
        if not isinstance(opponents, list) or not (
            seats.start - 1 <= len(opponents) <= seats.stop - 2
        ):
            raise errors.invalid(
                _("opponents is a list of %(low)s to %(high)s computer levels.")
                % {"low": seats.start - 1, "high": seats.stop - 2},
                opponents=[f"{seats.start - 1} to {seats.stop - 2} of {list(game_kind.levels)}"],
            )
        unknown = [level for level in opponents if level not in game_kind.levels]
        if unknown:
            raise errors.invalid(
                _("Unknown computer level '%(level)s'.") % {"level": unknown[0]},
                opponents=[f"each one of {list(game_kind.levels)}"],
            )
        return
    if (
        not isinstance(opponent, dict)
        or len(opponent) != 1
        or not set(opponent) <= {"ai", "username", "random"}
    ):
        raise errors.invalid(
            _('opponent is one of {"ai": LEVEL}, {"username": NAME} or {"random": true}.')
        )


def _multi_seat(kind: str) -> bool:
    return kinds.get(kind).seats.stop > 3


def _options(kind: str, layout: str, rules: dict[str, Any] | None) -> dict[str, Any]:
    """The kind's options from its own input form (a two-seat kind's layout, or the rules)."""
    game_kind = kinds.get(kind)
    fields = game_kind.options_input().fields
    data: dict[str, Any] = {}
    if "layout" in fields:
        data["layout"] = layout
    if "rules" in fields and rules is not None:
        data["rules"] = rules
    form = game_kind.options_input(data=data)
    if not form.is_valid():
        raise errors.invalid(_("The rules of the game are not valid."), **form.errors)
    return game_kind.options(**form.validated_data)


def _lock_pairing_pool(kind: str, layout: str, turn_hours: int) -> None:
    """Serialize search-or-create per pairing pool until the transaction ends.

    Without it two players asking at the same moment each find nobody waiting, each create a
    waiting game, and are never paired. SQLite serializes writers anyway, so only PostgreSQL
    needs the (transaction-scoped) advisory lock.
    """
    if connection.vendor != "postgresql":
        return
    key = zlib.crc32(f"c10s-random-pairing:{kind}:{layout}:{turn_hours}".encode())
    with connection.cursor() as cursor:
        cursor.execute("SELECT pg_advisory_xact_lock(%s)", [key])


def create_game(
    *,
    user: User,
    opponent: dict[str, Any] | None = None,
    turn_hours: int = 72,
    layout: str = "classic",
    kind: str = DEFAULT_KIND,
    opponents: list[str] | None = None,
    rules: dict[str, Any] | None = None,
    rated: bool = True,
) -> Game:
    """A new game against the computer, a named player, or a random opponent (pair or wait);
    for a kind with more seats, against ``opponents`` (1–3 computer levels) with ``rules``.

    ``rated``: a game between people changes their ratings (games against the computer never
    do). Random pairing only pairs requests of the same choice, never two players of whom one
    blocked the other, and prefers the waiting player with the closest rating."""
    _validate_create(opponent, opponents, turn_hours, layout, kind)
    options = _options(kind, layout, rules)
    if _multi_seat(kind):
        assert opponents is not None
        return _create_solo(user, kind, opponents, options, turn_hours, timezone.now())
    assert opponent is not None
    game_kind = kinds.get(kind)
    now = timezone.now()
    with transaction.atomic():
        if "random" in opponent:
            if opponent["random"] is not True:
                raise errors.invalid(_('Use {"random": true} for a random opponent.'))
            _lock_pairing_pool(kind, layout, turn_hours)
            candidates = (
                Game.objects.select_for_update(skip_locked=True, no_key=True, of=("self",))
                .filter(
                    status=Game.Status.WAITING,
                    kind=kind,
                    layout=layout,
                    turn_hours=turn_hours,
                    rated=rated,
                )
                .exclude(seats__user=user)
                .exclude(seats__user__is_active=False)  # a suspended player's request is dead
                .exclude(seats__user__in=blocks.blocked_either_way(user.pk))
            )
            waiting = pairing.annotate_rating_band(candidates, user_id=user.pk, kind=kind).first()
            if waiting is not None:
                private = game_kind.summary(game_kind.load(waiting.state)).private
                Seat.objects.create(game=waiting, index=1, user=user, private=private[1])
                _start(waiting, _seats(waiting), now)
                return waiting
        second: dict[str, Any] | None
        if "ai" in opponent:
            level = opponent["ai"]
            if level not in game_kind.levels:
                raise errors.invalid(
                    _("Unknown computer level '%(level)s'.") % {"level": level},
                    ai=[f"one of {list(game_kind.levels)}"],
                )
            second = {"ai_level": level}
        elif "username" in opponent:
            other = (
                get_user_model()
                .objects.filter(username=opponent["username"], is_active=True)
                .first()
            )
            if other is None:
                raise errors.unknown_player(opponent["username"])
            if other.pk == user.pk:
                raise errors.cannot_play_yourself()
            if blocks.blocks(other.pk, user.pk):
                raise errors.player_unavailable()
            second = {"user": other}
        else:
            second = None  # a random request that found nobody: wait for a partner

        seed = _new_seed()
        seat_count = 2
        state = game_kind.new_state(seed=seed, options=options, seats=seat_count)
        private = game_kind.summary(state).private
        game = Game.objects.create(
            kind=kind,
            status=Game.Status.WAITING,
            options=options,
            layout=layout,
            seed=seed,
            state=game_kind.dump(state),
            turn_hours=turn_hours,
            seat_count=seat_count,
            rated=rated and "ai" not in opponent,
        )
        seats = [Seat.objects.create(game=game, index=0, user=user, private=private[0])]
        if second is None:
            game.save()
            return game
        seats.append(Seat.objects.create(game=game, index=1, private=private[1], **second))
        _start(game, seats, now)
        return game


def _create_solo(
    user: User,
    kind: str,
    opponents: list[str],
    options: dict[str, Any],
    turn_hours: int,
    now: Any,
) -> Game:
    """The user (seat 0) against computer ``opponents`` (seats 1…): it starts at once."""
    game_kind = kinds.get(kind)
    seed = _new_seed()
    seat_count = 1 + len(opponents)
    state = game_kind.new_state(seed=seed, options=options, seats=seat_count)
    private = game_kind.summary(state).private
    with transaction.atomic():
        game = Game.objects.create(
            kind=kind,
            status=Game.Status.WAITING,
            options=options,
            seed=seed,
            state=game_kind.dump(state),
            turn_hours=turn_hours,
            seat_count=seat_count,
        )
        seats = [Seat.objects.create(game=game, index=0, user=user, private=private[0])]
        seats += [
            Seat.objects.create(game=game, index=i, ai_level=level, private=private[i])
            for i, level in enumerate(opponents, start=1)
        ]
        _start(game, seats, now)
        return game


def create_game_request(
    *, user: User, options: dict[str, Any], idempotency_key: str | None = None
) -> Receipt:
    """``POST /games``: create the game and answer the creator's view; with an
    ``Idempotency-Key`` a retry of the same request answers the first response and creates
    nothing (see ``games.services.idempotency``)."""

    def create() -> tuple[Game, int, dict[str, Any]]:
        game = create_game(user=user, **options)
        game, seat = selectors.game_for_player(game_id=game.pk, user=user)
        view = selectors.player_view(game=game, seat_index=seat.index)
        return game, 201, _jsonable(view)

    return idempotency.run_once(
        user=user,
        key=idempotency_key,
        operation="games.create",
        payload=options,
        create=create,
    )


def create_seated_game(
    *,
    kind: str,
    players: list[User | str],
    options: dict[str, Any],
    turn_seconds: int | None = None,
    turn_hours: int | None = None,
    layout: str | None = None,
    rated: bool = False,
    first_moves: bool = False,
) -> Game:
    """A game whose every seat is already decided (a table's deal, a rematch): ``players[i]``
    is the user or the computer level of seat ``i``. It starts at once. Call it inside the
    caller's transaction (the table's or the rematch's lock) so that both commit together.

    ``first_moves``: ``players[0]`` makes the first move (a rematch: the other player starts).
    The kind's deal decides which seat moves first, so the players are rotated onto the seats
    to put ``players[0]`` there, keeping their order around the table."""
    game_kind = kinds.get(kind)
    if len(players) not in game_kind.seats:
        raise errors.invalid(_("The game has the wrong number of seats."))
    seed = _new_seed()
    state = game_kind.new_state(seed=seed, options=options, seats=len(players))
    summary = game_kind.summary(state)
    private = summary.private
    if first_moves:
        start, n = summary.to_move, len(players)
        players = [players[(i - start) % n] for i in range(n)]
    humans = [p for p in players if not isinstance(p, str)]
    with transaction.atomic():
        game = Game.objects.create(
            kind=kind,
            status=Game.Status.WAITING,
            options=options,
            seed=seed,
            state=game_kind.dump(state),
            turn_seconds=turn_seconds,
            seat_count=len(players),
            rated=rated and len(humans) == len(players),
            **({"turn_hours": turn_hours} if turn_hours is not None else {}),
            **({"layout": layout} if layout is not None else {}),
        )
        seats = [
            Seat.objects.create(
                game=game,
                index=i,
                private=private[i],
                **({"ai_level": p} if isinstance(p, str) else {"user": p}),
            )
            for i, p in enumerate(players)
        ]
        _start(game, seats, timezone.now())
        return game
