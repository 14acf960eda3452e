"""The Python client openapi-python-client generates from the live schema, used as a mobile
developer would (issue 22): nothing but the generated functions and models, no hand-written
HTTP. Its clients raise on any status the schema does not document
(``raise_on_unexpected_status=True``), and every answer must parse into its typed model: the
views, the move answers, and the error envelope of every error status the client can provoke.

What the generated client cannot send is left out: 405 (it only knows the documented methods)
and 415 (it always sends JSON). 500 and 503 need a bug or a broken Redis/database (the fault
suite, tests/integration/test_faults.py, covers them against the real server).
"""

from __future__ import annotations

import time
import uuid
from typing import Any

import pytest

from games import kinds
from games.crazy10s.engine import (
    format_move,
    generate_placements,
    parse_board,
    parse_layout,
    parse_rack,
)
from games.crazy10s.engine.board import format_square
from tests.clients.helpers import report
from tests.helpers import PASSWORD

pytestmark = [
    pytest.mark.worker,
    pytest.mark.redis,
    pytest.mark.postgres,
    pytest.mark.django_db(transaction=True),
]

TURN_TIMEOUT = 60  # seconds for the computer's reply
GAME_LIMIT = 300  # seconds for the whole Crazy10s game


def test_the_generator_takes_the_schema_as_it_is(generated_client):
    """No warning from the generator, and every module it wrote imports (the first try had 9
    modules failing with NameError: name 'Unset' is not defined)."""
    import importlib
    import pkgutil

    assert "Warning" not in generated_client.output, generated_client.output
    package = generated_client.package
    failed = {}
    for module in pkgutil.walk_packages(package.__path__, f"{package.__name__}."):
        try:
            importlib.import_module(module.name)
        except Exception as exc:  # noqa: BLE001 - every failure is reported
            failed[module.name] = repr(exc)
    assert not failed
    assert generated_client.modules > 250


class Scenario:
    """The generated package's models and operations, and the checks every answer goes
    through."""

    def __init__(self, generated, stack) -> None:
        self.generated = generated
        self.m = generated.package.models
        self.stack = stack
        self.base = stack.base
        self.statuses: set[int] = set()  # every status the scenario saw parsed

    def op(self, name: str):
        return self.generated.api(name).sync_detailed

    def anonymous(self):
        return self.generated.package.Client(base_url=self.base, raise_on_unexpected_status=True)

    def signed_in(self, token: str):
        client = self.generated.package.AuthenticatedClient(
            base_url=self.base, token=token, raise_on_unexpected_status=True
        )
        assert client.prefix == "Bearer"  # the generator's default, which the API takes
        return client

    def ok(self, response, status: int, model) -> Any:
        assert response.status_code == status, response.content[:2000]
        assert isinstance(response.parsed, model), (type(response.parsed), response.content)
        assert response.headers.get("X-Request-ID")
        self.statuses.add(status)
        return response.parsed

    def refused(self, response, status: int, code: str) -> Any:
        assert response.status_code == status, response.content[:2000]
        parsed = response.parsed
        assert isinstance(parsed, self.m.ErrorEnvelope), (type(parsed), response.content)
        assert parsed.error.code == code, response.content[:2000]
        assert isinstance(parsed.error.message, str) and parsed.error.message
        self.statuses.add(status)
        return parsed.error


