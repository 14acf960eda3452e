"""A turn email in each language: subject and body differ, and each carries the game link."""

from __future__ import annotations

import pytest

from games.notifications import emails, services

LANGUAGES = ("en", "de", "fr", "pt-br")
GREETING = {"en": "Hello Bob,", "de": "Hallo Bob,", "fr": "Bonjour Bob,", "pt-br": "Olá, Bob,"}
OPEN_GAME = {"en": "Open the game", "de": "Partie öffnen", "fr": "Ouvrir la partie",
             "pt-br": "Abrir a partida"}


@pytest.fixture
def queued_sends(monkeypatch):
    sent: list[int] = []
    monkeypatch.setattr("games.notifications.services._common._enqueue_send", sent.append)
    return sent


@pytest.fixture
def bobs_turn(human_game, alice, queued_sends):
    """Alice opened; the notification of Bob's turn (not yet sent)."""
    from games import services as game_services

    game_services.submit_move(
        game_id=human_game.pk, user=alice, move="g7=5 h7=5", expected_move_number=0
    )
    return services.notify_turn(game_id=human_game.pk, seat_index=1, move_number=1)


def turn_email(notification, language):
    notification.user.language = language  # rendering reads the recipient's saved language
    return emails.build_message(notification)


def test_turn_email_in_each_language(bobs_turn, human_game):
    link = emails.game_url(human_game.pk)
    rendered = {language: turn_email(bobs_turn, language) for language in LANGUAGES}
    for language, message in rendered.items():
        html, mimetype = message.alternatives[0]
        assert mimetype == "text/html"
        assert message.extra_headers["Content-Language"] == language
        assert GREETING[language] in message.body
        assert link in message.body and link in html
        assert OPEN_GAME[language] in html
        assert str(human_game.pk) in message.subject and "Alice" in message.subject
        assert "g7=5 h7=5" in message.body  # the opponent's last move, public notation
    assert len({m.subject for m in rendered.values()}) == len(LANGUAGES)
    assert len({m.body for m in rendered.values()}) == len(LANGUAGES)
    assert len({m.alternatives[0][0] for m in rendered.values()}) == len(LANGUAGES)
    assert rendered["de"].subject == f"Du bist am Zug in Partie #{human_game.pk} gegen Alice"


def test_no_saved_language_means_english(bobs_turn, human_game):
    message = turn_email(bobs_turn, "")
    assert message.subject == f"Your turn in game #{human_game.pk} against Alice"
    assert message.extra_headers["Content-Language"] == "en"


def test_computer_opponent_is_named_in_the_recipient_s_language(alice, ai_queue, fixed_seed):
    from games import services as game_services

    game = game_services.create_game(user=alice, opponent={"ai": "beginner"})
    computer = game.seats.get(index=1)
    names = {language: emails._player_name(computer, language) for language in LANGUAGES}
    assert names == {
        "en": "Computer (Beginner)", "de": "Computer (Anfänger)",
        "fr": "Ordinateur (Débutant)", "pt-br": "Computador (Iniciante)",
    }
