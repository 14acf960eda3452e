"""New games of any kind: every seat a computer, a named player, a random opponent or you.

One path for every kind and seat count: the request's seats decide it. With random seats the
request joins a waiting game of the same pool (kind, the kind's pairing key, turn time, rated,
seat count) in its first open seat, whoever else sits there, or becomes one; otherwise the game
starts at once. Games whose seats are all
decided by someone else (a table's deal, a rematch) come through ``create_seated_game``.
"""

from __future__ import annotations

import secrets
import zlib
from collections.abc import Callable
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any

from django.contrib.auth import get_user_model
from django.db import connection, transaction
from django.utils import timezone
from django.utils.translation import gettext as _

from config.unknown_fields import mark_json
from games import errors, kinds, selectors
from games.kinds.base import GameKind
from games.models import TURN_HOURS_CHOICES, Game, Seat
from games.services import idempotency
from games.services._common import _seats, _start
from games.services.idempotency import Receipt
from games.services.moves import _jsonable
from social import blocks, pairing

if TYPE_CHECKING:
    from accounts.models import User

SEAT_KEYS = ("you", "computer", "username", "random")


def _new_seed() -> int:
    """A game's seed decides its bag: it must not be guessable, so it comes from the OS."""
    return secrets.randbits(63)


@dataclass(frozen=True)
class SeatPlan:
    """Who sits where in a new game: a user, a computer level, or nobody yet (random)."""

    user: Any = None
    ai_level: str | None = None

    @property
    def open(self) -> bool:
        return self.user is None and self.ai_level is None


def _malformed_seats(message: str) -> errors.ApiError:
    """Seats of the wrong shape or number (what the schema states)."""
    return errors.invalid(message, seats=[message])


def _invalid_seats(message: str) -> errors.ApiError:
    """A rule of the seats the schema cannot state (its own code: the shape was right)."""
    return errors.ApiError("invalid_seats", message, details={"seats": [message]})


def _plan(user: User, kind: GameKind, seats: list[dict[str, Any]]) -> list[SeatPlan]:
    """Check the requested seats against the kind and find the named players."""
    if not isinstance(seats, list) or len(seats) not in kind.seats:
        raise _malformed_seats(
            _("A game of this kind has %(low)s to %(high)s seats.")
            % {"low": kind.seats.start, "high": kind.seats.stop - 1}
        )
    shapes = [next(iter(seat)) if isinstance(seat, dict) and len(seat) == 1 else None
              for seat in seats]
    if any(shape not in SEAT_KEYS for shape in shapes):
        raise _malformed_seats(
            _('A seat is one of {"you": true}, {"computer": LEVEL}, {"username": NAME} or '
              '{"random": true}.')
        )
    if shapes.count("you") != 1:
        raise _invalid_seats(_('Exactly one seat is yours: {"you": true}.'))
    plans: list[SeatPlan] = []
    named: set[int] = set()
    for seat in seats:
        (key, value), = seat.items()
        if key in ("you", "random") and value is not True:
            raise _malformed_seats(_("Only true is allowed here."))
        if key == "you":
            plans.append(SeatPlan(user=user))
        elif key == "random":
            plans.append(SeatPlan())
        elif key == "computer":
            if value not in kind.levels:
                raise errors.invalid(
                    _("Unknown computer level '%(level)s'.") % {"level": value},
                    seats=[f"computer: one of {list(kind.levels)}"],
                )
            plans.append(SeatPlan(ai_level=value))
        else:
            other = _named_player(user, value)
            if other.pk in named:
                raise _invalid_seats(_("Each player takes one seat."))
            named.add(other.pk)
            plans.append(SeatPlan(user=other))
    return plans


def _named_player(user: User, username: Any) -> User:
    other = (
        get_user_model().objects.filter(username=username, is_active=True).first()
        if isinstance(username, str) else None
    )
    if other is None:
        raise errors.unknown_player(str(username))
    if other.pk == user.pk:
        raise errors.cannot_play_yourself()
    if blocks.blocks(other.pk, user.pk):
        raise errors.player_unavailable()
    return other


