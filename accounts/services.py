"""Account writes (keyword-only, called by views, admin, tasks and commands).

Each write locks the user row, checks the state it expects, saves, and leaves its side effects
(emails) to ``transaction.on_commit`` through ``games.dispatch``. Refusals raise ``ApiError``
before anything is written.
"""

from __future__ import annotations

import unicodedata
from datetime import timedelta

from django.conf import settings
from django.contrib.auth.password_validation import validate_password
from django.core.exceptions import ValidationError as DjangoValidationError
from django.db import IntegrityError, transaction
from django.db.models import Q, QuerySet
from django.utils import timezone
from django.utils.translation import gettext as _

from accounts import emails, links, tokens, usernames
from accounts.models import Device, User
from config.errors import ApiError
from games import dispatch
from games import services as game_services
from games.models import Game, Seat
from games.moderation import reports
from games.notifications.services import push
from games.tables import services as tables
from games.tables.models import Table


def username_taken_message() -> str:
    return _("A user with that username already exists.")


def email_taken_message() -> str:
    return _("A user with that email already exists.")


def taken(field: str) -> ApiError:
    """409 ``username_taken`` / ``email_taken``: the request was valid, the name is in use."""
    message = email_taken_message() if field == "email" else username_taken_message()
    return ApiError(f"{field}_taken", message, status=409, details={field: [message]})


def username_taken(username: str, *, exclude_pk: int | None = None) -> bool:
    """Is ``username``, or a look-alike of it (any case, ``р22`` for ``p22``), in use?"""
    users = User.objects.filter(username_skeleton=usernames.skeleton(username))
    if exclude_pk is not None:
        users = users.exclude(pk=exclude_pk)
    return users.exists()


def email_taken(email: str, *, exclude_pk: int | None = None) -> bool:
    key = usernames.canonical_email(email)
    if key is None:
        return False
    users = User.objects.filter(email_canonical=key)
    if exclude_pk is not None:
        users = users.exclude(pk=exclude_pk)
    return users.exists()


@transaction.atomic
def register_user(
    *, username: str, email: str, password: str, language: str = "en",
    device: str | None = "unknown",
) -> tuple[User, str | None]:
    """The new account and the key of its first device token (none for ``device=None``: the web
    client signs in with a session); a verification email follows."""
    user = User(username=unicodedata.normalize("NFKC", username), email=email, language=language)
    user.set_password(password)
    try:
        with transaction.atomic():  # a savepoint: the checks above raced another registration
            user.save()
    except IntegrityError as exc:
        raise taken("email" if "email" in str(exc) else "username") from exc
    key = None if device is None else tokens.issue(user=user, name=device)[1]
    if user.email:
        dispatch.enqueue_account_email_on_commit(emails.VERIFY, user.pk)
    return user, key


def _login_candidate(username: str) -> User | None:
    """The account a login names: the exact username, else the one with its canonical form
    (``ALICE`` logs in as ``alice``). Accounts that collided before canonical names existed
    share a form; only the exact spelling reaches those."""
    canonical = usernames.canonical(username)
    found = list(
        User.objects.filter(Q(username=username) | Q(username_canonical=canonical)).order_by("pk")[
            :3
        ]
    )
    exact = [u for u in found if u.username == username]
    if exact:
        return exact[0]
    return found[0] if len(found) == 1 else None


def check_credentials(*, username: str, password: str) -> User | None:
    """The account if the password is right (suspended accounts too: the caller refuses them
    after the password check). Exactly one password hash is computed whatever the outcome, so
    the time taken does not tell whether the account exists (as Django's ModelBackend does)."""
    user = _login_candidate(username)
    if user is None or not user.has_usable_password():
        User().set_password(password)  # the same work as checking a real hash
        return None
    return user if user.check_password(password) else None


def issue_token(*, user: User, device: str = "unknown") -> str:
    """A new token for one sign-in (each sign-in is a device of its own)."""
    _, key = tokens.issue(user=user, name=device)
    return key


@transaction.atomic
def suspend_users(*, queryset: QuerySet[User]) -> int:
    ids = list(queryset.values_list("pk", flat=True))
    updated = User.objects.filter(pk__in=ids).update(is_active=False)
    Device.objects.filter(user_id__in=ids).delete()
    return updated


def _lock(user_id: int) -> User:
    return User.objects.select_for_update().get(pk=user_id)


