"""Account writes (keyword-only, called by views, admin and commands)."""

from django.db import transaction
from django.db.models import QuerySet
from rest_framework.authtoken.models import Token

from accounts.models import User


@transaction.atomic
def register_user(
    *, username: str, email: str, password: str, language: str = "en"
) -> tuple[User, Token]:
    user = User(username=username, email=email, language=language)
    user.set_password(password)
    user.save()
    token = Token.objects.create(user=user)
    return user, token


def issue_token(*, user: User) -> Token:
    token, _ = Token.objects.get_or_create(user=user)
    return token


@transaction.atomic
def suspend_users(*, queryset: QuerySet[User]) -> int:
    ids = list(queryset.values_list("pk", flat=True))
    updated = User.objects.filter(pk__in=ids).update(is_active=False)
    Token.objects.filter(user_id__in=ids).delete()
    return updated
