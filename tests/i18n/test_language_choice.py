"""Which language an API answer comes in: the saved language, else Accept-Language, else
English. Error codes never change; messages do."""

from __future__ import annotations

import pytest

from tests.helpers import assert_error

LANGUAGES = ("en", "de", "fr", "pt-br")
BAD_SUM = {"move": "g7=5 h7=3", "expected_move_number": 0}  # 5 + 3 = 8 (alice: 0123555)


def post_bad_move(client, game, **headers):
    response = client.post(f"/api/v1/games/{game.pk}/moves", BAD_SUM, format="json", **headers)
    return response, assert_error(response, 400, "bad_sum")


def set_language(user, language: str) -> None:
    user.language = language
    user.save(update_fields=["language"])


def test_same_illegal_move_by_accept_language(human_game, alice, alice_client):
    set_language(alice, "")  # nothing saved: the request decides
    messages = {}
    for language in LANGUAGES:
        response, error = post_bad_move(alice_client, human_game, HTTP_ACCEPT_LANGUAGE=language)
        assert response["Content-Language"] == language
        assert error["details"]["line"]["sum"] == 8
        assert "g7-h7" in error["message"] and "8" in error["message"]
        messages[language] = error["message"]
    assert len(set(messages.values())) == len(LANGUAGES), messages
    assert messages["en"] == "The line g7-h7 adds up to 8, not 10."
    assert messages["de"] == "Die Reihe g7-h7 ergibt 8, nicht 10."


def test_same_illegal_move_by_saved_language(human_game, alice, alice_client):
    messages = {}
    for language in LANGUAGES:
        set_language(alice, language)
        response, error = post_bad_move(alice_client, human_game)
        assert response["Content-Language"] == language
        messages[language] = error["message"]
    assert len(set(messages.values())) == len(LANGUAGES), messages
    assert messages["fr"] == "La ligne g7-h7 fait 8, pas 10."


def test_saved_language_beats_accept_language(human_game, alice, alice_client):
    set_language(alice, "pt-br")
    response, error = post_bad_move(alice_client, human_game, HTTP_ACCEPT_LANGUAGE="de, fr;q=0.8")
    assert response["Content-Language"] == "pt-br"
    assert error["message"] == "A linha g7-h7 soma 8, não 10."


@pytest.mark.parametrize("header", ["ja", "xx-YY, zh;q=0.5", ""])
def test_unsupported_accept_language_falls_back_to_english(human_game, alice, alice_client,
                                                           header):
    set_language(alice, "")
    response, error = post_bad_move(alice_client, human_game, HTTP_ACCEPT_LANGUAGE=header)
    assert response["Content-Language"] == "en"
    assert error["message"] == "The line g7-h7 adds up to 8, not 10."


def test_regional_accept_language_picks_the_supported_variant(human_game, alice, alice_client):
    set_language(alice, "")
    response, _ = post_bad_move(alice_client, human_game, HTTP_ACCEPT_LANGUAGE="pt-BR,pt;q=0.9")
    assert response["Content-Language"] == "pt-br"
    response, _ = post_bad_move(alice_client, human_game, HTTP_ACCEPT_LANGUAGE="de-AT")
    assert response["Content-Language"] == "de"


def test_validation_messages_and_envelope_in_the_saved_language(alice, alice_client):
    set_language(alice, "de")
    response = alice_client.post("/api/v1/games", {"turn_hours": 72}, format="json")
    error = assert_error(response, 400, "invalid")
    assert error["message"] == "Ungültige Eingabe."
    # Django REST framework's own German catalog: "This field is required."
    assert error["details"]["opponent"] == ["Dieses Feld ist zwingend erforderlich."]


def test_service_refusal_translated_with_the_same_code(human_game, bob, bob_client):
    set_language(bob, "fr")
    response = bob_client.post(
        f"/api/v1/games/{human_game.pk}/moves", BAD_SUM, format="json"
    )
    error = assert_error(response, 409, "not_your_turn")
    assert error["message"] == "Ce n'est pas à vous de jouer."


def test_unauthenticated_answers_follow_accept_language(db, api_client):
    response = api_client.post(
        "/api/v1/auth/token", {"username": "nobody", "password": "x"}, format="json",
        HTTP_ACCEPT_LANGUAGE="fr",
    )
    error = assert_error(response, 401, "invalid_credentials")
    assert error["message"] == "Impossible de se connecter avec ces identifiants."
    assert response["Content-Language"] == "fr"


def test_registration_saves_the_request_language_unless_one_is_chosen(db, api_client):
    body = {"username": "zoe", "email": "zoe@example.test", "password": "s3cret-Pass!"}
    response = api_client.post("/api/v1/auth/register", body, format="json",
                               HTTP_ACCEPT_LANGUAGE="fr-CA")
    assert response.status_code == 201, response.content
    assert response.json()["user"]["language"] == "fr"
    chosen = {**body, "username": "yan", "email": "yan@example.test", "language": "de"}
    response = api_client.post("/api/v1/auth/register", chosen, format="json",
                               HTTP_ACCEPT_LANGUAGE="fr")
    assert response.json()["user"]["language"] == "de"


def test_clearing_the_saved_language_returns_to_accept_language(alice, alice_client):
    set_language(alice, "de")
    response = alice_client.patch("/api/v1/me", {"language": ""}, format="json")
    assert response.status_code == 200, response.content
    alice.refresh_from_db()
    assert alice.language == ""
    response = alice_client.get("/api/v1/me", HTTP_ACCEPT_LANGUAGE="fr")
    assert response["Content-Language"] == "fr"