def wrong_password() -> ApiError:
    return ApiError(
        "wrong_password", _("The password is not right."),
        details={"password": [_("The password is not right.")]},
    )


def check_new_password(password: str, user: User) -> None:
    """Django's validators (length, common, numeric, like the name): ``weak_password``."""
    try:
        validate_password(password, user=user)
    except DjangoValidationError as exc:
        raise ApiError(
            "weak_password", _("Choose another password."),
            details={"new_password": list(exc.messages)},
        ) from exc


# --- profile and email verification -----------------------------------------------------------
# What a player may change about their own account (the settings page, PATCH me's fields).
PROFILE_FIELDS = frozenset(
    {"email", "display_name", "language", "turn_emails", "reminder_emails", "result_emails"}
)


def update_profile(*, user: User, **fields) -> User:
    """Save already validated profile fields on ``user`` (locked, so two tabs saving at once do
    not interleave); ``email_taken`` (409) when the address belongs to another account. A new
    address starts unverified and gets a verification email."""
    unknown = set(fields) - PROFILE_FIELDS
    if unknown:
        raise TypeError(f"not profile fields: {sorted(unknown)}")
    with transaction.atomic():
        locked = _lock(user.pk)
        if "email" in fields and email_taken(fields["email"], exclude_pk=user.pk):
            raise taken("email")
        old_email = usernames.canonical_email(locked.email)
        for name, value in fields.items():
            setattr(locked, name, value)
        changed = "email" in fields and usernames.canonical_email(locked.email) != old_email
        if changed:
            locked.email_verified = False
        try:
            with transaction.atomic():
                locked.save()
        except IntegrityError as exc:
            raise taken("email") from exc
        if changed and locked.email:
            dispatch.enqueue_account_email_on_commit(emails.VERIFY, locked.pk)
        for name in (*fields, "email_verified"):
            setattr(user, name, getattr(locked, name))
        return locked


def verify_email(*, token: str) -> User:
    """The link's account gets its address verified; expired, forged or used links change
    nothing (``link_expired``, ``link_invalid``, ``link_used``)."""
    user_id = links.user_id_of(links.VERIFY_EMAIL, token)
    with transaction.atomic():
        user = links.check(
            links.VERIFY_EMAIL, token, User.objects.select_for_update().filter(pk=user_id).first()
        )
        if user.email_verified or not user.is_active:
            raise links.link_used()
        user.email_verified = True
        user.save(update_fields=["email_verified"])
        return user


def already_verified() -> ApiError:
    return ApiError("already_verified", _("Your email address is already verified."), status=409)


def resend_verification(*, user_id: int) -> None:
    with transaction.atomic():
        user = _lock(user_id)
        if not user.email:
            raise ApiError("no_email", _("Your account has no email address."), status=409)
        if user.email_verified:
            raise already_verified()
        dispatch.enqueue_account_email_on_commit(emails.VERIFY, user.pk)


def send_account_email(*, kind: str, user_id: int, extra: dict | None = None) -> bool:
    """(worker) Build and send one account email; False if there is nobody to send it to."""
    user = User.objects.filter(pk=user_id, is_active=True).first()
    if kind == emails.WARNING:
        user = User.objects.filter(pk=user_id).first()
    if user is None or not user.email:
        return False
    if kind == emails.VERIFY and user.email_verified:
        return False
    emails.build_message(kind, user, **(extra or {})).send()
    return True


# --- passwords ---------------------------------------------------------------------------------
def change_password(
    *, user_id: int, current_password: str, new_password: str, keep: Device | None
) -> User:
    """With the current password: every other device (and session) is signed out."""
    with transaction.atomic():
        user = _lock(user_id)
        if not user.check_password(current_password):
            raise wrong_password()
        check_new_password(new_password, user)
        user.set_password(new_password)
        user.save(update_fields=["password"])
        others = Device.objects.filter(user=user)
        if keep is not None:
            others = others.exclude(pk=keep.pk)
        others.delete()
        return user


def request_password_reset(*, email: str) -> None:
    """Queue the lookup and the email: the request does the same for any address."""
    dispatch.enqueue_password_reset(email)


def send_password_reset(*, email: str) -> bool:
    """(worker) Mail a reset link if an active account has this address."""
    key = usernames.canonical_email(email)
    user = None
    if key is not None:
        user = User.objects.filter(email_canonical=key, is_active=True).first()
    if user is None:
        return False
    emails.build_message(emails.RESET, user).send()
    return True


