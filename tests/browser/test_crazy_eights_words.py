"""Crazy Eights as a player lives in it (issue 26), in German: faces in the language's letters
(B, D, K, A), the chosen cards said in words and kept through an update, a hint in words,
the game's German name from the seed."""

from __future__ import annotations

import re

import pytest

from tests.browser.c8_helpers import engine_of, plain_fit_of, rig_hand, seat_of, with_a_plain_fit
from tests.browser.conftest import sign_up
from tests.browser.helpers import wait_for_my_turn

pytestmark = [pytest.mark.browser, pytest.mark.worker, pytest.mark.redis, pytest.mark.postgres]

NOTATION = re.compile(r"\b(10|[2-9JQKA])[CDHS]\b|\([CDHS]\)")
ASK = """() => {
    window.__settled = false;
    document.getElementById('game-panel').__old = true;
    document.addEventListener('htmx:afterSettle', () => { window.__settled = true; }, {once: true});
    window.C10S.refreshPanel();
}"""
SETTLED = "() => window.__settled && !document.getElementById('game-panel').__old"


def _with_court_cards(engine: dict, pool: list[int], size: int) -> list[int]:
    """A hand holding a card that fits and as many Jacks, Queens, Kings and Aces as there are."""
    from games.crazy_eights.engine.cards import CARD_NAMES

    hand = with_a_plain_fit(engine, pool, size)
    courts = [c for c in pool if CARD_NAMES[c][:-1] in "JQKA" and c not in hand]
    return (hand[:1] + courts + hand[1:])[:size]


def test_a_german_match_in_words_and_letters(page, shot):
    name = sign_up(page)
    page.get_by_label("Language").select_option("de")
    page.wait_for_function("document.documentElement.lang === 'de'")
    page.goto("/games/new")
    assert "Crazy 8s" in page.content() and "Verrückte Achten" not in page.content()
    form = page.locator("#new-crazy_eights")
    form.get_by_label("Spieler 2").select_option("cautious")
    form.get_by_role("button", name="Partie starten").click()
    page.wait_for_url(re.compile(r".*/games/\d+$"))
    game_id = int(page.url.rsplit("/", 1)[1])
    seat = seat_of(game_id, name)
    wait_for_my_turn(page)
    hand = rig_hand(game_id, seat, _with_court_cards)
    page.reload()
    wait_for_my_turn(page)

    faces = page.locator(".hand .card .face b").all_inner_texts()
    ranks = [c[:-1] for c in hand]
    german = {"J": "B", "Q": "D", "K": "K", "A": "A"}
    assert faces == [german.get(r, r) for r in ranks]
    assert [c for c in page.locator(".hand .card").evaluate_all(
        "cards => cards.map(c => c.dataset.card)")] == hand  # the notation stays

    card = plain_fit_of(engine_of(game_id), hand)
    page.locator(f'.hand .card[data-card="{card}"]').click()
    chosen = page.locator("#selection").inner_text()
    assert chosen.startswith("Ausgewählt:") and not NOTATION.search(chosen)
    page.evaluate(ASK)
    page.wait_for_function(SETTLED)
    assert page.locator(f'.hand .card[data-card="{card}"]').get_attribute("aria-pressed") == "true"
    assert page.locator("#selection").inner_text() == chosen

    page.get_by_role("button", name="Tipp").click()
    page.locator("#hint-out:not(:empty)").wait_for()
    assert not NOTATION.search(page.locator("#hint-out").inner_text())
    howto = page.locator("#how-to-play")
    howto.locator("summary").click()
    assert "8S/H" not in howto.inner_text() and "Tippe" in howto.inner_text()
    shot(page, "c8-german-words")
