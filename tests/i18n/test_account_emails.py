"""Account emails in each language: subject, text and HTML are translated and carry the link."""

from __future__ import annotations

import pytest

from accounts import emails

LANGUAGES = ("en", "de", "fr", "pt-br")
GREETING = {"en": "Hello Bob,", "de": "Hallo Bob,", "fr": "Bonjour Bob,", "pt-br": "Olá, Bob,"}
PAGES = {emails.VERIFY: "/account/verify-email?token=",
         emails.RESET: "/account/reset-password?token=", emails.WARNING: None}


@pytest.mark.django_db
@pytest.mark.parametrize("kind", emails.KINDS)
def test_account_email_in_each_language(bob, settings, kind):
    settings.SITE_BASE_URL = "https://c10s.example"
    rendered = {}
    for language in LANGUAGES:
        bob.language = language
        rendered[language] = emails.build_message(kind, bob, note="Be nice.")
    subjects = {m.subject for m in rendered.values()}
    bodies = {m.body for m in rendered.values()}
    assert len(subjects) == len(bodies) == 4  # four different languages
    for language, message in rendered.items():
        html = message.alternatives[0][0]
        assert message.to == ["bob@example.test"]
        assert message.body.startswith(GREETING[language]) and GREETING[language] in html
        assert f'lang="{language}"' in html
        page = PAGES[kind]
        if page:
            assert f"https://c10s.example{page}" in message.body
            assert f"https://c10s.example{page}" in html
        else:
            assert "Be nice." in message.body and "Be nice." in html
        for text in (message.subject, message.body):
            assert "{" not in text  # every placeholder filled in