def engine_options(kind: GameKind, options: dict[str, Any] | None) -> dict[str, Any]:
    """The engine's options from the request's ``options``, validated by the kind's own form.
    An option the form does not know is refused by name (``unknown_fields``), from a Python
    caller as from the API: ``{"actions": False}`` is not silently ignored where
    ``{"rules": {"actions": False}}`` was meant."""
    form = kind.options_input(data=mark_json(options or {}))
    if not form.is_valid():
        raise errors.invalid(_("The options of the game are not valid."), **form.errors)
    return kind.options(**form.validated_data)


def _lock_pairing_pool(pool: str) -> None:
    """Serialize search-or-create per pairing pool until the transaction ends.

    Without it two players asking at the same moment each find nobody waiting, each create a
    waiting game, and are never paired. SQLite serializes writers anyway, so only PostgreSQL
    needs the (transaction-scoped) advisory lock.
    """
    if connection.vendor != "postgresql":
        return
    key = zlib.crc32(f"c10s-random-pairing:{pool}".encode())
    with connection.cursor() as cursor:
        cursor.execute("SELECT pg_advisory_xact_lock(%s)", [key])


def create_game(
    *,
    user: User,
    kind: str | None = None,
    seats: list[dict[str, Any]] | None = None,
    options: dict[str, Any] | None = None,
    turn_hours: int = 72,
    rated: bool = True,
    opponent: dict[str, Any] | None = None,
    opponents: list[str] | None = None,
    engine: dict[str, Any] | None = None,
) -> Game:
    """A new game of ``kind`` (the default kind without one) with ``seats`` in order, one of
    them ``{"you": true}``. ``opponent`` (one seat) and ``opponents`` (computer levels) are
    shorthands for ``[{"you": true}, …]``; ``options`` are the kind's own options (its
    ``options_input`` validates them); ``engine`` instead gives the engine options of a stored
    game as they are (playing a friend again with the last game's settings).

    ``rated``: a game between people changes their ratings (games with a computer never do).
    Random pairing pairs only requests of the same pool, never two players of whom one blocked
    the other, and prefers the waiting game whose first player's rating is closest."""
    game_kind = _kind(kind)
    if turn_hours not in TURN_HOURS_CHOICES:
        raise errors.invalid(
            _("turn_hours must be one of %(choices)s.") % {"choices": list(TURN_HOURS_CHOICES)},
            turn_hours=[f"one of {list(TURN_HOURS_CHOICES)}"],
        )
    seats = _seats_from(seats, opponent, opponents)
    engine = engine if engine is not None else engine_options(game_kind, options)
    now = timezone.now()
    with transaction.atomic():
        plans = _plan(user, game_kind, seats)
        people = sum(1 for p in plans if p.ai_level is None)
        rated = rated and people == len(plans)
        if any(p.open for p in plans):
            pool = ":".join(
                [game_kind.name, game_kind.pairing_key(engine), str(turn_hours), str(rated),
                 str(len(plans))]
            )
            _lock_pairing_pool(pool)
            joined = _join_waiting(user, game_kind, pool, now)
            if joined is not None:
                return joined
            return _new_game(game_kind, plans, engine, turn_hours, rated, now, pool=pool)
        return _new_game(game_kind, plans, engine, turn_hours, rated, now)


def _kind(name: str | None) -> GameKind:
    if name is None:
        return kinds.default()
    if name not in kinds.names():
        raise errors.invalid(
            _("Unknown game kind '%(kind)s'.") % {"kind": name}, kind=[f"one of {kinds.names()}"]
        )
    return kinds.get(name)


def _seats_from(
    seats: list[dict[str, Any]] | None,
    opponent: dict[str, Any] | None,
    opponents: list[str] | None,
) -> list[dict[str, Any]]:
    if seats is not None:
        return seats
    if opponent is not None:
        if not isinstance(opponent, dict) or len(opponent) != 1:
            raise errors.invalid(
                _('opponent is one of {"ai": LEVEL}, {"username": NAME} or {"random": true}.')
            )
        (key, value), = opponent.items()
        return [{"you": True}, {"computer" if key == "ai" else key: value}]
    if opponents is not None:
        return [{"you": True}, *({"computer": level} for level in opponents)]
    raise _malformed_seats(_("Say who plays: the game's seats."))


