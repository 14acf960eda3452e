"""What the browser tests do on the Crazy10s board: find a legal move for the player's real
rack (the engine, in the test process), then tap it in like a person would."""

from __future__ import annotations

import re

from games import kinds
from games.crazy10s.engine import format_move, legal_moves
from games.models import Game

TOKEN = re.compile(r"([a-z]\d{1,2})=(\*?)(\d)")


def a_legal_move(game_id: int) -> str | None:
    """The best-scoring placement for the player to move (one with a wild when there is
    one, so the wild's digit dialog is used too); None when the rack has none."""
    game = Game.objects.get(pk=game_id)
    state = kinds.get("crazy10s").load(game.state)
    moves = legal_moves(state, best_wilds=True)
    if not moves:
        return None
    moves.sort(key=lambda m: (-any(t.wild for t in m.move.tiles), -m.score))
    return format_move(moves[0].move)


def tap_move(page, notation: str) -> None:
    """Tap a rack tile, then its square, for each tile of ``notation``; a wild's digit is
    chosen in the dialog."""
    for square, wild, digit in TOKEN.findall(notation):
        wanted = "*" if wild else digit
        page.locator(f'.rack .tile[data-t="{wanted}"]:not(.used)').first.click()
        page.locator(f'.board .c[data-sq="{square}"]').click()
        if wild:
            page.locator("#wild-dialog").get_by_role("button", name=digit, exact=True).click()
        page.locator(f'.board .c.staged[data-sq="{square}"]').wait_for()


def start_playable_game(page, tries: int = 5) -> tuple[int, int, str]:
    """A new game against the computer, at my turn, with a placement on my rack: (game id,
    move number, the placement). A rack can hold no placement at all (rare): then another
    game, as a person would start one, so the test does not depend on the deal."""
    for _ in range(tries):
        game_id = start_computer_game(page)
        number = wait_for_my_turn(page)
        move = a_legal_move(game_id)
        if move is not None:
            return game_id, number, move
    raise AssertionError(f"{tries} games in a row without a placement on the first rack")


def move_number(game_id: int) -> int:
    return Game.objects.values_list("move_number", flat=True).get(pk=game_id)


MY_TURN_AFTER = """after => {
    const p = document.getElementById('game-panel');
    return p && p.dataset.yourTurn === '1' && Number(p.dataset.move) > after; }"""


def new_game_form(page, kind: str = "crazy10s"):
    """The new-game page's form of ``kind`` (every registered kind has one)."""
    page.goto("/games/new")
    return page.locator(f"#new-{kind}")


def start_computer_game(page) -> int:
    form = new_game_form(page)
    form.get_by_label("Opponent").select_option("beginner")
    form.get_by_role("button", name="Start the game").click()
    page.wait_for_url(re.compile(r".*/games/\d+$"))
    return int(page.url.rsplit("/", 1)[1])


def wait_for_my_turn(page, after: int = -1) -> int:
    """Until the panel says it is my turn at a move number above ``after``; returns it."""
    try:
        page.wait_for_function(MY_TURN_AFTER, arg=after, timeout=45_000)
    except Exception as exc:  # say where the game was (a slow worker, or a lost update)
        game_id = int(page.locator("#game-panel").get_attribute("data-game"))
        game = Game.objects.get(pk=game_id)
        raise AssertionError(
            f"not my turn after move {after} within 45 s: the page shows move "
            f"{page.locator('#game-panel').get_attribute('data-move')}, the game is at "
            f"{game.move_number} with seat {game.current_seat} to move"
        ) from exc
    return int(page.locator("#game-panel").get_attribute("data-move"))
