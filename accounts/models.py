from django.contrib.auth.models import AbstractUser
from django.db import models
from django.utils.translation import gettext_lazy as _


class Language(models.TextChoices):
    EN = "en", "English"
    DE = "de", "Deutsch"
    FR = "fr", "Français"
    PT_BR = "pt-br", "Português (Brasil)"


def normalize_language(code: str) -> str:
    """Language codes as stored: lower case with '-' (pt-BR, pt_br, PT-br -> "pt-br")."""
    return code.strip().lower().replace("_", "-")


class TurnEmails(models.TextChoices):
    OFF = "off", _("Off")
    EACH = "each", _("Each turn")
    DIGEST = "digest", _("Hourly digest")  # at most one email an hour


class User(AbstractUser):
    display_name = models.CharField(_("display name"), max_length=150, blank=True)
    # Empty means "not chosen": requests are then answered in their Accept-Language.
    language = models.CharField(
        _("language"), max_length=8, choices=Language.choices, blank=True, default=""
    )
    turn_emails = models.CharField(
        _("turn emails"), max_length=8, choices=TurnEmails.choices, default=TurnEmails.EACH
    )
    reminder_emails = models.BooleanField(_("reminder emails"), default=True)
    result_emails = models.BooleanField(_("result emails"), default=True)

    @property
    def public_name(self) -> str:
        return self.display_name or self.username
