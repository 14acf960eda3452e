"""Do Crazy Eights hints agree with the game's strategy text? ``python bench/c8_hints.py
[--hints 10000] [--seed 0]``.

The strategy text (the rules seed's "Strategie" section, in short): keep your 8s for the turn
where nothing else fits or the one that empties your hand (but lay one when another player is
down to a single card: an 8 caught in hand costs 50); if the card you draw fits, lay it; name
the suit you hold most of; keep a 2 as a shield and answer a draw-two with it.

Positions come from seeded matches (2 to 4 seats, every rule set in turn) whose seats are played
by the cautious, aggressive, chaotic and random regulars; at every decision the seat to act asks
for a hint (the same call the hint endpoint makes). Counted, as a share of all hints:

- ``eight_while_other_fits``: the hint lays an 8 while a card that is not an 8 fits (going out
  aside); ``..._unexplained``: those whose reason does not say why (another player holds one
  card, or the reason says the hint departs from the text);
- ``keep_and_pass``: the drawn card fits and the hint passes; ``keep_and_pass_eight``: the
  drawn card is an 8 (nothing else fitted, or the player would not have drawn);
- ``names_unheld_suit``: an 8 names a suit the hand left does not hold, though it holds a suit;
- ``refuted_reason``: the reason says something the position contradicts ("you have no 2
  worth playing" while holding a 2, "the most expensive card that fits" when a dearer one fits,
  "only your 8 fits" when another card fits, "the cards you drew do not fit" when one does,
  "nothing fits" when something does);
- ``departures``: hints whose reason says they depart from the text.
"""

from __future__ import annotations

import argparse
import json
import os
import random
import sys
import time
from collections import Counter
from pathlib import Path
from typing import Any

# C8_HINTS_ROOT: another checkout's root, to measure the hints of an earlier version.
ROOT = Path(os.environ.get("C8_HINTS_ROOT", Path(__file__).resolve().parent.parent))
sys.path.insert(0, str(ROOT))

from games.crazy_eights.engine import (  # noqa: E402
    RANK,
    SUIT,
    Options,
    apply_legal,
    parse_card,
    parse_move,
    view_for,
)
from games.crazy_eights.engine.cards import CLASSIC_VALUE, DEFAULT_VALUE, EIGHT, TWO  # noqa: E402
from games.crazy_eights.engine.hints import hint  # noqa: E402
from games.crazy_eights.engine.knowledge import opening_record  # noqa: E402
from games.crazy_eights.engine.moves import Pass, Play  # noqa: E402
from games.crazy_eights.engine.players import REGULARS, decide  # noqa: E402
from games.crazy_eights.engine.state import new_match  # noqa: E402

PLAYERS = ("cautious", "aggressive", "chaotic", "random")
DEPARTS = ("hint_keep_shield",)  # reasons that say the hint departs from the text


def fits(view: dict[str, Any], card: int) -> bool:
    if view["penalty"]:
        return RANK[card] == TWO
    top = parse_card(view["top"])
    return RANK[card] == EIGHT or "CDHS"[SUIT[card]] == view["suit"] or RANK[card] == RANK[top]


def judge(view: dict[str, Any], found: dict[str, Any]) -> list[str]:
    """The counters this hint adds to."""
    marks: list[str] = []
    code = found["reason"]["code"]
    if code in DEPARTS:
        marks.append("departures")
    if found["move"] is None:
        return marks
    move = parse_move(found["move"])
    hand = [parse_card(c) for c in view["hand"]]
    values = CLASSIC_VALUE if view["options"]["classic"] else DEFAULT_VALUE
    others = [n for s, n in enumerate(view["hand_sizes"]) if s != view["seat"]]
    drawn = parse_card(view["drawn"]) if view.get("drawn") else None
    fitting = [c for c in hand if fits(view, c)] if not view["draws"] else []
    plain = [c for c in fitting if RANK[c] != EIGHT]
    if isinstance(move, Play):
        left = [c for c in hand if c not in move.cards]
        if RANK[move.cards[0]] == EIGHT and left:
            if plain and not view["draws"] and not view["penalty"]:
                marks.append("eight_while_other_fits")
                if min(others) > 1 and code not in DEPARTS:
                    marks.append("eight_while_other_fits_unexplained")
            held = {SUIT[c] for c in left if RANK[c] != EIGHT}
            if held and move.suit not in held:
                marks.append("names_unheld_suit")
        if code == "hint_shed":
            dearest = max(values[c] for c in plain) if plain else 0
            if sum(values[c] for c in move.cards) < dearest:
                marks.append("refuted_reason")
        if code == "hint_play_eight_last" and plain:
            marks.append("refuted_reason")
    if isinstance(move, Pass) and drawn is not None and fits(view, drawn):
        marks.append("keep_and_pass")
        if RANK[drawn] == EIGHT:
            marks.append("keep_and_pass_eight")
    if code == "hint_take_penalty" and any(RANK[c] == TWO for c in hand):
        marks.append("refuted_reason")
    if code == "hint_pass" and drawn is not None and fits(view, drawn):
        marks.append("refuted_reason")
    if code == "hint_draw" and any(fits(view, c) for c in hand):
        marks.append("refuted_reason")
    return marks


def rule_sets() -> list[Options]:
    return [
        Options(players=n, actions=a, several=s, classic=c)
        for n in (2, 3, 4)
        for a, s, c in ((True, True, False), (False, True, True), (True, False, False),
                        (False, False, False))
    ]


def run(count: int, seed: int) -> dict[str, Any]:
    rng = random.Random(seed)
    counts: Counter[str] = Counter()
    codes: Counter[str] = Counter()
    total = matches = 0
    sets = rule_sets()
    started = time.perf_counter()
    while total < count:
        options = sets[matches % len(sets)]
        matches += 1
        state = new_match(seed=rng.getrandbits(63), options=options)
        history: list[dict[str, Any]] = [opening_record(state)]
        seating = [rng.choice(PLAYERS) for _ in range(options.players)]
        rngs = [random.Random(rng.getrandbits(32)) for _ in range(options.players)]
        while not state.is_over and total < count:
            seat = state.turn
            assert seat is not None
            view = view_for(state, seat)
            found = hint(view, history)
            total += 1
            codes[found["reason"]["code"]] += 1
            marks = judge(view, found)
            counts.update(marks)
            if "refuted_reason" in marks:
                counts[f"refuted_reason:{found['reason']['code']}"] += 1
            move = decide(REGULARS[seating[seat]], view, history, rngs[seat])
            result = apply_legal(state, move)
            history.append(result.public_dict())
            state = result.state
    elapsed = time.perf_counter() - started
    return {
        "hints": total,
        "seed": seed,
        "matches": matches,
        "share_percent": {k: round(100 * v / total, 3) for k, v in sorted(counts.items())},
        "counts": dict(sorted(counts.items())),
        "reasons": dict(codes.most_common()),
        "seconds": round(elapsed, 1),
        "load_average": [round(x, 2) for x in os.getloadavg()],
    }


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--hints", type=int, default=10_000)
    parser.add_argument("--seed", type=int, default=0)
    args = parser.parse_args()
    print(json.dumps(run(args.hints, args.seed), indent=1))


if __name__ == "__main__":
    main()
