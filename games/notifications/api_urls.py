from django.urls import path

from games.notifications import api

urlpatterns = [
    path("me/push", api.PushSettingsView.as_view(), name="me-push"),
    path("me/push/subscriptions", api.PushSubscriptionsView.as_view(),
         name="me-push-subscriptions"),
    path("me/push/subscriptions/<int:subscription_id>", api.PushSubscriptionView.as_view(),
         name="me-push-subscription"),
]