def test_a_mobile_developers_day_through_the_generated_client(
    generated_client, api_stack, request
):
    started = time.monotonic()
    run = Scenario(generated_client, api_stack)
    m = run.m
    suffix = uuid.uuid4().hex[:6]

    # --- register, log in (Bearer) ----------------------------------------------------------
    anonymous = run.anonymous()
    register = run.op("auth.auth_register")
    alice_name, bob_name = f"alice{suffix}", f"bob{suffix}"
    for name in (alice_name, bob_name):
        registered = run.ok(register(client=anonymous, body=m.RegisterInputRequest(
            username=name, email=f"{name}@example.test", password=PASSWORD)), 201,
            m.RegisterOutput)
        assert registered.user.username == name and registered.token
    run.refused(register(client=anonymous, body=m.RegisterInputRequest(
        username=alice_name.upper(), email=f"other{suffix}@example.test", password=PASSWORD)),
        409, "username_taken")
    error = run.refused(register(client=anonymous, body=m.RegisterInputRequest(
        username=f"carol{suffix}", email="not an address", password="short")), 400, "invalid")
    assert {"email", "password"} <= set(error.details.additional_keys)  # the fields named
    run.refused(register(client=anonymous, body=m.RegisterInputRequest(
        username="x" * 3_000_000, email=f"big{suffix}@example.test", password=PASSWORD)),
        413, "request_too_large")

    log_in = run.op("auth.auth_token")
    alice = run.signed_in(run.ok(log_in(client=anonymous, body=m.TokenInputRequest(
        username=alice_name, password=PASSWORD)), 200, m.TokenOutput).token)
    bob = run.signed_in(run.ok(log_in(client=anonymous, body=m.TokenInputRequest(
        username=bob_name, password=PASSWORD)), 200, m.TokenOutput).token)
    me = run.ok(run.op("me.me_retrieve")(client=alice), 200, m.User)
    assert me.username == alice_name
    run.refused(run.op("me.me_retrieve")(client=run.signed_in("not-a-token")), 401,
                "authentication_failed")
    # 429: logins per account are THROTTLE_LOGIN_ACCOUNT=3/hour on this stack.
    wrong = m.TokenInputRequest(username=f"mallory{suffix}", password="wrong-password")
    for _ in range(3):
        response = log_in(client=anonymous, body=wrong)
        run.refused(response, 401, "invalid_credentials")
        assert int(response.headers["RateLimit-Limit"]) == 3
    response = log_in(client=anonymous, body=wrong)
    error = run.refused(response, 429, "throttled")
    assert int(response.headers["Retry-After"]) >= 1 and error.details["wait"] > 0
    assert response.headers["RateLimit-Remaining"] == "0"

    # --- a whole Crazy10s game against the computer ------------------------------------------
    game_id, first_key, moves = play_crazy10s_against_the_computer(run, alice)

    retrieve = run.op("games.games_retrieve")
    response = retrieve(game_id, client=alice)
    run.ok(response, 200, m.Crazy10SGameView)
    unchanged = retrieve(game_id, client=alice, if_none_match=response.headers["ETag"])
    assert unchanged.status_code == 304 and unchanged.parsed is None  # documented, no body
    run.statuses.add(304)
    run.refused(retrieve(999_999_999, client=alice), 404, "not_found")
    run.refused(retrieve(game_id, client=bob), 403, "not_a_player")

    # --- a Crazy Eights round with hints ----------------------------------------------------
    rounds = play_a_crazy_eights_round(run, alice, reused_key=first_key)

    # --- a table: open, join --------------------------------------------------------------
    table = run.ok(run.op("tables.tables_create")(client=alice, body=(
        m.CreateCrazyEightsTableInputRequest(
            kind=m.CrazyEightsKindEnum.CRAZY_EIGHTS,
            options=m.CrazyEightsTableOptionsRequest(
                target=m.CrazyEightsTableTargetEnum.VALUE_100))
    )), 201, m.TableOutput)
    assert table.host == alice_name and table.status == "open"
    joined = run.ok(run.op("tables.tables_join")(table.code.lower(), client=bob), 200,
                    m.TableOutput)
    assert [s.username for s in joined.seats if s.username] == [alice_name, bob_name]
    seen = run.ok(run.op("tables.tables_retrieve")(table.code, client=alice), 200,
                  m.TableOutput)
    assert [s.username for s in seen.seats][:2] == [alice_name, bob_name]
    run.refused(run.op("tables.tables_deal")(table.code, client=bob), 403, "not_host")
    run.refused(run.op("tables.tables_join")("ZZZZZZ", client=bob), 404, "table_not_found")
    for player in (bob, alice):
        run.ok(run.op("tables.tables_leave")(table.code, client=player), 200, m.TableOutput)

    # --- the Daily Puzzle --------------------------------------------------------------------
    puzzle = run.ok(run.op("puzzles.puzzles_daily")(client=alice), 200, m.Puzzle)
    assert puzzle.open_ and puzzle.your_attempt is None and puzzle.solution is None
    attempt = run.op("puzzles.puzzles_attempt")
    run.refused(attempt(puzzle.date, client=alice, body=m.PuzzleAttemptInputRequest(
        move="pass")), 400, "placement_required")
    board = parse_board(puzzle.board_notation, parse_layout(puzzle.layout))
    best = max(generate_placements(board, parse_rack("".join(puzzle.rack)),
                                   seven_tile_bonus=False), key=lambda p: p.score)
    response = attempt(puzzle.date, client=alice, body=m.PuzzleAttemptInputRequest(
        move=format_move(best.move)))
    result = run.ok(response, 201, m.PuzzleAttemptResult)
    assert result.score == result.best_score == best.score
    assert int(response.headers["RateLimit-Remaining"]) >= 0
    run.refused(attempt(puzzle.date, client=alice, body=m.PuzzleAttemptInputRequest(
        move=format_move(best.move))), 409, "already_attempted")
    far = puzzle.date.replace(year=puzzle.date.year + 5)
    run.refused(run.op("puzzles.puzzles_retrieve")(far, client=alice), 404, "not_found")

    assert {200, 201, 304, 400, 401, 403, 404, 409, 413, 422, 429} <= run.statuses
    seconds = time.monotonic() - started
    report(request, f"the scenario ran in {seconds:.1f} s ({moves} Crazy10s moves, "
           f"{rounds} Crazy Eights moves in the round)")


