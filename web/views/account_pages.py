"""Account pages (issue 14): the links of account emails (verify an address, reset a password),
forgot password, change password, devices, report a player or a game, export, delete the
account. Each form calls the same service as its API endpoint (``web.actions``) and shows the
service's refusal (translated ``message``) instead of changing anything."""

from __future__ import annotations

import json
from types import SimpleNamespace
from typing import cast

from django.contrib.auth import logout, update_session_auth_hash
from django.contrib.auth.decorators import login_required
from django.http import HttpRequest, HttpResponse
from django.shortcuts import redirect, render
from django.utils.translation import gettext as _
from django.views.decorators.http import require_http_methods, require_POST
from rest_framework.exceptions import ValidationError
from rest_framework.fields import ChoiceField

from accounts import export, services, tokens
from accounts.api.account_views import ReportInputSerializer
from accounts.api.serializers import (
    ChangePasswordSerializer,
    DeleteAccountSerializer,
    ResetConfirmSerializer,
    ResetRequestSerializer,
)
from accounts.api.throttles import PasswordResetThrottle, UserThrottle
from config.errors import ApiError
from web.views.common import SignedInRequest, field_errors


def _throttled(request: HttpRequest, throttle, scope: str) -> bool:
    """The API's throttle for the same action, so a form is no way around it."""
    shim = SimpleNamespace(META=request.META, data=request.POST, user=request.user)
    return not throttle.allow_request(shim, SimpleNamespace(throttle_scope=scope))


def _too_many() -> dict[str, list[str]]:
    return {"general": [_("Too many attempts. Please wait a minute and try again.")]}


@require_http_methods(["GET"])
def verify_email(request: HttpRequest) -> HttpResponse:
    """The link of the verification email: it verifies on opening (nothing to choose)."""
    error = None
    try:
        services.verify_email(token=request.GET.get("token", ""))
    except ApiError as exc:
        error = exc
    status = error.status if error else 200
    context = {"error": error}
    return render(request, "web/account/verify_email.html", context, status=status)


@login_required
@require_POST
def resend_verification(request: SignedInRequest) -> HttpResponse:
    if _throttled(request, UserThrottle(), "email_resend"):
        return redirect("/settings?resent=throttled")
    try:
        services.resend_verification(user_id=request.user.pk)
    except ApiError:
        return redirect("/settings?resent=no")
    return redirect("/settings?resent=1")


@require_http_methods(["GET", "POST"])
def forgot_password(request: HttpRequest) -> HttpResponse:
    errors: dict[str, list[str]] = {}
    sent = False
    email = ""
    if request.method == "POST":
        email = request.POST.get("email", "").strip()
        data = ResetRequestSerializer(data={"email": email})
        if _throttled(request, PasswordResetThrottle(), "password_reset"):
            errors = _too_many()
        elif not data.is_valid():
            errors = field_errors(data.errors)
        else:
            services.request_password_reset(email=data.validated_data["email"])
            sent = True
    context = {"errors": errors, "sent": sent, "email": email}
    status = 429 if errors.get("general") else 400 if errors else 200
    return render(request, "web/account/forgot_password.html", context, status=status)


@require_http_methods(["GET", "POST"])
def reset_password(request: HttpRequest) -> HttpResponse:
    """The link of the reset email: a form for the new password (opening the link changes
    nothing, so a mail scanner that follows it cannot use it up)."""
    token = request.POST.get("token") or request.GET.get("token", "")
    errors: dict[str, list[str]] = {}
    if request.method == "POST":
        data = ResetConfirmSerializer(
            data={"token": token, "new_password": request.POST.get("new_password", "")}
        )
        try:
            data.is_valid(raise_exception=True)
            services.reset_password(**data.validated_data)
        except ValidationError as exc:
            errors = field_errors(exc.detail)
        except ApiError as exc:
            errors = field_errors(exc.details or exc.message)
            if exc.code.startswith("link_"):
                errors = {"general": [exc.message]}
        else:
            return render(request, "web/account/reset_password.html", {"done": True})
    context = {"token": token, "errors": errors}
    return render(request, "web/account/reset_password.html", context,
                  status=400 if errors else 200)


