"""Account emails (plain text + HTML, in the account's language): confirm an address, reset a
password, a moderator's warning. They go to the address as it is, verified or not: they are
how an address gets verified, or recovered. Game emails are ``games.notifications``'."""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from django.conf import settings
from django.template.loader import render_to_string
from django.utils import translation
from django.utils.translation import gettext_lazy as _

from accounts import links
from accounts.validators import single_line
from config import mail

if TYPE_CHECKING:
    from accounts.models import User

LANGUAGES = ("en", "de", "fr", "pt-br")
VERIFY, RESET, WARNING = "verify_email", "reset_password", "warning"
KINDS = (VERIFY, RESET, WARNING)

TEXTS = {
    "greeting": _("Hello {name},"),
    "subject_verify_email": _("Confirm your email address for Crazy10s Online"),
    "verify_email": _(
        "Please confirm that {email} is your address: open the link below within {days} "
        "days. Until then we send you no game emails (turns, reminders, invitations, digests)."
    ),
    # ACCOUNT_REQUIRE_VERIFIED_EMAIL off (`make run`): game emails go to the address already
    "verify_email_not_required": _(
        "Please confirm that {email} is your address: open the link below within {days} "
        "days. This server already sends game emails (turns, reminders, invitations, digests) "
        "to it, confirmed or not."
    ),
    "action_verify_email": _("Confirm my email address"),
    "footer_verify_email": _(
        "If you did not sign up on Crazy10s Online with this address, ignore this email."
    ),
    "subject_reset_password": _("Reset your Crazy10s Online password"),
    "reset_password": _(
        "Someone, hopefully you, asked to reset the password of the account {username}. Open "
        "the link below within one hour to choose a new password; it works once. Every device "
        "signed in to the account is then signed out."
    ),
    "action_reset_password": _("Choose a new password"),
    "footer_reset_password": _(
        "If you did not ask for this, ignore this email: your password stays as it is."
    ),
    "subject_warning": _("A warning from the Crazy10s Online moderators"),
    "warning": _(
        "A moderator reviewed a report about your account. Please keep to the rules and treat "
        "other players with respect; further reports may lead to a suspension."
    ),
    "warning_note": _("The moderator's note: {note}"),
    "footer_warning": _("You receive this email because you play on Crazy10s Online."),
}


def text(language: str, key: str, **fields: object) -> str:
    with translation.override(language if language in LANGUAGES else "en"):
        return str(TEXTS[key]).format(**fields)


def content(kind: str, user: User, **extra: Any) -> dict[str, Any]:
    language = (user.language or "en").lower()
    if language not in LANGUAGES:
        language = "en"
    parts: dict[str, Any] = {
        "language": language,
        "subject": text(language, f"subject_{kind}"),
        "greeting": text(language, "greeting", name=user.public_name),
        "footer": text(language, f"footer_{kind}"),
        "action_url": None,
        "action_label": "",
    }
    if kind == VERIFY:
        parts["paragraphs"] = [
            text(language,
                 VERIFY if settings.ACCOUNT_REQUIRE_VERIFIED_EMAIL else "verify_email_not_required",
                 email=user.email, days=settings.ACCOUNT_VERIFY_EMAIL_DAYS)
        ]
        parts["action_url"] = links.url(links.VERIFY_EMAIL, user)
    elif kind == RESET:
        parts["paragraphs"] = [text(language, RESET, username=user.username)]
        parts["action_url"] = links.url(links.RESET_PASSWORD, user)
    elif kind == WARNING:
        parts["paragraphs"] = [text(language, WARNING)]
        note = single_line(extra.get("note") or "").strip()
        if note:
            parts["paragraphs"].append(text(language, "warning_note", note=note))
    else:
        raise ValueError(f"unknown account email {kind!r}")
    if parts["action_url"]:
        parts["action_label"] = text(language, f"action_{kind}")
    return parts


def build_message(kind: str, user: User, **extra: Any) -> mail.Email:
    parts = content(kind, user, **extra)
    with translation.override(parts["language"]):
        body = render_to_string("accounts/email.txt", parts)
        html = render_to_string("accounts/email.html", parts)
    message = mail.Email(
        subject=single_line(parts["subject"]),
        body=body,
        from_email=settings.DEFAULT_FROM_EMAIL,
        to=[user.email],
        # The same headers as game emails carry (mail filters, the tests' inbox): no user id.
        headers=mail.headers(
            mail.reference(f"account-{kind}:{user.pk}", f"account-{kind}"),
            **{"Content-Language": parts["language"]},
        ),
    )
    message.attach_alternative(html, "text/html")
    return message
