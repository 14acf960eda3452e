"""The whole Crazy Eights position for staff pages: every hand, the stock in draw order."""

from __future__ import annotations

from django.utils.html import format_html, format_html_join

from games.crazy_eights.engine import GameState, format_card, format_hand


def render_position(state: GameState) -> str:
    rows = [
        ("round", str(state.round)),
        ("top / suit", f"{format_card(state.top)} / {'CDHS'[state.suit]}"),
        ("penalty", str(state.penalty)),
        ("direction", "clockwise" if state.direction == 1 else "counter-clockwise"),
        ("scores", " ".join(str(s) for s in state.scores)),
    ]
    rows += [(f"hand of seat {i}", format_hand(h) or "(empty)") for i, h in enumerate(state.hands)]
    rows += [
        (f"stock (draw order, {len(state.stock)})", format_hand(state.stock) or "empty"),
        (f"discards ({len(state.discard)})", format_hand(state.discard)),
    ]
    return format_html(
        "<table class='crazy-eights'>{}</table>",
        format_html_join("", "<tr><th>{}</th><td>{}</td></tr>", rows),
    )