def wait_for_my_turn(run: Scenario, client, game_id: int, after: int) -> Any:
    """Poll the game (If-None-Match with the last ETag: 304 while nothing changed) until it is
    my turn after move ``after``, or the game is over."""
    retrieve = run.op("games.games_retrieve")
    unset = run.generated.package.types.UNSET
    etag = unset
    deadline = time.monotonic() + TURN_TIMEOUT
    while time.monotonic() < deadline:
        response = retrieve(game_id, client=client, if_none_match=etag)
        if response.status_code == 304:
            run.statuses.add(304)
        else:
            view = run.ok(response, 200, (run.m.Crazy10SGameView, run.m.CrazyEightsGameView))
            etag = response.headers["ETag"]
            if view.status != "active" or (view.your_turn and view.move_number > after):
                return view
        time.sleep(0.2)
    raise AssertionError(f"no reply from the computer in {TURN_TIMEOUT} s after move {after}\n"
                         + run.stack.worker_log()[-3000:])


def typed_crazy10s_move(m, game_id: int, number: int) -> Any:
    """The best-scoring legal placement (the engine, on the stored game), as the client's
    typed place body (each tile a digit or a wild); a pass if there is none."""
    from games.models import Game

    game = Game.objects.get(pk=game_id)
    kind = kinds.get(game.kind)
    placements = kind.legal_placements(kind.load(game.state))
    if not placements:
        return m.SubmitCrazy10SPassMoveRequest(
            type_=m.PassTypeEnum.PASS, expected_move_number=number)
    best = max(placements, key=lambda p: (p.score, format_move(p.move)))
    tiles: list[Any] = []
    for tile in best.move.tiles:
        square = format_square(tile.col, tile.row)
        if tile.wild:
            tiles.append(m.PlacedTileInputWildRequest(square=square, wild=True,
                                                      digit=tile.digit))
        else:
            tiles.append(m.PlacedTileInputDigitRequest(square=square, digit=tile.digit))
    return m.SubmitCrazy10SPlaceMoveRequest(
        type_=m.PlaceTypeEnum.PLACE, tiles=tiles, expected_move_number=number)


def play_crazy10s_against_the_computer(run: Scenario, alice) -> tuple[int, str, int]:
    m = run.m
    create = run.op("games.games_create")
    body = m.Crazy10SCreateGameInputRequest(
        kind=m.Crazy10SKindEnum.CRAZY10S,
        seats=[m.Crazy10SSeatInputYouRequest(you=True),
               m.Crazy10SSeatInputComputerRequest(computer=m.Crazy10SLevelEnum.BEGINNER)],
    )
    key = f"create-{uuid.uuid4().hex}"
    view = run.ok(create(client=alice, body=body, idempotency_key=key), 201,
                  m.Crazy10SGameView)
    again = create(client=alice, body=body, idempotency_key=key)
    assert run.ok(again, 201, m.Crazy10SGameView).id == view.id
    assert again.headers["Idempotent-Replayed"] == "true"
    other = m.Crazy10SCreateGameInputRequest(
        kind=m.Crazy10SKindEnum.CRAZY10S,
        seats=[m.Crazy10SSeatInputComputerRequest(computer=m.Crazy10SLevelEnum.EXPERT),
               m.Crazy10SSeatInputYouRequest(you=True)],
    )
    run.refused(create(client=alice, body=other, idempotency_key=key), 422,
                "idempotency_key_mismatch")
    game_id = view.id
    move = run.op("games.games_moves_create")
    if not view.your_turn:
        view = wait_for_my_turn(run, alice, game_id, -1)
    first_key = f"move-{uuid.uuid4().hex}"
    started = time.monotonic()
    first = True
    while view.status == "active":
        assert time.monotonic() - started < GAME_LIMIT, "the game did not finish in time"
        number = view.move_number
        body = typed_crazy10s_move(m, game_id, number)
        if first:
            # An illegal placement (a square off the board) changes nothing; a stale move
            # number neither.
            off_board = m.SubmitCrazy10SPlaceMoveRequest(
                type_=m.PlaceTypeEnum.PLACE, expected_move_number=number,
                tiles=[m.PlacedTileInputDigitRequest(square="z99", digit=5)])
            run.refused(move(game_id, client=alice, body=off_board), 400, "off_board")
            stale = m.SubmitCrazy10SPassMoveRequest(
                type_=m.PassTypeEnum.PASS, expected_move_number=number + 5)
            run.refused(move(game_id, client=alice, body=stale), 409, "stale_move_number")
        response = move(game_id, client=alice, body=body,
                        idempotency_key=first_key if first else f"move-{uuid.uuid4().hex}")
        played = run.ok(response, 201, m.Crazy10SMovePlayed)
        if first:
            replay = move(game_id, client=alice, body=body, idempotency_key=first_key)
            assert run.ok(replay, 201, m.Crazy10SMovePlayed).score == played.score
            assert replay.headers["Idempotent-Replayed"] == "true"
            first = False
        view = played.game
        if view.status == "active" and not view.your_turn:
            view = wait_for_my_turn(run, alice, game_id, number + 1)
    assert view.status == "finished" and view.result is not None
    history = run.ok(run.op("games.games_moves_list")(game_id, client=alice), 200, list)
    assert len(history) == view.move_number
    return game_id, first_key, view.move_number


