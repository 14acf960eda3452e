"""What every email of the service carries, as mail systems expect of automatic mail.

- ``Message-ID`` in the site's own domain (``SITE_BASE_URL``'s host), not the sending machine's
  name (a container id, ``localhost``);
- ``Auto-Submitted: auto-generated`` (RFC 3834) and Microsoft's ``X-Auto-Response-Suppress``:
  no vacation replies or auto-answers back to a no-reply sender;
- ``X-Crazy10s-Notification``: what the email is (its kind, the game and move it is about) for
  mail filters, and an opaque reference (a keyed digest of the internal key) that tells two
  emails apart but carries no internal user id;
- a subject encoded so that no mail client shows it with a leading space: Python folds a long
  RFC 2047 word onto a line of its own after ``Subject:``, which parsers read back as " Best…"
  (German subjects did), so the words are kept short enough to stay on the first line.
"""

from __future__ import annotations

from email.header import Header
from email.utils import make_msgid
from urllib.parse import urlparse

from django.conf import settings
from django.core.mail import EmailMultiAlternatives
from django.utils.crypto import salted_hmac


def site_domain() -> str:
    return urlparse(settings.SITE_BASE_URL).hostname or "localhost"


def reference(private_key: str, *public_parts: object) -> str:
    """``kind:game:move:<digest>``-like: the public parts as given, then 16 hex characters
    keyed on SECRET_KEY from ``private_key`` (which may hold user ids)."""
    digest = salted_hmac("crazy10s.mail.reference", private_key).hexdigest()[:16]
    return ":".join([*(str(part) for part in public_parts), digest])


def encoded_subject(subject: str) -> str | None:
    """A non-ASCII ``subject`` as RFC 2047 words that each fit a line together with the
    ``Subject:`` name (joined by spaces, which decoders drop between encoded words); None for
    ASCII, which Django folds well."""
    try:
        subject.encode("ascii")
    except UnicodeEncodeError:
        return Header(subject, "utf-8", header_name="Subject").encode(linesep=" ")
    return None


class Email(EmailMultiAlternatives):
    """Django's message (``subject`` stays the plain text) with the subject encoded as above."""

    def message(self):
        message = super().message()
        encoded = encoded_subject(str(self.subject))
        if encoded is not None:
            # Past Django's header check (already done on the text: no line breaks).
            message.replace_header("Subject", encoded)
        return message


def headers(reference_value: str, **extra: str) -> dict[str, str]:
    return {
        "Message-ID": make_msgid(domain=site_domain()),
        "Auto-Submitted": "auto-generated",
        "X-Auto-Response-Suppress": "OOF, AutoReply",
        "X-Crazy10s-Notification": reference_value,
        **extra,
    }
