"""The how-to-play text of Crazy10s, in the project's own words (every rule of docs/rules.md, with
worked examples). Every string is a gettext message: the text comes in the active language."""

from __future__ import annotations

from typing import Any

from django.utils.translation import get_language
from django.utils.translation import gettext_lazy as _

TITLE = _("How to play Crazy10s")

SECTIONS = (
    (
        _("The idea"),
        _(
            "Crazy10s is a game for two players who share one 13×13 board. You take turns "
            "laying number tiles so that every row or column of touching tiles you make or "
            "extend adds up to exactly 10. Whoever has the higher score at the end wins."
        ),
    ),
    (
        _("The board"),
        _(
            "Squares are named like on a chess board: a column letter counted from a on the "
            "left, then a row number counted from 1 at the top. The centre square is g7 (f6 on "
            "the 11×11 board of the Daily Puzzle). Some squares carry a bonus; the list of this "
            "game's bonus squares comes with these rules. A game uses the classic layout unless "
            "it was created with a random one, which has as many bonus squares of each kind, "
            "placed symmetrically, with triple line squares in the corners and the start square "
            "in the centre."
        ),
    ),
    (
        _("Tiles and racks"),
        _(
            "The bag holds 80 tiles: six 0s, ten each of 1, 2, 3 and 4, nine 5s, eight 6s, "
            "seven 7s, four 8s, three 9s and 3 wild tiles (*). Each player holds up to 7 tiles "
            "and draws back up to 7 after laying tiles or swapping, as long as the bag lasts. "
            "Who moves first is decided at random."
        ),
    ),
    (
        _("Bonus squares"),
        _(
            "There are three kinds. Number squares (DN, TN) double or triple the value of the "
            "tile laid on them, in every line that tile belongs to. Line squares (DL, TL) double "
            "or triple the total of every line running through them; the four corners are TL. "
            "The start square (★) in the centre must be covered by the first move and counts as "
            "a DL for that move. A bonus counts only for the tile laid on it, and only on the "
            "turn it is laid. Number bonuses are applied first, then line bonuses multiply the "
            "line total; two line bonuses in one line multiply together. Bonuses never decide "
            "whether a move is allowed."
        ),
    ),
    (
        _("Lines"),
        _(
            "A line is an unbroken run of two or more tiles side by side in one row or in one "
            "column. A line always reaches as far as the tiles go in both directions."
        ),
    ),
    (
        _("Laying tiles"),
        _(
            "Lay 1 to 7 tiles from your rack on empty squares, all in one row or all in one "
            "column. No empty square may be left between your first and your last tile, but "
            "tiles already on the board may fill the gaps. Every line that contains a tile you "
            "laid must add up to exactly 10, counting the digits as they are (bonuses play no "
            "part in this), and each tile you lay must be part of at least one line. The first "
            "move of the game covers the centre square with at least two tiles and forms a line "
            "that adds up to 10; every later move must touch a tile already on the board."
        ),
    ),
    (
        _("Wild tiles"),
        _(
            "When you lay a wild tile you choose the digit from 0 to 9 it stands for. From then "
            "on it is that digit, for sums and for scores; the move history still shows that it "
            "was a wild. A wild left on a rack at the end of the game is worth 0."
        ),
    ),
    (
        _("Scoring"),
        _(
            "Every line that contains a tile you laid scores the sum of its tiles, with number "
            "bonuses applied to your new tiles, multiplied by the line bonuses of the squares "
            "you covered in that line. A tile that belongs to both a row line and a column line "
            "scores in both. Laying all seven tiles of a full rack in one move earns 20 extra "
            "points (in games, not in the Daily Puzzle). Laying a single 0 on its own (a wild "
            "chosen as 0 included) is allowed and scores 0."
        ),
    ),
    (
        _("Worked example"),
        _(
            "The first move g7=3 h7=7 lays a 3 on the start square g7 and a 7 next to it. The "
            "line g7-h7 adds up to 3 + 7 = 10 and the start square doubles it: (3 + 7) × 2 = 20 "
            "points. The other player then lays a 3 on h8, a DN square below the 7. The column "
            "h7-h8 adds up to 7 + 3 = 10 and scores 7 + 3 × 2 = 13. A 4 on h8 would be refused, "
            "because 7 + 4 = 11. With both kinds of bonus: a new 3 on a DN square and a new 7 "
            "on a DL square that form the line 3 7 score (3 × 2 + 7) × 2 = 26."
        ),
    ),
    (
        _("Other turns"),
        _(
            "Instead of laying tiles you may pass, which scores 0. You may swap 1 to 7 tiles "
            "while the bag holds at least as many: you draw the new tiles first, then the tiles "
            "you return go back into the bag; a swap scores 0. You may resign at any time, and "
            "whoever resigns loses, whatever the score. A turn whose time runs out is played as "
            "a pass."
        ),
    ),
    (
        _("End of the game"),
        _(
            "When a player uses up their rack while the bag is empty, the game ends and that "
            "player gains the total value of the tiles left on the opponent's rack. When six "
            "turns in a row, of either player, score 0 (passes, swaps, timeouts and single 0s), "
            "the game ends at once and each player loses the value of their own remaining "
            "tiles. The higher final score wins; equal scores are a draw."
        ),
    ),
    (
        _("Writing moves"),
        _(
            "A placement is written square=digit for each tile, with * before the digit of a "
            "wild: g7=3 h7=*7. The other turns are written pass, swap followed by the tiles you "
            "return (swap 3 5 *), and resign."
        ),
    ),
)

BONUS_KINDS = (
    ("DN", _("Double number: the tile laid here counts twice in each of its lines.")),
    ("TN", _("Triple number: the tile laid here counts three times in each of its lines.")),
    ("DL", _("Double line: every line through this square scores double.")),
    ("TL", _("Triple line: every line through this square scores triple.")),
    ("★", _("Start: the first move must cover it, and it doubles that move's lines.")),
)


def how_to_play(*, bonus_squares: list[dict[str, str]]) -> dict[str, Any]:
    """The rules in the active language, plus this game's own bonus squares."""
    return {
        "language": get_language() or "en",
        "title": str(TITLE),
        "sections": [{"heading": str(h), "text": str(t)} for h, t in SECTIONS],
        "bonus_kinds": [{"kind": k, "text": str(t)} for k, t in BONUS_KINDS],
        "bonus_squares": bonus_squares,
    }
