"""Every write to a table: create, join, leave, deal, back, invite.

Each one locks the table row first (``SELECT ... FOR UPDATE``) and then, through the generic
game services, the game row: always in that order, and game services never lock a table, so
two writers cannot wait for each other. What happens to a dealt match (who is away, who left)
is the game's seats' business (``games.services.leave_seat`` / ``come_back``).
"""

from __future__ import annotations

import json
from typing import TYPE_CHECKING, Any, cast

from django.conf import settings
from django.contrib.auth import get_user_model
from django.db import IntegrityError, transaction
from django.utils import timezone
from django.utils.translation import gettext as _

from games import effects, kinds, services
from games import errors as game_errors
from games.kinds.base import GameKind
from games.models import Game, Seat
from games.tables import codes, errors
from games.tables.models import Table, TableSeat
from social import blocks

if TYPE_CHECKING:
    from accounts.models import User

CODE_ATTEMPTS = 8


def turn_seconds() -> int:
    return int(getattr(settings, "TABLES_TURN_SECONDS", 30))


def table_kinds() -> list[GameKind]:
    """The kinds whose games are dealt at tables (the first is the default)."""
    return [kind for kind in kinds.all_kinds() if kind.table is not None]


def seat_count(table: Table) -> int:
    """A table has as many seats as the largest game of its kind."""
    return kinds.get(table.kind).seats.stop - 1


def computer_levels(kind: GameKind) -> list[str]:
    """The computer players for a table's empty seats, in the order they sit down: the
    configured one first (if the kind has it), then the others, so that every computer at
    the table is someone different."""
    first = str(getattr(settings, "TABLES_COMPUTER_LEVEL", "aggressive"))
    if first not in kind.levels:
        return list(kind.levels)
    return [first, *(level for level in kind.levels if level != first)]


def _table_kind(name: str | None) -> GameKind:
    offered = table_kinds()
    if name is None and offered:
        return offered[0]
    kind = kinds.get(name) if name in kinds.names() else None
    if kind is None or kind.table is None:
        raise game_errors.invalid(
            _("Tables deal one of %(kinds)s.") % {"kinds": [k.name for k in offered]},
            kind=[f"one of {[k.name for k in offered]}"],
        )
    return kind


def table_options(kind: GameKind, options: dict[str, Any] | None) -> dict[str, Any]:
    """The host's options, validated by the kind's own table form (as JSON)."""
    assert kind.table is not None
    form = kind.table.options_input(data=options or {})
    if not form.is_valid():
        raise game_errors.invalid(_("The options of the table are not valid."), **form.errors)
    return json.loads(json.dumps(form.validated_data))


def create_table(
    *, user: User, kind: str | None = None, options: dict[str, Any] | None = None
) -> Table:
    """A new open table of ``kind`` (the first kind with tables without one) with ``user`` as
    host in seat 0 and a code no open table has; ``options`` are the kind's table options."""
    game_kind = _table_kind(kind)
    chosen = table_options(game_kind, options)
    for _attempt in range(CODE_ATTEMPTS):
        try:
            with transaction.atomic():
                table = Table.objects.create(
                    code=codes.new_code(), host=user, kind=game_kind.name, options=chosen
                )
                TableSeat.objects.create(table=table, index=0, user=user)
                return table
        except IntegrityError:
            continue  # the code names an open table already (1 in ~10^8): draw another
    raise RuntimeError("no free table code")  # pragma: no cover - astronomically unlikely


def _lock(code: str) -> Table:
    normal = codes.normalise(code)
    table = (
        Table.objects.select_for_update()
        .filter(code=normal)
        .exclude(status=Table.Status.CLOSED)
        .first()
        if normal
        else None
    )
    if table is None:
        raise errors.table_not_found()
    return table


def _announce(table: Table, event: str, user: User) -> None:
    """Tell the table's players once this write commits (the live event stream listens)."""
    effects.table_changed(table.pk, event, user.pk)


def _game_seat(table: Table, user: User) -> Seat | None:
    if table.game_id is None:  # not dealt: no game, no seat in it
        return None
    return Seat.objects.filter(game_id=table.game_id, user=user).first()


def join(*, user: User, code: str) -> Table:
    """Take a free seat (idempotent for someone seated); after the deal, a seated person who
    left or is away takes their seat back from the computer."""
    with transaction.atomic():
        table = _lock(code)
        if table.status == Table.Status.DEALT:
            if _game_seat(table, user) is None:
                raise errors.already_dealt()
            assert table.game_id is not None  # _game_seat found a seat in it
            services.come_back(game_id=table.game_id, user=user)
            _announce(table, "back", user)
            return table
        seated = {s.index: s.user_id for s in table.seats.all()}
        if user.pk in seated.values():
            return table
        free = [i for i in range(seat_count(table)) if i not in seated]
        if not free:
            raise errors.table_full()
        TableSeat.objects.create(table=table, index=free[0], user=user)
        _announce(table, "joined", user)
        return table