@login_required
@require_http_methods(["GET", "POST"])
def change_password(request: SignedInRequest) -> HttpResponse:
    errors: dict[str, list[str]] = {}
    if request.method == "POST":
        data = ChangePasswordSerializer(data={
            "current_password": request.POST.get("current_password", ""),
            "new_password": request.POST.get("new_password", ""),
        })
        try:
            data.is_valid(raise_exception=True)
            user = services.change_password(user_id=request.user.pk, keep=None,
                                            **data.validated_data)
        except ValidationError as exc:
            errors = field_errors(exc.detail)
        except ApiError as exc:
            errors = field_errors(exc.details or exc.message)
            if "password" in errors:  # the current one was wrong
                errors["current_password"] = errors.pop("password")
        else:
            update_session_auth_hash(request, user)  # this browser stays signed in
            return redirect("/account/password?changed=1")
    context = {"errors": errors, "changed": request.GET.get("changed") == "1"}
    return render(request, "web/account/change_password.html", context,
                  status=400 if errors else 200)


@login_required
@require_http_methods(["GET", "POST"])
def devices(request: SignedInRequest) -> HttpResponse:
    """The apps and clients signed in with a token (this browser uses a session)."""
    if request.method == "POST":
        if request.POST.get("all"):
            services.revoke_all_devices(user_id=request.user.pk)
            return redirect("/account/devices?revoked=all")
        try:
            services.revoke_device(user_id=request.user.pk,
                                   device_id=int(request.POST.get("device", "0")))
        except (ApiError, ValueError):
            return redirect("/account/devices?revoked=none")
        return redirect("/account/devices?revoked=1")
    listed = tokens.live().filter(user=request.user).order_by("-created", "-id")
    context = {"devices": listed, "revoked": request.GET.get("revoked", "")}
    return render(request, "web/account/devices.html", context)


@login_required
@require_http_methods(["GET", "POST"])
def report(request: SignedInRequest) -> HttpResponse:
    """Report a player (``?player=NAME``) or a game (``?game=ID``)."""
    source = request.POST if request.method == "POST" else request.GET
    target = {"player": source.get("player", "").strip(), "game": source.get("game", "").strip()}
    errors: dict[str, list[str]] = {}
    if request.method == "POST":
        body: dict[str, str | int] = {
            "reason": request.POST.get("reason", ""), "text": request.POST.get("text", "")
        }
        if target["player"]:
            body["player"] = target["player"]
        if target["game"].isdigit():
            body["game"] = int(target["game"])
        data = ReportInputSerializer(data=body)
        try:
            if _throttled(request, UserThrottle(), "reports"):
                raise ApiError("throttled", _("Too many attempts. Please wait a minute and try "
                                              "again."), status=429)
            data.is_valid(raise_exception=True)
            v = data.validated_data
            services.file_report(reporter=request.user, reason=v["reason"], text=v["text"],
                                 username=v.get("player"), game_id=v.get("game"))
        except ValidationError as exc:
            errors = field_errors(exc.detail)
            if "non_field_errors" in errors:
                errors["general"] = errors.pop("non_field_errors")
        except ApiError as exc:
            errors = {"general": [exc.message]}
        else:
            return render(request, "web/account/report.html", {"done": True, "target": target})
    reason_field = cast(ChoiceField, ReportInputSerializer().fields["reason"])
    reasons = list(reason_field.choices.items())
    context = {"target": target, "errors": errors, "reasons": reasons,
               "values": request.POST}
    return render(request, "web/account/report.html", context, status=400 if errors else 200)


@login_required
@require_http_methods(["GET"])
def export_data(request: SignedInRequest) -> HttpResponse:
    """Everything about the player, as the API's ``GET me/export``, downloaded as a file."""
    body = json.dumps(export.export(request.user), ensure_ascii=False, indent=2)
    response = HttpResponse(body, content_type="application/json; charset=utf-8")
    response["Content-Disposition"] = 'attachment; filename="crazy10s-account.json"'
    return response


@login_required
@require_http_methods(["GET", "POST"])
def delete_account(request: SignedInRequest) -> HttpResponse:
    errors: dict[str, list[str]] = {}
    if request.method == "POST":
        data = DeleteAccountSerializer(data={"password": request.POST.get("password", "")})
        try:
            data.is_valid(raise_exception=True)
            services.delete_account(user_id=request.user.pk,
                                    password=data.validated_data["password"])
        except ValidationError as exc:
            errors = field_errors(exc.detail)
        except ApiError as exc:
            errors = field_errors(exc.details or exc.message)
        else:
            logout(request)
            return render(request, "web/account/deleted.html")
    return render(request, "web/account/delete.html", {"errors": errors},
                  status=400 if errors else 200)
