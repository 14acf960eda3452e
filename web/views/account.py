"""Sign up, sign in, sign out, settings and the language switcher."""

from __future__ import annotations

from django.conf import settings
from django.contrib.auth import login, logout
from django.contrib.auth.decorators import login_required
from django.http import HttpRequest, HttpResponse, HttpResponseRedirect
from django.shortcuts import redirect, render
from django.utils.translation import get_language
from django.utils.translation import gettext as _
from django.views.decorators.http import require_http_methods, require_POST
from rest_framework.exceptions import ValidationError

from accounts import services
from accounts.api.serializers import RegisterInputSerializer, UserSerializer
from accounts.models import Language, TurnEmails
from accounts.validators import DISPLAY_NAME_MAX_LENGTH
from config.errors import ApiError
from games.notifications.services import push
from social import selectors as social_selectors
from social import services as social_services
from web.views.common import SignedInRequest, field_errors, safe_next, throttled

BACKEND = "django.contrib.auth.backends.ModelBackend"


@require_http_methods(["GET", "POST"])
def signup(request: HttpRequest) -> HttpResponse:
    errors: dict[str, list[str]] = {}
    status = 200
    values = {"username": "", "email": ""}
    if request.method == "POST":
        values = {k: request.POST.get(k, "").strip() for k in ("username", "email")}
        data = RegisterInputSerializer(
            data={**values, "password": request.POST.get("password", "")}
        )
        if throttled(request, "register"):
            errors = {"general": [_("Too many attempts. Please wait a minute and try again.")]}
            status = 429
        else:
            try:
                data.is_valid(raise_exception=True)
                fields = dict(data.validated_data)
                fields.setdefault("language", get_language() or "en")
                user, _key = services.register_user(**fields, device=None)  # a session
            except ValidationError as exc:
                errors = field_errors(exc.detail)
            except ApiError as exc:
                errors = field_errors(exc.details or exc.message)
            else:
                login(request, user, backend=BACKEND)
                return redirect(safe_next(request, "/"))
    if errors and status == 200:
        status = 400
    context = {"errors": errors, "values": values, "next": safe_next(request, "")}
    return render(request, "web/signup.html", context, status=status)


@require_http_methods(["GET", "POST"])
def signin(request: HttpRequest) -> HttpResponse:
    error = ""
    status = 200
    username = ""
    if request.method == "POST":
        username = request.POST.get("username", "").strip()
        password = request.POST.get("password", "")
        status = 400
        if throttled(request, "login"):
            error = _("Too many attempts. Please wait a minute and try again.")
            status = 429
        else:
            user = services.check_credentials(username=username, password=password)
            if user is None:
                error = _("Unable to log in with these credentials.")
            elif not user.is_active:
                error = _("This account is suspended.")
            else:
                login(request, user, backend=BACKEND)
                return redirect(safe_next(request, "/"))
    context = {"error": error, "username": username, "next": safe_next(request, "")}
    return render(request, "web/signin.html", context, status=status if error else 200)


@require_POST
def signout(request: HttpRequest) -> HttpResponse:
    push.forget_session(request.session.session_key)  # this browser's push subscription
    logout(request)
    return redirect("web:home")


@login_required
@require_http_methods(["GET", "POST"])
def account_settings(request: SignedInRequest) -> HttpResponse:
    user = request.user
    errors: dict[str, list[str]] = {}
    if request.method == "POST":
        data = {
            "email": request.POST.get("email", "").strip(),
            "display_name": request.POST.get("display_name", "").strip(),
            "language": request.POST.get("language", ""),
            "turn_emails": request.POST.get("turn_emails", ""),
            "reminder_emails": request.POST.get("reminder_emails") == "on",
            "result_emails": request.POST.get("result_emails") == "on",
        }
        form = UserSerializer(user, data=data, partial=True)
        try:
            form.is_valid(raise_exception=True)
            services.update_profile(user=user, **form.validated_data)
            push.update_settings(user_id=user.pk, **{
                name: request.POST.get(f"push_{name}") == "on" for name in push.SETTINGS_FIELDS
            })
        except ValidationError as exc:
            errors = field_errors(exc.detail)
        except ApiError as exc:
            errors = field_errors(exc.details or exc.message)
        else:
            # Redirect: the next page answers in the language just chosen, and a reload does
            # not post the form again.
            return redirect(f"{request.path}?saved=1")
    saved = request.GET.get("saved") == "1"
    context = {
        "errors": errors,
        "saved": saved,
        "resent": request.GET.get("resent", ""),
        "display_name_max": DISPLAY_NAME_MAX_LENGTH,
        "language_choices": Language.choices,
        "turn_email_choices": TurnEmails.choices,
        "blocked": social_selectors.blocked_players(user=user),
        "social": social_services.settings.settings_of(user.pk),
        "push": push.settings_of(user.pk),
        # `make run` sends game emails to unconfirmed addresses too: the page says which
        "unverified_gets_game_emails": not settings.ACCOUNT_REQUIRE_VERIFIED_EMAIL,
    }
    return render(request, "web/settings.html", context, status=400 if errors else 200)


@require_POST
def set_language(request: HttpRequest) -> HttpResponse:
    """The switcher: a cookie for everyone, and the saved language of a signed-in player (their
    emails follow it too)."""
    code = request.POST.get("language", "")
    response = HttpResponseRedirect(safe_next(request, "/"))
    if code not in {c for c, _name in settings.LANGUAGES}:
        return response
    if request.user.is_authenticated:
        services.update_profile(user=request.user, language=code)
    response.set_cookie(
        settings.LANGUAGE_COOKIE_NAME,
        code,
        max_age=365 * 24 * 3600,
        samesite="Lax",
        secure=settings.SESSION_COOKIE_SECURE,
    )
    return response