def leave(*, user: User, code: str) -> Table:
    """Before the deal: free the seat (the host's role passes on; an empty table closes).
    During the match: the computer plays the seat (``games.services.leave_seat``); when no
    person is left at the table it closes and its match is aborted — nobody would see the
    computers play it out."""
    now = timezone.now()
    with transaction.atomic():
        table = _lock(code)
        if table.status == Table.Status.OPEN:
            mine = table.seats.filter(user=user).first()
            if mine is None:
                raise errors.not_seated()
            mine.delete()
            _announce(table, "left", user)
            rest = list(table.seats.order_by("index"))
            if not rest:
                _close(table, now)
            elif table.host_id == user.pk:
                table.host_id = rest[0].user_id
                table.save(update_fields=["host"])
            return table
        if _game_seat(table, user) is None:
            raise errors.not_seated()
        assert table.game_id is not None  # _game_seat found a seat in it
        game = services.leave_seat(game_id=table.game_id, user=user)
        _announce(table, "left", user)
        people = Seat.objects.filter(game=game, user__isnull=False)
        if not people.filter(left=False).exists():
            if not game.is_over:
                services.abort_game(game_id=game.pk)
            _close(table, now)
        return table


def _close(table: Table, now) -> None:
    table.status = Table.Status.CLOSED
    table.closed_at = now
    table.save(update_fields=["status", "closed_at"])


def deal(*, user: User, code: str) -> Table:
    """The host starts the game: a computer player sits in every empty seat; the game and
    the table's new status commit together."""
    with transaction.atomic():
        table = _lock(code)
        if table.host_id != user.pk:
            raise errors.not_host()
        if table.status != Table.Status.OPEN:
            raise errors.already_dealt()
        seated = {s.index: s.user for s in table.seats.select_related("user")}
        game_kind = kinds.get(table.kind)
        computers = iter(computer_levels(game_kind))
        players: list[Any] = [
            seated[i] if i in seated else next(computers) for i in range(seat_count(table))
        ]
        game = services.create_seated_game(
            kind=table.kind, players=players, options=game_kind.table_engine_options(table.options),
            turn_seconds=turn_seconds(),
        )
        table.game = game
        table.status = Table.Status.DEALT
        table.dealt_at = timezone.now()
        table.save(update_fields=["game", "status", "dealt_at"])
        _announce(table, "dealt", user)
        effects.table_dealt(table.pk, table.code, game.pk, user.pk)
        return table


def back(*, user: User, code: str) -> Table:
    """The away person takes their seat back (no-op if it is theirs already)."""
    with transaction.atomic():
        table = _lock(code)
        if table.status != Table.Status.DEALT:
            raise errors.not_dealt()
        if _game_seat(table, user) is None:
            raise errors.not_seated()
        assert table.game_id is not None  # _game_seat found a seat in it
        services.come_back(game_id=table.game_id, user=user)
        _announce(table, "back", user)
        return table


def invite(*, user: User, code: str, username: str) -> Table:
    """Email ``username`` the table's share link (once per table and person). The claim is
    written in this transaction (the notifications app's outbox receiver); the send follows
    the commit, and the notification sweep re-sends a claim whose message was lost."""
    with transaction.atomic():
        table = _lock(code)
        if not table.seats.filter(user=user).exists() and _game_seat(table, user) is None:
            raise errors.not_seated()
        other = get_user_model().objects.filter(username=username, is_active=True).first()
        if other is None:
            raise game_errors.unknown_player(username)
        if other.pk == user.pk:
            raise game_errors.cannot_play_yourself()
        # A player who blocked the inviter never hears of it; the inviter is not told.
        if not blocks.blocks(other.pk, user.pk):
            effects.table_invitation(table.pk, table.code, table.kind, other.pk, user.pk)
        return table


def get_table(*, code: str) -> Table:
    normal = codes.normalise(code)
    table = Table.objects.filter(code=normal).order_by("-created_at").first() if normal else None
    if table is None:
        raise errors.table_not_found()
    return table


def code_of_game(game_id: int) -> str | None:
    """The code of the table whose match ``game_id`` is (None: a game without a table)."""
    return Table.objects.filter(game_id=game_id).values_list("code", flat=True).first()


def share_url(table: Table) -> str:
    # The web client serves this page (it shows the table and offers to join).
    return f"{settings.SITE_BASE_URL}/tables/{table.code}"


def show(table: Table) -> dict[str, Any]:
    """The table as anybody with the code sees it: kind, host, options, seats, status, game
    id. Only public facts: names, whether a seat is a computer, away or left."""
    game: Game | None = table.game
    seats: list[dict[str, Any]] = []
    if game is not None:
        kind = kinds.get(game.kind)
        for seat in game.seats.select_related("user").order_by("index"):
            # A dealt table's seat is a person's or else a computer's (it has its level).
            level = cast(str, seat.ai_level)
            seats.append({
                "seat": seat.index,
                "name": seat.user.public_name if seat.user else kind.computer_name(level),
                "username": seat.user.username if seat.user else None,
                "is_computer": seat.is_computer,
                "away": seat.away,
                "left": seat.left,
            })
    else:
        taken = {s.index: s for s in table.seats.select_related("user")}
        for i in range(seat_count(table)):
            s = taken.get(i)
            seats.append({
                "seat": i,
                "name": s.user.public_name if s else None,
                "username": s.user.username if s else None,
                "is_computer": False,
                "away": False,
                "left": False,
            })
    return {
        "code": table.code,
        "share_url": share_url(table),
        "status": table.status,
        "host": table.host.username,
        "kind": table.kind,
        "title": str(kinds.get(table.kind).title),
        "options": table.options,
        "house_rules": kinds.get(table.kind).describe_table_options(table.options),
        "seats": seats,
        "turn_seconds": turn_seconds(),
        "game_id": table.game_id,
        "game_status": game.status if game else None,
    }
