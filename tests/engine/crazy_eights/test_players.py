"""The computer regulars: legal, deterministic given an rng, and blind to hidden cards."""

from __future__ import annotations

import random
from dataclasses import replace

import pytest

from games.crazy_eights.engine import (
    GameState,
    Options,
    Play,
    apply_legal,
    apply_move,
    format_move,
    legal_moves,
    new_match,
    parse_move,
    validate_move,
    view_for,
)
from games.crazy_eights.engine.knowledge import knowledge, opening_record
from games.crazy_eights.engine.players import (
    LEVEL_INFO,
    LEVELS,
    REGULARS,
    choose_for_seat,
    decide,
    strong_player,
)
from games.crazy_eights.engine.rollout import rollout

from .helpers import make_state, random_options

Position = tuple[GameState, list[dict]]


def positions(count: int, seed: int, players: int | None = None) -> list[Position]:
    """Positions of random matches (random options unless ``players``), with the history."""
    rng = random.Random(seed)
    found: list[Position] = []
    while len(found) < count:
        options = random_options(rng) if players is None else Options(players=players)
        state = new_match(seed=rng.getrandbits(32), options=options)
        history = [opening_record(state)]
        for _ in range(rng.randrange(1, 120)):
            if state.is_over:
                break
            result = apply_legal(state, rng.choice(legal_moves(state)))
            history.append(result.public_dict())
            state = result.state
        if not state.is_over:
            found.append((state, history))
    return found


def reshuffled(state: GameState, history: list[dict], seat: int, rng: random.Random) -> GameState:
    """The hidden cards (other hands, the stock order) dealt again, consistently with what
    ``seat`` has seen."""
    sample = knowledge(view_for(state, seat), history).sample_state(rng)
    assert sample.discard == state.discard
    return replace(state, hands=sample.hands, stock=sample.stock)


FAST_STRONG = strong_player(rollouts=24)


def test_every_regular_has_a_name_and_a_personality() -> None:
    assert set(LEVELS) == {"cautious", "aggressive", "chaotic", "strong"}
    for name, description in LEVEL_INFO.values():
        assert name and description.endswith(".")
    assert set(LEVELS) < set(REGULARS)


@pytest.mark.parametrize("regular", [*LEVELS, "random"])
def test_regulars_play_legal_moves(regular: str) -> None:
    player = FAST_STRONG if regular == "strong" else REGULARS[regular]
    rng = random.Random(1)
    for state, history in positions(60, seed=11):
        move = choose_for_seat(state, history, state.turn, player, rng)
        validate_move(state, move)


@pytest.mark.parametrize("regular", LEVELS)
def test_regulars_are_deterministic_given_an_rng(regular: str) -> None:
    for state, history in positions(8, seed=12, players=4):
        moves = {
            format_move(choose_for_seat(state, history, state.turn, regular, random.Random(5)))
            for _ in range(2)
        }
        assert len(moves) == 1


@pytest.mark.parametrize("regular", LEVELS)
def test_regulars_do_not_peek_at_hidden_cards(regular: str) -> None:
    rng = random.Random(3)
    moved = 0
    for state, history in positions(10, seed=13, players=3):
        seat = state.turn
        other = reshuffled(state, history, seat, rng)
        assert view_for(other, seat) == view_for(state, seat)
        moved += other.hands != state.hands or other.stock != state.stock
        first = choose_for_seat(state, history, seat, regular, random.Random(9))
        second = choose_for_seat(other, history, seat, regular, random.Random(9))
        assert first == second
        validate_move(other, second)  # the same move is legal in the reshuffled deal
    assert moved >= 8  # the hidden cards really were dealt differently


def test_decide_refuses_a_view_without_the_turn() -> None:
    state = new_match(seed=4, options=Options(players=3))
    waiting = (state.turn + 1) % 3
    with pytest.raises(ValueError):
        decide("cautious", view_for(state, waiting), [], random.Random(0))