def typed_crazy_eights_move(m, notation: str, number: int) -> Any:
    """A Crazy Eights move in the notation the hint gives ("draw", "5C 5D", "8H/S"), as the
    client's typed body."""
    words = {
        "draw": (m.SubmitCrazyEightsDrawMoveRequest, m.DrawTypeEnum.DRAW),
        "take": (m.SubmitCrazyEightsTakeMoveRequest, m.TakeTypeEnum.TAKE),
        "pass": (m.SubmitCrazyEightsPassMoveRequest, m.PassTypeEnum.PASS),
    }
    if notation.lower() in words:
        model, tag = words[notation.lower()]
        return model(type_=tag, expected_move_number=number)
    cards = notation.split()
    last, _, suit = cards[-1].partition("/")
    cards[-1] = last
    play = m.SubmitCrazyEightsPlayMoveRequest(
        type_=m.PlayTypeEnum.PLAY, cards=cards, expected_move_number=number)
    if suit:
        play.suit = m.SuitEnum(suit.upper())
    return play


def play_a_crazy_eights_round(run: Scenario, alice, *, reused_key: str) -> int:
    """A two-seat Crazy Eights game against the computer, each of my turns the hint's move,
    until the first round (a deal) is over."""
    m = run.m
    view = run.ok(run.op("games.games_create")(client=alice, body=(
        m.CrazyEightsCreateGameInputRequest(
            kind=m.CrazyEightsKindEnum.CRAZY_EIGHTS,
            seats=[m.CrazyEightsSeatInputYouRequest(you=True),
                   m.CrazyEightsSeatInputComputerRequest(
                       computer=m.CrazyEightsLevelEnum.CAUTIOUS)])
    )), 201, m.CrazyEightsGameView)
    game_id = view.id
    first_round = view.position.round_
    hint = run.op("games.games_hint")
    move = run.op("games.games_moves_create")
    if not view.your_turn:
        view = wait_for_my_turn(run, alice, game_id, -1)
    tried_reuse = False
    started = time.monotonic()
    while view.status == "active" and view.position.round_ == first_round:
        assert time.monotonic() - started < GAME_LIMIT, "the round did not finish in time"
        number = view.move_number
        suggestion = run.ok(hint(game_id, client=alice), 200, m.Hint)
        assert suggestion.move, "a hint on my turn names a move"
        body = typed_crazy_eights_move(m, suggestion.move, number)
        if not tried_reuse:
            # The Crazy10s game's Idempotency-Key on another game: refused, nothing played.
            run.refused(move(game_id, client=alice, body=body, idempotency_key=reused_key),
                        409, "idempotency_key_reused")
            tried_reuse = True
        played = run.ok(move(game_id, client=alice, body=body), 201, m.CrazyEightsMovePlayed)
        for event in played.events:
            assert type(event).__name__.endswith("Event"), event  # each its own schema
        view = played.game
        if view.status == "active" and not view.your_turn:  # (a draw may leave it mine)
            view = wait_for_my_turn(run, alice, game_id, number + 1)
    assert view.status != "active" or view.position.round_ > first_round
    return view.move_number
