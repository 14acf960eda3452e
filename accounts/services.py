"""Account writes (keyword-only, called by views, admin and commands)."""

import unicodedata

from django.db import IntegrityError, transaction
from django.db.models import Q, QuerySet
from django.utils.translation import gettext as _
from rest_framework.authtoken.models import Token

from accounts import usernames
from accounts.models import User
from config.errors import ApiError


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
    return users.exclude(pk=exclude_pk).exists()


def email_taken(email: str, *, exclude_pk: int | None = None) -> bool:
    key = usernames.canonical_email(email)
    if key is None:
        return False
    return User.objects.filter(email_canonical=key).exclude(pk=exclude_pk).exists()


@transaction.atomic
def register_user(
    *, username: str, email: str, password: str, language: str = "en"
) -> tuple[User, Token]:
    user = User(username=unicodedata.normalize("NFKC", username), email=email, language=language)
    user.set_password(password)
    try:
        with transaction.atomic():  # a savepoint: the checks above raced another registration
            user.save()
    except IntegrityError as exc:
        raise taken("email" if "email" in str(exc) else "username") from exc
    token = Token.objects.create(user=user)
    return user, token


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


def issue_token(*, user: User) -> Token:
    token, _ = Token.objects.get_or_create(user=user)
    return token


@transaction.atomic
def suspend_users(*, queryset: QuerySet[User]) -> int:
    ids = list(queryset.values_list("pk", flat=True))
    updated = User.objects.filter(pk__in=ids).update(is_active=False)
    Token.objects.filter(user_id__in=ids).delete()
    return updated


# What a player may change about their own account (the settings page, PATCH me's fields).
PROFILE_FIELDS = frozenset(
    {"email", "display_name", "language", "turn_emails", "reminder_emails", "result_emails"}
)


@transaction.atomic
def update_profile(*, user: User, **fields) -> User:
    """Save already validated profile fields on ``user`` (locked, so two tabs saving at once do
    not interleave); ``email_taken`` (409) when the address belongs to another account."""
    unknown = set(fields) - PROFILE_FIELDS
    if unknown:
        raise TypeError(f"not profile fields: {sorted(unknown)}")
    locked = User.objects.select_for_update().get(pk=user.pk)
    if "email" in fields and email_taken(fields["email"], exclude_pk=user.pk):
        raise taken("email")
    for name, value in fields.items():
        setattr(locked, name, value)
    try:
        with transaction.atomic():
            locked.save()
    except IntegrityError as exc:
        raise taken("email") from exc
    for name, value in fields.items():
        setattr(user, name, value)
    return locked