def reset_password(*, token: str, new_password: str) -> User:
    """A reset link sets a new password once; every device and session is signed out."""
    user_id = links.user_id_of(links.RESET_PASSWORD, token)
    with transaction.atomic():
        user = links.check(
            links.RESET_PASSWORD, token, User.objects.select_for_update().filter(pk=user_id).first()
        )
        check_new_password(new_password, user)
        user.set_password(new_password)
        # The link reached the address: it is the owner's.
        user.email_verified = True
        user.save(update_fields=["password", "email_verified"])
        Device.objects.filter(user=user).delete()
        return user


# --- devices -----------------------------------------------------------------------------------
def device_not_found() -> ApiError:
    return ApiError("device_not_found", _("No such device."), status=404)


def revoke_device(*, user_id: int, device_id: int) -> None:
    deleted, _ = Device.objects.filter(user_id=user_id, pk=device_id).delete()
    if not deleted:
        raise device_not_found()


def revoke_all_devices(*, user_id: int) -> int:
    deleted, _ = Device.objects.filter(user_id=user_id).delete()
    return deleted


def sign_out(*, device: Device) -> None:
    """Logout: this device only."""
    Device.objects.filter(pk=device.pk).delete()


# --- leaving for good --------------------------------------------------------------------------
def delete_account(*, user_id: int, password: str) -> User:
    """Anonymise the account (name "deleted player N", no email, no password, no tokens),
    resign its running games and leave its tables; finished games stay for the opponents. The
    username is freed ``ACCOUNT_USERNAME_HOLD_DAYS`` later (``free_usernames``)."""
    with transaction.atomic():
        user = _lock(user_id)
        if user.deleted_at is not None or not user.check_password(password):
            raise wrong_password()
        _leave_games(user)
        # Stored in English for the admin; players read it in their language (public_name).
        user.display_name = f"deleted player {user.pk}"
        user.email = ""
        user.email_verified = False
        user.set_unusable_password()
        user.is_active = False
        user.deleted_at = timezone.now()
        user.first_name = user.last_name = ""
        user.turn_emails = "off"
        user.reminder_emails = user.result_emails = False
        user.save()
        Device.objects.filter(user=user).delete()
        push.forget_user(user.pk)
        return user


def _leave_games(user: User) -> None:
    seated = Table.objects.filter(
        Q(seats__user=user) | Q(game__seats__user=user), status__in=["open", "dealt"]
    ).distinct()
    table_games = set()
    for table in seated:
        try:
            tables.leave(user=user, code=table.code)
        except ApiError:
            pass  # not seated any more (left meanwhile): nothing to leave
        if table.game_id:
            table_games.add(table.game_id)
    running = Seat.objects.filter(
        user=user, game__status__in=[Game.Status.WAITING, Game.Status.ACTIVE]
    ).exclude(game_id__in=table_games)
    for game_id in running.order_by("game_id").values_list("game_id", flat=True):
        try:
            game_services.resign(game_id=game_id, user=user)
        except ApiError:
            pass  # it ended meanwhile


def free_usernames(*, now=None) -> int:
    """Deleted accounts past the hold: their username becomes ``deleted:<id>`` (free again;
    new usernames cannot contain ":", so it never collides)."""
    now = now or timezone.now()
    cutoff = now - timedelta(days=settings.ACCOUNT_USERNAME_HOLD_DAYS)
    freed = 0
    held = User.objects.filter(deleted_at__lt=cutoff).exclude(username__startswith="deleted:")
    for user_id in held.values_list("pk", flat=True)[:500]:
        with transaction.atomic():
            user = _lock(user_id)
            user.username = f"deleted:{user.pk}"
            user.save(update_fields=["username"])
            freed += 1
    return freed


def purge_expired_devices(*, now=None) -> int:
    deleted, _ = Device.objects.filter(expiry__lt=now or timezone.now()).delete()
    return deleted


# --- reports -----------------------------------------------------------------------------------
def file_report(*, reporter: User, reason: str, text: str, username: str | None = None,
                game_id: int | None = None):
    """A player's report (``games.moderation.reports.file_report``), for the web client, which
    reaches the moderation app only through this."""
    return reports.file_report(reporter=reporter, reason=reason, text=text, username=username,
                               game_id=game_id)
