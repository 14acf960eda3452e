import secrets

from django.conf import settings
from django.contrib.auth.models import AbstractUser
from django.core.exceptions import ValidationError
from django.db import models
from django.utils.translation import gettext
from django.utils.translation import gettext_lazy as _
from knox.models import AbstractAuthToken

from accounts import usernames
from accounts.validators import refuse_control_characters


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


def new_unsubscribe_key() -> str:
    return secrets.token_urlsafe(16)


class User(AbstractUser):
    display_name = models.CharField(
        _("display name"), max_length=150, blank=True, validators=[refuse_control_characters]
    )
    # Empty means "not chosen": requests are then answered in their Accept-Language.
    language = models.CharField(
        _("language"), max_length=8, choices=Language.choices, blank=True, default=""
    )
    turn_emails = models.CharField(
        _("turn emails"), max_length=8, choices=TurnEmails.choices, default=TurnEmails.EACH
    )
    reminder_emails = models.BooleanField(_("reminder emails"), default=True)
    result_emails = models.BooleanField(_("result emails"), default=True)

    # Derived from username/email on save (accounts.usernames). Login looks the canonical name
    # up; the skeleton and the email key are unique, except for accounts that collided before
    # they existed (None: reported by migration 0004, never merged).
    username_canonical = models.CharField(max_length=150, db_index=True, editable=False)
    username_skeleton = models.CharField(max_length=150, null=True, unique=True, editable=False)
    email_canonical = models.CharField(max_length=254, null=True, unique=True, editable=False)
    # Unsubscribe links name the account by this random key, never by its id.
    unsubscribe_key = models.CharField(
        max_length=32, unique=True, default=new_unsubscribe_key, editable=False
    )
    # Game emails (turns, reminders, invitations, digests) go only to a verified address
    # (games.notifications decides that in one place). A new address starts unverified.
    email_verified = models.BooleanField(_("email verified"), default=False)
    # Set when the player deleted the account (anonymised; the row stays for their opponents'
    # finished games). The username is freed ACCOUNT_USERNAME_HOLD_DAYS later.
    deleted_at = models.DateTimeField(_("deleted at"), null=True, blank=True, editable=False)

    def clean(self) -> None:
        # Forms (the admin) check what the unique indexes on the derived fields would refuse,
        # so a look-alike name is a form error there rather than an IntegrityError.
        super().clean()
        others = type(self)._default_manager.exclude(pk=self.pk)
        errors = {}
        if (self._state.adding or self.username_skeleton is not None) and others.filter(
            username_skeleton=usernames.skeleton(self.username)
        ).exists():
            errors["username"] = _("A user with that username already exists.")
        email = usernames.canonical_email(self.email)
        if (
            email is not None
            and (self._state.adding or self.email_canonical is not None)
            and others.filter(email_canonical=email).exists()
        ):
            errors["email"] = _("A user with that email already exists.")
        if errors:
            raise ValidationError(errors)

    def save(self, *args, **kwargs) -> None:
        self.username_canonical = usernames.canonical(self.username)
        # A legacy collision (None) stays outside the unique index until it is renamed.
        if self._state.adding or self.username_skeleton is not None:
            self.username_skeleton = usernames.skeleton(self.username)
        if self._state.adding or self.email_canonical is not None or not self.email:
            self.email_canonical = usernames.canonical_email(self.email)
        update_fields = kwargs.get("update_fields")
        if update_fields is not None:
            derived = {
                "username": ("username_canonical", "username_skeleton"),
                "email": ("email_canonical",),
            }
            extra = [f for name, fs in derived.items() if name in update_fields for f in fs]
            kwargs["update_fields"] = {*update_fields, *extra}
        super().save(*args, **kwargs)

    @property
    def public_name(self) -> str:
        if self.deleted_at is not None:
            # Stored in English for the admin ("deleted player N"); read in the reader's language.
            return gettext("deleted player %(number)s") % {"number": self.pk}
        return self.display_name or self.username


class Device(AbstractAuthToken):
    """One sign-in: a token (knox: only its SHA-512 digest is stored) named after the device or
    client that asked for it, with the time it was last used. Its expiry moves on with each use
    (``REST_KNOX["TOKEN_TTL"]`` after the last one)."""

    id = models.BigAutoField(primary_key=True)
    # Knox makes the digest the primary key; here it is only unique, so that a device has a
    # short id to show and revoke (``DELETE me/devices/{id}``) that says nothing of the key.
    digest = models.CharField(max_length=128, unique=True)
    user = models.ForeignKey(
        settings.AUTH_USER_MODEL, on_delete=models.CASCADE, related_name="auth_token_set"
    )
    name = models.CharField(_("device"), max_length=100, blank=True)
    last_used = models.DateTimeField(_("last used"), null=True, blank=True)

    class Meta:
        verbose_name = _("device")
        ordering = ["-created", "-id"]

    def __str__(self) -> str:
        return f"{self.name or '?'} ({self.user_id})"
