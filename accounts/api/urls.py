from django.urls import path

from accounts.api import account_views, views

urlpatterns = [
    path("auth/register", views.RegisterView.as_view(), name="auth-register"),
    path("auth/token", views.TokenView.as_view(), name="auth-token"),
    path("auth/logout", views.LogoutView.as_view(), name="auth-logout"),
    path("auth/email/verify", account_views.VerifyEmailView.as_view(), name="auth-email-verify"),
    path(
        "auth/email/resend", account_views.ResendVerificationView.as_view(),
        name="auth-email-resend",
    ),
    path(
        "auth/password/reset", account_views.PasswordResetView.as_view(),
        name="auth-password-reset",
    ),
    path(
        "auth/password/reset/confirm", account_views.PasswordResetConfirmView.as_view(),
        name="auth-password-reset-confirm",
    ),
    path("me", views.MeView.as_view(), name="me"),
    path("me/password", account_views.ChangePasswordView.as_view(), name="me-password"),
    path("me/devices", account_views.DevicesView.as_view(), name="me-devices"),
    path(
        "me/devices/<int:device_id>", account_views.DeviceView.as_view(), name="me-device"
    ),
    path("me/export", account_views.ExportView.as_view(), name="me-export"),
    path("reports", account_views.ReportsView.as_view(), name="reports"),
]
