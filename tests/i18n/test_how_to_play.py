"""GET games/{id}/how-to-play in every language: the rules, every bonus square kind with its
description, and this game's own bonus squares."""

from __future__ import annotations

import pytest
from django.utils import translation

from games.crazy10s import engine, howto

LANGUAGES = ("en", "de", "fr", "pt-br")
KINDS = ("DN", "TN", "DL", "TL", "★")


def fetch(client, game, language):
    response = client.get(f"/api/v1/games/{game.pk}/how-to-play", HTTP_ACCEPT_LANGUAGE=language)
    assert response.status_code == 200, response.content
    assert response["Content-Language"] == language
    return response.json()


def expected_kind_texts(language: str) -> dict[str, str]:
    with translation.override(language):
        return {kind: str(text) for kind, text in howto.BONUS_KINDS}


@pytest.mark.parametrize("language", LANGUAGES)
def test_every_bonus_kind_named_and_described(human_game, alice, alice_client, language):
    alice.language = ""
    alice.save(update_fields=["language"])
    body = fetch(alice_client, human_game, language)
    assert body["language"] == language
    kinds = {item["kind"]: item["text"] for item in body["bonus_kinds"]}
    assert kinds == expected_kind_texts(language)
    assert set(kinds) == set(KINDS)
    # The rules text itself names every kind, so the list below it can be read.
    rules = " ".join(s["text"] for s in body["sections"])
    for kind in KINDS:
        assert kind in rules, (language, kind)
    # The worked examples' figures appear in every language.
    for figure in ("g7=3 h7=7", "(3 + 7) × 2 = 20", "7 + 3 × 2 = 13", "(3 × 2 + 7) × 2 = 26"):
        assert figure in rules, (language, figure)


def test_the_game_s_own_bonus_squares_are_listed(human_game, alice_client):
    body = fetch(alice_client, human_game, "en")
    expected = {(sq["square"], sq["kind"]) for sq in engine.view_for(
        engine.GameState.from_dict(human_game.state), 0)["bonus_squares"]}
    assert {(s["square"], s["kind"]) for s in body["bonus_squares"]} == expected
    assert ("a1", "TL") in expected and ("g7", "★") in expected
    assert {kind for _, kind in expected} == set(KINDS)


def test_each_language_has_its_own_text(human_game, alice, alice_client):
    alice.language = ""
    alice.save(update_fields=["language"])
    bodies = {language: fetch(alice_client, human_game, language) for language in LANGUAGES}
    titles = {body["title"] for body in bodies.values()}
    assert len(titles) == len(LANGUAGES)
    english = bodies["en"]["sections"]
    for language in ("de", "fr", "pt-br"):
        other = bodies[language]["sections"]
        assert len(other) == len(english)
        assert all(a["text"] != b["text"] for a, b in zip(english, other, strict=True))


def test_english_rules_cover_every_rule():
    with translation.override("en"):
        text = " ".join(str(t) for _, t in howto.SECTIONS)
    for fact in (
        "13×13", "g7", "80 tiles", "six 0s", "three 9s", "3 wild tiles", "up to 7 tiles",
        "at random", "the four corners are TL", "multiply together", "never decide",
        "exactly 10", "at least two tiles", "touch a tile", "20 extra points",
        "a single 0", "swap 1 to 7 tiles", "resign", "played as a pass", "six turns in a row",
        "equal scores are a draw", "worth 0", "swap 3 5 *",
    ):
        assert fact in text, fact