def _join_waiting(user: User, kind: GameKind, pool: str, now: Any) -> Game | None:
    """Take the first open seat of a waiting game of ``pool``; start it once it is full."""
    candidates = (
        Game.objects.select_for_update(skip_locked=True, no_key=True, of=("self",))
        .filter(status=Game.Status.WAITING, kind=kind.name, pairing_pool=pool)
        .exclude(seats__user=user)
        .exclude(seats__user__is_active=False)  # a suspended player's request is dead
        .exclude(seats__user__in=blocks.blocked_either_way(user.pk))
    )
    waiting = pairing.annotate_rating_band(candidates, user_id=user.pk, kind=kind.name).first()
    if waiting is None:
        return None
    taken = set(Seat.objects.filter(game=waiting).values_list("index", flat=True))
    index = min(set(range(waiting.seat_count)) - taken)
    private = kind.summary(kind.load(waiting.state)).private
    Seat.objects.create(game=waiting, index=index, user=user, private=private[index])
    seats = _seats(waiting)
    if len(seats) == waiting.seat_count:
        _start(waiting, seats, now)
    return waiting


def _new_game(
    kind: GameKind,
    plans: list[SeatPlan],
    engine: dict[str, Any],
    turn_hours: int,
    rated: bool,
    now: Any,
    *,
    pool: str = "",
) -> Game:
    seed = _new_seed()
    state = kind.new_state(seed=seed, options=engine, seats=len(plans))
    private = kind.summary(state).private
    game = Game.objects.create(
        kind=kind.name,
        status=Game.Status.WAITING,
        options=engine,
        pairing_pool=pool,
        seed=seed,
        state=kind.dump(state),
        turn_hours=turn_hours,
        seat_count=len(plans),
        rated=rated,
    )
    seats = [
        Seat.objects.create(
            game=game, index=i, user=plan.user, ai_level=plan.ai_level, private=private[i]
        )
        for i, plan in enumerate(plans)
        if not plan.open
    ]
    if len(seats) == len(plans):
        _start(game, seats, now)
    return game


def create_game_request(
    *,
    user: User,
    creation: dict[str, Any],
    idempotency_key: str | None = None,
    render: Callable[[dict[str, Any]], dict[str, Any]] = _jsonable,
) -> Receipt:
    """``POST /games``: create the game and answer the creator's view, rendered by ``render``
    inside the transaction (a body that cannot be rendered rolls the game back); with an
    ``Idempotency-Key`` a retry of the same request answers the first response and creates
    nothing (see ``games.services.idempotency``)."""

    def create() -> tuple[Game, int, dict[str, Any]]:
        game = create_game(user=user, **creation)
        game, seat = selectors.game_for_player(game_id=game.pk, user=user)
        view = selectors.player_view(game=game, seat_index=seat.index)
        return game, 201, _jsonable(render(view))

    return idempotency.run_once(
        user=user,
        key=idempotency_key,
        operation="games.create",
        payload=creation,
        create=create,
    )


def create_seated_game(
    *,
    kind: str,
    players: list[User | str],
    options: dict[str, Any],
    turn_seconds: int | None = None,
    turn_hours: int | None = None,
    rated: bool = False,
    first_moves: bool = False,
) -> Game:
    """A game whose every seat is already decided (a table's deal, a rematch): ``players[i]``
    is the user or the computer level of seat ``i``; ``options`` are engine options. It starts
    at once. Call it inside the caller's transaction (the table's or the rematch's lock) so
    that both commit together.

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
    if first_moves and summary.to_move is not None:
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
        )
        seats = [
            Seat.objects.create(
                game=game,
                index=i,
                private=private[i],
                ai_level=p if isinstance(p, str) else None,
                user=None if isinstance(p, str) else p,
            )
            for i, p in enumerate(players)
        ]
        _start(game, seats, timezone.now())
        return game