def test_cautious_keeps_its_8_and_sheds_the_expensive_card() -> None:
    state = make_state(["8C 3H KH", "4C 5C 6C"], "9H")
    assert choose_for_seat(state, [], 0, "cautious", random.Random(0)) == parse_move("KH")
    drawn = make_state(["8C 4D", "4C 5C 6C"], "9H", draws=1, drawn="8C")
    assert choose_for_seat(drawn, [], 0, "cautious", random.Random(0)) == parse_move("pass")


def test_aggressive_skips_the_seat_about_to_go_out_and_keeps_a_2_as_shield() -> None:
    threat = make_state(["QH 9H 2H 4D", "5C", "4C 5D 6C 7C"], "5H")
    assert choose_for_seat(threat, [], 0, "aggressive", random.Random(0)) in (
        parse_move("QH"), parse_move("2H"),
    )
    calm = make_state(["2H 9H 4D", "5C 6D 7C 9C", "4C 5D 6C 10C"], "5H")
    assert choose_for_seat(calm, [], 0, "aggressive", random.Random(0)) == parse_move("9H")


def test_the_strong_regular_goes_out_when_it_can() -> None:
    state = make_state(["7H 7C", "4C 5C 6C"], "7S")
    move = choose_for_seat(state, [], 0, "strong", random.Random(0))
    assert isinstance(move, Play) and sorted(move.cards) == sorted(state.hands[0])


def test_the_strong_regular_beats_random_players() -> None:
    from games.crazy_eights.cli import selfplay

    # A small budget keeps the test quick; even so the search wins most matches.
    summary = selfplay(12, 3, ["strong", "random"], Options(players=2), rollouts=24)
    wins = {r["regular"]: r["wins"] for r in summary["regulars"]}
    assert wins["strong"] >= 9 and wins["strong"] + wins["random"] == 12


def test_playouts_follow_the_engine_rules() -> None:
    # Every move of a playout replays through apply_move and ends the round with its points.
    rng = random.Random(6)
    for state, _ in positions(120, seed=14):
        record: list[str] = []
        points = rollout(state, rng, record=record)
        result = None
        for text in record:
            result = apply_move(result.state if result else state, text)
        assert result is not None and result.round_over
        over = next(e for e in result.events if e.kind == "round_over")
        assert over.points == points


def test_chaotic_lays_a_drawn_card_that_fits_and_names_a_suit_it_holds() -> None:
    drawn = make_state(["8C 4D 6D", "4C 5C 6C"], "9H", draws=1, drawn="8C")
    for seed in range(20):
        move = choose_for_seat(drawn, [], 0, "chaotic", random.Random(seed))
        assert move == parse_move("8C/D")  # D is the only suit left in hand


def test_chaotic_stays_unpredictable() -> None:
    state = make_state(["8C 3H KH 4D 9H", "4C 5C 6C"], "5H")
    moves = {
        format_move(choose_for_seat(state, [], 0, "chaotic", random.Random(seed)))
        for seed in range(60)
    }
    # Every card that fits comes up, the 8 too, with a suit it holds.
    assert {"3H", "KH", "9H"} <= moves
    assert moves & {"8C/H", "8C/D"} and not moves & {"8C/C", "8C/S"}


def test_chaotic_beats_random_players() -> None:
    from games.crazy_eights.cli import selfplay

    # Fixed seeds: 40 matches each. The published figures (level_stats.json) use many more.
    two = selfplay(40, 1, ["chaotic", "random"], Options(players=2))
    wins = {r["regular"]: r["wins"] for r in two["regulars"]}
    assert wins["chaotic"] >= 24  # a random player's par is 20
    four = selfplay(40, 1, ["chaotic", "random", "random", "random"], Options(players=4))
    wins = {r["regular"]: r["wins"] for r in four["regulars"]}
    assert wins["chaotic"] >= 12  # par is 10
